/// Tells a ``SecretsStore`` when the device's protected data (items readable only while it is unlocked) becomes
/// readable again, so that a read that found the device locked can wait for the user to unlock it
/// (``SecretsStore/read(_:authentication:waitingForUnlock:)``).
///
/// `SecretsKeychain`'s `KeychainUnlockMonitor` is the one for Apple devices. A store without a monitor answers a
/// locked store at once, which is right where nothing unlocks by itself (a Linux keyring, a locked file store).
public protocol ProtectedDataMonitor: Sendable {
    /// Returns `true` once protected data is readable (at once when it is), or `false` when `timeout` passes first.
    func waitUntilAvailable(timeout: Duration) async -> Bool
}
