// Measures, in one process, what the access audit (issue 18 §2) costs a 64 B read: reads per second through
// SecretsStore without an audit and with each sink configuration, over the encrypted file store and in memory, on 1
// and 2 concurrent tasks; and the synchronous AuditedSecretsStore read against the bare AggregateSecretsStore's.
// Configurations are measured in turn within each round, in an order that changes every round, for several rounds
// (drift then falls on all alike), beside a second plain store measured as if it were audited (the control: what the
// measurement makes of two identical stores); a configuration's time includes settling at the end of each of its
// turns (the flush of its sinks, then `sync` of all it wrote), so a rate is what the audit sustains, not a burst into
// its queue, and no turn competes with the write-back of another's files. Afterwards every audit file is closed and
// verified (AuditFileVerifier), and each sink's kept events are counted against the reads made: nothing may be lost.
// `compare-audit.sh` builds and runs it.
// Usage: audit-baseline <scratch-directory> [rounds (5)] [seconds per turn (0.5)] [configurations (all): log,all…]
//        audit-baseline <scratch-directory> profile <encrypted-file|in-memory> <none|log|metrics|file-buffered|
//            file-synchronous|all> [seconds (5)] [tasks (0: synchronous)]   reads synchronously through one configuration only, to run
//            under `perf record -g` and see where the audit's time goes.
//        audit-baseline <scratch-directory> latency [pairs (20)] [reads per second (2000)] [seconds per turn (1)]
//            [configuration (all); control: plain against plain] times each read when reads come at a steady rate
//            (Latency.swift).
import AuditBenchmarkSupport
import Foundation
import Secrets

let arguments = CommandLine.arguments
if arguments.count > 3, arguments[2] == "profile" {
    try await profile(arguments)
    exit(0)
}
if arguments.count > 2, arguments[2] == "latency" {
    try await latency(arguments)
    exit(0)
}
let scratch = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : NSTemporaryDirectory())
    .appendingPathComponent("audit-baseline-\(UUID().uuidString)")
let rounds = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 5) : 5
let seconds = arguments.count > 3 ? max(0.05, Double(arguments[3]) ?? 0.5) : 0.5
/// The configurations measured besides the baseline: all, or the slugs given (`all,log`).
let selected =
    arguments.count > 4
    ? arguments[4].split(separator: ",").compactMap { slug in
        AuditSinkConfiguration.allCases.first { $0.slug == slug }
    } : AuditSinkConfiguration.allCases
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

/// How a turn reads: through `SecretsStore` on `tasks` concurrent tasks, or synchronously on the calling thread.
struct Path: Hashable, CustomStringConvertible {
    var synchronous: Bool
    var tasks: Int
    var description: String {
        synchronous
            ? "synchronous AuditedSecretsStore vs AggregateSecretsStore, 1 thread" : "SecretsStore, \(tasks) task(s)"
    }
}

struct Slot: Hashable {
    var backend: AuditBackendKind
    var path: Path
    var configuration: AuditSinkConfiguration
}

struct Tally {
    var reads = 0
    var seconds = 0.0
    var settling = 0.0
    var rates: [Double] = []
    var rate: Double { Double(reads) / seconds }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
var subjects: [Slot.ID: AuditSubject] = [:]
var readsMade: [Slot.ID: Int] = [:]
var bases: [AuditBackendKind: AggregateSecretsStore] = [:]
for backend in AuditBackendKind.allCases {
    let base = try backend.makeStore(in: scratch)
    bases[backend] = base
    for configuration in Set([.none, .control, .all] + selected) {
        subjects[Slot.ID(backend, configuration)] = try AuditSubject(
            backend: backend, configuration: configuration, base: base, directory: scratch)
    }
}

extension Slot {
    struct ID: Hashable {
        var backend: AuditBackendKind
        var configuration: AuditSinkConfiguration
        init(_ backend: AuditBackendKind, _ configuration: AuditSinkConfiguration) {
            self.backend = backend
            self.configuration = configuration
        }
    }
    var id: ID { ID(backend, configuration) }
}

/// Reads through `subject` for `seconds`, then settles it (``AuditSubject/settle()``): the reads made, the time taken
/// (settling included) and the time settling took.
func turn(
    _ subject: AuditSubject, path: Path, seconds: Double
) async throws -> (reads: Int, seconds: Double, settling: Double) {
    let start = now()
    let deadline = start + seconds
    var reads = 0
    if path.synchronous {
        repeat {
            try subject.readSynchronously()
            reads += 1
        } while now() < deadline
    } else {
        reads = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<path.tasks {
                group.addTask {
                    var reads = 0
                    repeat {
                        try await subject.read()
                        reads += 1
                    } while now() < deadline
                    return reads
                }
            }
            return try await group.reduce(0, +)
        }
    }
    let settling = now()
    try subject.settle()
    let end = now()
    return (reads, end - start, end - settling)
}

