import Foundation
import WalletServices

/// A row of `pass_type_nfc_keys`: one of a pass type's NFC keys.
struct PassTypeNFCKeyRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_type_nfc_keys"

    /// The columns of `pass_type_nfc_keys`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case passTypeID = "pass_type_id"
        case publicKey = "public_key"
        case keyPath = "key_path"
        case createdAt = "created_at"
    }

    /// The key's identifier.
    var id: String
    /// The pass type the key belongs to.
    var passTypeID: String
    /// The key's public half.
    var publicKey: String
    /// Where the key's private half is kept.
    var keyPath: String
    /// When the key was made, in milliseconds.
    var createdAt: Int64

    /// The row that stores `key`.
    init(_ key: PassTypeNFCKey) {
        id = key.id.uuidString
        passTypeID = key.passTypeID.uuidString
        publicKey = key.publicKey
        keyPath = key.keyPath
        createdAt = SQLWalletRepository.ms(key.createdAt)
    }

    /// The key this row stores.
    func model() throws -> PassTypeNFCKey {
        PassTypeNFCKey(
            id: try Self.uuid(id, .id), passTypeID: try Self.uuid(passTypeID, .passTypeID), publicKey: publicKey,
            keyPath: keyPath, createdAt: SQLWalletRepository.date(createdAt))
    }
}
