import CofferTestSupport
import Foundation
import Secrets
import SQLKit
import Testing
import WalletDocuments
import WalletServer
import WalletServices
import WalletStore

@Suite("Fetches answered from memory while the database shows no change")
struct PassFetchCacheTests {
    /// A watch whose changes the test makes.
    final class ManualWatch: DatabaseChangeWatch {
        private struct Changes {
            var position: UInt64 = 0
            var floor: UInt64 = 0
            var last: [UUID: UInt64] = [:]
        }
        private let changes = Locked(Changes())
        /// How many times a caller caught up.
        let catchUps = Locked(0)
        func position() -> UInt64? { changes.withLock { $0.position } }
        func catchUp() async -> UInt64? {
            catchUps.withLock { $0 += 1 }
            return position()
        }
        func mayHaveChanged(passID: UUID, since position: UInt64) -> Bool {
            changes.withLock { $0.floor > position || ($0.last[passID] ?? 0) > position }
        }
        /// A change to `passID`'s pass, or to every pass.
        func change(_ passID: UUID? = nil) {
            changes.withLock { changes in
                changes.position += 1
                if let passID { changes.last[passID] = changes.position } else { changes.floor = changes.position }
            }
        }
    }

    /// Any caller: what the cache keeps, not who may read it, is tested here.
    static func anyone(_: PassFetchCache.Entry) -> Bool { true }

    static func entry(archive: Int? = nil) -> PassFetchCache.Entry {
        PassFetchCache.Entry(
            passID: UUID(), authenticationTokenHash: Data(repeating: 1, count: 32), modifiedAt: Date(),
            archive: archive.map { Data(repeating: 7, count: $0) })
    }

