import Foundation
import WalletDocuments

extension PassChecks {
    /// The semantic tags that name a time zone.
    static let timeZoneTags = [
        "departureLocationTimeZone", "destinationLocationTimeZone", "departureAirportTimeZone",
        "destinationAirportTimeZone",
    ]

    /// The checks of semantic tags: tags meant for another kind of pass, time zones, amounts.
    static func checkSemantics(_ pass: Pass, in context: inout LintContext) {
        if let semantics = pass.semantics {
            check(semantics, style: pass.style, at: "semantics", in: &context)
        }
        for (index, entry) in (pass.upcomingPassInformation ?? []).enumerated() {
            if let semantics = entry.semantics {
                check(semantics, style: .eventTicket, at: "upcomingPassInformation[\(index)].semantics", in: &context)
            }
        }
    }

    /// Checks one semantics dictionary of a pass of `style`.
    static func check(_ semantics: PassSemantics, style: Pass.Style, at path: String, in context: inout LintContext) {
        for tag in semantics.json.keys.sorted() {
            let scope = PassSemantics.scope(of: tag)
            let intended: Pass.Style? =
                switch scope {
                case .eventTicket: .eventTicket
                case .boardingPass: .boardingPass
                case .storeCard: .storeCard
                case .anyPass, nil: nil
                }
            if let intended, intended != style {
                context.note(
                    "semantics.scope", "\(path).\(tag)",
                    "is a tag for \(intended.rawValue) passes; Wallet does not use it on a \(style.rawValue)")
            }
        }
        for tag in timeZoneTags {
            if let zone: String = semantics[tag], TimeZone(identifier: zone) == nil {
                context.error(
                    "semantics.time-zone", "\(path).\(tag)", "'\(zone)' is not a time zone such as Europe/Paris")
            }
        }
        if let zone = semantics.eventStartDateInfo?.timeZone, TimeZone(identifier: zone) == nil {
            context.error(
                "semantics.time-zone", "\(path).eventStartDateInfo.timeZone",
                "'\(zone)' is not a time zone such as Europe/Paris")
        }
        for tag in ["balance", "totalPrice"] {
            guard let amount: PassSemantics.CurrencyAmount = semantics[tag] else { continue }
            if let code = amount.currencyCode, !DocumentChecks.isCurrencyCode(code) {
                context.error(
                    "semantics.currency-code", "\(path).\(tag).currencyCode",
                    "'\(code)' is not an ISO 4217 code such as USD")
            }
            if let text = amount.amount, Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) == nil {
                context.error("semantics.amount", "\(path).\(tag).amount", "'\(text)' is not a decimal number")
            }
        }
    }
}
