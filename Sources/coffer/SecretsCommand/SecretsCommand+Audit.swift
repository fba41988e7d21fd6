import CofferSupport
import ArgumentParser
import Foundation
import Secrets
import SecretsAudit

extension SecretsCommand {
    /// `coffer secrets audit`: read and verify the access audit that `--audit-file` writes.
    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "Show and verify the tamper-evident record of every access to the store.",
            discussion: """
                With --audit-file (or $COFFER_AUDIT_FILE), every coffer secrets command appends one JSON line per \
                access: time, operation, path, backend, outcome, duration and caller, never a value. Each line \
                carries an HMAC chained over the previous line's, under a key kept in the store \
                (coffer-audit/key), so `verify` finds an edited, removed, reordered or cut line and says where.
                """,
            subcommands: [Show.self, Verify.self, Reset.self])
    }
}

extension SecretsCommand.Audit {
    /// `coffer secrets audit show [--since] [--account] [--outcome] [--json]`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "List the recorded accesses, oldest first (without checking them: that is `verify`).")

        @Option(help: "The audit file (default: $COFFER_AUDIT_FILE).") var auditFile: String?
        @Option(
            help: ArgumentHelp(
                "Only accesses at or after this time: 2026-11-24, 2026-11-24T07:30:00Z, or an age such as 90m, 12h, 7d.",
                valueName: "time"))
        var since: String?
        @Option(
            help: "Only accesses to this path or below it (ai matches ai/openai).",
            completion: .custom(AccountCompletion.complete))
        var account: String?
        @Option(help: "Only accesses with this outcome: found, missing, saved, locked, denied or failed.")
        var outcome: SecretsAuditEvent.Outcome?
        @Flag(help: "Print one JSON object per access (JSON Lines), for jq and log pipelines.") var json = false

        func run() throws {
            let url = try AuditCommandFile.url(option: auditFile)
            let earliest = try since.map { try AuditCommandFile.time(parsing: $0, now: Date()) }
            let contents = try AuditCommandFile.contents(of: url)
            var unreadable = 0
            var rows: [[String]] = []
            for line in AuditFileRecord.lineRanges(of: contents) where !line.isEmpty {
                guard let record = AuditFileRecord.parse(contents[line])?.record else {
                    unreadable += 1
                    continue
                }
                let event = record.event
                if let earliest, event.time < earliest { continue }
                if let outcome, event.outcome != outcome { continue }
                if let account, !Self.matches(event.account, account) { continue }
                if json {
                    try AuditCommandFile.printJSONLine(record)
                } else {
                    rows.append([
                        Output.format(event.time), event.operation.rawValue, event.account ?? "-",
                        event.outcome.rawValue + (event.reason.map { " (\($0))" } ?? ""),
                        "\(event.durationMicroseconds) µs", event.backend, event.caller ?? "-",
                    ])
                }
            }
            if !json, !rows.isEmpty {
                Output.printTable(["TIME", "OPERATION", "ACCOUNT", "OUTCOME", "DURATION", "BACKEND", "CALLER"], rows)
            }
            if unreadable > 0 {
                Output.note(
                    "\(unreadable) line\(unreadable == 1 ? " is" : "s are") not audit records: "
                        + "run `coffer secrets audit verify`")
            }
        }

