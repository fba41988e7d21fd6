import Crypto
import Foundation
import Secrets

/// P-256 keys made on this device, kept as items of a store: signing and key-agreement keys inside the Secure
/// Enclave (their private part never leaves it; the store keeps its opaque, device-bound data representation), or
/// in software when the caller asks for that explicitly.
///
/// ```swift
/// let keys = DeviceKeys(backend: AppleKeychainBackend(), service: "com.example.app")
/// let key = try keys.makeSigningKey(named: "login", protection: .biometryCurrentSet)
/// let signature = try key.signature(for: challenge, authentication: unlock)
/// server.register(key.publicKey.derRepresentation)
/// ```
///
/// Where there is no Secure Enclave (Linux, the simulator, a Mac without one) making a Secure Enclave key is
/// `unsupported`, never a software key in its place: pass `storage: .software` for that. A software key is a secret
/// like any other, as safe as its store; protecting one with the user's authentication needs a store that enforces
/// it (the Keychain), else it is `unsupported` too. Keys are items under `device-keys/` in `service`: listed
/// (``names()``) and deleted (``delete(named:)``) like other items, never synced.
public struct DeviceKeys: Sendable {
    /// The store the keys' items are in.
    public let backend: any SecretsBackend
    /// The service the items are under.
    public let service: String
    /// Their access group, or `nil` for the default one.
    public let accessGroup: String?
    /// The Secure Enclave keys are made in.
    public let enclave: any SecureEnclaveClient

    /// The prefix of the keys' accounts.
    static let accountPrefix = "device-keys/"

    /// Creates the keys of `service` in `backend`, made in `enclave` (this device's).
    public init(
        backend: any SecretsBackend, service: String, accessGroup: String? = nil,
        enclave: any SecureEnclaveClient = DeviceKeys.platformEnclave
    ) {
        self.backend = backend
        self.service = service
        self.accessGroup = accessGroup
        self.enclave = enclave
    }

    /// This device's Secure Enclave: CryptoKit's on Apple platforms, none elsewhere.
    public static var platformEnclave: any SecureEnclaveClient {
        #if canImport(CryptoKit) && canImport(LocalAuthentication) && canImport(Security)
            LiveSecureEnclave()
        #else
            NoSecureEnclave()
        #endif
    }

    /// Makes a signing key named `name`, kept in the store.
    ///
    /// - Throws: `unsupported` for a Secure Enclave key where there is none, or a protected software key in a store
    ///   that cannot enforce it; `invalidIdentifier` when a key has that name already.
    public func makeSigningKey(
        named name: String, protection: DeviceKeyProtection = .none, storage: DeviceKeyStorage = .secureEnclave
    ) throws(SecretsError) -> DeviceSigningKey {
        let record = try make(.signing, named: name, protection: protection, storage: storage)
        return try signingKey(name, record)
    }

    /// Makes a key-agreement key named `name`, kept in the store (throws as
    /// ``makeSigningKey(named:protection:storage:)``).
    public func makeKeyAgreementKey(
        named name: String, protection: DeviceKeyProtection = .none, storage: DeviceKeyStorage = .secureEnclave
    ) throws(SecretsError) -> DeviceKeyAgreementKey {
        let record = try make(.keyAgreement, named: name, protection: protection, storage: storage)
        return try keyAgreementKey(name, record)
    }

    /// The signing key named `name`, or `nil`; a protected software key's item is read through `authentication`.
    public func signingKey(named name: String, authentication: AuthenticationContext? = nil) throws(SecretsError)
        -> DeviceSigningKey?
    {
        guard let record = try record(named: name, authentication: authentication) else { return nil }
        return try signingKey(name, record)
    }

    /// The key-agreement key named `name`, or `nil`.
    public func keyAgreementKey(named name: String, authentication: AuthenticationContext? = nil)
        throws(SecretsError) -> DeviceKeyAgreementKey?
    {
        guard let record = try record(named: name, authentication: authentication) else { return nil }
        return try keyAgreementKey(name, record)
    }

    /// The names of the keys in the store, sorted.
    public func names() throws(SecretsError) -> [String] {
        try SecretsError.catching {
            try backend.listAccounts(service: service, accessGroup: accessGroup)
                .filter { $0.hasPrefix(Self.accountPrefix) }
                .map { String($0.dropFirst(Self.accountPrefix.count)) }
        }
    }

    /// Deletes the key named `name`; returns whether there was one. A Secure Enclave key is gone for good.
    @discardableResult
    public func delete(named name: String) throws(SecretsError) -> Bool {
        try SecretsError.catching { try backend.delete(query(name)) }
    }

    // MARK: Making and reading

    /// Serializes making keys in stores that cannot create an item exclusively.
    private static let making = Locked(())

