import Foundation
import Secrets

/// The behaviour every ``Secrets/SecretsBackend`` must have, as a suite any test framework can run.
///
/// Give it a factory for the backend under test; each check gets a fresh backend and a service name of its own,
/// so checks can run against a shared system store (a keyring) without touching other items.
///
/// With Swift Testing:
///
/// ```swift
/// @Test(arguments: SecretsBackendConformance.Check.allCases)
/// func conforms(_ check: SecretsBackendConformance.Check) async throws {
///     try await SecretsBackendConformance { try MyBackend() }.run(check)
/// }
/// ```
///
/// A failed check throws ``ConformanceFailure`` naming the check and what went wrong.
public struct SecretsBackendConformance: Sendable {
    /// One behaviour the suite checks.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        /// A saved value reads back byte for byte.
        case roundTrip
        /// Reading or deleting an item that was never saved gives `nil` / `false`, without throwing.
        case missingItems
        /// Saving again replaces the value, leaving a single item.
        case overwrite
        /// A deleted item is gone, and deleting it again reports that nothing was deleted.
        case delete
        /// `listAccounts` returns exactly the saved paths, sorted, for the service and group asked for.
        case listAccounts
        /// The same path under two services holds two independent items.
        case serviceIsolation
        /// The same path in two access groups holds two independent items.
        case accessGroupIsolation
        /// Every byte value, NUL bytes and invalid UTF-8 survive.
        case binaryValues
        /// An empty value is stored as empty, not as missing.
        case emptyValue
        /// A large value (``SecretsBackendConformance/largeValueSize``) round-trips.
        case largeValue
        /// Nested paths and every allowed character round-trip.
        case pathCharacters
        /// Invalid identifiers (`..`, empty segments, absolute paths, bad characters) are rejected with
        /// `SecretsError.invalidIdentifier` by save, read and delete, and nothing is stored.
        case invalidIdentifiers
        /// Many tasks writing, reading and deleting at once lose no update.
        case concurrentWriters

