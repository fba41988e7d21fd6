import WalletDocuments

extension PassSemantics {
    /// A place a semantic tag names (`venueLocation`, `departureLocation`, `destinationLocation`).
    public struct Location: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a place.
        public init(latitude: Double, longitude: Double) {
            self.init(json: [:])
            self.latitude = latitude
            self.longitude = longitude
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

        /// The keys of a semantic location.
        public static let schema = DocumentSchema(
            "semantic location",
            [
                .init("latitude", .number, required: true),
                .init("longitude", .number, required: true),
            ])
    }
}