    private func make(
        _ purpose: DeviceKeyPurpose, named name: String, protection: DeviceKeyProtection, storage: DeviceKeyStorage
    ) throws(SecretsError) -> DeviceKeyRecord {
        let query = query(name, storage: storage, protection: protection)
        try SecretsError.catching { try query.validate() }
        if try names().contains(name) {
            throw .invalidIdentifier(name, reason: "a device key has this name already; delete it first")
        }
        let record: DeviceKeyRecord
        switch storage {
        case .secureEnclave:
            guard enclave.isAvailable else {
                throw .unsupported(
                    "this device has no Secure Enclave (Linux, the simulator, or a Mac without one); pass "
                        + "storage: .software to make a software key instead")
            }
            let (keyData, publicKey) = try enclave.makeKey(purpose, protection: protection)
            record = DeviceKeyRecord(
                purpose: purpose, storage: storage, protection: protection, material: keyData, publicKey: publicKey)
        case .software:
            guard protection == .none || backend is AppleKeychainBackend else {
                throw .unsupported(
                    "a software key protected by \(protection.rawValue) needs a store that enforces access control "
                        + "(the Keychain); \(backend.backendName) would keep it unprotected")
            }
            let (material, publicKey) = purpose.makeSoftwareKey()
            record = DeviceKeyRecord(
                purpose: purpose, storage: storage, protection: protection, material: material, publicKey: publicKey)
        }
        let bytes = try record.encoded()
        let created = try SecretsError.catching {
            if let exclusive = backend as? any SecretsExclusiveCreating {
                return try exclusive.create(bytes, for: query)
            }
            // A store that cannot create exclusively: makes of one store are serialized in this process, at least.
            return try Self.making.withLock { _ in
                guard try backend.read(query) == nil else { return false }
                try backend.save(bytes, for: query)
                return true
            }
        }
        guard created else {
            // Another call made a key of this name first; the one just made is dropped, never the stored one.
            throw .invalidIdentifier(name, reason: "a device key has this name already; delete it first")
        }
        return record
    }

    /// The record named `name`, its item read through `authentication`.
    private func record(named name: String, authentication: AuthenticationContext?) throws(SecretsError)
        -> DeviceKeyRecord?
    {
        var query = query(name)
        query.authentication = authentication
        let data = try SecretsError.catching { try backend.read(query) }
        guard let data else { return nil }
        return try DeviceKeyRecord(data, name: name)
    }

    private func signingKey(_ name: String, _ record: DeviceKeyRecord) throws(SecretsError) -> DeviceSigningKey {
        guard record.purpose == .signing,
            let publicKey = try? P256.Signing.PublicKey(x963Representation: record.publicKey)
        else {
            throw .decodingFailed(
                account: name, type: "DeviceSigningKey", reason: "it is a \(record.purpose.rawValue) key")
        }
        return DeviceSigningKey(
            name: name, storage: record.storage, protection: record.protection,
            publicKeyValue: ImmutableValue(publicKey),
            material: record.material, enclave: enclave)
    }

    private func keyAgreementKey(_ name: String, _ record: DeviceKeyRecord) throws(SecretsError)
        -> DeviceKeyAgreementKey
    {
        guard record.purpose == .keyAgreement,
            let publicKey = try? P256.KeyAgreement.PublicKey(x963Representation: record.publicKey)
        else {
            throw .decodingFailed(
                account: name, type: "DeviceKeyAgreementKey", reason: "it is a \(record.purpose.rawValue) key")
        }
        return DeviceKeyAgreementKey(
            name: name, storage: record.storage, protection: record.protection,
            publicKeyValue: ImmutableValue(publicKey),
            material: record.material, enclave: enclave)
    }

    /// The key's item: never synced; readable while unlocked on this device only; a software key's item carries
    /// its protection (a Secure Enclave key's protection is the Enclave's).
    private func query(
        _ name: String, storage: DeviceKeyStorage = .secureEnclave, protection: DeviceKeyProtection = .none
    ) -> SecretQuery<Data> {
        SecretQuery(
            service: service, account: Self.accountPrefix + name, accessGroup: accessGroup, synchronizable: false,
            accessPolicy: AccessPolicy(
                accessibility: .whenUnlockedThisDeviceOnly,
                accessControl: storage == .software ? protection.accessControl : []))
    }
}

/// The Secure Enclave of a platform without one: every call is `unsupported`.
struct NoSecureEnclave: SecureEnclaveClient {
    var isAvailable: Bool { false }
    private var unsupported: SecretsError { .unsupported("this platform has no Secure Enclave") }
    func makeKey(_ purpose: DeviceKeyPurpose, protection: DeviceKeyProtection) throws(SecretsError)
        -> (keyData: Data, publicKey: Data)
    { throw unsupported }
    func signature(for message: Data, keyData: Data, authentication: AuthenticationContext?) throws(SecretsError)
        -> Data
    { throw unsupported }
    func sharedSecret(
        keyData: Data, with publicKey: P256.KeyAgreement.PublicKey, authentication: AuthenticationContext?
    )
        throws(SecretsError) -> SharedSecret
    { throw unsupported }
}

/// An immutable value of a type the iOS 16 SDK does not yet mark `Sendable` (CryptoKit's public keys), shared
/// between tasks: it is never mutated after it is made.
struct ImmutableValue<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
