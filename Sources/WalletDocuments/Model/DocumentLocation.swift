/// A place on Earth in a Wallet document: the latitude, longitude and altitude keys passes and orders share.
public protocol DocumentLocation: DocumentDictionary {}

extension DocumentLocation {
    /// Creates a location.
    @inlinable
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.init(json: [:])
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Degrees north, -90…90 (required).
    @inlinable
    public var latitude: Double {
        get { self["latitude", default: 0] }
        set { self["latitude", default: 0] = newValue }
    }
    /// Degrees east, -180…180 (required).
    @inlinable
    public var longitude: Double {
        get { self["longitude", default: 0] }
        set { self["longitude", default: 0] = newValue }
    }
    /// Metres above sea level.
    @inlinable
    public var altitude: Double? {
        get { self["altitude"] }
        set { self["altitude"] = newValue }
    }

    /// The schema entries of the coordinates, for the conforming type's `schema`.
    package static var coordinateEntries: [DocumentSchema.Entry] {
        [
            .init("latitude", .number, required: true),
            .init("longitude", .number, required: true),
            .init("altitude", .number),
        ]
    }
}
