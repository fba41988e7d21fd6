import Foundation
import WalletDocuments

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

    /// The pass type `name` names: its identifier (a UUID) or its pass type identifier.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when none does.
    public func passType(named name: String) async throws -> PassType {
        let passTypes = try await repository.passTypes()
        guard
            let named = passTypes.first(where: {
                $0.id.uuidString == name.uppercased() || $0.passTypeIdentifier == name
            })
        else { throw WalletServerError.notFound("a pass type \(name)") }
        return named
    }

    /// When each pass type's current certificate ends and, when one is staged, its next one, by pass type
    /// identifier; an identity that does not load (`/ready` says why) has no end.
    public func certificateEnds() async throws -> [String: (current: Date?, next: Date?)] {
        var ends: [String: (current: Date?, next: Date?)] = [:]
        let renewal = passTypeIdentities
        for passType in try await repository.passTypes() {
            var next: Date?
            if let path = passType.nextSigningKeyPath {
                next = try? await renewal.identity(at: path, of: passType).notValidAfter
            }
            ends[passType.passTypeIdentifier] = (try? await identities.identity(for: passType).notValidAfter, next)
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

    /// Bulk changes of passes, done by whoever runs their batches (``PassChangeJobs/runBatch()``): the command, and
    /// any running server.
    package func passChangeJobs() -> PassChangeJobs {
        PassChangeJobs(store: repository, logger: logger)
    }

    /// The passes' traces, with `webServiceURL` the address their updates are fetched from.
    package func passTrace(webServiceURL: String?) -> PassTrace {
        PassTrace(repository: repository, webServiceURL: webServiceURL)
    }
}
