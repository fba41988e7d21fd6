/// The keys Apple documents for one dictionary of `pass.json` (or `order.json`): what each holds, whether Wallet
/// requires it, and which iOS first reads it.
///
/// ``Pass/lint(files:)`` checks a pass against its dictionaries' schemas, and tells from them which keys an older iOS
/// ignores.
public struct DocumentSchema: Sendable {
    /// One documented key.
    public struct Entry: Sendable {
        /// The key as Apple spells it.
        public let key: String
        /// What the key holds.
        public let kind: SchemaValueKind
        /// Whether Wallet rejects the dictionary without it.
        public let isRequired: Bool
        /// The first iOS whose Wallet reads the key; `nil` for keys every supported iOS reads.
        public let since: IOSVersion?
        /// Why the key should no longer be written, and what replaces it; `nil` unless Apple deprecated it.
        public let deprecation: String?

        /// Describes a key.
        public init(
            _ key: String, _ kind: SchemaValueKind, required: Bool = false, since: IOSVersion? = nil,
            deprecated deprecation: String? = nil
        ) {
            self.key = key
            self.kind = kind
            self.isRequired = required
            self.since = since
            self.deprecation = deprecation
        }
    }

    /// The dictionary's name in messages, e.g. `seat`.
    public let name: String
    /// The documented keys, in the order Apple's reference lists them.
    public let entries: [Entry]
    private let index: [String: Int]

    /// A schema of `entries`; a key listed twice is a programming error.
    public init(_ name: String, _ entries: [Entry]) {
        self.name = name
        self.entries = entries
        self.index = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.key, $0) })
    }

    /// The entry for `key`, or `nil` when Apple documents no such key here.
    public func entry(for key: String) -> Entry? {
        index[key].map { entries[$0] }
    }
}

/// What a key of `pass.json` holds.
public indirect enum SchemaValueKind: Sendable {
    /// A string.
    case string
    /// A number.
    case number
    /// A whole number.
    case integer
    /// `true` or `false`.
    case boolean
    /// A W3C date with a time and a time zone, e.g. `2026-12-24T20:00:00+01:00`.
    case date
    /// An RFC 3339 date-time, seconds and time zone included, e.g. `2026-12-24T20:00:00+01:00`: an order's dates
    /// ([Order](https://developer.apple.com/documentation/walletorders/order)).
    case dateTime
    /// A URL; `https` only when `secure`.
    case url(secure: Bool)
    /// A color, `rgb(r, g, b)`.
    case color
    /// One of a fixed set of strings; others are unknown to every iOS Coffer knows.
    case enumeration([String])
    /// A dictionary described by a schema.
    case dictionary(any DocumentDictionary.Type)
    /// An array of values of one kind, with at most `maximumCount` elements when Wallet limits them.
    case array(SchemaValueKind, maximumCount: Int? = nil)
    /// A field's value: a string or a number.
    case fieldValue
    /// Any JSON value (`userInfo`).
    case any
    /// An ISO 8601 duration, such as `PT30M`.
    case duration
    /// A decimal amount as text, such as `"12.50"` (a JSON number is read too, with a warning).
    case decimal
    /// A dictionary whose schema its `key` names: `fulfillmentType` `shipping` or `pickup`, for example.
    case tagged(String, [String: any DocumentDictionary.Type])

    /// How the kind reads in a message: `a string`, `an array of seats`, ….
    var phrase: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .integer: "a whole number"
        case .boolean: "true or false"
        case .date: "a W3C date with a time zone, such as 2026-12-24T20:00:00+01:00"
        case .dateTime: "an RFC 3339 date-time with seconds and a time zone, such as 2026-12-24T20:00:00+01:00"
        case .url(let secure): secure ? "an https URL" : "a URL"
        case .color: "a color such as rgb(20, 30, 40)"
        case .enumeration(let values): "one of \(values.joined(separator: ", "))"
        case .dictionary(let type): "a \(type.schema.name) dictionary"
        case .array(let element, _): "an array of \(element.pluralPhrase)"
        case .fieldValue: "a string or a number"
        case .any: "any JSON value"
        case .duration: "an ISO 8601 duration such as PT30M"
        case .decimal: "a decimal amount as text, such as \"12.50\""
        case .tagged(let key, let types):
            "a dictionary whose \(key) is \(types.keys.sorted().joined(separator: " or "))"
        }
    }

    private var pluralPhrase: String {
        switch self {
        case .string: "strings"
        case .number: "numbers"
        case .integer: "whole numbers"
        case .boolean: "booleans"
        case .date: "W3C dates"
        case .dateTime: "RFC 3339 date-times"
        case .url: "URLs"
        case .color: "colors"
        case .enumeration(let values): "strings from \(values.joined(separator: ", "))"
        case .dictionary(let type): "\(type.schema.name) dictionaries"
        case .array: "arrays"
        case .fieldValue: "strings or numbers"
        case .any: "JSON values"
        case .duration: "ISO 8601 durations"
        case .decimal: "decimal amounts"
        case .tagged(let key, let types):
            "dictionaries whose \(key) is \(types.keys.sorted().joined(separator: " or "))"
        }
    }
}

/// A major release of iOS, as far as Wallet's reading of `pass.json` is concerned.
public struct IOSVersion: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The major version number.
    public let major: Int

    /// The release with major version `major`.
    public init(_ major: Int) { self.major = major }

    /// iOS 17.
    public static let iOS17 = IOSVersion(17)
    /// iOS 18: poster event tickets, `relevantDates`, semantic tags for them.
    public static let iOS18 = IOSVersion(18)
    /// iOS 26: semantic boarding passes, `upcomingPassInformation`, `relevantDates` entries spelled `date`.
    public static let iOS26 = IOSVersion(26)
    /// iOS 27: poster generic passes, featured actions, new barcode formats.
    public static let iOS27 = IOSVersion(27)

    /// The releases `coffer pass lint` reports on, oldest first.
    public static let reported: [IOSVersion] = [.iOS17, .iOS18, .iOS26, .iOS27]

    /// Orders releases by major version.
    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool { lhs.major < rhs.major }

    /// `iOS 18`.
    public var description: String { "iOS \(major)" }

    /// Decodes the major version number.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Int.self))
    }

    /// Encodes the major version number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(major)
    }
}
