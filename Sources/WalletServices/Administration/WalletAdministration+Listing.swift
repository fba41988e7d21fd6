import Foundation
import WalletPasses

extension WalletAdministration {
    /// Every client, oldest first.
    public func clients() async throws -> [Client] {
        try await repository.clients()
    }

    /// The client's API users (revoked ones included), oldest first.
    public func apiUsers(clientID: UUID) async throws -> [APIUser] {
        try await repository.apiUsers(clientID: clientID)
    }

    /// The client's users, oldest first.
    public func users(clientID: UUID) async throws -> [User] {
        try await repository.users(clientID: clientID)
    }

    /// Every pass type.
    public func passTypes() async throws -> [PassType] {
        try await repository.passTypes()
    }

    /// When each pass type's certificate ends, by pass type identifier; a pass type whose identity does not load
    /// (`/ready` says why) has none.
    public func certificateEnds() async throws -> [String: Date] {
        var ends: [String: Date] = [:]
        for passType in try await repository.passTypes() {
            if let identity = try? await identities.identity(for: passType) {
                ends[passType.passTypeIdentifier] = identity.notValidAfter
            }
        }
        return ends
    }

    /// The client's tags, oldest first.
    public func tags(clientID: UUID) async throws -> [ClientTag] {
        try await repository.tags(clientID: clientID)
    }

    /// Up to `limit` passes that `identifier` names, over every client: by serial number, by a tag's reference,
    /// Pronto or subscription identifier, or by the pass's or tag's own identifier.
    public func passes(named identifier: String, limit: Int) async throws -> [NamedPass] {
        try await repository.passes(named: identifier, limit: limit)
    }

    /// The pass's newest `limit` events, newest first.
    public func latestPassEvents(passID: UUID, limit: Int) async throws -> [PassEvent] {
        try await repository.latestPassEvents(passID: passID, limit: limit)
    }

    /// The management API's operations over the same records, changing passes without waking a push dispatcher
    /// (the server's sends what they queue when it next runs).
    package func passManagement() -> PassManagement {
        let trace = PassEventRecorder(store: repository, devices: nil, logger: logger)
        return PassManagement(
            repository: repository, updater: PassUpdater(store: repository, logger: logger, trace: trace))
    }

    /// The passes' traces, with `webServiceURL` the address their updates are fetched from.
    package func passTrace(webServiceURL: String?) -> PassTrace {
        PassTrace(repository: repository, webServiceURL: webServiceURL)
    }
}
