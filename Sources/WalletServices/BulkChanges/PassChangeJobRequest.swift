import Crypto
import Foundation
import WalletDocuments
import WalletPasses

/// `POST /api/v2/passes/changes`: one change of every pass of the client that matches (JSON), or a list of changes
/// each of one pass (JSON lines or CSV, as a spreadsheet exports it). Every change is checked as
/// `PATCH /api/v2/passes/{tag_id}` checks it before the job is made, so a job fails only on what a pass itself
/// cannot take.
package struct PassChangeJobRequest: Hashable, Sendable {
    /// What the job changes.
    package enum Work: Hashable, Sendable {
        /// `change` (a `PATCH` body) of every pass `match` finds.
        case match(PassChangeMatch, change: Data)
        /// Each line's change of its pass.
        case list([PassChangeLine])
    }

    /// What the job changes.
    package let work: Work

    /// The most lines a list, or passes a match, may have: a stadium and then some.
    package static let maximumItems = 100_000
    /// The largest list a job may have: 100,000 lines of a few fields each.
    package static let maximumBodySize = 16 * 1024 * 1024
    /// The largest change a job applies, or line of a list (a `PATCH` body's own limit).
    package static let maximumChangeSize = 64 * 1024
    /// The names of the columns and keys that name a line's tag.
    package static let targetKeys = TagIDAttribute.allCases.map(\.rawValue)
    /// The names of a CSV's columns that are not field keys: the change's dates and voiding.
    package static let reservedColumns: Set<String> = ["relevant_date", "expiration_date", "voided"]

    /// Creates a request of `work`.
    package init(work: Work) {
        self.work = work
    }

    /// The job a JSON object asks for: `{"match": {"pass_type_id": …, "fields": {…}}, "change": {…}}`.
    package init(json body: Data) throws(PassManagementFailure) {
        let object: [String: JSONValue]
        do {
            object = try JSONDecoder().decode([String: JSONValue].self, from: body)
        } catch {
            throw .invalidRequest("the body is not a JSON object")
        }
        if let unknown = Set(object.keys).subtracting(["match", "change"]).sorted().first {
            throw .invalidRequest("'\(unknown)' is not a key of a bulk change (give 'match' and 'change')")
        }
        guard case .object(let match)? = object["match"] else {
            throw .invalidRequest("'match' must be an object naming the passes to change")
        }
        guard case .object(let change)? = object["change"] else {
            throw .invalidRequest("'change' must be an object, as the body of PATCH /api/v2/passes/{tag_id}")
        }
        work = .match(try PassChangeMatch(match), change: try Self.checkedChange(change, at: "change"))
    }

    /// The job of `change` to every pass `match` finds.
    package init(match: PassChangeMatch, change: PassChange) throws(PassManagementFailure) {
        work = .match(match, change: try Self.checkedChange(PassChangeRequest.body(of: change), at: "change"))
    }

    /// The list of a JSON lines body: each line an object naming its tag with one of ``targetKeys`` beside the
    /// keys of a `PATCH` body.
    package init(jsonLines body: Data) throws(PassManagementFailure) {
        var lines: [PassChangeLine] = []
        var number = 0
        var start = body.startIndex
        while start < body.endIndex {
            number += 1
            guard number <= Self.maximumItems else { throw Self.tooMany }
            let end = body[start...].firstIndex(of: UInt8(ascii: "\n")) ?? body.endIndex
            var line = body[start..<end]
            start = end < body.endIndex ? body.index(after: end) : end
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
            guard line.count <= Self.maximumChangeSize else {
                throw .invalidRequest("line \(number) is longer than \(Self.maximumChangeSize / 1024) KiB")
            }
            guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line)) else {
                throw .invalidRequest("line \(number) is not a JSON object")
            }
            var change = object
            let targets = Self.targetKeys.filter { object[$0] != nil }
            guard targets.count == 1, let key = targets.first, let attribute = TagIDAttribute(rawValue: key),
                case .string(let value)? = change.removeValue(forKey: key)
            else {
                throw .invalidRequest(
                    "line \(number) must name its tag with one string of \(Self.targetKeys.joined(separator: ", "))")
            }
            lines.append(
                PassChangeLine(
                    line: number, attribute: attribute, value: try Self.checkedTarget(value, line: number),
                    change: try Self.checkedChange(change, at: "line \(number)")))
        }
        try self.init(list: lines)
    }

    /// The list of a CSV body: a header whose first column is one of ``targetKeys`` and whose others are field keys
    /// (a cell is the field's new text; an empty cell leaves it) or ``reservedColumns``.
    package init(csv body: Data) throws(PassManagementFailure) {
        let table = try CSVTable(
            body, maximumColumns: 1 + PassChange.maximumFields + Self.reservedColumns.count,
            maximumRows: Self.maximumItems)
        let header = table.header.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = header.first, let attribute = TagIDAttribute(rawValue: first) else {
            throw .invalidRequest(
                "the CSV's first column must be one of \(Self.targetKeys.joined(separator: ", ")), naming the tag")
        }
        let columns = Array(header.dropFirst())
        guard !columns.isEmpty else { throw .invalidRequest("the CSV has no column to change") }
        if let repeated = Dictionary(grouping: columns, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw .invalidRequest("the CSV has the column '\(repeated)' twice")
        }
        var lines: [PassChangeLine] = []
        for (number, row) in table.rows {
            guard row.count == header.count else {
                throw .invalidRequest("line \(number) has \(row.count) cells, the header \(header.count)")
            }
            var change: [String: JSONValue] = [:]
            var fields: [String: JSONValue] = [:]
            for (column, cell) in zip(columns, row.dropFirst()) where !cell.isEmpty {
                switch column {
                case "voided":
                    guard let voided = Bool(cell.lowercased()) else {
                        throw .invalidRequest("line \(number): 'voided' must be true or false")
                    }
                    change[column] = .bool(voided)
                case _ where Self.reservedColumns.contains(column): change[column] = .string(cell)
                default: fields[column] = .string(cell)
                }
            }
            if !fields.isEmpty { change["fields"] = .object(fields) }
            guard !change.isEmpty else { throw .invalidRequest("line \(number) changes nothing") }
            lines.append(
                PassChangeLine(
                    line: number, attribute: attribute, value: try Self.checkedTarget(row[0], line: number),
                    change: try Self.checkedChange(change, at: "line \(number)")))
        }
        try self.init(list: lines)
    }

    private init(list lines: [PassChangeLine]) throws(PassManagementFailure) {
        guard !lines.isEmpty else { throw .invalidRequest("the list has no line") }
        // Lines run in batches side by side: two lines of one tag could land in either order.
        var seen: [String: Int] = [:]
        for line in lines {
            let tag = "\(line.attribute.rawValue) \(line.value)"
            if let earlier = seen.updateValue(line.line, forKey: tag) {
                throw .invalidRequest(
                    "line \(line.line) names the tag of line \(earlier) again: give each tag one line")
            }
        }
        work = .list(lines)
    }

    private static var tooMany: PassManagementFailure {
        .invalidRequest("a job changes at most \(maximumItems) passes: split the list")
    }

    /// `value`, if it can name a tag.
    private static func checkedTarget(_ value: String, line: Int) throws(PassManagementFailure) -> String {
        guard ManagementBody.isIdentifier(value) else {
            throw .invalidRequest(
                "line \(line): the tag must be 1–256 characters without control characters, not starting with a space")
        }
        return value
    }

    /// `change` as the canonical JSON the job keeps, once it is a valid `PATCH` body.
    private static func checkedChange(_ change: [String: JSONValue], at place: String) throws(PassManagementFailure)
        -> Data
    {
        let data: Data
        do {
            data = try canonicalEncoder.encode(change)
            guard data.count <= maximumChangeSize else {
                throw PassManagementFailure.invalidRequest("the change is larger than \(maximumChangeSize / 1024) KiB")
            }
            _ = try JSONDecoder().decode(PassChangeRequest.self, from: data)
        } catch let failure as PassManagementFailure {
            throw .invalidRequest("\(place): \(failure.description)")
        } catch {
            throw .invalidRequest("\(place): the change is not valid")
        }
        return data
    }

    /// Sorted keys: the same change is the same bytes, for the job's fingerprint.
    static let canonicalEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The SHA-256 of what the job does: an idempotency key's stored request is compared by it.
    package var fingerprint: Data {
        var hash = SHA256()
        func add(_ part: String) {
            // Length-prefixed, so that no part can run into the next.
            hash.update(data: Data("\(part.utf8.count):\(part);".utf8))
        }
        switch work {
        case .match(let match, let change):
            add("match")
            add(match.passTypeID?.uuidString ?? "-")
            add(String(decoding: (try? Self.canonicalEncoder.encode(match.fields)) ?? Data(), as: UTF8.self))
            add(String(decoding: change, as: UTF8.self))
        case .list(let lines):
            add("list")
            for line in lines {
                add(line.attribute.rawValue)
                add(line.value)
                add(String(decoding: line.change, as: UTF8.self))
            }
        }
        return Data(hash.finalize())
    }
}

