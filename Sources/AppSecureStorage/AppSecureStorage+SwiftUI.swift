#if canImport(SwiftUI) && canImport(Combine)
    import Combine
    import SwiftUI

    extension AppSecureStorage: DynamicProperty {
        /// A binding to the value, as `$key` (setting `nil` or an empty string deletes the item).
        public var projectedValue: Binding<Value?> {
            // The closures capture only Sendable parts (SwiftUI's Binding takes Sendable closures).
            let (store, key, accessibility, authentication) = (store, key, accessibility, authentication)
            return Binding(
                get: { Self.read(key, from: store, authentication: authentication) },
                set: { Self.write($0, key, accessibility, to: store) })
        }
    }

    /// Updates the views that use a key when the key changes through its store: SwiftUI keeps one
    /// ``KeyObserver`` per view (a state object) and re-renders the view when it publishes.
    struct ChangeTracker: DynamicProperty {
        @StateObject private var observer: KeyObserver

        init(store: SecureStorage, key: String) {
            _observer = StateObject(wrappedValue: KeyObserver(store: store, key: key))
        }
    }

    /// Republishes a store's changes of one key as `objectWillChange`, on the main queue.
    final class KeyObserver: ObservableObject, @unchecked Sendable {
        // Safe: `observation` is assigned once, in `init`, before the object is shared; `objectWillChange` is
        // only sent on the main queue.
        private var observation: SecureStorage.Observation?

        init(store: SecureStorage, key: String) {
            observation = store.observe(key) { [weak self] in
                guard let self else { return }
                DispatchQueue.main.async { self.objectWillChange.send() }
            }
        }
    }
#else
    /// Without SwiftUI there are no views to update: wrappers agree through their store's cache, and code observes
    /// a key with ``SecureStorage/observe(_:onChange:)``.
    struct ChangeTracker {
        init(store: SecureStorage, key: String) {}
    }
#endif
