import Crypto
import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("What replicas on one database could break: update tags out of order, and the web service's token key")
struct ReplicaSafetyTests {
    static let device = "device-1"

    /// A client with a pass type, two tags with passes (serials A and B), and one device registered for both.
    static func twoRegisteredPasses(in repository: SQLWalletRepository) async throws -> (StoredPass, StoredPass) {
        let client = try await repository.createClient(name: "Acme")
        let user = try await repository.createUser(clientID: client.id, externalReference: nil)
        let passType = PassType(
            passTypeIdentifier: "pass.com.example.tags", teamIdentifier: "T", organizationName: "Acme",
            signingKeyPath: "k")
        try await repository.createPassType(passType)
        var made: [(tag: ClientTag, pass: StoredPass)] = []
        for serial in ["A", "B"] {
            let tag = ClientTag(clientID: client.id, userID: user.id, referenceID: serial)
            made.append(
                (tag, StoredPass(tagID: tag.id, passTypeID: passType.id, serialNumber: serial, passContent: Data())))
        }
        try await repository.createTags(made)
        for (_, pass) in made {
            _ = try await repository.register(
                .pass, deviceLibraryIdentifier: device, pushToken: "ab", documentID: pass.id, now: Date(),
                maximumDevices: 20)
        }
        return (made[0].pass, made[1].pass)
    }

    @Test(
        "a change held open while another commits: a device listing in between still sees both afterwards",
        .timeLimit(.minutes(1)), arguments: Engine.available)
    func updateTagsCommitInOrder(_ engine: Engine) async throws {
        try await engine.withRepository { repository, database in
            let (first, second) = try await Self.twoRegisteredPasses(in: repository)
            func list(since: Int64?) async throws -> [(serialNumber: String, updateTag: Int64)] {
                try await repository.updatedDocuments(
                    .pass, deviceLibraryIdentifier: Self.device, typeIdentifier: "pass.com.example.tags", since: since
                ).map { ($0.identifier, $0.updateTag) }
            }
            let deviceTag = try await list(since: nil).map(\.updateTag).max() ?? 0

            let (started, startedSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let held = Task {
                try await database.transaction { db in
                    _ = try await SQLWalletRepository.applyChange(
                        passID: first.id, now: Date(), rewritingContent: nil, on: db)
                    startedSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in started { break }
            let other = Task { try await repository.applyChange(passID: second.id, now: Date(), rewritingContent: nil) }
            try await Task.sleep(for: .milliseconds(300))
            // The device checks for updates while the first change is still open.
            let between = try await list(since: deviceTag)
            let nextTag = max(deviceTag, between.map(\.updateTag).max() ?? deviceTag)
            releaseSignal.yield()
            try await held.value
            _ = try await other.value
            let after = try await list(since: nextTag)
            let seen = Set(between.map(\.serialNumber) + after.map(\.serialNumber))
            #expect(seen == ["A", "B"], "between: \(between), after: \(after)")
        }
    }

    /// A web service key load on a fresh database and an in-memory store.
    static func withStore(
        _ engine: Engine, _ body: (AggregateSecretsStore, WalletDatabase, SQLWalletRepository) async throws -> Void
    ) async throws {
        try await engine.withRepository { repository, database in
            try await body(AggregateSecretsStore(backend: InMemoryBackend()), database, repository)
        }
    }

    @Test(
        "servers starting together on a fresh store make one web service key, which they all use",
        arguments: Engine.available)
    func oneKeyForConcurrentStarts(_ engine: Engine) async throws {
        try await Self.withStore(engine) { store, database, _ in
            let passID = UUID()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await PassAuthenticationTokens.load(from: store, lockingWith: database)
                            .token(passID: passID, salt: "s")
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
        }
    }

    @Test(
        "a stored key of the wrong size, or none while passes carry tokens, is an error; nothing is replaced",
        arguments: Engine.available)
    func damagedKeyIsNotReplaced(_ engine: Engine) async throws {
        try await Self.withStore(engine) { store, database, repository in
            try store.saveData(Data(repeating: 1, count: 31), account: PassAuthenticationTokens.secretPath)
            await #expect(throws: WalletServerError.self) {
                try await PassAuthenticationTokens.load(from: store, lockingWith: database)
            }
            #expect(try store.readData(account: PassAuthenticationTokens.secretPath) == Data(repeating: 1, count: 31))

            #expect(try store.deleteData(account: PassAuthenticationTokens.secretPath))
            let tokens = try await PassAuthenticationTokens.load(from: store, lockingWith: database)
            let (pass, _) = try await Self.twoRegisteredPasses(in: repository)
            _ = try await tokens.token(passID: pass.id, in: repository)
            #expect(try store.deleteData(account: PassAuthenticationTokens.secretPath))
            let error = await #expect(throws: WalletServerError.self) {
                try await PassAuthenticationTokens.load(from: store, lockingWith: database)
            }
            #expect(error?.description.contains("restore it from a backup") == true)
            #expect(try store.readData(account: PassAuthenticationTokens.secretPath) == nil)
        }
    }
}
