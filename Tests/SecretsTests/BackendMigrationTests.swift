import Foundation
import Secrets
import Testing

@Suite("Moving a store from one backend to another")
struct BackendMigrationTests {
    let service = "migration"
    let source = InMemoryBackend()
    let destination = InMemoryBackend()

    func query(_ account: String, group: String? = nil) -> SecretQuery<Data> {
        SecretQuery(service: service, account: account, accessGroup: group)
    }

    func fill(_ backend: any SecretsBackend, _ items: [String: String], group: String? = nil) throws {
        for (account, value) in items { try backend.save(Data(value.utf8), for: query(account, group: group)) }
    }

    @Test("every item is copied and verified; the source is kept by default; progress counts each item")
    func copies() throws {
        try fill(source, ["a/1": "one", "a/2": "two", "b": ""])
        var reported: [BackendMigration.Progress] = []
        let report = try BackendMigration(from: source, to: destination).run(service: service) { reported.append($0) }
        #expect(report.migrated == ["a/1", "a/2", "b"])
        #expect(reported.map(\.completed) == [1, 2, 3])
        #expect(reported.allSatisfy { $0.total == 3 })
        #expect(try destination.read(query("a/2")) == Data("two".utf8))
        #expect(try destination.read(query("b")) == Data())
        #expect(try source.listAccounts(service: service, accessGroup: nil).count == 3)
    }

    @Test("identical items count as already there; differing ones are conflicts left alone on both sides")
    func conflicts() throws {
        try fill(source, ["same": "v", "differs": "new", "fresh": "f"])
        try fill(destination, ["same": "v", "differs": "old"])
        let report = try BackendMigration(from: source, to: destination, options: .init(deleteFromSource: true))
            .run(service: service)
        #expect(report.migrated == ["fresh"])
        #expect(report.alreadyPresent == ["same"])
        #expect(report.conflicts == ["differs"])
        #expect(try destination.read(query("differs")) == Data("old".utf8))
        #expect(try source.listAccounts(service: service, accessGroup: nil) == ["differs"], "only the conflict stays")
    }

    @Test("with overwrite, differing destination items are replaced")
    func overwrite() throws {
        try fill(source, ["differs": "new"])
        try fill(destination, ["differs": "old"])
        let report = try BackendMigration(from: source, to: destination, options: .init(overwrite: true))
            .run(service: service)
        #expect(report.migrated == ["differs"])
        #expect(try destination.read(query("differs")) == Data("new".utf8))
    }

    @Test("only the service and access group asked for move")
    func scope() throws {
        try fill(source, ["in-group": "g"], group: "team")
        try fill(source, ["default": "d"])
        try source.save(Data("x".utf8), for: SecretQuery<Data>(service: "other", account: "default"))
        let report = try BackendMigration(from: source, to: destination).run(service: service, accessGroup: "team")
        #expect(report.migrated == ["in-group"])
        #expect(try destination.listAccounts(service: service, accessGroup: nil).isEmpty)
        #expect(try destination.listAccounts(service: "other", accessGroup: nil).isEmpty)
    }

    @Test("a copy that does not read back identically stops the migration and keeps the source")
    func unverifiedCopy() throws {
        try fill(source, ["a": "value", "b": "value"])
        let broken = DroppingBackend()
        #expect(throws: SecretsError.corruptData("the copy of a in the destination")) {
            try BackendMigration(from: source, to: broken, options: .init(deleteFromSource: true)).run(service: service)
        }
        #expect(try source.listAccounts(service: service, accessGroup: nil) == ["a", "b"])
    }

    @Test("run again after an interruption, it finishes the job")
    func resumes() throws {
        try fill(source, ["a": "1", "b": "2"])
        try fill(destination, ["a": "1"])
        let report = try BackendMigration(from: source, to: destination, options: .init(deleteFromSource: true))
            .run(service: service)
        #expect(report.alreadyPresent == ["a"])
        #expect(report.migrated == ["b"])
        #expect(try source.listAccounts(service: service, accessGroup: nil).isEmpty)
    }
}

/// A backend that accepts saves and loses them.
private final class DroppingBackend: SecretsBackend {
    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {}
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? { nil }
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { false }
    func listAccounts(service: String, accessGroup: String?) throws -> [String] { [] }
}
