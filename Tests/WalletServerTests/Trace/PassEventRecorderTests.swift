import Crypto
import Foundation
import Secrets
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("The trace recorder: background events kept once a second, at most 10,000 waiting, devices as digests")
struct PassEventRecorderTests {
    /// A trace store that keeps what it is given.
    final class CollectingStore: PassTraceStore {
        let events = Locked<[NewPassEvent]>([])

        func recordPassEvents(_ events: [NewPassEvent]) async throws -> Bool {
            self.events.withLock { $0 += events }
            return false
        }
        func passEvents(passID: UUID, after: Int64?, limit: Int) async throws -> [PassEvent] { [] }
        func latestPassEvents(passID: UUID, limit: Int) async throws -> [PassEvent] { [] }
        func latestPassEvents(passID: UUID, limit: Int, deviceLogs: Bool) async throws -> [PassEvent] { [] }
        func recordDeviceLogEvents(_ events: [NewPassEvent], perPass: Int, since: Date) async throws -> Int {
            self.events.withLock { $0 += events }
            return events.count
        }
        func deletePassEvents(before cutoff: Date, limit: Int) async throws -> Int { 0 }
        func passes(named identifier: String, limit: Int) async throws -> [NamedPass] { [] }
    }

    @Test("a repeated fetch of one pass within a second is kept once; another pass, status or second is kept")
    func repeatsWithinASecond() async {
        let store = CollectingStore()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let recorder = PassEventRecorder(store: store, devices: nil, clock: clock)
        let (first, second) = (UUID(), UUID())
        for _ in 0..<5 { recorder.note([recorder.event(.fetched, passID: first, details: ["status": .number(304)])]) }
        recorder.note([recorder.event(.fetched, passID: first, details: ["status": .number(200)])])
        recorder.note([recorder.event(.fetched, passID: second, details: ["status": .number(304)])])
        clock.advance(by: 1)
        recorder.note([recorder.event(.fetched, passID: first, details: ["status": .number(304)])])
        await recorder.flush()
        let kept = store.events.withLock { $0 }
        #expect(kept.count == 4)
        #expect(kept.filter { $0.passID == first && $0.details["status"] == .number(304) }.count == 2)
    }

    @Test("a device is kept as a keyed digest, the same for the same key, never as its identifier")
    func deviceDigests() {
        let store = CollectingStore()
        let key = SymmetricKey(size: .bits256)
        let one = PassEventRecorder(store: store, devices: PassAuthenticationTokens(key: key))
        let other = PassEventRecorder(store: store, devices: PassAuthenticationTokens(key: key))
        let event = one.event(.registered, passID: UUID(), device: "device-123")
        #expect(event.device == other.deviceDigest("device-123"))
        #expect(event.device?.count == 16)
        #expect(event.device?.contains("device-123") == false)
        let unkeyed = PassEventRecorder(
            store: store, devices: PassAuthenticationTokens(key: SymmetricKey(size: .bits256)))
        #expect(unkeyed.deviceDigest("device-123") != event.device)
    }
}
