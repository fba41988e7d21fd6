import Crypto
import CryptoExtras
import Foundation
import Secrets

/// Seals single values for keys whose policy is ``SecurityPolicy/encrypted(algorithm:keyDerivation:)`` but whose
/// domain does not encrypt on its own (UserDefaults, plain files, the key store), and hands key material to the
/// encrypted file stores.
///
/// A sealed value is a small self-describing envelope: format version, cipher, key derivation, PBKDF2 iterations,
/// a random salt and the AEAD box (``Secrets/EncryptionAlgorithm``). The envelope's header and the key's name are
/// authenticated with the value, so a value copied to another key, or a changed header byte, fails to open.
/// Derived keys are cached, and a process reuses one salt per source and derivation, so PBKDF2 runs once per
/// process rather than once per write.
public actor ValueSealer {
    /// The most PBKDF2 iterations an envelope may ask for; more would let a hostile value stall every read.
    public static let maximumIterations = EncryptedFileBackend.maximumIterations
    /// The PBKDF2 iteration counts a policy may ask for when sealing: from the encrypted file store's minimum
    /// (``Secrets/EncryptedFileBackend/minimumIterations``) up. Envelopes sealed with fewer by an earlier version
    /// still open.
    public static let acceptedIterations = EncryptedFileBackend.minimumIterations...maximumIterations
    private static let magic = Data("CLD".utf8)
    private static let version: UInt8 = 1
    private static let saltSize = 16
    private static let headerSize = magic.count + 1 + 1 + 1 + 4 + saltSize

    private let providers: [KeyMaterialSource: any KeyMaterialProviding]
    private var materials: [KeyMaterialSource: Task<KeyMaterial, any Error>] = [:]
    private var sealingSalts: [DerivationContext: Data] = [:]
    private var derivedKeys: [DerivedKeyID: SymmetricKey] = [:]

    /// Uses `providers` for key material.
    public init(providers: [KeyMaterialSource: any KeyMaterialProviding]) {
        self.providers = providers
    }

    /// The material of `source`, asked of its provider once (concurrent first callers share one request).
    ///
    /// - Throws: ``StorageError/missingKeyMaterial(_:)`` when no provider is registered for `source`, and what
    ///   the provider throws (a failed request is not cached: the next call asks again).
    public func keyMaterial(for source: KeyMaterialSource) async throws -> KeyMaterial {
        if let pending = materials[source] {
            return try await pending.value
        }
        guard let provider = providers[source] else { throw StorageError.missingKeyMaterial(source) }
        let request = Task { try await provider.keyMaterial(for: source) }
        materials[source] = request
        do {
            return try await request.value
        } catch {
            materials[source] = nil
            throw error
        }
    }

    /// Encrypts and authenticates `data` for the key named `context`.
    public func seal(
        _ data: Data, algorithm: EncryptionAlgorithm, keyDerivation: KeyDerivation, source: KeyMaterialSource,
        context: String
    ) async throws -> Data {
        let iterations = try Self.iterations(of: keyDerivation)
        let derivation = DerivationContext(source: source, derivation: keyDerivation)
        let salt = sealingSalts[derivation] ?? SecureRandom.bytes(count: Self.saltSize)
        sealingSalts[derivation] = salt
        let key = try await derivedKey(source: source, derivation: keyDerivation, salt: salt)
        var header = Self.magic
        header.append(Self.version)
        header.append(algorithm.envelopeIdentifier)
        header.append(keyDerivation.envelopeIdentifier)
        withUnsafeBytes(of: UInt32(iterations).bigEndian) { header.append(contentsOf: $0) }
        header.append(salt)
        var envelope = header
        try algorithm.seal(
            data, using: key, authenticating: Self.associatedData(header: header, context: context),
            appendingTo: &envelope)
        return envelope
    }

    /// Checks and decrypts an envelope from ``seal(_:algorithm:keyDerivation:source:context:)``.
    ///
    /// - Throws: `corruptData` for bytes that are not an envelope (truncated, another format, an unknown cipher),
    ///   `authenticationFailed` when the value was changed, moved from another key or sealed with other key
    ///   material.
    public func open(_ envelope: Data, source: KeyMaterialSource, context: String) async throws -> Data {
        let bytes = [UInt8](envelope)
        guard bytes.count >= Self.headerSize + EncryptionAlgorithm.sealedOverhead,
            bytes.starts(with: Self.magic), bytes[3] == Self.version,
            let algorithm = EncryptionAlgorithm(envelopeIdentifier: bytes[4])
        else { throw SecretsError.corruptData("the encrypted value of '\(context)' (not a LocalData envelope)") }
        let iterations = Int(bytes[6..<10].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let derivation: KeyDerivation
        switch bytes[5] {
        case KeyDerivation.hkdf.envelopeIdentifier: derivation = .hkdf
        case KeyDerivation.pbkdf2(iterations: 0).envelopeIdentifier:
            guard (1...Self.maximumIterations).contains(iterations) else {
                throw SecretsError.corruptData("the encrypted value of '\(context)' (\(iterations) iterations)")
            }
            derivation = .pbkdf2(iterations: iterations)
        default: throw SecretsError.corruptData("the encrypted value of '\(context)' (unknown key derivation)")
        }
        let header = Data(bytes[0..<Self.headerSize])
        let salt = Data(bytes[(Self.headerSize - Self.saltSize)..<Self.headerSize])
        let key = try await derivedKey(source: source, derivation: derivation, salt: salt)
        do {
            return try algorithm.open(
                envelope.dropFirst(Self.headerSize), using: key,
                authenticating: Self.associatedData(header: header, context: context))
        } catch {
            throw SecretsError.authenticationFailed(item: "the encrypted value of '\(context)'")
        }
    }

    private func derivedKey(source: KeyMaterialSource, derivation: KeyDerivation, salt: Data) async throws
        -> SymmetricKey
    {
        let id = DerivedKeyID(context: DerivationContext(source: source, derivation: derivation), salt: salt)
        if let key = derivedKeys[id] { return key }
        let material = try await keyMaterial(for: source)
        let key: SymmetricKey
        switch (material, derivation) {
        case (.passphrase(let passphrase), .pbkdf2(let iterations)):
            guard !passphrase.isEmpty else { throw SecretsError.unsupported("an empty passphrase for \(source)") }
            key = try KeyEncryptionKey.stretch(passphrase, salt: salt, iterations: iterations)
        case (.key(let material), .hkdf):
            key = KeyEncryptionKey.expand(material, salt: salt, info: "coffer.localdata.value.v1")
        default:
            throw StorageError.keyMaterialMismatch(source: source, keyDerivation: derivation)
        }
        if derivedKeys.count >= 64 { derivedKeys.removeAll() }
        derivedKeys[id] = key
        return key
    }

    private static func iterations(of derivation: KeyDerivation) throws -> Int {
        guard case .pbkdf2(let iterations) = derivation else { return 0 }
        guard acceptedIterations.contains(iterations) else {
            throw SecretsError.unsupported(
                "\(iterations) PBKDF2 iterations (use \(acceptedIterations.lowerBound) to \(maximumIterations))")
        }
        return iterations
    }

    private static func associatedData(header: Data, context: String) -> Data {
        header + Data("|coffer.localdata|\(context)".utf8)
    }

    /// A source with a derivation: what one sealing salt is kept for.
    private struct DerivationContext: Hashable {
        let source: KeyMaterialSource
        let derivation: KeyDerivation
    }

    /// What a derived key is cached under.
    private struct DerivedKeyID: Hashable {
        let context: DerivationContext
        let salt: Data
    }
}

extension EncryptionAlgorithm {
    /// The byte that names the cipher in a LocalData envelope.
    fileprivate var envelopeIdentifier: UInt8 {
        switch self {
        case .aes256GCM: return 1
        case .chaCha20Poly1305: return 2
        }
    }

    fileprivate init?(envelopeIdentifier: UInt8) {
        guard let match = Self.allCases.first(where: { $0.envelopeIdentifier == envelopeIdentifier }) else {
            return nil
        }
        self = match
    }
}

extension KeyDerivation {
    /// The byte that names the derivation in a LocalData envelope.
    fileprivate var envelopeIdentifier: UInt8 {
        switch self {
        case .pbkdf2: return 1
        case .hkdf: return 2
        }
    }
}
