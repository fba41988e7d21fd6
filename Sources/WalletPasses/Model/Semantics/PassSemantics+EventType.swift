import WalletDocuments

extension PassSemantics {
    /// The kind of an event (`PKEventType…`).
    public enum EventType: String, Codable, Hashable, CaseIterable, DocumentJSONConvertible {
        /// Any other event.
        case generic = "PKEventTypeGeneric"
        /// A concert, play or other live performance.
        case livePerformance = "PKEventTypeLivePerformance"
        /// A film.
        case movie = "PKEventTypeMovie"
        /// A sports event.
        case sports = "PKEventTypeSports"
        /// A conference.
        case conference = "PKEventTypeConference"
        /// A convention.
        case convention = "PKEventTypeConvention"
        /// A workshop.
        case workshop = "PKEventTypeWorkshop"
        /// A social gathering.
        case socialGathering = "PKEventTypeSocialGathering"
    }
}
