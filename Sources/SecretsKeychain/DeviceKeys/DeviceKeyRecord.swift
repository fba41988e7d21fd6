import Foundation
import Secrets

/// A device key as the store keeps it: what it is, and its material (a Secure Enclave key's opaque data
/// representation, or a software key's private key).
struct DeviceKeyRecord: Codable, Sendable {
    /// The record's format.
    var version = 1
    var purpose: DeviceKeyPurpose
    var storage: DeviceKeyStorage
    var protection: DeviceKeyProtection
    /// The Secure Enclave's data representation, or the software key's raw private key.
    var material: Data
    /// The public key, X9.63.
    var publicKey: Data

    /// The record stored at an item's bytes.
    init(
        purpose: DeviceKeyPurpose, storage: DeviceKeyStorage, protection: DeviceKeyProtection, material: Data,
        publicKey: Data
    ) {
        self.purpose = purpose
        self.storage = storage
        self.protection = protection
        self.material = material
        self.publicKey = publicKey
    }

    /// Reads a record, or throws `corruptData` naming `name`.
    init(_ data: Data, name: String) throws(SecretsError) {
        guard let record = try? JSONDecoder().decode(DeviceKeyRecord.self, from: data), record.version == 1 else {
            throw .corruptData("the device key \(SecretsError.quoted(name))")
        }
        self = record
    }

    /// The bytes to store.
    func encoded() throws(SecretsError) -> Data {
        do {
            return try JSONEncoder().encode(self)
        } catch {
            throw .encodingFailed(type: "DeviceKeyRecord", reason: "\(type(of: error))")
        }
    }
}
