import Foundation
import Secrets

/// The CPU time the process's audit thread (`coffer-audit`) has used, as the kernel counts it in
/// `/proc/self/task/<id>/schedstat`: the sinks' whole cost in CPU, which timing reads shows only through its effect
/// on them. CPU time, unlike a rate, hardly moves with other work on the machine.
public enum AuditThreadTime {
    /// Nanoseconds the audit thread has run for, or `nil` when there is no such thread (no sink has started it) or the
    /// system does not say (not Linux).
    public static func nanoseconds() -> UInt64? {
        let tasks = URL(fileURLWithPath: "/proc/self/task")
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks.path) else { return nil }
        for id in ids {
            let task = tasks.appendingPathComponent(id)
            guard
                let name = try? String(contentsOf: task.appendingPathComponent("comm"), encoding: .utf8),
                name.trimmingCharacters(in: .whitespacesAndNewlines) == SecretsAudit.threadName,
                let schedstat = try? String(contentsOf: task.appendingPathComponent("schedstat"), encoding: .utf8),
                let running = schedstat.split(separator: " ").first.flatMap({ UInt64($0) })
            else { continue }
            return running
        }
        return nil
    }

    /// The line the baselines print: the audit thread's CPU time divided among `reads`, or `nil` without the thread.
    public static func perRead(_ reads: Int) -> String? {
        nanoseconds().map {
            String(format: "  audit thread: %.2f us of CPU per read", Double($0) / 1e3 / Double(reads))
        }
    }
}
