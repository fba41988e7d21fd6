// Measures, in one process, what the access audit with its default sinks (the log at `info`, the audit file buffered,
// metrics) costs a 64 B read through SecretsStore over the encrypted file store: reads back to back on one task, in
// interleaved rounds of three turns (plain, audited, and a second plain store measured as if it were audited: the
// control), in an order that rotates every round. A turn's time includes flushing its sinks and `sync`ing what it
// wrote; a turn lasts as long as the file sink's sync interval (a second), so each pays for the one `fsync` the sink
// makes in that time. Afterwards the audit file is verified and its records and the metrics counter are counted against the reads
// made: nothing may be lost. `compare-audit.sh` builds and runs it; results go to Benchmarks/RESULTS.md.
// Usage: audit-baseline <scratch-directory> [rounds (40)] [seconds per turn (1)]
import AuditBenchmarkSupport
import Foundation
import Secrets

let arguments = CommandLine.arguments
let scratch = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : NSTemporaryDirectory())
    .appendingPathComponent("audit-baseline-\(UUID().uuidString)")
let rounds = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 40) : 40
let seconds = arguments.count > 3 ? max(0.05, Double(arguments[3]) ?? 1) : 1
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

let base = try AuditBackendKind.encryptedFile.makeStore(in: scratch)
let configurations = AuditSinkConfiguration.allCases
var subjects: [AuditSinkConfiguration: AuditSubject] = [:]
for configuration in configurations {
    subjects[configuration] = try AuditSubject(
        backend: .encryptedFile, configuration: configuration, base: base, directory: scratch)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Reads through `subject` for `seconds`, then settles it: the reads made and the time taken, settling included.
func turn(_ subject: AuditSubject, seconds: Double) async throws -> (reads: Int, seconds: Double) {
    let start = now()
    var reads = 0
    repeat {
        try await subject.read()
        reads += 1
    } while now() < start + seconds
    try subject.settle()
    return (reads, now() - start)
}

var reads: [AuditSinkConfiguration: Int] = [:]
var elapsed: [AuditSinkConfiguration: Double] = [:]
var perRound: [AuditSinkConfiguration: [Double]] = [:]
for configuration in configurations {  // warm-up, not tallied
    reads[configuration, default: 0] += try await turn(subjects[configuration]!, seconds: 0.05).reads
}
var audited = reads[.defaults, default: 0]
reads = [:]
for round in 0..<rounds {
    let shift = round % configurations.count
    var order = Array(configurations[shift...] + configurations[..<shift])
    if round.isMultiple(of: 2) { order.reverse() }
    for configuration in order {
        let (count, time) = try await turn(subjects[configuration]!, seconds: seconds)
        reads[configuration, default: 0] += count
        elapsed[configuration, default: 0] += time
        perRound[configuration, default: []].append(Double(count) / time)
    }
}
audited += reads[.defaults, default: 0]

@MainActor func rate(_ configuration: AuditSinkConfiguration) -> Double {
    Double(reads[configuration, default: 0]) / elapsed[configuration, default: 1]
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
@MainActor func ratios(_ configuration: AuditSinkConfiguration) -> [Double] {
    zip(perRound[configuration]!, perRound[.none]!).map { $0 / $1 }
}

print("audit-baseline: SecretsStore reads of 64 B, encrypted file store, 1 task; \(rounds) rounds of \(seconds) s")
for configuration in configurations {
    let name = configuration.rawValue.padding(toLength: 40, withPad: " ", startingAt: 0)
    let line = "  \(name)" + String(format: " %9.0f reads/s", rate(configuration))
    guard configuration != .none else {
        print(line)
        continue
    }
    let perRoundRatios = ratios(configuration)
    print(
        line
            + String(
                format: "  ratio %.3f (per round: lowest %.2f, median %.2f, highest %.2f)",
                rate(configuration) / rate(.none), perRoundRatios.min()!, median(perRoundRatios), perRoundRatios.max()!
            ))
}
var complete = true
for check in try subjects[.defaults]!.closeAndCheck(reads: audited) {
    print("  \(check)")
    complete = complete && check.isComplete
}
print("all-sinks-complete \(complete ? "yes" : "NO")")
print(String(format: "goal-ratio %.3f", rate(.defaults) / rate(.none)))
print(String(format: "control-ratio %.3f", rate(.control) / rate(.none)))
try? FileManager.default.removeItem(at: scratch)
exit(complete ? 0 : 1)
