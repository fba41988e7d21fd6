import Crypto
import Foundation
import Logging
import Secrets
import SecretsAudit

extension WalletAdministration {
    /// Makes a new P-256 NFC key for the pass type and makes it the current one: its private key is kept in the
    /// secret store, its public key goes into every NFC pass of the type from now on. An earlier key is kept, so
    /// that passes issued under it stay readable until they are next updated (a rotation).
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type.
    @discardableResult
    public func createNFCKey(passTypeID: UUID) async throws -> PassTypeNFCKey {
        try await storeNFCKey(P256.KeyAgreement.PrivateKey(), passTypeID: passTypeID, how: "made")
    }

    /// Imports the NFC key a reader vendor gave (a P-256 private key, PKCS#8 or SEC 1 PEM) as the pass type's current
    /// one.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` when `pem` is not a P-256 private key.
    @discardableResult
    public func importNFCKey(passTypeID: UUID, pem: String) async throws -> PassTypeNFCKey {
        let key: P256.KeyAgreement.PrivateKey
        do {
            key = try P256.KeyAgreement.PrivateKey(pemRepresentation: pem)
        } catch {
            throw WalletServerError.invalidArgument("the NFC key is not a P-256 private key in PEM (PKCS#8 or SEC 1)")
        }
        return try await storeNFCKey(key, passTypeID: passTypeID, how: "imported")
    }

    /// The pass type's NFC keys, newest (the current one) first.
    public func nfcKeys(passTypeID: UUID) async throws -> [PassTypeNFCKey] {
        _ = try await existingPassType(passTypeID)
        return try await repository.nfcKeys(passTypeID: passTypeID)
    }

    /// The private key of the pass type's NFC key `keyID` (the current one when `nil`) as PKCS#8 PEM, for the NFC
    /// reader's vendor.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when the pass type has no such key.
    public func nfcPrivateKeyPEM(passTypeID: UUID, keyID: UUID? = nil) async throws -> String {
        let keys = try await nfcKeys(passTypeID: passTypeID)
        guard let key = keyID.map({ id in keys.first { $0.id == id } }) ?? keys.first else {
            throw WalletServerError.notFound("an NFC key of pass type \(passTypeID)")
        }
        guard let data = try secrets.readData(account: key.keyPath),
            let pem = String(data: data, encoding: .utf8)
        else {
            throw WalletServerError.secretUnusable("the NFC key at \(key.keyPath) is missing from the secret store")
        }
        logger.notice(
            "exported the private key of a pass type's NFC key",
            metadata: ["pass_type": "\(passTypeID)", "key": "\(key.id)"])
        return pem
    }

    private func storeNFCKey(_ key: P256.KeyAgreement.PrivateKey, passTypeID: UUID, how: String) async throws
        -> PassTypeNFCKey
    {
        let passType = try await existingPassType(passTypeID)
        let keyPath = "wallet/pass-types/\(passType.passTypeIdentifier)/nfc/\(SecureRandom.hex(byteCount: 8))"
        try SecretPath.validate(path: keyPath)
        try secrets.saveData(Data(key.pemRepresentation.utf8), account: keyPath)
        let record = PassTypeNFCKey(
            passTypeID: passType.id, publicKey: key.publicKey.derRepresentation.base64EncodedString(), keyPath: keyPath)
        do {
            try await repository.addNFCKey(record)
        } catch {
            _ = try? secrets.deleteData(account: keyPath)
            throw error
        }
        logger.notice(
            "\(how) an NFC key for a pass type",
            metadata: ["pass_type": "\(passType.passTypeIdentifier)", "key": "\(record.id)"])
        return record
    }
}
