import Foundation

/// What a router does when, with a catalog registered, a key is used that no catalog lists (or one whose
/// metadata differs from the catalog's).
public enum UnregisteredKeyPolicy: Sendable {
    /// Stop in debug builds with an assertion; in release builds, log a warning and go on.
    case assertInDebug
    /// Call the handler (once per key name) and go on.
    case report(@Sendable (StorageKeyDescriptor) -> Void)
    /// Fail the call with ``StorageError/unregisteredKey(_:)``.
    case reject
    /// Go on silently.
    case ignore
}
