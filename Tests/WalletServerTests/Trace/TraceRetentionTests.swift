import CofferTestSupport
import Foundation
import Secrets
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("A pass's trace is kept for the configured time, then deleted by the purger in batches")
struct TraceRetentionTests {
    @Test(
        "events older than the retention go, in batches of the purger's size; newer ones stay",
        arguments: Engine.available)
    func purgeOldEvents(_ engine: Engine) async throws {
        try await engine.withRepository { repository, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let passID = UUID()
            let ages: [TimeInterval] = [40, 31, 30.5, 29, 1, 0].map { $0 * 86_400 }
            try await repository.recordPassEvents(
                ages.map { age in
                    NewPassEvent(
                        passID: passID, occurredAt: now.addingTimeInterval(-age), kind: .fetched,
                        details: ["age_days": .number(age / 86_400)])
                })
            let purger = SessionPurger(
                repository: repository, interval: .seconds(60), batchSize: 2,
                traceRetention: WalletServerConfiguration.defaultTraceRetention, clock: ManualClock(now))
            try await purger.purge()
            let kept = try await repository.passEvents(passID: passID, after: nil, limit: 10)
            #expect(kept.map { $0.details["age_days"] } == [.number(29), .number(1), .number(0)])
        }
    }

    @Test("the retention is 1 to 366 whole days, 30 by default, from COFFER_TRACE_RETENTION_DAYS")
    func configuration() throws {
        #expect(try WalletServerConfiguration(environment: [:]).traceRetention == 30 * 86_400)
        let configured = try WalletServerConfiguration(environment: ["COFFER_TRACE_RETENTION_DAYS": "7"])
        #expect(configured.traceRetention == 7 * 86_400)
        for value in ["0", "367", "1.5", "a week"] {
            #expect(throws: WalletServerError.self) {
                _ = try WalletServerConfiguration(environment: ["COFFER_TRACE_RETENTION_DAYS": value])
            }
        }
    }
}
