import WalletDocuments

extension Order {
    /// The customer who placed an order.
    public struct Customer: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a customer.
        public init(
            givenName: String? = nil, familyName: String? = nil, emailAddress: String? = nil,
            phoneNumber: String? = nil
        ) {
            self.init(json: [:])
            self.givenName = givenName
            self.familyName = familyName
            self.emailAddress = emailAddress
            self.phoneNumber = phoneNumber
        }

        /// The given name.
        public var givenName: String? {
            get { self["givenName"] }
            set { self["givenName"] = newValue }
        }
        /// The family name.
        public var familyName: String? {
            get { self["familyName"] }
            set { self["familyName"] = newValue }
        }
        /// The organization.
        public var organizationName: String? {
            get { self["organizationName"] }
            set { self["organizationName"] = newValue }
        }
        /// The email address.
        public var emailAddress: String? {
            get { self["emailAddress"] }
            set { self["emailAddress"] = newValue }
        }
        /// The phone number.
        public var phoneNumber: String? {
            get { self["phoneNumber"] }
            set { self["phoneNumber"] = newValue }
        }

        /// The keys of a customer.
        public static let schema = DocumentSchema(
            "customer",
            [
                .init("givenName", .string),
                .init("familyName", .string),
                .init("organizationName", .string),
                .init("emailAddress", .string),
                .init("phoneNumber", .string),
            ])
    }
}
