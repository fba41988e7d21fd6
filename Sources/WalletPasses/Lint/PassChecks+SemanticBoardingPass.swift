import Foundation
import WalletDocuments

extension PassChecks {
    /// The semantic tags every semantic boarding pass needs, or Wallet shows the plain boarding pass.
    static let semanticBoardingRequiredTags = [
        "airlineCode", "flightNumber", "departureAirportCode", "departureCityName", "departureLocationTimeZone",
        "destinationAirportCode", "destinationCityName", "destinationLocationTimeZone", "originalArrivalDate",
        "originalBoardingDate", "originalDepartureDate", "passengerName",
    ]
    /// The tags Apple recommends on a semantic boarding pass.
    static let semanticBoardingRecommendedTags = [
        "departureAirportName", "departureLocation", "departureLocationSecurityPrograms", "destinationAirportName",
        "destinationLocation", "destinationLocationSecurityPrograms", "passengerEligibleSecurityPrograms",
        "transitProvider",
    ]

    /// Whether the pass asks for the semantic boarding pass layout.
    static func isSemanticBoardingPass(_ pass: Pass) -> Bool {
        pass.style == .boardingPass
            && (pass.preferredStyleSchemes ?? []).contains(Pass.StyleScheme.semanticBoardingPass)
    }

    /// The requirements Wallet checks before it shows a semantic boarding pass; empty when it shows one.
    static func semanticBoardingShortfalls(_ pass: Pass) -> [String] {
        var missing = semanticBoardingRequiredTags.filter { pass.semantics?.json[$0] == nil }
        if pass.fields.transitType != .air { missing.insert("transitType PKTransitTypeAir", at: 0) }
        return missing
    }

    /// The checks of a semantic boarding pass: an air journey and the tags it needs; and of its keys on other
    /// passes.
    static func checkSemanticBoardingPass(_ pass: Pass, files: [String: Data]?, in context: inout LintContext) {
        guard isSemanticBoardingPass(pass) else {
            for entry in Pass.boardingLinkEntries where pass.json[entry.key] != nil {
                context.note("semantic-boarding.only", entry.key, "only semantic boarding passes show it")
            }
            return
        }
        if pass.fields.transitType != .air {
            context.error(
                "semantic-boarding.transit-type", "boardingPass.transitType",
                "must be PKTransitTypeAir for a semantic boarding pass; otherwise Wallet shows the plain one")
        }
        for tag in semanticBoardingRequiredTags where pass.semantics?.json[tag] == nil {
            context.error(
                "semantic-boarding.semantics", "semantics.\(tag)",
                "is required for a semantic boarding pass; without it Wallet shows the plain boarding pass")
        }
        // Apple's pass builder, an early preview, checks the time zones under their older names.
        for (older, current) in [
            ("departureAirportTimeZone", "departureLocationTimeZone"),
            ("destinationAirportTimeZone", "destinationLocationTimeZone"),
        ] where pass.semantics?.json[older] == nil {
            context.note(
                "semantic-boarding.builder-spelling", "semantics.\(older)",
                "is what Apple's pass builder checks instead of \(current); add it with the same value to pass its "
                    + "validator")
        }
        for tag in semanticBoardingRecommendedTags where pass.semantics?.json[tag] == nil {
            context.note(
                "semantic-boarding.recommended", "semantics.\(tag)", "is recommended on a semantic boarding pass")
        }
    }
}
