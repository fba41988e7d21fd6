import Foundation
import WalletServices

/// A row of `pass_types`, without its template archive (read on its own: it can be large).
struct PassTypeRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_types"

    /// The columns of `pass_types` a `PassType` is stored in.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case passTypeIdentifier = "pass_type_identifier"
        case teamIdentifier = "team_identifier"
        case organizationName = "organization_name"
        case signingKeyPath = "signing_key_path"
        case bindingLearnMoreURL = "binding_learn_more_url"
        case createdAt = "created_at"
        case nfcPublicKey = "nfc_public_key"
        case nextSigningKeyPath = "next_signing_key_path"
        case nextActivatesAt = "next_activates_at"
        case retiredSigningKeyPath = "retired_signing_key_path"
        case googleIssuerID = "google_issuer_id"
        case googleMerchantLocations = "google_merchant_locations"
        case kind
    }

    /// The pass type's identifier.
    var id: String
    /// Apple's pass type identifier (`pass.com.example…`).
    var passTypeIdentifier: String
    /// The Apple team that owns the pass type.
    var teamIdentifier: String
    /// The organization name passes show.
    var organizationName: String
    /// Where the pass type's signing identity is kept.
    var signingKeyPath: String
    /// The page that explains account binding, if any.
    var bindingLearnMoreURL: String?
    /// When the pass type was created, in milliseconds.
    var createdAt: Int64
    /// The pass type's current NFC public key, if it has one.
    var nfcPublicKey: String?
    /// Where the next identity waits, if one is staged.
    var nextSigningKeyPath: String?
    /// When the next identity takes over, in milliseconds.
    var nextActivatesAt: Int64?
    /// Where the replaced identity is kept until it expires.
    var retiredSigningKeyPath: String?
    /// The Google Wallet issuer, if any.
    var googleIssuerID: String?
    /// `1` when Google allowlisted the issuer for `merchantLocations`.
    var googleMerchantLocations: Int64
    /// `pass` or `order` (`PassType.Kind`).
    var kind: String

    /// The row that stores `passType`.
    init(_ passType: PassType) {
        id = passType.id.uuidString
        passTypeIdentifier = passType.passTypeIdentifier
        teamIdentifier = passType.teamIdentifier
        organizationName = passType.organizationName
        signingKeyPath = passType.signingKeyPath
        bindingLearnMoreURL = passType.bindingLearnMoreURL
        createdAt = SQLWalletRepository.ms(passType.createdAt)
        nfcPublicKey = passType.nfcPublicKey
        nextSigningKeyPath = passType.nextSigningKeyPath
        nextActivatesAt = passType.nextActivatesAt.map(SQLWalletRepository.ms)
        retiredSigningKeyPath = passType.retiredSigningKeyPath
        googleIssuerID = passType.googleIssuerID
        googleMerchantLocations = passType.googleMayUseMerchantLocations ? 1 : 0
        kind = passType.kind.rawValue
    }

    /// The pass type this row stores.
    func model() throws -> PassType {
        guard let kind = PassType.Kind(rawValue: kind) else {
            throw WalletServerError.corruptRecord("pass type \(id)'s kind '\(kind)'")
        }
        return PassType(
            id: try Self.uuid(id, .id), passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
            organizationName: organizationName, signingKeyPath: signingKeyPath,
            bindingLearnMoreURL: bindingLearnMoreURL, createdAt: SQLWalletRepository.date(createdAt),
            nfcPublicKey: nfcPublicKey, nextSigningKeyPath: nextSigningKeyPath,
            nextActivatesAt: nextActivatesAt.map(SQLWalletRepository.date),
            retiredSigningKeyPath: retiredSigningKeyPath,
            googleIssuerID: googleIssuerID, googleMayUseMerchantLocations: googleMerchantLocations != 0,
            kind: kind
        )
    }
}