let paths = [Path(synchronous: false, tasks: 1), Path(synchronous: false, tasks: 2), Path(synchronous: true, tasks: 1)]
func configurations(on path: Path) -> [AuditSinkConfiguration] {
    [.none, .control] + (path.synchronous ? [.all] : selected.filter(\.audits))
}

/// The load average (1 minute), when the system tells it: other work on the machine skews every rate alike, but
/// widens the per-round range.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init)
        ?? "unknown"
}
let loadBefore = loadAverage()

// A short warm-up turn of each slot, not tallied (its reads are counted against the sinks all the same).
var tallies: [Slot: Tally] = [:]
for backend in AuditBackendKind.allCases {
    for path in paths {
        for configuration in configurations(on: path) {
            let slot = Slot(backend: backend, path: path, configuration: configuration)
            let (reads, _, _) = try await turn(subjects[slot.id]!, path: path, seconds: 0.05)
            readsMade[slot.id, default: 0] += reads
        }
    }
}
for round in 0..<rounds {
    for backend in AuditBackendKind.allCases {
        for path in paths {
            var order = configurations(on: path)
            let shift = round % order.count
            order = Array(order[shift...] + order[..<shift])
            if round.isMultiple(of: 2) { order.reverse() }
            for configuration in order {
                let slot = Slot(backend: backend, path: path, configuration: configuration)
                let (reads, elapsed, settling) = try await turn(subjects[slot.id]!, path: path, seconds: seconds)
                readsMade[slot.id, default: 0] += reads
                tallies[slot, default: Tally()].reads += reads
                tallies[slot, default: Tally()].seconds += elapsed
                tallies[slot, default: Tally()].settling += settling
                tallies[slot, default: Tally()].rates.append(Double(reads) / elapsed)
            }
        }
    }
}

print("audit-baseline: 64 B reads per second, \(rounds) interleaved rounds of \(seconds) s per configuration")
let cores = ProcessInfo.processInfo.activeProcessorCount
print("load average (1 min) before \(loadBefore), after \(loadAverage()), on \(cores) cores")
print("ratio = audited read rate / plain read rate (same backend and path); per-round [lowest median highest];")
print("settle = the mean time a turn took to flush its sinks and sync its writes, included in its rate")
var goal: Double?
var control: Double?
for backend in AuditBackendKind.allCases {
    for path in paths {
        print("\n\(backend.rawValue), \(path):")
        let plain = tallies[Slot(backend: backend, path: path, configuration: .none)]!
        for configuration in configurations(on: path) {
            let tally = tallies[Slot(backend: backend, path: path, configuration: configuration)]!
            let ratio = tally.rate / plain.rate
            let perRound = zip(tally.rates, plain.rates).map { $0 / $1 }
            let sorted = perRound.sorted()
            let range = String(format: "[%.2f %.2f %.2f]", sorted.first!, sorted[sorted.count / 2], sorted.last!)
            let label = configuration.rawValue.padding(toLength: 32, withPad: " ", startingAt: 0)
            let settle = String(format: "settle %5.1f ms", tally.settling / Double(tally.rates.count) * 1000)
            print(
                "  \(label) \(String(format: "%9.0f", tally.rate))/s  \(String(format: "%6.1f", 1e6 / tally.rate)) us  \(settle)"
                    + (configuration == .none ? "" : "  ratio \(String(format: "%.2f", ratio)) \(range)"))
            if backend == .encryptedFile, path == Path(synchronous: false, tasks: 1) {
                if configuration == .all { goal = ratio }
                if configuration == .control { control = ratio }
            }
        }
    }
}

print("\nNothing lost: each sink's kept events against the reads made through it (warm-up included)")
var complete = true
for backend in AuditBackendKind.allCases {
    for configuration in AuditSinkConfiguration.allCases where configuration.audits {
        let id = Slot.ID(backend, configuration)
        guard subjects[id] != nil else { continue }
        for check in try subjects[id]!.closeAndCheck(reads: readsMade[id, default: 0]) {
            print("  \(backend.rawValue), \(configuration.rawValue): \(check)")
            complete = complete && check.isComplete
        }
    }
}
print("all-sinks-complete \(complete ? "yes" : "NO")")
if let goal {
    print("goal-ratio \(String(format: "%.3f", goal))")
}
if let control {
    print("control-ratio \(String(format: "%.3f", control))")
}
try? FileManager.default.removeItem(at: scratch)  // `exit` skips the `defer` above
exit(complete ? 0 : 1)
