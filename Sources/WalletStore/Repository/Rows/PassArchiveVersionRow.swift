import Foundation
import SQLKit
import WalletServices

/// What a pass's signed archive depends on, read from the pass, its tag's user and its pass type, with the archive
/// kept for it (if any), in one query.
struct PassArchiveVersionRow: Decodable {
    /// The aliases the columns are selected as.
    enum CodingKeys: String, CodingKey {
        case passID = "pass_id"
        case updatedAt = "updated_at"
        case modifiedAt = "modified_at"
        case updateTag = "update_tag"
        case authenticationTokenHash = "authentication_token_hash"
        case issuerBindingData = "issuer_binding_data"
        case keyHash = "key_hash"
        case accountHash = "account_hash"
        case signingKeyPath = "signing_key_path"
        case nfcPublicKey = "nfc_public_key"
        case bindingLearnMoreURL = "binding_learn_more_url"
        case keptVersion = "kept_version"
        case keptPKPass = "kept_pkpass"
    }

    var passID: String
    var updatedAt: Int64
    var modifiedAt: Int64?
    var updateTag: Int64?
    var authenticationTokenHash: Data?
    var issuerBindingData: String?
    var keyHash: String?
    var accountHash: String
    var signingKeyPath: String
    var nfcPublicKey: String?
    var bindingLearnMoreURL: String?
    var keptVersion: Data?
    var keptPKPass: Data?

    /// The pass with an identifier, serialized once: bind the pass's identifier.
    static func lookup(on sql: any SQLDatabase) -> SerializedSelect {
        SerializedSelect(selecting(in: sql.select()).where(PassRow.column(.id), .equal, SQLBind("")))
    }

    /// The pass of a pass type identifier and serial number, serialized once (a device's fetch of a pass that
    /// may have changed): bind the identifier, then the serial number.
    static func serialLookup(on sql: any SQLDatabase) -> SerializedSelect {
        SerializedSelect(
            selecting(in: sql.select())
                .where(PassTypeRow.column(.passTypeIdentifier), .equal, SQLBind(""))
                .where(PassRow.column(.serialNumber), .equal, SQLBind(""))
                .limit(1))
    }

    /// `query` selecting these columns from a pass joined to what its archive depends on.
    private static func selecting(in query: SQLSelectBuilder) -> SQLSelectBuilder {
        let columns: [(SQLColumn, CodingKeys)] = [
            (PassRow.column(.id), .passID), (PassRow.column(.updatedAt), .updatedAt),
            (PassRow.column(.modifiedAt), .modifiedAt),
            (PassRow.column(.updateTag), .updateTag),
            (PassAuthenticationRow.column(.authenticationTokenHash), .authenticationTokenHash),
            (PassRow.column(.issuerBindingData), .issuerBindingData), (PassRow.column(.keyHash), .keyHash),
            (UserRow.column(.accountHash), .accountHash), (PassTypeRow.column(.signingKeyPath), .signingKeyPath),
            (PassTypeRow.column(.nfcPublicKey), .nfcPublicKey),
            (PassTypeRow.column(.bindingLearnMoreURL), .bindingLearnMoreURL),
            (SignedPassArchiveRow.column(.version), .keptVersion), (SignedPassArchiveRow.column(.pkpass), .keptPKPass),
        ]
        return columns.reduce(query) { $0.column($1.0, as: $1.1.stringValue) }
            .from(PassRow.table)
            .joiningPassTypes()
            .join(TagRow.table, on: TagRow.column(.id), .equal, PassRow.column(.tagID))
            .join(UserRow.table, on: UserRow.column(.id), .equal, TagRow.column(.userID))
            .join(
                SignedPassArchiveRow.table, method: SQLJoinMethod.left, on: SignedPassArchiveRow.column(.passID),
                .equal, PassRow.column(.id)
            )
    }

    /// The version this row describes, with the archive kept.
    func model() throws -> KeptPassArchive {
        KeptPassArchive(
            version: PassArchiveVersion(
                passID: try PassRow.uuid(passID, .id), updatedAt: SQLWalletRepository.date(updatedAt),
                modifiedAt: SQLWalletRepository.date(modifiedAt ?? updatedAt), updateTag: updateTag ?? 0,
                authenticationTokenHash: authenticationTokenHash, issuerBindingData: issuerBindingData,
                keyHash: keyHash, accountHash: accountHash, signingKeyPath: signingKeyPath, nfcPublicKey: nfcPublicKey,
                bindingLearnMoreURL: bindingLearnMoreURL),
            keptDigest: keptVersion, pkpass: keptPKPass)
    }
}
