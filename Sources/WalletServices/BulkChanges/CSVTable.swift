import Foundation

/// A CSV body (RFC 4180: commas, CRLF or LF, quoted cells with `""` for a quote) read with its bounds checked as it
/// is read: no row may be wider than the header, the header no wider than `maximumColumns`, and no more than
/// `maximumRows` rows. A general CSV library pads every row to the widest before a caller can check anything, so
/// one row of a million commas would cost a million cells per row.
struct CSVTable {
    /// The header's cells.
    let header: [String]
    /// Each row's cells with its record's number (the header is 1), empty records left out.
    let rows: [(record: Int, cells: [String])]

    /// Reads `body`.
    ///
    /// - Throws: ``PassManagementFailure/invalidRequest(_:)`` naming the record that breaks a bound or the format.
    init(_ body: Data, maximumColumns: Int, maximumRows: Int) throws(PassManagementFailure) {
        var records: [(record: Int, cells: [String])] = []
        var cells: [String] = []
        var cell: [UInt8] = []
        var record = 1
        var inQuotes = false
        var wasQuoted = false
        var width: Int { records.first?.cells.count ?? maximumColumns }

        func endCell() throws(PassManagementFailure) {
            cells.append(String(decoding: cell, as: UTF8.self))
            cell.removeAll(keepingCapacity: true)
            wasQuoted = false
            guard cells.count <= width else {
                throw .invalidRequest(
                    records.isEmpty
                        ? "the CSV's header has more than \(maximumColumns) columns"
                        : "line \(record) has more cells than the header's \(width)")
            }
        }
        func endRecord() throws(PassManagementFailure) {
            try endCell()
            defer {
                cells.removeAll(keepingCapacity: true)
                record += 1
            }
            // An empty line is no record.
            guard cells != [""] else { return }
            guard records.count <= maximumRows else {
                throw .invalidRequest("the CSV has more than \(maximumRows) lines: split it")
            }
            records.append((record, cells))
        }

        let bytes = [UInt8](body)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        cell.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    cell.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard cell.isEmpty, !wasQuoted else {
                    throw .invalidRequest("line \(record) has a quote inside a cell that does not start with one")
                }
                inQuotes = true
                wasQuoted = true
            case UInt8(ascii: ","):
                try endCell()
            case UInt8(ascii: "\n"):
                try endRecord()
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                break
            default:
                guard !wasQuoted else { throw .invalidRequest("line \(record) has text after a quoted cell") }
                cell.append(byte)
            }
        }
        guard !inQuotes else { throw .invalidRequest("line \(record) has a quoted cell that never ends") }
        if !cell.isEmpty || !cells.isEmpty || wasQuoted { try endRecord() }
        guard let header = records.first?.cells else { throw .invalidRequest("the CSV is empty") }
        self.header = header
        rows = Array(records.dropFirst())
    }
}
