import WalletDocuments

extension Order {
    /// A postal address: every key is optional.
    public struct Address: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates an address.
        public init(
            addressLines: [String]? = nil, locality: String? = nil, postalCode: String? = nil,
            administrativeArea: String? = nil, countryCode: String? = nil
        ) {
            self.init(json: [:])
            self.addressLines = addressLines
            self.locality = locality
            self.postalCode = postalCode
            self.administrativeArea = administrativeArea
            self.countryCode = countryCode
        }

        /// The street lines.
        public var addressLines: [String]? {
            get { self["addressLines"] }
            set { self["addressLines"] = newValue }
        }
        /// The city or town.
        public var locality: String? {
            get { self["locality"] }
            set { self["locality"] = newValue }
        }
        /// A part of the city, such as a district.
        public var subLocality: String? {
            get { self["subLocality"] }
            set { self["subLocality"] = newValue }
        }
        /// The postal code.
        public var postalCode: String? {
            get { self["postalCode"] }
            set { self["postalCode"] = newValue }
        }
        /// The state or province.
        public var administrativeArea: String? {
            get { self["administrativeArea"] }
            set { self["administrativeArea"] = newValue }
        }
        /// A county or other part of the state.
        public var subAdministrativeArea: String? {
            get { self["subAdministrativeArea"] }
            set { self["subAdministrativeArea"] = newValue }
        }
        /// The ISO 3166 country code, e.g. `US`.
        public var countryCode: String? {
            get { self["countryCode"] }
            set { self["countryCode"] = newValue }
        }

        /// The keys of an address.
        public static let schema = DocumentSchema(
            "address",
            [
                .init("addressLines", .array(.string)),
                .init("locality", .string),
                .init("subLocality", .string),
                .init("postalCode", .string),
                .init("administrativeArea", .string),
                .init("subAdministrativeArea", .string),
                .init("countryCode", .string),
            ])
    }
}
