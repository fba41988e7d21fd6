import CofferTestSupport
import Foundation
import Secrets
import SQLKit
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("Fetches answered from memory while the database shows no change")
struct PassFetchCacheTests {
    /// A watch whose generation the test moves.
    final class ManualWatch: DatabaseChangeWatch {
        let current = Locked<UInt64>(0)
        func generation() -> UInt64 { current.withLock { $0 } }
        func change() { current.withLock { $0 += 1 } }
    }

    static func entry(archive: Int? = nil) -> PassFetchCache.Entry {
        PassFetchCache.Entry(
            passID: UUID(), authenticationTokenHash: Data(repeating: 1, count: 32), modifiedAt: Date(),
            archive: archive.map { Data(repeating: 7, count: $0) })
    }

    @Test("an entry is given back until the database changes, and never when it was read before a change")
    func generations() {
        let watch = ManualWatch()
        let cache = PassFetchCache(watch: watch)
        let (missing, generation) = cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1")
        #expect(missing == nil)
        let entry = Self.entry(archive: 10)
        cache.keep(entry, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: generation)
        #expect(cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1").entry?.passID == entry.passID)
        #expect(cache.entry(passTypeIdentifier: "pass.a", serialNumber: "2").entry == nil)

        watch.change()
        #expect(cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1").entry == nil)
        // Read before the change, kept after it: never given.
        cache.keep(entry, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: generation)
        #expect(cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1").entry == nil)
    }

    @Test("a 304's entry keeps the archive of the same generation, not an older one")
    func archiveKept() {
        let watch = ManualWatch()
        let cache = PassFetchCache(watch: watch)
        let served = Self.entry(archive: 10)
        var checked = served
        checked.archive = nil
        cache.keep(served, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 0)
        cache.keep(checked, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 0)
        #expect(cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1").entry?.archive?.count == 10)
        watch.change()
        cache.keep(checked, passTypeIdentifier: "pass.a", serialNumber: "1", readAt: 1)
        let kept = cache.entry(passTypeIdentifier: "pass.a", serialNumber: "1").entry
        #expect(kept != nil && kept?.archive == nil)
    }

    @Test("entries and archive bytes stay within their bounds; an archive too large is not kept")
    func bounds() {
        let cache = PassFetchCache(watch: ManualWatch(), maximumEntries: 8, maximumArchiveBytes: 1600)
        for serial in 0..<50 {
            cache.keep(Self.entry(archive: 90), passTypeIdentifier: "pass.a", serialNumber: "\(serial)", readAt: 0)
        }
        let kept = (0..<50).compactMap { cache.entry(passTypeIdentifier: "pass.a", serialNumber: "\($0)").entry }
        #expect(kept.count <= 8)
        #expect(kept.compactMap(\.archive).map(\.count).reduce(0, +) <= 1600)
        #expect(cache.entry(passTypeIdentifier: "pass.a", serialNumber: "49").entry != nil, "the newest is kept")

        cache.keep(Self.entry(archive: 101), passTypeIdentifier: "pass.b", serialNumber: "1", readAt: 0)
        let large = cache.entry(passTypeIdentifier: "pass.b", serialNumber: "1").entry
        #expect(large != nil && large?.archive == nil)
    }

    @Test("a SQLite file's watch moves with a commit by another connection, and only then")
    func sqliteWatch() async throws {
        let directory = try TemporaryDirectory()
        let url = WalletServerConfiguration.sqliteURL(in: directory.url)
        let database = try await Engine.migrated(try WalletDatabase.open(url: url))
        try await database.whileOpen { database in
            let watch = try #require(database.changeWatch)
            let before = watch.generation()
            #expect(watch.generation() == before)
            _ = try await SQLWalletRepository(database: database).clients()
            #expect(watch.generation() == before, "a read changes nothing")
            try await WalletDatabase.open(url: url).whileOpen { elsewhere in
                _ = try await SQLWalletRepository(database: elsewhere).createClient(name: "Elsewhere")
            }
            let after = watch.generation()
            #expect(after != before)
            #expect(watch.generation() == after)
        }
        try await WalletDatabase.open(url: "sqlite::memory:").whileOpen { memory in
            #expect(memory.changeWatch == nil, "nothing but this process writes it, and nothing watches it")
        }
    }
}
