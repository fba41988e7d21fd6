import Foundation
import LocalData
import Secrets
import Testing

@Suite("Sync to the paired watch")
struct SyncTests {
    func key(_ name: String, _ sync: SyncPolicy, availability: PlatformAvailability = .phoneWithWatchSync)
        -> StorageKeys.Key<String>
    {
        testKey(name, .fileSystem(directory: .documents), serializer: .json, availability: availability, sync: sync)
    }

    @Test("automaticSmall values are sent on every write, all of them in one application context")
    func automatic() async throws {
        let fixture = try RouterFixture()
        try await fixture.router.set("dark", for: key("theme", .automaticSmall))
        try await fixture.router.set("metric", for: key("units", .automaticSmall))
        let context = try #require(await fixture.transport.currentContext)
        #expect(context == ["theme": Data("\"dark\"".utf8), "units": Data("\"metric\"".utf8)])

        try await fixture.router.remove(key("theme", .automaticSmall))
        #expect(await fixture.transport.currentContext == ["units": Data("\"metric\"".utf8)])
        #expect(await fixture.transport.sentContexts.count == 3)
    }

    @Test("an automaticSmall value over 16 KiB is refused before it is stored")
    func tooBigForAutomatic() async throws {
        let fixture = try RouterFixture()
        let theme = key("theme", .automaticSmall)
        let big = String(repeating: "x", count: WatchSyncStore.automaticSmallMaximumSize)
        await #expect(
            throws: StorageError.payloadTooLarge(
                key: "theme", byteCount: WatchSyncStore.automaticSmallMaximumSize + 2,
                limit: WatchSyncStore.automaticSmallMaximumSize)
        ) {
            try await fixture.router.set(big, for: theme)
        }
        #expect(try await fixture.router.get(theme) == nil)
        #expect(await fixture.transport.sentContexts.isEmpty)
    }

    @Test("manual values are sent only when asked; never-synced keys cannot be")
    func manual() async throws {
        let fixture = try RouterFixture()
        let draft = key("draft", .manual)
        try await fixture.router.set("hello", for: draft)
        #expect(await fixture.transport.sentContexts.isEmpty)
        try await fixture.router.sync(draft)
        #expect(await fixture.transport.currentContext == ["draft": Data("\"hello\"".utf8)])
        try await fixture.router.remove(draft)
        try await fixture.router.sync(draft)
        #expect(await fixture.transport.currentContext == [:])
        await #expect(throws: StorageError.self) { try await fixture.router.sync(key("local", .never)) }
    }

    @Test("an unreachable watch does not fail an automatic write; the value goes with the next send")
    func unreachable() async throws {
        let transport = InMemorySyncTransport(isReachable: false)
        let fixture = try RouterFixture(transport: transport)
        try await fixture.router.set("dark", for: key("theme", .automaticSmall))
        #expect(try await fixture.router.get(key("theme", .automaticSmall)) == "dark")
        #expect(await transport.sentContexts.isEmpty)
        await #expect(
            throws: StorageError.syncFailed(
                key: "draft", reason: "no paired watch is reachable (is the session activated?)")
        ) {
            try await fixture.router.set("x", for: key("draft", .manual))
            try await fixture.router.sync(key("draft", .manual))
        }
        await transport.setReachable(true)
        try await fixture.router.set("metric", for: key("units", .automaticSmall))
        let context = try #require(await transport.currentContext)
        #expect(context.keys.sorted() == ["draft", "theme", "units"])
    }

    @Test("a failing transport's error is a typed sync error")
    func failingTransport() async throws {
        struct Refused: Error {}
        let fixture = try RouterFixture()
        await fixture.transport.failSends(with: Refused())
        let draft = key("draft", .manual)
        try await fixture.router.set("x", for: draft)
        await #expect {
            try await fixture.router.sync(draft)
        } throws: { error in
            guard case StorageError.syncFailed("draft", _) = error else { return false }
            return true
        }
    }

    @Test("a context over 64 KiB is refused, and the watch keeps the last one")
    func contextLimit() async throws {
        let fixture = try RouterFixture()
        let chunk = String(repeating: "y", count: 15 * 1024)
        for index in 0..<4 { try await fixture.router.set(chunk, for: key("chunk\(index)", .automaticSmall)) }
        await #expect(throws: StorageError.self) {
            try await fixture.router.set(chunk, for: key("chunk4", .automaticSmall))
        }
        #expect(await fixture.transport.currentContext?.count == 4)
        #expect(try await fixture.router.get(key("chunk4", .automaticSmall)) == nil)
    }

    @Test("on the watch, nothing is sent back")
    func watchDoesNotSend() async throws {
        let fixture = try RouterFixture(platform: .watch)
        try await fixture.router.set("dark", for: key("theme", .automaticSmall))
        #expect(await fixture.transport.sentContexts.isEmpty)
    }
}
