import Crypto
import CryptoExtras
import Foundation

/// Writes an encrypted store in format version 1 (docs/file-store-format.md as it stood before the header was
/// authenticated) by following the document alone, with swift-crypto: the store an earlier Coffer left behind.
struct VersionOneStore {
    let directory: URL
    let passphrase: String
    let iterations = 1_000
    let storeID = UUID().uuidString
    let masterKey = SymmetricKey(size: .bits256)
    let dataKey = SymmetricKey(size: .bits256)
    let dataKeyID = "0123456789abcdef"

    /// Writes `store.json` and one item file per entry of `items` (account → value, service `svc`).
    func write(items: [String: String]) throws {
        let itemsDirectory = directory.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: itemsDirectory, withIntermediateDirectories: true)
        let salt = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let kek = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(passphrase.utf8), salt: salt, using: .sha256, outputByteCount: 32,
            unsafeUncheckedRounds: iterations)
        let header: [String: Any] = [
            "format": "coffer-encrypted-file-store", "version": 1, "storeID": storeID,
            "keyWrapAlgorithm": "aes-256-gcm", "itemAlgorithm": "aes-256-gcm",
            "masterKey": [
                "protection": "pbkdf2-hmac-sha256", "iterations": iterations, "salt": salt.base64EncodedString(),
                "wrapped": try seal(masterKey, under: kek, "coffer.master-key.v1|\(storeID)").base64EncodedString(),
            ],
            "dataKeys": [
                [
                    "id": dataKeyID, "created": "2026-01-02T03:04:05Z",
                    "wrapped": try seal(dataKey, under: masterKey, "coffer.data-key.v1|\(storeID)|\(dataKeyID)")
                        .base64EncodedString(),
                ]
            ],
            "currentDataKeyID": dataKeyID,
        ]
        try JSONSerialization.data(withJSONObject: header).write(to: directory.appendingPathComponent("store.json"))
        for (account, value) in items {
            let identity = Self.identity(service: "svc", account: account)
            try item(value: Data(value.utf8), identity: identity).write(
                to: itemsDirectory.appendingPathComponent(fileName(of: identity)))
        }
    }

    /// The file name of the item at `account`.
    func fileName(ofAccount account: String) -> String {
        fileName(of: Self.identity(service: "svc", account: account))
    }

    private func fileName(of identity: Data) -> String {
        let nameKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, salt: Data(storeID.utf8), info: Data("coffer.item-names.v1".utf8),
            outputByteCount: 32)
        return HMAC<SHA256>.authenticationCode(for: identity, using: nameKey).map { String(format: "%02x", $0) }
            .joined() + ".item"
    }

    private func item(value: Data, identity: Data) throws -> Data {
        var prefix = Data("CFEI".utf8)
        prefix.append(contentsOf: [1, 1])
        prefix.append(
            contentsOf: stride(from: 0, to: 16, by: 2).map { offset in
                let start = dataKeyID.index(dataKeyID.startIndex, offsetBy: offset)
                return UInt8(dataKeyID[start..<dataKeyID.index(start, offsetBy: 2)], radix: 16)!
            })
        let sealedIdentity = try AES.GCM.seal(identity, using: dataKey, authenticating: prefix + Data("identity".utf8))
            .combined!
        let sealedValue = try AES.GCM.seal(value, using: dataKey, authenticating: prefix + identity).combined!
        var file = prefix
        withUnsafeBytes(of: UInt32(sealedIdentity.count).bigEndian) { file.append(contentsOf: $0) }
        return file + sealedIdentity + sealedValue
    }

    private func seal(_ key: SymmetricKey, under wrappingKey: SymmetricKey, _ context: String) throws -> Data {
        try key.withUnsafeBytes {
            try AES.GCM.seal(Data($0), using: wrappingKey, authenticating: Data(context.utf8)).combined!
        }
    }

    /// An identity as the document encodes it: u16-prefixed service, no access group (u8 0, u16 0), u16-prefixed
    /// account.
    static func identity(service: String, account: String) -> Data {
        var bytes = Data()
        for (index, part) in [service, account].enumerated() {
            if index == 1 { bytes.append(contentsOf: [0, 0, 0]) }
            withUnsafeBytes(of: UInt16(part.utf8.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: part.utf8)
        }
        return bytes
    }
}
