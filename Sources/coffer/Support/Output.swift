import Foundation
import Secrets

/// Writes command results to standard output, and notes for people to standard error.
enum Output {
    /// Prints `value` as pretty, key-sorted JSON; with `snakeCaseKeys`, `clientID` becomes `client_id`. Dates are
    /// ISO 8601.
    static func printJSON(_ value: some Encodable, snakeCaseKeys: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        if snakeCaseKeys { encoder.keyEncodingStrategy = .convertToSnakeCase }
        write(try encoder.encode(value), endingLine: true)
    }

    /// Prints rows under a header, each column as wide as its widest cell.
    static func printTable(_ header: [String], _ rows: [[String]]) {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        for row in [header] + rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }

    /// Writes raw bytes, adding a newline when asked and the bytes do not end with one.
    static func write(_ data: Data, endingLine: Bool) {
        FileHandle.standardOutput.write(data)
        if endingLine && data.last != UInt8(ascii: "\n") {
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
    }

    /// Reports progress through a long job on standard error: every 100th item, and the last, of jobs of 100 or
    /// more.
    static func progress(_ completed: Int, of total: Int) {
        if total >= 100, completed % 100 == 0 || completed == total {
            FileHandle.standardError.write(Data("\(completed)/\(total)\n".utf8))
        }
    }

    /// Prints what a key rotation or re-key did, `what` naming the items ("secret", "value"); each file set aside
    /// in quarantine is named on standard error.
    static func summarize(_ result: RotationResult, _ what: String, under key: String) {
        print("re-encrypted \(result.resealed) \(what)\(result.resealed == 1 ? "" : "s") under \(key)")
        for item in result.quarantined {
            note("moved the unreadable file \(item.fileName) to \(item.location): \(item.reason)")
        }
    }

    /// Prints a migration's counts; throws (exit 4) naming the items left alone because `destination` holds
    /// other bytes for them.
    static func summarize(_ report: BackendMigration.Report, verb: String, destination: String) throws {
        print(
            "\(verb) \(report.migrated.count), already there \(report.alreadyPresent.count), "
                + "conflicts \(report.conflicts.count)")
        guard report.conflicts.isEmpty else {
            throw CommandFailure(
                "these items differ in \(destination) and were left alone (use --overwrite to replace them): "
                    + report.conflicts.joined(separator: ", "), status: .failure)
        }
    }

    /// Writes a note for people to standard error, so that standard output stays fit for scripts.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data("coffer: \(text)\n".utf8))
    }

    /// A date as `2026-11-22 07:33:13Z`.
    static func format(_ date: Date?) -> String {
        guard let date else { return "-" }
        return date.formatted(
            .iso8601.year().month().day().dateTimeSeparator(.space).time(includingFractionalSeconds: false))
    }
}
