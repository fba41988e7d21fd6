import Foundation
import WalletDocuments

extension PassUpcomingEntry {
    /// When an upcoming entry takes place, and how Wallet shows it.
    public struct DateInformation: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates the information for a date.
        public init(date: Date?, timeZone: String? = nil) {
            self.init(json: [:])
            self.date = date
            self.timeZone = timeZone
        }

        /// When the entry starts; without it, Wallet shows the date and time as to be determined.
        public var date: Date? {
            get { self["date"] }
            set { self["date"] = newValue }
        }
        /// Whether Wallet shows the date without its time.
        public var ignoreTimeComponents: Bool? {
            get { self["ignoreTimeComponents"] }
            set { self["ignoreTimeComponents"] = newValue }
        }
        /// Whether the entry lasts the whole day.
        public var isAllDay: Bool? {
            get { self["isAllDay"] }
            set { self["isAllDay"] = newValue }
        }
        /// Whether the time is not announced yet.
        public var isUnannounced: Bool? {
            get { self["isUnannounced"] }
            set { self["isUnannounced"] = newValue }
        }
        /// Whether the time is not settled yet.
        public var isUndetermined: Bool? {
            get { self["isUndetermined"] }
            set { self["isUndetermined"] = newValue }
        }
        /// The time zone to show the date in; the device's when absent.
        public var timeZone: String? {
            get { self["timeZone"] }
            set { self["timeZone"] = newValue }
        }

        /// The keys of an entry's date information.
        public static let schema = DocumentSchema(
            "date information",
            [
                .init("date", .date),
                .init("ignoreTimeComponents", .boolean),
                .init("isAllDay", .boolean),
                .init("isUnannounced", .boolean),
                .init("isUndetermined", .boolean),
                .init("timeZone", .string),
            ])
    }
}
