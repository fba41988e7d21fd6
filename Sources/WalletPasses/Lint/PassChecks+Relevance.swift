import Foundation
import WalletDocuments

extension PassChecks {
    /// The longest interval a `relevantDates` entry may span.
    static let maximumRelevantInterval: TimeInterval = 24 * 3600

    /// The checks of relevance: dates and intervals, places and beacons.
    static func checkRelevance(_ pass: Pass, in context: inout LintContext) {
        if pass.json["relevantDate"] != nil, pass.json["relevantDates"] == nil {
            context.warning(
                "relevance.relevant-date", "relevantDate",
                "is deprecated: iOS 18 and later read 'relevantDates'",
                fix: "add 'relevantDates' with the same date (keeping 'relevantDate' for iOS 17 and earlier)")
        }
        for (index, entry) in (pass.relevantDates ?? []).enumerated() {
            let path = "relevantDates[\(index)]"
            if entry.json["relevantDate"] != nil, entry.json["date"] == nil {
                context.warning(
                    "relevance.entry-spelling", "\(path).relevantDate",
                    "Apple's reference names this key 'date'", fix: "rename it 'date'")
            }
            let hasMoment = entry.json["date"] != nil || entry.json["relevantDate"] != nil
            let hasInterval = entry.json["startDate"] != nil || entry.json["endDate"] != nil
            if !hasMoment, !hasInterval {
                context.error("relevance.entry", path, "needs a date, or a startDate and an endDate")
            } else if hasMoment, hasInterval {
                context.warning("relevance.entry", path, "has both a date and an interval; Wallet reads the interval")
            }
            if entry.json["startDate"] != nil, entry.json["endDate"] == nil {
                context.error("relevance.entry", "\(path).endDate", "is required with a startDate")
            }
            if let start = entry.startDate, let end = entry.endDate {
                if end < start {
                    context.error("relevance.interval", "\(path).endDate", "is before startDate")
                } else if end.timeIntervalSince(start) > maximumRelevantInterval {
                    context.error(
                        "relevance.interval", path,
                        "spans \(Int(end.timeIntervalSince(start) / 3600)) hours; an entry spans at most 24 hours "
                            + "(add one entry per day)")
                }
            }
        }
        for (index, location) in (pass.locations ?? []).enumerated() {
            if !(-90...90).contains(location.latitude) {
                context.error("relevance.location", "locations[\(index)].latitude", "must be in -90…90")
            }
            if !(-180...180).contains(location.longitude) {
                context.error("relevance.location", "locations[\(index)].longitude", "must be in -180…180")
            }
        }
        for (index, beacon) in (pass.beacons ?? []).enumerated()
        where beacon.json["proximityUUID"] != nil && UUID(uuidString: beacon.proximityUUID) == nil {
            context.error(
                "relevance.beacon", "beacons[\(index)].proximityUUID", "'\(beacon.proximityUUID)' is not a UUID")
        }
        if let distance = pass.maxDistance, distance < 0 {
            context.error("relevance.max-distance", "maxDistance", "must not be negative")
        }
    }
}
