import CofferTestSupport
import Foundation
import Secrets
import Testing

@Suite("SecretsStore.update reads and writes an item under its write lock", .timeLimit(.minutes(1)))
struct SecretsStoreUpdateTests {
    let directory: TemporaryDirectory
    let store: SecretsStore

    init() throws {
        directory = try TemporaryDirectory()
        store = SecretsStore(backend: try BackendKind.encryptedFileAES.makeBackend(in: directory))
    }

    private static func number(_ data: Data?) -> Int { data.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0 }

    @Test("64 tasks each adding one to a counter lose no increment")
    func noLostUpdates() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    try await store.update(account: "counter") { .save(Data("\(Self.number($0) + 1)".utf8)) }
                }
            }
            try await group.waitForAll()
        }
        #expect(Self.number(try await store.read(account: "counter")) == 64)
    }

    @Test("keep writes and reports nothing; a save and a delete are reported; deleting a missing item is keep")
    func outcomes() async throws {
        var changes = store.changes().makeAsyncIterator()
        #expect(try await store.update(account: "a") { _ in .keep } == .keep)
        #expect(try await store.update(account: "a") { _ in .delete } == .keep)
        #expect(try await store.update(account: "a") { _ in .save(Data("1".utf8)) } == .save(Data("1".utf8)))
        #expect(try await store.update(account: "a") { $0 == Data("1".utf8) ? .delete : .keep } == .delete)
        #expect(try await store.read(account: "a") == nil)
        #expect(await changes.next() == SecretsStoreChange(account: "a", kind: .saved))
        #expect(await changes.next() == SecretsStoreChange(account: "a", kind: .deleted))
    }

    @Test("an error thrown by the decision or the backend is passed on, and the item is left as it was")
    func errors() async throws {
        try await store.save(Data("kept".utf8), account: "a")
        await #expect(throws: SecretsError.corruptData("refused")) {
            try await store.update(account: "a") { _ throws(SecretsError) in throw .corruptData("refused") }
        }
        await #expect {
            try await store.update(account: "../escape") { _ in .save(Data()) }
        } throws: { error in
            guard case SecretsError.invalidIdentifier = error else { return false }
            return true
        }
        #expect(try await store.read(account: "a") == Data("kept".utf8))
    }
}
