import WalletDocuments

/// A Bluetooth beacon near which the pass is relevant.
public struct PassBeacon: DocumentDictionary {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a beacon dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates a beacon.
    public init(proximityUUID: String, major: UInt16? = nil, minor: UInt16? = nil, relevantText: String? = nil) {
        self.init(json: [:])
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.relevantText = relevantText
    }

    /// The beacon's UUID (required).
    public var proximityUUID: String {
        get { self["proximityUUID", default: ""] }
        set { self["proximityUUID", default: ""] = newValue }
    }
    /// The major identifier.
    public var major: UInt16? {
        get { self["major"] }
        set { self["major"] = newValue }
    }
    /// The minor identifier.
    public var minor: UInt16? {
        get { self["minor"] }
        set { self["minor"] = newValue }
    }
    /// Text shown on the lock screen near the beacon.
    public var relevantText: String? {
        get { self["relevantText"] }
        set { self["relevantText"] = newValue }
    }

    /// The keys of a beacon dictionary.
    public static let schema = DocumentSchema(
        "beacon",
        [
            .init("proximityUUID", .string, required: true),
            .init("major", .integer),
            .init("minor", .integer),
            .init("relevantText", .string),
        ])
}
