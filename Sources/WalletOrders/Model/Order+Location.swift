import WalletDocuments

extension Order {
    /// A place on Earth, such as a pickup location.
    public struct Location: DocumentLocation {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// The keys of a location.
        public static let schema = DocumentSchema("location", coordinateEntries)
    }
}
