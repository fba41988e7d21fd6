import Foundation

/// Reads JSON text (RFC 8259) into a ``JSONValue`` in one pass over its bytes: what `pass.json` and `order.json`
/// cost to read on every signature, where Foundation's decoders cost half an RSA signature (`Benchmarks/RESULTS.md`).
///
/// It accepts exactly RFC 8259's grammar: no comments, no trailing commas, no `NaN`, no lone surrogates, no control
/// characters in strings, numbers a `Double` holds, and at most ``maximumDepth`` nested arrays and objects.
struct JSONTextReader {
    /// The deepest nesting read; deeper text is refused rather than risk the stack.
    static let maximumDepth = 512

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The value `data` holds.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the byte offset and what is wrong there.
    static func value(of data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { buffer in
            var reader = JSONTextReader(buffer)
            reader.skipWhitespace()
            let value = try reader.readValue()
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.failure("text after the JSON value") }
            return value
        }
    }

    private func failure(_ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "not valid JSON at byte \(index): \(reason)"))
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func readValue() throws -> JSONValue {
        switch current {
        case UInt8(ascii: "{")?: return try readObject()
        case UInt8(ascii: "[")?: return try readArray()
        case UInt8(ascii: "\"")?: return .string(try readString())
        case UInt8(ascii: "t")?: return try readLiteral("true", .bool(true))
        case UInt8(ascii: "f")?: return try readLiteral("false", .bool(false))
        case UInt8(ascii: "n")?: return try readLiteral("null", .null)
        case .some(let byte) where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return .number(try readNumber())
        case nil: throw failure("the text ends where a value should be")
        default: throw failure("a value cannot start here")
        }
    }

    private mutating func readLiteral(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw failure("expected \(word)") }
        index += count
        return value
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func readObject() throws -> JSONValue {
        try enter()
        index += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
            let key = try readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            index += 1
            skipWhitespace()
            object[key] = try readValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?:
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}")?:
                index += 1
                depth -= 1
                return .object(object)
            default:
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func readArray() throws -> JSONValue {
        try enter()
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(array)
        }
        while true {
            array.append(try readValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?:
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]")?:
                index += 1
                depth -= 1
                return .array(array)
            default:
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func readString() throws -> String {
        index += 1
        let start = index
        // Fast path: no escapes, the bytes between the quotes are the string.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw failure("a control character in a string") }
            index += 1
        }
        guard current != nil else { throw failure("a string without its closing quote") }
        if current == UInt8(ascii: "\"") {
            defer { index += 1 }
            return try text(of: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        }
        var utf8 = [UInt8](bytes[start..<index])
        while current == UInt8(ascii: "\\") {
            index += 1
            guard let escaped = current else { throw failure("a string without its closing quote") }
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8 += Array(String(try readUnicodeEscape()).utf8)
            default: throw failure("an unknown escape in a string")
            }
            while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                guard byte >= 0x20 else { throw failure("a control character in a string") }
                utf8.append(byte)
                index += 1
            }
            guard current != nil else { throw failure("a string without its closing quote") }
        }
        index += 1
        return try text(of: utf8)
    }

    private func text(of utf8: some Collection<UInt8>) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string that is not UTF-8") }
        return text
    }

    /// The character of a `\uXXXX` escape (the `\u` read), joining a surrogate pair.
    private mutating func readUnicodeEscape() throws -> Character {
        let first = try readHex4()
        var scalar: Unicode.Scalar?
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw failure("a lone surrogate in a string") }
            index += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw failure("a lone surrogate in a string") }
            scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        } else {
            scalar = Unicode.Scalar(first)
        }
        guard let scalar else { throw failure("a lone surrogate in a string") }
        return Character(scalar)
    }

    private mutating func readHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape that is not hexadecimal")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func readNumber() throws -> Double {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw failure("a number without digits") }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw failure("a number without digits after its point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("a number without digits in its exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)), number.isFinite else {
            throw failure("a number too large for a Double")
        }
        return number
    }
}
