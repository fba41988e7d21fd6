import AuditBenchmarkSupport
import Benchmark
import Foundation
import Secrets

/// What the access audit with its default sinks costs a 64 B read, as the caller sees it: `SecretsStore` reads over
/// the encrypted file store and in memory, without an audit and with the log at `info`, the file buffered and
/// metrics. Sinks are flushed after each sample, outside the measurement; `Benchmarks/compare-audit.sh` measures the
/// sustained rate, flushes included, and checks that no event is lost.
func auditBenchmarks(in directory: URL) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2),
        maxIterations: 1_000)
    for backend in AuditBackendKind.allCases {
        for sinks in [AuditSinkConfiguration.none, .defaults] {
            let fixture = AuditFixture(backend: backend, configuration: sinks, directory: directory)
            Benchmark(
                "SecretsStore read 64 B, \(backend.rawValue), audit: \(sinks.rawValue)", configuration: configuration,
                closure: { benchmark in
                    let subject = try fixture.subject()
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations { try await subject.read() }
                    benchmark.stopMeasurement()
                    try subject.flush()
                }, setup: { try fixture.open() }, teardown: { try fixture.close() })
        }
    }
}
