import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// The one place a stored pass becomes what a device gets: the pass's content, its account binding, its pass type's
/// NFC key, the web service's `webServiceURL` and `authenticationToken`, and its personalization, signed.
///
/// The device's callback and the web service's fetch both render through it, so that a pass keeps its binding
/// (`fidoProfile`, `issuerBindingData`, `nfc`) and its token across every update.
package struct PassRenderer: Sendable {
    /// Where devices reach the web service and how their tokens are made: both `nil` when passes carry no web
    /// service (the public URL is not https).
    package struct WebService: Sendable {
        /// The `webServiceURL` written into passes (an https URL, e.g. `https://host/passkit`).
        package var url: String
        /// The passes' (and orders') authentication tokens.
        package var tokens: PassAuthenticationTokens
        /// The `webServiceURL` written into orders (e.g. `https://host/orders`), if the server serves orders.
        package var orderURL: String?

        /// Creates the settings; `url` (and `orderURL`) must be https (Wallet ignores any other).
        package init(url: String, tokens: PassAuthenticationTokens, orderURL: String? = nil) throws {
            for candidate in [url, orderURL].compactMap({ $0 }) where !Pass.isHTTPSURL(candidate) {
                throw WalletServerError.invalidConfiguration(
                    "the web service URL '\(candidate)' must be https: Wallet registers only with an https service")
            }
            self.url = url
            self.tokens = tokens
            self.orderURL = orderURL
        }
    }

    /// The name of the file that makes a pass personalizable (rewards enrollment).
    package static let personalizationFile = "personalization.json"
    /// The prefix of the field keys that personalization fills: a field keyed `personalization.fullName` shows the
    /// `fullName` the user entered.
    package static let personalizationFieldPrefix = "personalization."

    let store: any PassWebServiceStore
    let identities: SigningIdentityCache
    /// The relying party identifier in `fidoProfile`.
    let relyingPartyIdentifier: String
    /// The web service settings, if passes carry one.
    package let webService: WebService?
    /// What every archive this renderer signs depends on besides the pass: the web service URL and the relying party.
    let settingsDigest: Data
    private let flights = SigningFlights()

    /// Creates a renderer.
    package init(
        store: any PassWebServiceStore, identities: SigningIdentityCache, relyingPartyIdentifier: String,
        webService: WebService?
    ) {
        self.store = store
        self.identities = identities
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.webService = webService
        self.settingsDigest = Data("\(relyingPartyIdentifier)\n\(webService?.url ?? "")".utf8)
    }

    /// The pass's package as a device gets it, unsigned, carrying `authenticationToken` when given (a token just
    /// made for a rebound pass), else the pass's own.
    package func package(for target: ProvisioningTarget, authenticationToken: String? = nil) async throws
        -> PassPackage
    {
        let record = target.pass
        var package = try PassPackage(archive: record.passContent)
        var pass = try package.pass
        if let issuerBindingData = record.issuerBindingData, let keyHash = record.keyHash {
            pass.fidoProfile = FIDOProfile(
                relyingPartyIdentifier: relyingPartyIdentifier, accountHash: target.user.accountHash, keyHash: keyHash)
            pass.issuerBindingData = PassIssuerBindingData(
                issuerBindingData: issuerBindingData, learnMoreURL: target.passType.bindingLearnMoreURL)
        }
        // The pass type's current NFC key: a pass issued before a rotation gets the new key when it is next fetched.
        try PassTemplate.applyNFCKey(of: target.passType, to: &pass)
        if let webService {
            pass.webServiceURL = webService.url
            if let authenticationToken {
                pass.authenticationToken = authenticationToken
            } else {
                pass.authenticationToken = try await webService.tokens.token(passID: record.id, in: store)
            }
        }
        if package.files[Self.personalizationFile] != nil,
            let stored = try await store.personalization(passID: record.id)
        {
            Self.personalize(&package, &pass, with: stored)
        }
        try package.setPass(pass)
        return package
    }

    /// Fills a personalizable pass with what its user entered (`stored`, the fields' JSON): each
    /// `personalization.<name>` field gets its value, and `personalization.json` goes, since Wallet replaces the
    /// personalizable pass with this one, which must not ask again.
    package static func personalize(_ package: inout PassPackage, _ pass: inout Pass, with stored: Data) {
        package.remove(at: personalizationFile)
        let fields = (try? JSONDecoder().decode([String: String].self, from: stored)) ?? [:]
        for (name, value) in fields {
            pass.fields.setValue(.text(value), forKey: personalizationFieldPrefix + name)
        }
    }

    /// The pass with `passID` as a device gets it, signed (`.pkpass` bytes): the archive kept from the last signing
    /// when nothing it is made from changed since (``PassArchiveVersion``), else one signed now and kept; `nil` when
    /// there is no such pass. Concurrent callers that find no kept archive share one signing. Archives that carry a
    /// token are kept sealed (``KeptArchiveSeal``).
    package func signedArchive(passID: UUID, signingTime: Date) async throws -> Data? {
        guard let kept = try await store.keptPassArchive(passID: passID) else { return nil }
        return try await signedArchive(kept, signingTime: signingTime)
    }

    /// The signed archive of the pass `kept` describes, as ``signedArchive(passID:signingTime:)`` gives it, from what
    /// the caller read already.
    package func signedArchive(_ kept: KeptPassArchive, signingTime: Date) async throws -> Data {
        let passID = kept.version.passID
        let digest = kept.version.digest(settings: settingsDigest)
        let seal = webService?.tokens.archiveSeal
        if let keptDigest = kept.keptDigest, keptDigest == digest, let stored = kept.pkpass {
            guard let seal else { return stored }
            if let pkpass = seal.open(stored, passID: passID, version: digest) { return pkpass }
        }
        let store = store
        return try await flights.archive(for: digest) {
            guard let target = try await store.provisioningTarget(passID: passID) else {
                throw WalletServerError.notFound("pass \(passID)")
            }
            let pkpass = try await pkpass(for: target, signingTime: signingTime)
            // Signed from what was read after the digest: at least as new as the version it is kept under.
            let kept = try seal?.seal(pkpass, passID: passID, version: digest) ?? pkpass
            try await store.keepPassArchive(passID: passID, digest: digest, pkpass: kept, now: signingTime)
            return pkpass
        }
    }

    /// The pass as a device gets it, signed by its pass type's identity (`.pkpass` bytes).
    package func pkpass(for target: ProvisioningTarget, signingTime: Date) async throws -> Data {
        let package = try await package(for: target)
        let identity = try await identities.identity(for: target.passType)
        return try DocumentSigner(identity: identity).sign(package, signingTime: signingTime).pkpass()
    }
}
