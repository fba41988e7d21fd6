import Foundation

/// One field on a pass (`headerFields`, `primaryFields`, … in `pass.json`), with its formatting options.
public struct PassField: Codable, Hashable, Sendable {
    /// A field's value: text, a number, or a date (written as ISO 8601 text, formatted by `dateStyle`).
    public enum Value: Codable, Hashable, Sendable {
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
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            }
        }
    }

    /// Text alignment (`PKTextAlignment…`).
    public enum TextAlignment: String, Codable, Hashable, Sendable, CaseIterable {
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
    public enum DateStyle: String, Codable, Hashable, Sendable, CaseIterable {
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
    public enum NumberStyle: String, Codable, Hashable, Sendable, CaseIterable {
        /// Decimal.
        case decimal = "PKNumberStyleDecimal"
        /// Percent.
        case percent = "PKNumberStylePercent"
        /// Scientific.
        case scientific = "PKNumberStyleScientific"
        /// Spelled out.
        case spellOut = "PKNumberStyleSpellOut"
    }

    /// The field's key, unique within the pass.
    public var key: String
    /// The value.
    public var value: Value
    /// The label shown above the value.
    public var label: String?
    /// The value with HTML links (`<a href>`), for back fields.
    public var attributedValue: String?
    /// The notification text when the value changes (`%@` stands for the new value).
    public var changeMessage: String?
    /// Which data detectors apply to back fields (`PKDataDetectorType…`).
    public var dataDetectorTypes: [String]?
    /// Alignment of the label and value.
    public var textAlignment: TextAlignment?
    /// Date formatting.
    public var dateStyle: DateStyle?
    /// Time formatting.
    public var timeStyle: DateStyle?
    /// Whether the date is shown in the device's time zone as given.
    public var ignoresTimeZone: Bool?
    /// Whether the date is shown relative to now.
    public var isRelative: Bool?
    /// An ISO 4217 currency code for number values.
    public var currencyCode: String?
    /// Number formatting.
    public var numberStyle: NumberStyle?

    /// Creates a field.
    public init(
        key: String, value: Value, label: String? = nil, attributedValue: String? = nil, changeMessage: String? = nil,
        dataDetectorTypes: [String]? = nil, textAlignment: TextAlignment? = nil, dateStyle: DateStyle? = nil,
        timeStyle: DateStyle? = nil, ignoresTimeZone: Bool? = nil, isRelative: Bool? = nil,
        currencyCode: String? = nil, numberStyle: NumberStyle? = nil
    ) {
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
    }

    /// Creates a text field.
    public static func text(_ key: String, _ value: String, label: String? = nil) -> PassField {
        PassField(key: key, value: .text(value), label: label)
    }
}

/// The fields of a pass's style dictionary.
public struct PassFields: Codable, Hashable, Sendable {
    /// How a boarding pass travels (`PKTransitType…`).
    public enum TransitType: String, Codable, Hashable, Sendable, CaseIterable {
        /// Air.
        case air = "PKTransitTypeAir"
        /// Boat.
        case boat = "PKTransitTypeBoat"
        /// Bus.
        case bus = "PKTransitTypeBus"
        /// Generic.
        case generic = "PKTransitTypeGeneric"
        /// Train.
        case train = "PKTransitTypeTrain"
    }

    /// Fields at the top, visible in a stack of passes.
    public var headerFields: [PassField]?
    /// The main fields.
    public var primaryFields: [PassField]?
    /// Fields below the primary ones.
    public var secondaryFields: [PassField]?
    /// Further fields below.
    public var auxiliaryFields: [PassField]?
    /// Fields on the back of the pass.
    public var backFields: [PassField]?
    /// The transit type; required for boarding passes.
    public var transitType: TransitType?

    /// Creates a set of fields.
    public init(
        headerFields: [PassField]? = nil, primaryFields: [PassField]? = nil, secondaryFields: [PassField]? = nil,
        auxiliaryFields: [PassField]? = nil, backFields: [PassField]? = nil, transitType: TransitType? = nil
    ) {
        self.headerFields = headerFields
        self.primaryFields = primaryFields
        self.secondaryFields = secondaryFields
        self.auxiliaryFields = auxiliaryFields
        self.backFields = backFields
        self.transitType = transitType
    }

    /// Every field's key, in order.
    public var keys: [String] { all.map(\.field.key) }

    /// Sets the value of the field whose key is `key`, wherever it is; returns whether there is one.
    @discardableResult
    public mutating func setValue(_ value: PassField.Value, forKey key: String) -> Bool {
        var found = false
        func update(_ fields: inout [PassField]?) {
            guard let index = fields?.firstIndex(where: { $0.key == key }) else { return }
            fields?[index].value = value
            found = true
        }
        update(&headerFields)
        update(&primaryFields)
        update(&secondaryFields)
        update(&auxiliaryFields)
        update(&backFields)
        return found
    }

    /// The value of the field whose key is `key`, if there is one.
    public func value(forKey key: String) -> PassField.Value? {
        all.first { $0.field.key == key }?.field.value
    }

    /// Every field with the key path of its list, in order.
    var all: [(list: String, index: Int, field: PassField)] {
        let lists: [(String, [PassField]?)] = [
            ("headerFields", headerFields), ("primaryFields", primaryFields), ("secondaryFields", secondaryFields),
            ("auxiliaryFields", auxiliaryFields), ("backFields", backFields),
        ]
        return lists.flatMap { name, fields in
            (fields ?? []).enumerated().map { (name, $0.offset, $0.element) }
        }
    }
}
