import Foundation

/// What the PassKit web service and pass updates store: the passes' authentication, Wallet's device registrations,
/// update tags, personalizations and device logs. `SQLWalletRepository` implements it.
package protocol PassWebServiceStore: DeviceRegistrationStore {
    /// Tells when the store may have changed, where that costs no read; `nil` when only a read can tell.
    var changeWatch: (any DatabaseChangeWatch)? { get }
    /// The pass of `passTypeIdentifier` with `serialNumber`, as the web service authenticates and serves it.
    func webServicePass(passTypeIdentifier: String, serialNumber: String) async throws -> WebServicePass?
    /// The pass's authentication salt, or `nil` when it has none yet.
    func authenticationSalt(passID: UUID) async throws -> String?
    /// The pass's authentication salt: the one it has, or `salt` (stored with `tokenHash`, the SHA-256 of the token
    /// it makes) when it has none yet. Concurrent callers all get the salt that was stored first.
    func authenticationSalt(passID: UUID, assigning salt: String, tokenHash: Data) async throws -> String
    /// Stores the messages devices logged, keeping only the newest `keeping`.
    func recordDeviceLogs(_ messages: [String], now: Date, keeping: Int) async throws
    /// The newest device log messages, newest first.
    func deviceLogs(limit: Int) async throws -> [(receivedAt: Date, message: String)]
    /// The personalization fields a device sent for the pass (JSON), if it was personalized.
    func personalization(passID: UUID) async throws -> Data?
    /// Stores the pass's personalization, once: returns `false` (and stores nothing) when it was personalized
    /// already. A new personalization changes the pass like
    /// ``PassChangeStore/applyChange(passID:now:rewritingContent:)``.
    func recordPersonalization(passID: UUID, fields: Data, now: Date) async throws -> Bool
    /// The pass with `passID`, with its tag, user and pass type, read together.
    func provisioningTarget(passID: UUID) async throws -> ProvisioningTarget?
    /// What the pass's signed archive depends on now, with the archive kept for it (and the digest it was signed
    /// at), read together; `nil` when there is no such pass. Every change to the pass drops its kept archive.
    func keptPassArchive(passID: UUID) async throws -> KeptPassArchive?
    /// The same as ``keptPassArchive(passID:)`` for the pass of `passTypeIdentifier` with `serialNumber`, in one
    /// read (a device's fetch).
    func keptPassArchive(passTypeIdentifier: String, serialNumber: String) async throws -> KeptPassArchive?
    /// Keeps `pkpass` as the pass's signed archive at `digest` (``PassArchiveVersion/digest(settings:)``), in place
    /// of the one kept.
    func keepPassArchive(passID: UUID, digest: Data, pkpass: Data, now: Date) async throws
}
