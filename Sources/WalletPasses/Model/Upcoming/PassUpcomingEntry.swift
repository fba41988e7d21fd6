import WalletDocuments

/// An upcoming event a pass covers (an entry of `upcomingPassInformation`): a season ticket's next games, a
/// festival's days; Wallet lists them below the pass, each with its own details screen.
public struct PassUpcomingEntry: DocumentDictionary {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps an entry as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates an event entry.
    public init(identifier: String, name: String, dateInformation: DateInformation? = nil) {
        self.init(json: [:])
        self.identifier = identifier
        self.name = name
        self.type = "event"
        self.dateInformation = dateInformation
    }

    /// Identifies the entry among the pass's entries (required, unique).
    public var identifier: String {
        get { self["identifier", default: ""] }
        set { self["identifier", default: ""] = newValue }
    }
    /// The entry's name (required).
    public var name: String {
        get { self["name", default: ""] }
        set { self["name", default: ""] = newValue }
    }
    /// The entry's type (required); `event` is the only one Wallet knows.
    public var type: String {
        get { self["type", default: ""] }
        set { self["type", default: ""] = newValue }
    }
    /// When the entry takes place; without it, Wallet shows the date as to be determined.
    public var dateInformation: DateInformation? {
        get { self["dateInformation"] }
        set { self["dateInformation"] = newValue }
    }
    /// Whether the entry is the one happening now.
    public var isActive: Bool? {
        get { self["isActive"] }
        set { self["isActive"] = newValue }
    }
    /// Machine-readable facts about the entry.
    public var semantics: PassSemantics? {
        get { self["semantics"] }
        set { self["semantics"] = newValue }
    }
    /// The fields of the entry's details screen.
    public var backFields: [PassField]? {
        get { self["backFields"] }
        set { self["backFields"] = newValue }
    }
    /// The fields of the entry's Additional Info section.
    public var additionalInfoFields: [PassField]? {
        get { self["additionalInfoFields"] }
        set { self["additionalInfoFields"] = newValue }
    }
    /// The entry's header image and venue map.
    public var images: Images? {
        get { self["images"] }
        set { self["images"] = newValue }
    }
    /// The entry's links.
    public var urls: URLs? {
        get { self["URLs"] }
        set { self["URLs"] = newValue }
    }
    /// App Store identifiers of further apps for the entry's event guide.
    public var auxiliaryStoreIdentifiers: [Int]? {
        get { self["auxiliaryStoreIdentifiers"] }
        set { self["auxiliaryStoreIdentifiers"] = newValue }
    }

    /// The keys of an upcoming entry.
    public static let schema = DocumentSchema(
        "upcoming pass information entry",
        [
            .init("identifier", .string, required: true),
            .init("name", .string, required: true),
            .init("type", .enumeration(["event"]), required: true),
            .init("dateInformation", .dictionary(DateInformation.self)),
            .init("isActive", .boolean),
            .init("semantics", .dictionary(PassSemantics.self)),
            .init("backFields", .array(.dictionary(PassField.self))),
            .init("additionalInfoFields", .array(.dictionary(PassField.self))),
            .init("images", .dictionary(Images.self)),
            .init("URLs", .dictionary(URLs.self)),
            .init("auxiliaryStoreIdentifiers", .array(.integer)),
        ])
}
