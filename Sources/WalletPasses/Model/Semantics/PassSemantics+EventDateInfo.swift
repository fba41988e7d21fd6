import Foundation
import WalletDocuments

extension PassSemantics {
    /// When an event starts, and how Wallet shows it (`eventStartDateInfo`).
    public struct EventDateInfo: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates the information for a start date.
        public init(date: Date? = nil, timeZone: String? = nil, ignoreTimeComponents: Bool? = nil) {
            self.init(json: [:])
            self.date = date
            self.timeZone = timeZone
            self.ignoreTimeComponents = ignoreTimeComponents
        }

        /// The date.
        public var date: Date? {
            get { self["date"] }
            set { self["date"] = newValue }
        }
        /// Whether Wallet shows the date without its time.
        public var ignoreTimeComponents: Bool? {
            get { self["ignoreTimeComponents"] }
            set { self["ignoreTimeComponents"] = newValue }
        }
        /// The time zone to show the date in, such as Europe/Paris.
        public var timeZone: String? {
            get { self["timeZone"] }
            set { self["timeZone"] = newValue }
        }
        /// Whether the date is not announced yet.
        public var unannounced: Bool? {
            get { self["unannounced"] }
            set { self["unannounced"] = newValue }
        }
        /// Whether the date is not settled yet.
        public var undetermined: Bool? {
            get { self["undetermined"] }
            set { self["undetermined"] = newValue }
        }

        /// The keys of an event date.
        public static let schema = DocumentSchema(
            "event date",
            [
                .init("date", .date),
                .init("ignoreTimeComponents", .boolean),
                .init("timeZone", .string),
                .init("unannounced", .boolean),
                .init("undetermined", .boolean),
            ])
    }
}
