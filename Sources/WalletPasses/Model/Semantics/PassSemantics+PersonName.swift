import WalletDocuments

extension PassSemantics {
    /// A person's name in parts (`passengerName`), as `PersonNameComponents` has them.
    public struct PersonName: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a name.
        public init(givenName: String? = nil, familyName: String? = nil) {
            self.init(json: [:])
            self.givenName = givenName
            self.familyName = familyName
        }

        /// The given (first) name.
        public var givenName: String? {
            get { self["givenName"] }
            set { self["givenName"] = newValue }
        }
        /// The middle name.
        public var middleName: String? {
            get { self["middleName"] }
            set { self["middleName"] = newValue }
        }
        /// The family (last) name.
        public var familyName: String? {
            get { self["familyName"] }
            set { self["familyName"] = newValue }
        }
        /// A prefix, such as Dr.
        public var namePrefix: String? {
            get { self["namePrefix"] }
            set { self["namePrefix"] = newValue }
        }
        /// A suffix, such as Jr.
        public var nameSuffix: String? {
            get { self["nameSuffix"] }
            set { self["nameSuffix"] = newValue }
        }
        /// A nickname.
        public var nickname: String? {
            get { self["nickname"] }
            set { self["nickname"] = newValue }
        }
        /// How the name is pronounced. Apple's reference types it as a string, unlike Foundation's
        /// `PersonNameComponents`, and Apple's documentation wins.
        public var phoneticRepresentation: String? {
            get { self["phoneticRepresentation"] }
            set { self["phoneticRepresentation"] = newValue }
        }

        /// The keys of a person's name.
        public static let schema = DocumentSchema(
            "person name",
            [
                .init("givenName", .string),
                .init("middleName", .string),
                .init("familyName", .string),
                .init("namePrefix", .string),
                .init("nameSuffix", .string),
                .init("nickname", .string),
                .init("phoneticRepresentation", .string),
            ])
    }
}
