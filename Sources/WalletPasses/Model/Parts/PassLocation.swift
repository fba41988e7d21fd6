/// A place where the pass is relevant (`locations`), or a place a semantic tag names (`venueLocation`, …).
public struct PassLocation: PassDictionary {
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

    /// Latitude in degrees (required).
    public var latitude: Double {
        get { self["latitude", default: 0] }
        set { self["latitude", default: 0] = newValue }
    }
    /// Longitude in degrees (required).
    public var longitude: Double {
        get { self["longitude", default: 0] }
        set { self["longitude", default: 0] = newValue }
    }
    /// Altitude in meters.
    public var altitude: Double? {
        get { self["altitude"] }
        set { self["altitude"] = newValue }
    }
    /// Text shown on the lock screen near the place.
    public var relevantText: String? {
        get { self["relevantText"] }
        set { self["relevantText"] = newValue }
    }

    /// The keys of a location dictionary.
    public static let schema = PassSchema(
        "location",
        [
            .init("latitude", .number, required: true),
            .init("longitude", .number, required: true),
            .init("altitude", .number),
            .init("relevantText", .string),
        ])
}