        /// Whether `path` is `filter` or lies below it.
        static func matches(_ path: String?, _ filter: String) -> Bool {
            guard let path else { return false }
            let prefix = filter.hasSuffix("/") ? filter : filter + "/"
            return path == filter || path.hasPrefix(prefix)
        }
    }

    /// `coffer secrets audit verify`.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract:
                "Check every line's MAC, the numbering and the chain; exit 3 naming each line that was tampered with.",
            discussion: """
                The key comes from the store the audit was written with (the same --backend, --store and \
                --service). A checkpoint of the file's end, kept in the store, also catches lines cut from the end.
                """)

        @OptionGroup var options: StoreOptions
        @Flag(help: "Print the result as JSON.") var json = false

        func run() throws {
            let url = try AuditCommandFile.url(option: options.auditFile)
            let store = try options.openUnauditedStore()
            let report = try CommandAudit.mapping { () throws(SecretsAuditError) in
                try AuditFileVerifier.verify(fileAt: url, keys: AuditKeyStore(store: store))
            }
            if json {
                try Output.printJSON(Summary(report), snakeCaseKeys: true)
            } else if report.isIntact {
                print(Self.describeIntact(report))
            } else {
                for finding in report.findings { print(finding.message) }
            }
            guard report.isIntact else {
                let count = report.findings.count
                throw CommandFailure(
                    "the audit file \(url.path) was tampered with: \(count) problem\(count == 1 ? "" : "s") found",
                    status: .authentication)
            }
        }

        static func describeIntact(_ report: AuditFileReport) -> String {
            var text = "intact: \(report.recordCount) record\(report.recordCount == 1 ? "" : "s")"
            if let first = report.firstTime, let last = report.lastTime {
                text += ", written \(Output.format(first)) to \(Output.format(last))"
            }
            text +=
                report.checkedCheckpoint
                ? "; the file ends at or after the checkpoint in the store"
                : "; the store holds no checkpoint yet, so lines cut from the end could not be seen"
            return text
        }

        /// The JSON form of a report.
        struct Summary: Encodable {
            struct Finding: Encodable {
                var kind: String
                var line: Int?
                var sequence: UInt64?
                var message: String
            }
            var intact: Bool
            var records: Int
            var lastSequence: UInt64
            var checkedCheckpoint: Bool
            var findings: [Finding]

            init(_ report: AuditFileReport) {
                intact = report.isIntact
                records = report.recordCount
                lastSequence = report.lastSequence
                checkedCheckpoint = report.checkedCheckpoint
                findings = report.findings.map {
                    Finding(kind: $0.kind.rawValue, line: $0.line, sequence: $0.sequence, message: $0.message)
                }
            }
        }
    }
}

extension SecretsCommand.Audit {
    /// `coffer secrets audit reset`.
    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Forget the checkpoints of an audit file moved aside, so that a new file can start at its path.",
            discussion: """
                A file that lost records since its checkpoint (emptied, cut, replaced, or deleted) is not continued, \
                and verify keeps saying so. Keep it as evidence: move it aside, then run this with the same store \
                options to start a new chain at the path. Refused while the path still holds records.
                """)

        @OptionGroup var options: StoreOptions

        func run() throws {
            let url = try AuditCommandFile.url(option: options.auditFile)
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            guard size == 0 else {
                throw CommandFailure(
                    "\(url.path) still holds records: move it aside (it is the evidence) before starting a new file",
                    status: .usage)
            }
            let store = try options.openUnauditedStore()
            try CommandAudit.mapping { () throws(SecretsAuditError) in
                try AuditKeyStore(store: store).forgetCheckpoints(forFileAt: url)
            }
            Output.note("forgot the checkpoints of \(url.path): the next access starts a new chain there")
        }
    }
}

extension SecretsAuditEvent.Outcome: ExpressibleByArgument {}

/// The audit file as `coffer secrets audit` reads it.
enum AuditCommandFile {
    /// The file `option` or `$COFFER_AUDIT_FILE` names.
    static func url(option: String?) throws -> URL {
        guard let url = CommandAudit.fileURL(option: option) else {
            throw CommandFailure("name the audit file with --audit-file or $COFFER_AUDIT_FILE", status: .usage)
        }
        return url
    }

    /// The file's bytes.
    static func contents(of url: URL) throws -> Data {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CommandFailure("cannot read the audit file \(url.path)", status: .notFound)
        }
        return data
    }

    /// A `--since` value: an ISO 8601 date or date and time, or an age (`90s`, `15m`, `12h`, `7d`) before `now`.
    static func time(parsing text: String, now: Date) throws -> Date {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last.flatMap({ units[$0] }), let amount = Double(text.dropLast()), amount >= 0 {
            return now.addingTimeInterval(-amount * unit)
        }
        if let date = CommandTime.absolute(text) { return date }
        throw CommandFailure(
            "--since '\(text)' is not a time: give 2026-11-24, 2026-11-24T07:30:00Z, or an age such as 90m, 12h, 7d",
            status: .usage)
    }

    /// Prints `record` as one JSON object on one line.
    static func printJSONLine(_ record: AuditFileRecord) throws {
        let event = record.event
        let object = Line(
            seq: record.sequence, time: event.time, operation: event.operation.rawValue, service: event.service,
            account: event.account, backend: event.backend, outcome: event.outcome.rawValue,
            durationUs: event.durationMicroseconds, caller: event.caller, reason: event.reason, pid: record.processID)
        Output.write(try lineEncoder.encode(object), endingLine: true)
    }

    private struct Line: Encodable {
        var seq: UInt64
        var time: Date
        var operation: String
        var service: String
        var account: String?
        var backend: String
        var outcome: String
        var durationUs: Int64
        var caller: String?
        var reason: String?
        var pid: Int32
    }

    private static let lineEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return encoder
    }()
}
