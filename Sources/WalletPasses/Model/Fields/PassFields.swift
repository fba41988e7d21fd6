import WalletDocuments

/// The dictionary under a pass's style key (`eventTicket`, `boardingPass`, …): its lists of fields and, for boarding
/// passes, the transit type.
public struct PassFields: DocumentDictionary {
    /// How a boarding pass travels (`PKTransitType…`).
    public enum TransitType: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
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

    /// The lists of fields, in the order Wallet lays them out.
    public static let lists = [
        "headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields", "additionalInfoFields",
        "footerFields",
    ]

    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a style dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates a set of fields.
    public init(
        headerFields: [PassField]? = nil, primaryFields: [PassField]? = nil, secondaryFields: [PassField]? = nil,
        auxiliaryFields: [PassField]? = nil, backFields: [PassField]? = nil, transitType: TransitType? = nil
    ) {
        self.init(json: [:])
        self.headerFields = headerFields
        self.primaryFields = primaryFields
        self.secondaryFields = secondaryFields
        self.auxiliaryFields = auxiliaryFields
        self.backFields = backFields
        self.transitType = transitType
    }

    /// Fields at the top, visible in a stack of passes.
    public var headerFields: [PassField]? {
        get { self["headerFields"] }
        set { self["headerFields"] = newValue }
    }
    /// The main fields.
    public var primaryFields: [PassField]? {
        get { self["primaryFields"] }
        set { self["primaryFields"] = newValue }
    }
    /// Fields below the primary ones.
    public var secondaryFields: [PassField]? {
        get { self["secondaryFields"] }
        set { self["secondaryFields"] = newValue }
    }
    /// Further fields below.
    public var auxiliaryFields: [PassField]? {
        get { self["auxiliaryFields"] }
        set { self["auxiliaryFields"] = newValue }
    }
    /// Fields on the back of the pass (the details screen on a poster pass).
    public var backFields: [PassField]? {
        get { self["backFields"] }
        set { self["backFields"] = newValue }
    }
    /// Fields of the Additional Info section below a poster pass.
    public var additionalInfoFields: [PassField]? {
        get { self["additionalInfoFields"] }
        set { self["additionalInfoFields"] = newValue }
    }
    /// Fields in the footer of a poster generic pass.
    public var footerFields: [PassField]? {
        get { self["footerFields"] }
        set { self["footerFields"] = newValue }
    }
    /// The transit type; required for boarding passes.
    public var transitType: TransitType? {
        get { self["transitType"] }
        set { self["transitType"] = newValue }
    }

    /// Every field's key, in order.
    public var keys: [String] { all.map(\.field.key) }

    /// Sets the value of the field whose key is `key`, wherever it is; returns whether there is one.
    @discardableResult
    public mutating func setValue(_ value: PassField.Value, forKey key: String) -> Bool {
        modifyField(forKey: key) { $0.value = value }
    }

    /// Changes the field whose key is `key`, wherever it is, with `change`; returns whether there is one.
    @discardableResult
    public mutating func modifyField(forKey key: String, _ change: (inout PassField) throws -> Void) rethrows -> Bool {
        for list in Self.lists {
            guard var fields: [PassField] = self[list], let index = fields.firstIndex(where: { $0.key == key })
            else { continue }
            try change(&fields[index])
            self[list] = fields
            return true
        }
        return false
    }

    /// The value of the field whose key is `key`, if there is one.
    public func value(forKey key: String) -> PassField.Value? {
        all.first { $0.field.key == key }?.field.value
    }

    /// The field whose key is `key`, wherever it is, if there is one.
    public func field(forKey key: String) -> PassField? {
        all.first { $0.field.key == key }?.field
    }

    /// Every field with the name of its list and its index there, in order.
    package var all: [(list: String, index: Int, field: PassField)] {
        Self.lists.flatMap { list in
            ((self[list] as [PassField]?) ?? []).enumerated().map { (list, $0.offset, $0.element) }
        }
    }

    /// The keys of a style dictionary.
    public static let schema = DocumentSchema(
        "style",
        [
            .init("headerFields", .array(.dictionary(PassField.self))),
            .init("primaryFields", .array(.dictionary(PassField.self))),
            .init("secondaryFields", .array(.dictionary(PassField.self))),
            .init("auxiliaryFields", .array(.dictionary(PassField.self))),
            .init("backFields", .array(.dictionary(PassField.self))),
            .init("additionalInfoFields", .array(.dictionary(PassField.self)), since: .iOS18),
            .init("footerFields", .array(.dictionary(PassField.self)), since: .iOS27),
            .init("transitType", .enumeration(TransitType.allCases.map(\.rawValue))),
        ])
}
