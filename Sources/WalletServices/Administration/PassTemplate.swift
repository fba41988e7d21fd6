import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// The content a new pass starts from: a pass package whose identifiers are replaced by its pass type's and its
/// own serial number when a pass is made from it.
public struct PassTemplate: Sendable {
    /// The package: `pass.json` and its images.
    public var package: PassPackage

    /// Creates a template from a package (for example `PassPackage(directory:)` of a pass folder).
    public init(package: PassPackage) {
        self.package = package
    }

    /// A plain event ticket with a QR code and a blue icon, for demonstrations and first tries.
    public static func demoTicket(eventName: String = "Coffer Demo Night") throws -> PassTemplate {
        var pass = Pass(
            passTypeIdentifier: "pass.placeholder", teamIdentifier: "PLACEHOLDER", serialNumber: "TEMPLATE",
            organizationName: "Coffer", description: "Ticket for \(eventName)", style: .eventTicket,
            fields: PassFields(
                primaryFields: [.text("event", eventName, label: "EVENT")],
                secondaryFields: [.text("seat", "General admission", label: "SEAT")]))
        pass.barcodes = [PassBarcode(format: .qr, message: "TEMPLATE")]
        // An account-bound pass is an NFC pass: the binding protects its NFC payload.
        pass.nfc = PassNFC(message: "TEMPLATE")
        pass.backgroundColor = PassColor(red: 0x1D, green: 0x4E, blue: 0xD8)
        pass.foregroundColor = PassColor(red: 0xFF, green: 0xFF, blue: 0xFF)
        pass.labelColor = PassColor(red: 0xDB, green: 0xE6, blue: 0xFE)
        return PassTemplate(
            package: try PassPackage(
                pass: pass,
                files: [
                    "icon.png": Data(base64Encoded: Icon.points29)!,
                    "icon@2x.png": Data(base64Encoded: Icon.points58)!,
                    "icon@3x.png": Data(base64Encoded: Icon.points87)!,
                ]))
    }

    /// The warnings `PassLint` finds in `package` as the server issues it: account-bound, so that a template
    /// without an `nfc` dictionary is warned about (`binding.nfc`: the binding then protects nothing).
    public static func issuanceWarnings(_ package: PassPackage) -> [LintFinding] {
        var bound = package
        if var pass = try? bound.pass, pass.fidoProfile == nil {
            pass.fidoProfile = FIDOProfile(relyingPartyIdentifier: "issuer.invalid", accountHash: "account")
            try? bound.setPass(pass)
        }
        return bound.lint().warnings
    }

    /// The warnings of ``issuanceWarnings(_:)`` for the template as it is.
    public var warnings: [LintFinding] { Self.issuanceWarnings(package) }

    /// Whether passes made from the template are rewards passes Wallet asks the user to sign up with
    /// (`personalization.json`).
    public var isPersonalizable: Bool { package.files[PassRenderer.personalizationFile] != nil }

    /// The serial number a new pass from this template gets: `preferred`, except for a personalizable template,
    /// whose passes get 128 random bits (32 hex digits), because the personalize route has no authentication and
    /// whoever knows a serial number can personalize the pass first.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` when the caller insists on a serial number
    ///   (`chosen`) for a personalizable template, or on one Wallet cannot put in a web service path.
    public func serialNumber(preferring preferred: String, chosen: String? = nil) throws -> String {
        if let chosen, let problem = WebServiceIdentifier.problem(chosen) {
            throw WalletServerError.invalidArgument("the serial number \(problem)")
        }
        guard isPersonalizable else { return chosen ?? preferred }
        guard chosen == nil else {
            throw WalletServerError.invalidArgument(
                "passes from a personalizable template get random serial numbers: leave the serial number out")
        }
        return SecureRandom.hex(byteCount: 16)
    }

    /// The template made into a pass of `passType` with `serialNumber`: the identifiers, organization and barcode
    /// message are the pass's own, every other key is the template's.
    public func package(for passType: PassType, serialNumber: String) throws -> PassPackage {
        var package = self.package
        var pass = try package.pass
        pass.passTypeIdentifier = passType.passTypeIdentifier
        pass.teamIdentifier = passType.teamIdentifier
        pass.organizationName = passType.organizationName
        pass.serialNumber = serialNumber
        pass.barcodes = pass.barcodes?.map { barcode in
            var barcode = barcode
            if barcode.message == "TEMPLATE" { barcode.message = serialNumber }
            return barcode
        }
        if pass.nfc?.message == "TEMPLATE" { pass.nfc?.message = serialNumber }
        try Self.applyNFCKey(of: passType, to: &pass)
        try package.setPass(pass)
        try package.validate()
        return package
    }

    /// Writes `passType`'s current NFC public key into `pass`'s `nfc` dictionary, if it has one: Wallet accepts only
    /// encrypted NFC passes, so an NFC pass of a pass type without a key is refused.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` naming the command that makes a key.
    static func applyNFCKey(of passType: PassType, to pass: inout Pass) throws {
        guard pass.nfc != nil else { return }
        guard let key = passType.nfcPublicKey else {
            throw WalletServerError.invalidArgument(
                "pass type \(passType.passTypeIdentifier) has no NFC key, and its passes are NFC passes: make one with "
                    + "`coffer admin pass-type nfc-key create --pass-type \(passType.id)`")
        }
        pass.nfc?.encryptionPublicKey = key
    }

    /// Solid-colour square PNGs (#1D4ED8) at 29, 58 and 87 pixels: Wallet's icon sizes at 1×, 2× and 3×.
    private enum Icon {
        static let points29 = """
            iVBORw0KGgoAAAANSUhEUgAAAB0AAAAdCAIAAADZ8fBYAAAAJklEQVR42mOQ9btBC8Qwau6ouaPmjpo7au6ouaPmjpo7au6gMhcAzAIlWHvG\
            HDcAAAAASUVORK5CYII=
            """
        static let points58 = """
            iVBORw0KGgoAAAANSUhEUgAAADoAAAA6CAIAAABu2d1/AAAARUlEQVR42u3OAQkAAAgDsBexkvmNY47DYAGW2SsSXV1dXV1dXV1dXV1dXV1d\
            XV1dXV1dXV1dXV1dXV1dXV1dXV1dXd0eDyomlV0+zemKAAAAAElFTkSuQmCC
            """
        static let points87 = """
            iVBORw0KGgoAAAANSUhEUgAAAFcAAABXCAIAAAD+qk47AAAAgElEQVR42u3QMQ0AAAgDsBnBEvonBxV8TaqgmS1RYMGCBQsWLFiwYMGCBQsW\
            LFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsWLFiwYMGCBQsW\
            LLw4V3tQHxj+OVwAAAAASUVORK5CYII=
            """
    }
}
