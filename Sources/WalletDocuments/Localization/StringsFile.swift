import Foundation

/// One language's `pass.strings`: the text Wallet shows on devices in that language for each key that `pass.json`
/// uses in place of a text.
///
/// It reads what Foundation reads (UTF-8, or UTF-16 with a byte order mark; `"key" = "value";` entries with
/// comments and escapes, parsed by `PropertyListSerialization`), and writes UTF-16 with a byte order mark, as
/// [Apple asks](https://developer.apple.com/documentation/walletpasses/creating-the-source-for-a-pass).
public struct StringsFile: Hashable, Sendable {
    /// Why a `pass.strings` file cannot be read.
    public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The bytes are not the text they declare (or no text at all).
        case encoding(String)
        /// The text is not a list of `"key" = "value";` entries.
        case syntax(String)

        /// What is wrong, to follow the file's path.
        public var description: String {
            switch self {
            case .encoding(let reason), .syntax(let reason): reason
            }
        }
    }

    /// The texts, by key.
    public var entries: [String: String]

    /// A file with `entries`.
    public init(_ entries: [String: String] = [:]) {
        self.entries = entries
    }

    /// Reads a `pass.strings` file.
    ///
    /// - Throws: ``ReadError/encoding(_:)`` for bytes that are not UTF-8 or UTF-16 with a byte order mark;
    ///   ``ReadError/syntax(_:)`` for text Foundation does not read as `"key" = "value";` entries, with the line.
    public init(data: Data) throws(ReadError) {
        let text = try Self.text(of: data)
        guard !text.allSatisfy(\.isWhitespace) else {
            entries = [:]
            return
        }
        if let line = Self.lineOfNestedValue(in: text) {
            // Foundation's parser recurses into nested values: a file of a million `(` would exhaust the stack.
            throw .syntax("has a nested value on line \(line): entries are \"key\" = \"value\";")
        }
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        } catch {
            throw .syntax(Self.reason(error))
        }
        guard let entries = parsed as? [String: String] else {
            throw .syntax("is not a list of \"key\" = \"value\"; entries")
        }
        self.entries = entries
    }

    /// The file: UTF-16 little-endian with its byte order mark, one `"key" = "value";` line per entry, by key.
    public func encoded() -> Data {
        var text = ""
        for key in entries.keys.sorted() {
            text += "\"\(Self.escaped(key))\" = \"\(Self.escaped(entries[key]!))\";\n"
        }
        var bytes: [UInt8] = [0xFF, 0xFE]
        bytes.reserveCapacity(2 + text.utf16.count * 2)
        for unit in text.utf16 {
            bytes.append(UInt8(truncatingIfNeeded: unit))
            bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
        }
        return Data(bytes)
    }

    /// The text of `data`, as its byte order mark (or its absence) declares it.
    static func text(of data: Data) throws(ReadError) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            guard bytes.count.isMultiple(of: 2), let text = String(data: data, encoding: .utf16) else {
                throw .encoding("declares UTF-16 with its byte order mark, but is not UTF-16 text")
            }
            return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            guard let text = String(data: data.dropFirst(3), encoding: .utf8) else {
                throw .encoding("declares UTF-8 with its byte order mark, but is not UTF-8 text")
            }
            return text
        }
        if let text = String(data: data, encoding: .utf8), !bytes.contains(0) { return text }
        if bytes.count.isMultiple(of: 2), bytes.contains(0) {
            throw .encoding(
                "is UTF-16 without a byte order mark: start it with one (FF FE) so that its byte order is known")
        }
        throw .encoding("is neither UTF-8 nor UTF-16 text")
    }

    /// The line of the first `(`, `{` or `<` outside quotes and comments (the start of an array, a dictionary or
    /// data), or `nil` when there is none.
    static func lineOfNestedValue(in text: String) -> Int? {
        var line = 1
        var quote: Unicode.Scalar?
        var escaped = false
        var comment: (block: Bool, closing: Bool)?
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer {
                if scalar == "\n" { line += 1 }
            }
            if let open = quote {
                if escaped {
                    escaped = false
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == open {
                    quote = nil
                }
                continue
            }
            if let current = comment {
                if current.block ? (current.closing && scalar == "/") : scalar == "\n" {
                    comment = nil
                } else if current.block {
                    comment = (true, scalar == "*")
                }
                continue
            }
            switch scalar {
            case "\"", "'": quote = scalar
            case "/" where previous == "/": comment = (false, false)
            case "*" where previous == "/": comment = (true, false)
            case "(", "{", "<": return line
            default: break
            }
            previous = comment == nil ? scalar : nil
        }
        return nil
    }

    /// `text` inside double quotes as Foundation reads it back: quotes, backslashes and control characters escaped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += "\\U" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// What Foundation's parser said of the entries, without its error domain: "Missing ';' on line 2".
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        // The entries' parser's error is nested in the one of the first attempt (a single value); outside Apple's
        // platforms it is an unbridged CFError, read through its description.
        var detail = error.userInfo[NSDebugDescriptionErrorKey] as? String
        if let nested = error.userInfo["kCFPropertyListOldStyleParsingError"] {
            if let nested = nested as? NSError, let text = nested.userInfo[NSDebugDescriptionErrorKey] as? String {
                detail = text
            } else {
                let text = String(describing: nested)
                if let start = text.range(of: "Code=3840 \""), let end = text.range(of: "\" UserInfo=") {
                    detail = String(text[start.upperBound..<end.lowerBound])
                }
            }
        }
        return "is not a list of \"key\" = \"value\"; entries" + (detail.map { ": \($0)" } ?? "")
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: Swift.max(0, length - count)) + self
    }
}
