import Foundation
import WalletDocuments

/// The checks of a pass beyond its schema: what Wallet requires of keys together, of each style and layout, and of
/// the files. Each family of checks is in its own file (`PassChecks+Fields.swift`, …).
package enum PassChecks {
    /// Every check of `pass` and its `files` (`nil` when only `pass.json` is at hand).
    static func check(_ pass: Pass, files: [String: Data]?, in context: inout LintContext) {
        context.localizations = localizedTables(files ?? [:])
        checkIdentity(pass, in: &context)
        checkStyle(pass, in: &context)
        checkFields(pass, in: &context)
        checkBarcodes(pass, in: &context)
        checkPersonalization(pass, files: files, in: &context)
        checkRelevance(pass, in: &context)
        checkWebService(pass, in: &context)
        checkNFCAndBinding(pass, in: &context)
        checkSemantics(pass, in: &context)
        checkPosterEventTicket(pass, files: files, in: &context)
        checkSemanticBoardingPass(pass, files: files, in: &context)
        checkFeaturedActions(pass, in: &context)
        checkUpcomingEntries(pass, in: &context)
        if let files {
            checkImages(pass, files: files, in: &context)
            checkLocalizations(pass, files: files, in: &context)
        }
    }

    /// The checks of identity: the format version, the pass type and team identifiers, the required texts.
    static func checkIdentity(_ pass: Pass, in context: inout LintContext) {
        if case .number(let version)? = pass.json["formatVersion"], version != 1 {
            context.error("pass.format-version", "formatVersion", "must be 1")
        }
        for key in ["passTypeIdentifier", "teamIdentifier", "serialNumber", "organizationName", "description"] {
            if case .string(let text)? = pass.json[key], DocumentChecks.isBlank(text) {
                context.error("pass.blank", key, "must not be empty")
            }
        }
        let identifier = pass.passTypeIdentifier
        if !identifier.isEmpty, !identifier.hasPrefix("pass.") {
            context.error(
                "pass.type-identifier", "passTypeIdentifier",
                "must start with 'pass.' (for example pass.com.example.ticket)")
        }
        let team = pass.teamIdentifier
        if !team.isEmpty, !team.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            context.error(
                "pass.team-identifier", "teamIdentifier", "must be the 10-character Apple Developer team identifier")
        }
    }

    /// The checks of the style keys and the layouts `preferredStyleSchemes` asks for.
    static func checkStyle(_ pass: Pass, in context: inout LintContext) {
        let styles = Pass.Style.allCases.filter { pass.json[$0.rawValue] != nil }
        if styles.isEmpty, pass.json["posterGeneric"] != nil {
            // Apple's article accepts any legacy style beside posterGeneric; its sample, and the fix, use generic.
            context.error(
                "poster-generic.fallback", "generic",
                "is required beside posterGeneric (or another legacy style): iOS 26 and earlier cannot add the pass",
                fix: "add 'generic' with the fields of 'posterGeneric'")
        } else if styles.isEmpty {
            context.error(
                "style.count", "pass.json",
                "has no style key: add one of boardingPass, coupon, eventTicket, generic or storeCard")
        } else if styles.count > 1 {
            context.error(
                "style.count", "pass.json",
                "has \(styles.count) style keys (\(styles.map(\.rawValue).joined(separator: ", "))); keep exactly one")
        }
        let transitType = pass.fields.json["transitType"]
        if pass.style == .boardingPass, transitType == nil {
            context.error("style.transit-type", "boardingPass.transitType", "is required for boarding passes")
        } else if pass.style != .boardingPass, transitType != nil {
            context.error("style.transit-type", "\(pass.style.rawValue).transitType", "is only read on boarding passes")
        }
        for (index, scheme) in (pass.preferredStyleSchemes ?? []).enumerated() {
            let path = "preferredStyleSchemes[\(index)]"
            switch scheme {
            case Pass.StyleScheme.posterEventTicket, Pass.Style.eventTicket.rawValue:
                if pass.style != .eventTicket {
                    context.warning(
                        "style.scheme", path, "'\(scheme)' applies to event tickets only; Wallet ignores it here")
                }
            case Pass.StyleScheme.semanticBoardingPass, Pass.Style.boardingPass.rawValue:
                if pass.style != .boardingPass {
                    context.warning(
                        "style.scheme", path, "'\(scheme)' applies to boarding passes only; Wallet ignores it here")
                }
            default:
                break
            }
        }
    }
}
