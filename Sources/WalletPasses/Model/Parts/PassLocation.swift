import WalletDocuments

/// A place where the pass is relevant (`locations`), or a place a semantic tag names (`venueLocation`, …).
public struct PassLocation: DocumentLocation {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps a location dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates a location.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil, relevantText: String? = nil) {
        self.init(json: [:])
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.relevantText = relevantText
    }

    /// Text shown on the lock screen near the place.
    public var relevantText: String? {
        get { self["relevantText"] }
        set { self["relevantText"] = newValue }
    }

    /// The keys of a location dictionary.
    public static let schema = DocumentSchema("location", coordinateEntries + [.init("relevantText", .string)])
}