    @Test("an entry is given back until its pass may have changed, and never when it was read before a change")
    func positions() async {
        let watch = ManualWatch()
        let cache = PassFetchCache(watch: watch)
        let (missing, position) = await cache.entry(
            passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone)
        #expect(missing == nil)
        let entry = Self.entry(archive: 10)
        let other = Self.entry()
        cache.keep(entry, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: position)
        cache.keep(other, passTypeIdentifier: "pass.a", serialNumber: "3", readAt: position)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone).entry?.passID
                == entry.passID)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "2", authorized: Self.anyone).entry == nil)

        watch.change(entry.passID)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone).entry == nil)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "3", authorized: Self.anyone).entry?.passID
                == other.passID,
            "another pass's change leaves it")
        // Read before the change, kept after it: never given.
        cache.keep(entry, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: position)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone).entry == nil)

        watch.change()
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "3", authorized: Self.anyone).entry == nil,
            "a change to all")
        cache.keep(other, passTypeIdentifier: "pass.a", serialNumber: "3", readAt: nil)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "3", authorized: Self.anyone).entry == nil,
            "kept at no position")
    }

    @Test("an entry its caller may not read is neither given nor waited for: a wrong token costs what a miss costs")
    func refusedWithoutCatchUp() async {
        let watch = ManualWatch()
        let cache = PassFetchCache(watch: watch)
        let entry = Self.entry(archive: 10)
        cache.keep(entry, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 0)
        let refused = await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1") { _ in false }
        #expect(refused.entry == nil && refused.position == 0)
        #expect(watch.catchUps.withLock { $0 } == 0)
        let given = await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone)
        #expect(given.entry?.passID == entry.passID)
        #expect(watch.catchUps.withLock { $0 } == 1)
    }

    @Test("a 304's entry keeps the archive kept before it only while its pass has not changed")
    func archiveKept() async {
        let watch = ManualWatch()
        let cache = PassFetchCache(watch: watch)
        let served = Self.entry(archive: 10)
        var checked = served
        checked.archive = nil
        cache.keep(served, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 0)
        cache.keep(checked, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 0)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone).entry?.archive?
                .count == 10)
        watch.change(served.passID)
        cache.keep(checked, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 1)
        let kept = await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1", authorized: Self.anyone).entry
        #expect(kept != nil && kept?.archive == nil)
    }

    @Test("entries and archive bytes stay within their bounds; an archive too large is not kept")
    func bounds() async {
        let cache = PassFetchCache(watch: ManualWatch(), maximumEntries: 8, maximumArchiveBytes: 1600)
        for serial in 0..<50 {
            cache.keep(Self.entry(archive: 90), passTypeIdentifier: "pass.a", serialNumber: "\(serial)", readAt: 0)
        }
        var kept: [PassFetchCache.Entry] = []
        for serial in 0..<50 {
            if let entry = await cache.entry(
                passTypeIdentifier: "pass.a", serialNumber: "\(serial)", authorized: Self.anyone
            ).entry {
                kept.append(entry)
            }
        }
        #expect(kept.count <= 8)
        #expect(kept.compactMap(\.archive).map(\.count).reduce(0, +) <= 1600)
        #expect(
            await cache.entry(passTypeIdentifier: "pass.a", serialNumber: "49", authorized: Self.anyone).entry != nil,
            "the newest is kept")

        cache.keep(Self.entry(archive: 101), passTypeIdentifier: "pass.b", serialNumber: "1", readAt: 0)
        let large = await cache.entry(passTypeIdentifier: "pass.b", serialNumber: "1", authorized: Self.anyone).entry
        #expect(large != nil && large?.archive == nil)
    }

    @Test("a SQLite file's watch moves with a commit by another connection, and only then")
    func sqliteWatch() async throws {
        let directory = try TemporaryDirectory()
        let url = WalletServerConfiguration.sqliteURL(in: directory.url)
        let database = try await Engine.migrated(try WalletDatabase.open(url: url))
        try await database.whileOpen { database in
            let watch = try #require(database.changeWatch)
            let before = try #require(watch.position())
            #expect(!watch.mayHaveChanged(passID: UUID(), since: before))
            _ = try await SQLWalletRepository(database: database).clients()
            #expect(await watch.catchUp() == before, "a read changes nothing")
            try await WalletDatabase.open(url: url).whileOpen { elsewhere in
                _ = try await SQLWalletRepository(database: elsewhere).createClient(name: "Elsewhere")
            }
            let after = try #require(await watch.catchUp())
            #expect(after != before)
            #expect(watch.mayHaveChanged(passID: UUID(), since: before), "any pass may have changed")
            #expect(!watch.mayHaveChanged(passID: UUID(), since: after))
        }
        try await WalletDatabase.open(url: "sqlite::memory:").whileOpen { memory in
            #expect(memory.changeWatch == nil, "nothing but this process writes it, and nothing watches it")
        }
    }

    @Test(
        "a PostgreSQL replica has seen another's change to a pass, or to what every pass depends on, once it caught up",
        .enabled(if: Engine.postgresURL != nil))
    func postgresWatch() async throws {
        let directory = try TemporaryDirectory()
        let url = try await Engine.postgres.makeDatabaseURL(in: directory)
        try await Engine.migrated(try WalletDatabase.open(url: url)).whileOpen { here in
            try await WalletDatabase.open(url: url).whileOpen { elsewhere in
                let repository = SQLWalletRepository(database: elsewhere)
                let (pass, _) = try await repository.makePass()
                let watch = try #require(here.changeWatch)
                let before = try await Self.listening(watch)
                let unchanged = try await Self.listening(watch)
                #expect(
                    !watch.mayHaveChanged(passID: pass.id, since: unchanged), "a read or a catch-up changes nothing")

                var changed = pass
                changed.passContent = Data("changed".utf8)
                try await repository.updatePass(changed)
                let after = try #require(await watch.catchUp())
                #expect(watch.mayHaveChanged(passID: pass.id, since: before))
                #expect(!watch.mayHaveChanged(passID: UUID(), since: before), "another pass did not change")
                #expect(!watch.mayHaveChanged(passID: pass.id, since: after))

                try await elsewhere.sql.raw("UPDATE pass_types SET organization_name = 'Acme Events'").run()
                let renamed = try #require(await watch.catchUp())
                #expect(watch.mayHaveChanged(passID: UUID(), since: after), "any pass depends on its pass type")
                #expect(!watch.mayHaveChanged(passID: UUID(), since: renamed))

                // The listening connection lost: once back, whatever was kept before is read again.
                try await elsewhere.sql.raw(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = current_database() AND query LIKE '%pg_notify%' AND pid <> pg_backend_pid()
                    """
                ).run()
                var back = try await Self.listening(watch)
                for _ in 0..<100 where back == renamed {
                    try await Task.sleep(for: .milliseconds(50))
                    back = try await Self.listening(watch)
                }
                #expect(back != renamed)
                #expect(watch.mayHaveChanged(passID: UUID(), since: renamed))
            }
        }
    }

    /// The position of `watch` once it listens (within 5 s) and caught up.
    static func listening(_ watch: any DatabaseChangeWatch) async throws -> UInt64 {
        for _ in 0..<100 {
            if let position = await watch.catchUp() { return position }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw WalletServerError.databaseUnavailable("the watch does not listen")
    }
}
