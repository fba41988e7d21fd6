extension Order {
    /// A place on Earth, such as a pickup location.
    public struct Location: PassDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a location.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.init(json: [:])
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }

        /// Degrees north, -90…90.
        public var latitude: Double {
            get { self["latitude", default: 0] }
            set { self["latitude", default: 0] = newValue }
        }
        /// Degrees east, -180…180.
        public var longitude: Double {
            get { self["longitude", default: 0] }
            set { self["longitude", default: 0] = newValue }
        }
        /// Metres above sea level.
        public var altitude: Double? {
            get { self["altitude"] }
            set { self["altitude"] = newValue }
        }

        /// The keys of a location.
        public static let schema = PassSchema(
            "location",
            [
                .init("latitude", .number, required: true),
                .init("longitude", .number, required: true),
                .init("altitude", .number),
            ])
    }
}
