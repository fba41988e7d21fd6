import WalletDocuments

extension PassUpcomingEntry {
    /// The links and contacts of an upcoming event's guide: the same keys as a poster event ticket's own.
    public struct URLs: PassEventLinks {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// The keys of an entry's links.
        public static let schema = DocumentSchema("upcoming entry URLs", DocumentSchema.Entry.eventLinks)
    }
}