/// The passes a bulk change applies to: the client's passes (of one pass type, when it names one) whose fields have
/// the given values.
package struct PassChangeMatch: Hashable, Sendable {
    /// The pass type, if the match names one.
    package var passTypeID: UUID?
    /// Field key to the value the field must have.
    package var fields: [String: PassField.Value]

    /// The most fields a match may compare.
    package static let maximumFields = 20

    /// Creates a match.
    package init(passTypeID: UUID? = nil, fields: [String: PassField.Value] = [:]) {
        self.passTypeID = passTypeID
        self.fields = fields
    }

    /// The match a request's `match` object gives: `pass_type_id` and `fields`.
    init(_ object: [String: JSONValue]) throws(PassManagementFailure) {
        if let unknown = Set(object.keys).subtracting(["pass_type_id", "fields"]).sorted().first {
            throw .invalidRequest("'match.\(unknown)' is not a key of a match (give 'pass_type_id' and 'fields')")
        }
        switch object["pass_type_id"] {
        case nil: passTypeID = nil
        case .string(let text)?:
            guard let id = UUID(uuidString: text) else {
                throw .invalidRequest("'match.pass_type_id' must be a pass type's UUID")
            }
            passTypeID = id
        default: throw .invalidRequest("'match.pass_type_id' must be a pass type's UUID")
        }
        var fields: [String: PassField.Value] = [:]
        switch object["fields"] {
        case nil: break
        case .object(let values)? where values.count <= Self.maximumFields:
            for (key, value) in values {
                switch value {
                case .string(let text) where text.count <= PassChange.maximumValueLength: fields[key] = .text(text)
                case .number(let number) where number.isFinite: fields[key] = .number(number)
                default: throw .invalidRequest("'match.fields.\(key)' must be a string or a number")
                }
            }
        default:
            throw .invalidRequest("'match.fields' must be an object of at most \(Self.maximumFields) field values")
        }
        self.fields = fields
    }

    /// Whether `pass` has every field value the match asks for.
    package func matches(_ pass: Pass) -> Bool {
        fields.allSatisfy { key, value in pass.fields.field(forKey: key)?.value == value }
    }
}

/// One line of a bulk change's list: the tag it names and the change of its pass.
package struct PassChangeLine: Hashable, Sendable {
    /// Its line in the body (a CSV's header is line 1): its place in the job, and what a failure names.
    package var line: Int
    /// Which of the tag's identifiers ``value`` is.
    package var attribute: TagIDAttribute
    /// The tag's identifier.
    package var value: String
    /// The change: a `PATCH` body, as canonical JSON.
    package var change: Data

    /// Creates a line.
    package init(line: Int, attribute: TagIDAttribute, value: String, change: Data) {
        (self.line, self.attribute, self.value, self.change) = (line, attribute, value, change)
    }
}
