import Foundation
import WalletDocuments

/// One field on a pass (`headerFields`, `primaryFields`, … in `pass.json`), with its formatting options.
public struct PassField: DocumentDictionary {
    /// A field's value: text, a number, or a date (written as ISO 8601 text, formatted by `dateStyle`).
    public enum Value: Codable, Hashable, DocumentJSONConvertible {
        /// Text (also used for dates: ISO 8601).
        case text(String)
        /// A number, formatted by `numberStyle` or `currencyCode`.
        case number(Double)

        /// Decodes text or a number.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        /// Encodes text or a number.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(documentJSON)
        }

        /// Reads a JSON string or number.
        public init?(documentJSON: JSONValue) {
            switch documentJSON {
            case .string(let text): self = .text(text)
            case .number(let number): self = .number(number)
            default: return nil
            }
        }

        /// A JSON string or number.
        public var documentJSON: JSONValue {
            switch self {
            case .text(let text): .string(text)
            case .number(let number): .number(number)
            }
        }
    }

    /// Text alignment (`PKTextAlignment…`).
    public enum TextAlignment: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// Left.
        case left = "PKTextAlignmentLeft"
        /// Centered.
        case center = "PKTextAlignmentCenter"
        /// Right.
        case right = "PKTextAlignmentRight"
        /// The writing direction's natural alignment.
        case natural = "PKTextAlignmentNatural"
    }

    /// How a date or time is shown (`PKDateStyle…`).
    public enum DateStyle: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// Not shown.
        case none = "PKDateStyleNone"
        /// Short.
        case short = "PKDateStyleShort"
        /// Medium.
        case medium = "PKDateStyleMedium"
        /// Long.
        case long = "PKDateStyleLong"
        /// Full.
        case full = "PKDateStyleFull"
    }

    /// How a number is shown (`PKNumberStyle…`).
    public enum NumberStyle: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// Decimal.
        case decimal = "PKNumberStyleDecimal"
        /// Percent.
        case percent = "PKNumberStylePercent"
        /// Scientific.
        case scientific = "PKNumberStyleScientific"
        /// Spelled out.
        case spellOut = "PKNumberStyleSpellOut"
    }

    /// What Wallet turns into links in a back field's value (`PKDataDetectorType…`).
    public enum DataDetectorType: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// Phone numbers.
        case phoneNumber = "PKDataDetectorTypePhoneNumber"
        /// Web links.
        case link = "PKDataDetectorTypeLink"
        /// Postal addresses.
        case address = "PKDataDetectorTypeAddress"
        /// Dates and times.
        case calendarEvent = "PKDataDetectorTypeCalendarEvent"
    }

    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a field dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates a field.
    public init(
        key: String, value: Value, label: String? = nil, attributedValue: Value? = nil, changeMessage: String? = nil,
        dataDetectorTypes: [DataDetectorType]? = nil, textAlignment: TextAlignment? = nil, dateStyle: DateStyle? = nil,
        timeStyle: DateStyle? = nil, ignoresTimeZone: Bool? = nil, isRelative: Bool? = nil,
        currencyCode: String? = nil, numberStyle: NumberStyle? = nil, semantics: PassSemantics? = nil
    ) {
        self.init(json: [:])
        self.key = key
        self.value = value
        self.label = label
        self.attributedValue = attributedValue
        self.changeMessage = changeMessage
        self.dataDetectorTypes = dataDetectorTypes
        self.textAlignment = textAlignment
        self.dateStyle = dateStyle
        self.timeStyle = timeStyle
        self.ignoresTimeZone = ignoresTimeZone
        self.isRelative = isRelative
        self.currencyCode = currencyCode
        self.numberStyle = numberStyle
        self.semantics = semantics
    }

    /// Creates a text field.
    public static func text(_ key: String, _ value: String, label: String? = nil) -> PassField {
        PassField(key: key, value: .text(value), label: label)
    }

    /// The field's key, unique within the pass (required).
    public var key: String {
        get { self["key", default: ""] }
        set { self["key", default: ""] = newValue }
    }
    /// The value (required); an empty text when it is absent.
    public var value: Value {
        get { self["value", default: .text("")] }
        set { self["value", default: .text("")] = newValue }
    }
    /// The label shown above the value.
    public var label: String? {
        get { self["label"] }
        set { self["label"] = newValue }
    }
    /// The value with HTML links (`<a href>`), shown instead of ``value`` (not on watchOS).
    public var attributedValue: Value? {
        get { self["attributedValue"] }
        set { self["attributedValue"] = newValue }
    }
    /// The notification text when the value changes (`%@` stands for the new value).
    public var changeMessage: String? {
        get { self["changeMessage"] }
        set { self["changeMessage"] = newValue }
    }
    /// Which data detectors apply to back fields; an empty array turns them all off.
    public var dataDetectorTypes: [DataDetectorType]? {
        get { self["dataDetectorTypes"] }
        set { self["dataDetectorTypes"] = newValue }
    }
    /// Alignment of the label and value (not for primary and back fields).
    public var textAlignment: TextAlignment? {
        get { self["textAlignment"] }
        set { self["textAlignment"] = newValue }
    }
    /// How the date of a date value is shown.
    public var dateStyle: DateStyle? {
        get { self["dateStyle"] }
        set { self["dateStyle"] = newValue }
    }
    /// How the time of a date value is shown.
    public var timeStyle: DateStyle? {
        get { self["timeStyle"] }
        set { self["timeStyle"] = newValue }
    }
    /// Whether the date is shown in its own time zone rather than the device's.
    public var ignoresTimeZone: Bool? {
        get { self["ignoresTimeZone"] }
        set { self["ignoresTimeZone"] = newValue }
    }
    /// Whether the date is shown relative to now.
    public var isRelative: Bool? {
        get { self["isRelative"] }
        set { self["isRelative"] = newValue }
    }
    /// An ISO 4217 currency code for number values.
    public var currencyCode: String? {
        get { self["currencyCode"] }
        set { self["currencyCode"] = newValue }
    }
    /// How a number value is shown.
    public var numberStyle: NumberStyle? {
        get { self["numberStyle"] }
        set { self["numberStyle"] = newValue }
    }
    /// Machine-readable facts about this field's value.
    public var semantics: PassSemantics? {
        get { self["semantics"] }
        set { self["semantics"] = newValue }
    }
    /// The row of an auxiliary field (0 or 1) on a boarding pass or event ticket with two rows.
    public var row: Int? {
        get { self["row"] }
        set { self["row"] = newValue }
    }

    /// The keys of a field dictionary.
    public static let schema = DocumentSchema(
        "field",
        [
            .init("key", .string, required: true),
            .init("value", .fieldValue, required: true),
            .init("label", .string),
            .init("attributedValue", .fieldValue),
            .init("changeMessage", .string),
            .init("dataDetectorTypes", .array(.enumeration(DataDetectorType.allCases.map(\.rawValue)))),
            .init("textAlignment", .enumeration(TextAlignment.allCases.map(\.rawValue))),
            .init("dateStyle", .enumeration(DateStyle.allCases.map(\.rawValue))),
            .init("timeStyle", .enumeration(DateStyle.allCases.map(\.rawValue))),
            .init("ignoresTimeZone", .boolean),
            .init("isRelative", .boolean),
            .init("currencyCode", .string),
            .init("numberStyle", .enumeration(NumberStyle.allCases.map(\.rawValue))),
            .init("semantics", .dictionary(PassSemantics.self)),
            .init("row", .integer),
        ])
}
