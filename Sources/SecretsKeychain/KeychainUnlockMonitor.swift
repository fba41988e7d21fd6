import Secrets

/// Tells when an Apple device is unlocked again, by reading the Keychain's lock probe
/// (``AppleKeychainBackend/isDeviceLocked()``) every ``interval`` while a read waits: the same answer the items
/// themselves give, in an app and in its extensions alike, with no UIKit.
///
/// ```swift
/// let keychain = AppleKeychainBackend()
/// let store = SecretsStore(backend: keychain, protectedData: KeychainUnlockMonitor(backend: keychain))
/// // In a push handler: wait up to 20 s for the user to unlock the phone.
/// let token = try await store.read(SessionToken.id, waitingForUnlock: .seconds(20))
/// ```
public struct KeychainUnlockMonitor: ProtectedDataMonitor {
    /// The backend whose lock probe is read.
    public let backend: AppleKeychainBackend
    /// How often the probe is read while a read waits.
    public let interval: Duration
    private let clock: any CofferClock

    /// Creates a monitor over `backend`'s lock probe, read every `interval` on `clock`.
    public init(
        backend: AppleKeychainBackend, interval: Duration = .milliseconds(500), clock: any CofferClock = SystemClock()
    ) {
        self.backend = backend
        self.interval = max(interval, .milliseconds(10))
        self.clock = clock
    }

    /// Returns `true` once the device is unlocked, or `false` when `timeout` passes first (or the task is
    /// cancelled).
    public func waitUntilAvailable(timeout: Duration) async -> Bool {
        let deadline = clock.uptime + timeout
        while true {
            if !backend.isDeviceLocked() { return true }
            let remaining = deadline - clock.uptime
            guard remaining > .zero else { return false }
            do {
                try await clock.sleep(for: min(interval, remaining))
            } catch {
                return false
            }
        }
    }
}
