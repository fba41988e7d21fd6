import CofferTestSupport
import Foundation
import Secrets
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import WalletServer
import WalletServices
import WalletStore

/// A provisioning world with the management API over it: the world's client (with its API token) and a second
/// client with a token and a tag of its own.
struct ManagementWorld {
    let world: ProvisioningWorld
    let token: String
    let otherToken: String
    /// The second client, with which no pass type is shared.
    let otherClientID: UUID
    let management: PassManagement
    let updater: PassUpdater
    /// Bulk changes, in batches of three, done only when a test runs them.
    let jobs: PassChangeJobs

    init(engine: Engine, clock: any CofferClock = SystemClock()) async throws {
        world = try await ProvisioningWorld(engine: engine)
        let repository = world.repository
        token = try await repository.createAPIUser(clientID: world.apiUser.clientID, name: "backend").token
        let other = try await repository.createClient(name: "Other")
        otherToken = try await repository.createAPIUser(clientID: other.id, name: "other").token
        otherClientID = other.id
        updater = PassUpdater(store: repository, clock: clock, trace: world.service.trace)
        management = PassManagement(repository: repository, updater: updater, clock: clock)
        jobs = PassChangeJobs(store: repository, batchSize: 3, clock: clock)
    }

    /// Runs bulk change batches until none is left; returns how many it ran.
    @discardableResult
    func runJobs() async throws -> Int {
        var batches = 0
        while try await jobs.runBatch() != nil { batches += 1 }
        return batches
    }

    var clientID: UUID { world.apiUser.clientID }

    /// Runs `body` with a test client of the router, shutting the world down afterwards.
    static func run(
        _ engine: Engine, clock: any CofferClock = SystemClock(),
        _ body: @Sendable (any TestClientProtocol, ManagementWorld) async throws -> Void
    ) async throws {
        try await with(engine, clock: clock) { world in
            let router = WalletServerApplication.makeRouter(
                repository: world.world.repository, service: world.world.service, logger: Logger(label: "test"),
                updater: world.updater, passChangeJobs: world.jobs)
            try await Application(router: router).test(.router) { client in try await body(client, world) }
        }
    }

    /// Runs `body` with a fresh world, shutting it down afterwards, whether `body` throws or not.
    static func with<Result>(
        _ engine: Engine, clock: any CofferClock = SystemClock(),
        _ body: (ManagementWorld) async throws -> Result
    ) async throws -> Result {
        let world = try await ManagementWorld(engine: engine, clock: clock)
        return try await world.world.database.whileOpen { _ in try await body(world) }
    }

    static func headers(_ token: String?, key: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json"]
        if let token { fields[.authorization] = HTTPBasic.authorization(user: token) }
        if let key { fields[HTTPField.Name("Idempotency-Key")!] = key }
        return fields
    }

    /// Sends a request, authenticated by `token` (none when nil), with the idempotency key `key`.
    static func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, token: String?,
        body: String? = nil, key: String? = nil
    ) async throws -> Answer {
        try await Answer.send(client, method, uri, headers: headers(token, key: key), body: body)
    }

    static func state(_ data: Data) throws -> ManagedPassState {
        try ManagedPassState.makeDecoder().decode(ManagedPassState.self, from: data)
    }
}