        /// The check's name.
        public var description: String { rawValue }
    }

    /// The size of the value ``Check/largeValue`` stores.
    public let largeValueSize: Int
    /// How many tasks ``Check/concurrentWriters`` runs at once.
    public let concurrentTasks: Int
    private let makeBackend: @Sendable () throws -> any SecretsBackend

    /// Creates the suite for the backends `makeBackend` returns.
    public init(
        largeValueSize: Int = 1024 * 1024,
        concurrentTasks: Int = 32,
        makeBackend: @escaping @Sendable () throws -> any SecretsBackend
    ) {
        self.largeValueSize = largeValueSize
        self.concurrentTasks = concurrentTasks
        self.makeBackend = makeBackend
    }

    /// Runs every check, stopping at the first failure.
    public func runAll() async throws {
        for check in Check.allCases {
            try await run(check)
        }
    }

    /// Runs one check on a fresh backend.
    public func run(_ check: Check) async throws {
        let context = Context(check: check, backend: try makeBackend())
        defer { context.cleanUp() }
        switch check {
        case .roundTrip: try roundTrip(context)
        case .missingItems: try missingItems(context)
        case .overwrite: try overwrite(context)
        case .delete: try delete(context)
        case .listAccounts: try listAccounts(context)
        case .serviceIsolation: try serviceIsolation(context)
        case .accessGroupIsolation: try accessGroupIsolation(context)
        case .binaryValues: try binaryValues(context)
        case .emptyValue: try emptyValue(context)
        case .largeValue: try largeValue(context)
        case .pathCharacters: try pathCharacters(context)
        case .invalidIdentifiers: try invalidIdentifiers(context)
        case .concurrentWriters: try await concurrentWriters(context)
        }
    }

    // MARK: Checks

    private func roundTrip(_ context: Context) throws {
        let query = context.query("conformance/round-trip")
        try context.backend.save(Data("s3cr3t value".utf8), for: query)
        try context.expect(try context.backend.read(query) == Data("s3cr3t value".utf8), "the value did not read back")
    }

    private func missingItems(_ context: Context) throws {
        let query = context.query("conformance/never-saved")
        try context.expect(try context.backend.read(query) == nil, "reading a missing item did not return nil")
        try context.expect(try context.backend.delete(query) == false, "deleting a missing item reported a deletion")
    }

    private func overwrite(_ context: Context) throws {
        let query = context.query("conformance/overwrite")
        try context.backend.save(Data("first".utf8), for: query)
        try context.backend.save(Data("second, longer value".utf8), for: query)
        try context.expect(
            try context.backend.read(query) == Data("second, longer value".utf8), "the overwrite was lost")
        try context.backend.save(Data("3".utf8), for: query)
        try context.expect(try context.backend.read(query) == Data("3".utf8), "a shorter overwrite was not exact")
        let accounts = try context.backend.listAccounts(service: context.service, accessGroup: nil)
        try context.expect(accounts == ["conformance/overwrite"], "overwriting left \(accounts.count) items")
    }

    private func delete(_ context: Context) throws {
        let query = context.query("conformance/delete")
        let other = context.query("conformance/keep")
        try context.backend.save(Data("gone".utf8), for: query)
        try context.backend.save(Data("kept".utf8), for: other)
        try context.expect(try context.backend.delete(query), "deleting a stored item reported no deletion")
        try context.expect(try context.backend.read(query) == nil, "a deleted item still reads")
        try context.expect(try context.backend.delete(query) == false, "deleting twice reported a second deletion")
        try context.expect(try context.backend.read(other) == Data("kept".utf8), "deleting one item touched another")
    }

    private func listAccounts(_ context: Context) throws {
        let paths = ["zeta/last", "alpha/first", "mid/dle/deep"]
        for path in paths {
            try context.backend.save(Data(path.utf8), for: context.query(path))
        }
        try context.backend.save(Data("x".utf8), for: context.query("other-service", service: context.otherService))
        let accounts = try context.backend.listAccounts(service: context.service, accessGroup: nil)
        try context.expect(accounts == paths.sorted(), "listAccounts returned \(accounts), not \(paths.sorted())")
        let empty = try context.backend.listAccounts(service: context.service + ".unused", accessGroup: nil)
        try context.expect(empty.isEmpty, "an unused service listed \(empty.count) accounts")
    }

    private func serviceIsolation(_ context: Context) throws {
        let first = context.query("shared/path")
        let second = context.query("shared/path", service: context.otherService)
        try context.backend.save(Data("one".utf8), for: first)
        try context.backend.save(Data("two".utf8), for: second)
        try context.expect(try context.backend.read(first) == Data("one".utf8), "services are not isolated")
        try context.backend.delete(second)
        try context.expect(try context.backend.read(first) == Data("one".utf8), "deleting in one service hit another")
    }

    private func accessGroupIsolation(_ context: Context) throws {
        let groupA = context.query("shared/path", accessGroup: "group.conformance.a")
        let groupB = context.query("shared/path", accessGroup: "group.conformance.b")
        try context.backend.save(Data("a".utf8), for: groupA)
        try context.backend.save(Data("b".utf8), for: groupB)
        try context.expect(try context.backend.read(groupA) == Data("a".utf8), "access groups are not isolated")
        try context.expect(try context.backend.read(groupB) == Data("b".utf8), "access groups are not isolated")
        let listed = try context.backend.listAccounts(service: context.service, accessGroup: "group.conformance.a")
        try context.expect(listed == ["shared/path"], "listing one access group returned \(listed)")
        try context.backend.delete(groupA)
        try context.expect(try context.backend.read(groupB) == Data("b".utf8), "deleting in one group hit another")
    }

    private func binaryValues(_ context: Context) throws {
        let everyByte = Data((0...255).map(UInt8.init)) + Data([0, 0, 0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80])
        let query = context.query("conformance/binary")
        try context.backend.save(everyByte, for: query)
        try context.expect(try context.backend.read(query) == everyByte, "binary bytes did not survive")
    }

    private func emptyValue(_ context: Context) throws {
        let query = context.query("conformance/empty")
        try context.backend.save(Data(), for: query)
        try context.expect(try context.backend.read(query) == Data(), "an empty value did not read back as empty")
    }

    private func largeValue(_ context: Context) throws {
        let value = Self.randomData(count: largeValueSize)
        let query = context.query("conformance/large")
        try context.backend.save(value, for: query)
        try context.expect(try context.backend.read(query) == value, "a \(largeValueSize)-byte value did not read back")
    }

    private func pathCharacters(_ context: Context) throws {
        let paths = ["a", "ai/openai", "brokers/schwab/credentials", "user@example.com/api-key_v2.1", "A.B-C_D/0/9"]
        for path in paths {
            try context.backend.save(Data(path.utf8), for: context.query(path))
        }
        for path in paths {
            try context.expect(
                try context.backend.read(context.query(path)) == Data(path.utf8),
                "the item at \(path) did not read back")
        }
    }

    private func invalidIdentifiers(_ context: Context) throws {
        let paths = [
            "", "../escape", "a/../../b", "/absolute", "trailing/", "a//b", ".", "..", "with space",
            "new\nline", "nul\u{0}byte", "back\\slash", "ünïcode", String(repeating: "x", count: 300),
        ]
        for path in paths {
            let query = context.query(path)
            try context.expectInvalid(path) { try context.backend.save(Data("x".utf8), for: query) }
            try context.expectInvalid(path) { _ = try context.backend.read(query) }
            try context.expectInvalid(path) { _ = try context.backend.delete(query) }
        }
        let badService = SecretQuery<Data>(service: "", account: "fine/path")
        try context.expectInvalid("an empty service") { try context.backend.save(Data("x".utf8), for: badService) }
        let accounts = try context.backend.listAccounts(service: context.service, accessGroup: nil)
        try context.expect(accounts.isEmpty, "rejected identifiers left items behind: \(accounts.count)")
    }

    private func concurrentWriters(_ context: Context) async throws {
        let backend = context.backend
        let tasks = concurrentTasks
        let writesPerTask = 8
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for write in 0..<writesPerTask {
                        let query = context.query("concurrent/task-\(task)")
                        try backend.save(Data("task \(task) write \(write)".utf8), for: query)
                        _ = try backend.read(query)
                        let scratch = context.query("concurrent/scratch-\(task)")
                        try backend.save(Data([UInt8(write)]), for: scratch)
                        try backend.delete(scratch)
                        try backend.save(Data("shared by \(task)".utf8), for: context.query("concurrent/shared"))
                    }
                }
            }
            try await group.waitForAll()
        }
        for task in 0..<tasks {
            let value = try backend.read(context.query("concurrent/task-\(task)"))
            try context.expect(
                value == Data("task \(task) write \(writesPerTask - 1)".utf8), "task \(task)'s last write was lost")
        }
        let shared = try backend.read(context.query("concurrent/shared")).map { String(decoding: $0, as: UTF8.self) }
        try context.expect(shared?.hasPrefix("shared by ") == true, "the shared item is damaged")
        let accounts = try backend.listAccounts(service: context.service, accessGroup: nil)
        let expected = ((0..<tasks).map { "concurrent/task-\($0)" } + ["concurrent/shared"]).sorted()
        try context.expect(
            accounts == expected, "after concurrent writes, listAccounts returned \(accounts.count) items")
    }

    // MARK: Support

    static func randomData(count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data(count: count)
        data.withUnsafeMutableBytes { buffer in
            var index = 0
            while index < buffer.count {
                var word = generator.next()
                let chunk = min(8, buffer.count - index)
                withUnsafeBytes(of: &word) {
                    buffer.baseAddress!.advanced(by: index).copyMemory(from: $0.baseAddress!, byteCount: chunk)
                }
                index += chunk
            }
        }
        return data
    }

    /// One check's backend and the unique service names it works in.
    struct Context: Sendable {
        let check: Check
        let backend: any SecretsBackend
        let service: String
        let otherService: String

        init(check: Check, backend: any SecretsBackend) {
            let run = UUID().uuidString.prefix(8).lowercased()
            self.check = check
            self.backend = backend
            self.service = "coffer.conformance.\(check.rawValue).\(run)"
            self.otherService = service + ".other"
        }

        func query(_ account: String, service: String? = nil, accessGroup: String? = nil) -> SecretQuery<Data> {
            SecretQuery(service: service ?? self.service, account: account, accessGroup: accessGroup)
        }

        func expect(
            _ condition: @autoclosure () throws -> Bool, _ message: String, line: UInt = #line
        ) throws {
            let holds: Bool
            do {
                holds = try condition()
            } catch {
                throw ConformanceFailure(check: check, message: "\(message): threw \(error)", line: line)
            }
            if !holds { throw ConformanceFailure(check: check, message: message, line: line) }
        }

        func expectInvalid(_ what: String, line: UInt = #line, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch SecretsError.invalidIdentifier {
                return
            } catch {
                throw ConformanceFailure(
                    check: check, message: "\(what.debugDescription) threw \(error), not invalidIdentifier", line: line)
            }
            throw ConformanceFailure(check: check, message: "\(what.debugDescription) was accepted", line: line)
        }

        /// Removes what the check stored, so that shared system stores stay clean.
        func cleanUp() {
            for service in [service, otherService] {
                for group in [nil, "group.conformance.a", "group.conformance.b"] as [String?] {
                    for account in (try? backend.listAccounts(service: service, accessGroup: group)) ?? [] {
                        _ = try? backend.delete(
                            SecretQuery<Data>(service: service, account: account, accessGroup: group))
                    }
                }
            }
        }
    }
}

/// A backend failed a ``SecretsBackendConformance`` check.
public struct ConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The check that failed.
    public let check: SecretsBackendConformance.Check
    /// What went wrong.
    public let message: String
    /// The line in the suite where the check failed.
    public let line: UInt

    /// `check: message`.
    public var description: String { "\(check): \(message) (SecretsBackendConformance.swift:\(line))" }
}
