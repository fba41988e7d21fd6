import Foundation
import MetricsTestKit
@_spi(Testing) import Secrets
import SecretsAudit
import SecretsMetrics
import Testing

@Suite("The metrics sink counts accesses by operation, outcome and backend, and times them")
struct MetricsAuditSinkTests {
    @Test("each access increments its counter and records its duration; paths are not dimensions")
    func countsAndTimes() throws {
        let metrics = TestMetrics()
        let store = AuditedSecretsStore(
            AggregateSecretsStore(backend: InMemoryBackend()),
            audit: SecretsAudit(sinks: [MetricsAuditSink(factory: metrics)]))
        try store.saveData(Data("v".utf8), account: "a/one")
        _ = try store.readData(account: "a/one")
        _ = try store.readData(account: "a/two")
        _ = try store.readData(account: "a/three")
        _ = try? store.readData(account: "../escape")
        try store.audit.flush()

        func count(_ operation: String, _ outcome: String) throws -> Int64 {
            try metrics.expectCounter(
                MetricsAuditSink.accessesLabel,
                [("operation", operation), ("outcome", outcome), ("backend", "in-memory")]
            ).totalValue
        }
        #expect(try count("save", "saved") == 1)
        #expect(try count("read", "found") == 1)
        #expect(try count("read", "missing") == 2)
        #expect(try count("read", "failed") == 1)
        let reads = try metrics.expectTimer(
            MetricsAuditSink.durationLabel, [("operation", "read"), ("backend", "in-memory")])
        #expect(reads.values.count == 4)
        #expect(reads.values.allSatisfy { $0 >= 0 })
        #expect(metrics.counters.allSatisfy { !$0.dimensions.contains { $0.1.contains("a/") } })
    }
}
