import Foundation
import PropertyBased
@testable import WalletDocuments
@testable import WalletPasses

/// Random `pass.json` documents that follow Apple's schemas: every documented key may appear, with values of every
/// form Apple allows (dates with and without seconds or offsets, colors with and without spaces, text with quotes,
/// slashes and emoji), and keys no iOS knows yet at every depth.
enum PassJSONGenerator {
    /// A generator of documents; shrinking drops top-level keys one at a time.
    static let documents = Generator<[String: JSONValue], AnySequence<[String: JSONValue]>>(
        run: { rng in document(using: &rng) },
        shrink: { document in
            AnySequence(
                document.keys.sorted().filter { !Pass.Style.allCases.map(\.rawValue).contains($0) }.lazy.map {
                    var smaller = document
                    smaller[$0] = nil
                    return smaller
                })
        })

    /// One document: the required keys, one style, and any of the others.
    static func document(using rng: inout any SeededRandomNumberGenerator) -> [String: JSONValue] {
        var object = dictionary(Pass.schema, depth: 0, using: &rng)
        for style in Pass.Style.allCases { object[style.rawValue] = nil }
        let style = Pass.Style.allCases.randomElement(using: &rng)!
        object[style.rawValue] = value(.dictionary(PassFields.self), depth: 1, using: &rng)
        return object
    }

    static func dictionary(_ schema: DocumentSchema, depth: Int, using rng: inout any SeededRandomNumberGenerator)
        -> [String: JSONValue]
    {
        var object: [String: JSONValue] = [:]
        for entry in schema.entries where entry.isRequired || (depth < 4 && Bool.random(using: &rng)) {
            object[entry.key] = value(entry.kind, depth: depth + 1, using: &rng)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            object["futureKey\(Int.random(in: 0..<100, using: &rng))"] = anyJSON(depth: depth + 1, using: &rng)
        }
        return object
    }

    static func value(_ kind: SchemaValueKind, depth: Int, using rng: inout any SeededRandomNumberGenerator)
        -> JSONValue
    {
        switch kind {
        case .string: .string(text(using: &rng))
        case .number: .number(Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 64)
        case .integer: .number(Double(Int.random(in: 0...9_007_199_254_740_991, using: &rng)))
        case .boolean: .bool(Bool.random(using: &rng))
        case .date: .string(date(using: &rng))
        case .dateTime: .string(date(withSeconds: true, using: &rng))
        case .url:
            .string(
                ["https://example.com/a?b=c&d=%20", "https://ü.example/ä", "tel:+33100000000"].randomElement(
                    using: &rng)!)
        case .color:
            .string(
                (Bool.random(using: &rng) ? "rgb(%d, %d, %d)" : "rgb(%d,%d,%d)").replacingOccurrences(
                    of: "%d", with: "\(Int.random(in: 0...255, using: &rng))"))
        case .enumeration(let values): .string(values.randomElement(using: &rng)!)
        case .dictionary(let type): .object(dictionary(type.schema, depth: depth, using: &rng))
        case .array(let element, let maximum):
            .array(
                (0..<Int.random(in: 0...min(maximum ?? 3, depth < 4 ? 3 : 0), using: &rng)).map { _ in
                    value(element, depth: depth + 1, using: &rng)
                })
        case .fieldValue:
            Bool.random(using: &rng)
                ? .string(text(using: &rng)) : .number(Double(Int.random(in: -999...999, using: &rng)))
        case .any: anyJSON(depth: depth, using: &rng)
        case .duration: .string(["PT30M", "P1DT2H", "P0Y0M0DT0H30M0S"].randomElement(using: &rng)!)
        case .decimal: .string("\(Int.random(in: 0...99_999, using: &rng)).\(Int.random(in: 10...99, using: &rng))")
        case .tagged(let key, let types):
            {
                let tag = types.keys.sorted().randomElement(using: &rng)!
                var object = dictionary(types[tag]!.schema, depth: depth, using: &rng)
                object[key] = .string(tag)
                return .object(object)
            }()
        }
    }

    static func anyJSON(depth: Int, using rng: inout any SeededRandomNumberGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth < 4 ? 6 : 4), using: &rng) {
        case 0: .null
        case 1: .bool(Bool.random(using: &rng))
        case 2: .number(Double(Int.random(in: -1000...1000, using: &rng)) / 8)
        case 3: .string(text(using: &rng))
        case 4: .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in anyJSON(depth: depth + 1, using: &rng) })
        default:
            .object(
                Dictionary(
                    (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                        ("k\(Int.random(in: 0..<50, using: &rng))", anyJSON(depth: depth + 1, using: &rng))
                    }, uniquingKeysWith: { first, _ in first }))
        }
    }

    static func text(using rng: inout any SeededRandomNumberGenerator) -> String {
        [
            "", "Swift in Concert", "Row \"12\"", "a/b\\c", "Zürich — 東京 🎟️", "line\nbreak", "\u{2028}", "%@ now",
            "<a href='https://example.com'>link</a>",
        ].randomElement(using: &rng)!
    }

    static func date(withSeconds: Bool = false, using rng: inout any SeededRandomNumberGenerator) -> String {
        let day = String(
            format: "2026-%02d-%02d", Int.random(in: 1...12, using: &rng), Int.random(in: 1...28, using: &rng))
        let time = String(format: "%02d:%02d", Int.random(in: 0...23, using: &rng), Int.random(in: 0...59, using: &rng))
        let seconds = [withSeconds ? ":01" : "", ":00", ":59", ":30.5", ":07.123"].randomElement(using: &rng)!
        let zone = ["Z", "+01:00", "-07:00", "+05:30", "-00:00"].randomElement(using: &rng)!
        return "\(day)T\(time)\(seconds)\(zone)"
    }
}
