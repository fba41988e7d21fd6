import Foundation
import WalletDocuments

/// A moment or an interval during which the pass is relevant (an entry of `relevantDates`).
public struct PassRelevantDate: DocumentDictionary {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps an entry as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates a moment (`date`) or an interval (`startDate`, `endDate`).
    public init(date: Date? = nil, startDate: Date? = nil, endDate: Date? = nil) {
        self.init(json: [:])
        self.date = date
        self.startDate = startDate
        self.endDate = endDate
    }

    /// A single moment, around which Wallet computes the interval.
    public var date: Date? {
        get { self["date"] }
        set { self["date"] = newValue }
    }
    /// A single moment under the name some libraries wrote for iOS 18; Apple's reference names only ``date``, and
    /// Apple's documentation wins.
    public var relevantDate: Date? {
        get { self["relevantDate"] }
        set { self["relevantDate"] = newValue }
    }
    /// The start of an interval.
    public var startDate: Date? {
        get { self["startDate"] }
        set { self["startDate"] = newValue }
    }
    /// The end of an interval.
    public var endDate: Date? {
        get { self["endDate"] }
        set { self["endDate"] = newValue }
    }

    /// The moment of the entry, whichever spelling holds it.
    public var moment: Date? { date ?? relevantDate }

    /// The keys of a `relevantDates` entry.
    public static let schema = DocumentSchema(
        "relevant date",
        [
            .init("date", .date, since: .iOS18),
            .init("relevantDate", .date, since: .iOS18),
            .init("startDate", .date, since: .iOS18),
            .init("endDate", .date, since: .iOS18),
        ])
}
