import Foundation
import WalletDocuments

extension PassChecks {
    /// The semantic tags every poster event ticket needs, or Wallet shows the plain event ticket.
    static let posterEventRequiredTags = ["eventName", "venueName", "venueRegionName", "venueRoom"]
    /// The tags a poster event ticket of each event type needs besides.
    static let posterEventRequiredTagsByType: [PassSemantics.EventType: [String]] = [
        .sports: ["homeTeamAbbreviation", "awayTeamAbbreviation"],
        .livePerformance: ["performerNames"],
    ]
    /// The top-level keys only a poster event ticket shows.
    static let posterEventOnlyKeys =
        [
            "eventLogoText", "footerBackgroundColor", "useAutomaticColors", "suppressHeaderDarkening",
            "auxiliaryStoreIdentifiers", "upcomingPassInformation",
        ] + DocumentSchema.Entry.eventLinks.map(\.key)

    /// Whether the pass asks for the poster event ticket layout.
    static func isPosterEventTicket(_ pass: Pass) -> Bool {
        pass.style == .eventTicket && (pass.preferredStyleSchemes ?? []).contains(Pass.StyleScheme.posterEventTicket)
    }

    /// The semantic tags a poster event ticket with `semantics` needs and lacks.
    static func missingPosterEventTags(_ semantics: PassSemantics?) -> [String] {
        var required = posterEventRequiredTags
        if let type = semantics?.eventType { required += posterEventRequiredTagsByType[type] ?? [] }
        return required.filter { semantics?.json[$0] == nil }
    }

    /// The requirements Wallet checks before it shows a poster event ticket; empty when it shows one.
    static func posterEventShortfalls(_ pass: Pass, files: [String: Data]?) -> [String] {
        var missing = missingPosterEventTags(pass.semantics)
        if let files, !hasImage("artwork", in: files), !hasImage("background", in: files) {
            missing.append("an artwork or background image")
        }
        return missing
    }

    /// The checks of a poster event ticket: the tags, images and NFC it needs, the fields older iOS shows; and of
    /// poster-only keys on other passes.
    static func checkPosterEventTicket(_ pass: Pass, files: [String: Data]?, in context: inout LintContext) {
        guard isPosterEventTicket(pass) else {
            for key in posterEventOnlyKeys where pass.json[key] != nil {
                context.note("poster-event.only", key, "only poster event tickets show it")
            }
            return
        }
        let semantics = pass.semantics
        for tag in missingPosterEventTags(semantics) {
            context.error(
                "poster-event.semantics", "semantics.\(tag)",
                "is required for a poster event ticket; without it Wallet shows the plain event ticket")
        }
        if semantics?.json["eventStartDate"] == nil, semantics?.json["eventStartDateInfo"] == nil {
            context.warning(
                "poster-event.start-date", "semantics.eventStartDate",
                "is recommended: a poster event ticket shows when the event starts")
        }
        if pass.json["nfc"] == nil {
            context.warning(
                "poster-event.nfc", "nfc",
                "is missing: poster event tickets are for contactless entry, not entry by scanning a barcode")
        } else if pass.nfc?.requiresAuthentication != true {
            // Apple's reference does not require it; Apple's pass builder refuses the ticket without it.
            context.warning(
                "poster-event.nfc-authentication", "nfc.requiresAuthentication",
                "should be true on a poster event ticket (with sharingProhibited): Apple's pass builder requires it")
        }
        if let files {
            if !hasImage("artwork", in: files), !hasImage("background", in: files) {
                context.error(
                    "poster-event.image", "artwork.png",
                    "a poster event ticket needs an artwork (or background) image; without one Wallet shows the "
                        + "plain event ticket")
            }
            if !hasImage("primaryLogo", in: files) {
                context.warning(
                    "poster-event.image", "primaryLogo.png", "is the event's logo on a poster event ticket; add one")
            }
        }
        if pass.fields.primaryFields == nil, pass.fields.secondaryFields == nil, pass.fields.auxiliaryFields == nil {
            context.warning(
                "poster-event.fallback", "eventTicket",
                "has no primary, secondary or auxiliary fields: iOS 17 and earlier show an empty ticket")
        }
        if pass.logoText != nil, pass.eventLogoText == nil {
            context.note("poster-event.logo-text", "logoText", "poster event tickets show eventLogoText instead")
        }
    }
}
