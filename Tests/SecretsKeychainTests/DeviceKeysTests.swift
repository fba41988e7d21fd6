import Crypto
import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("Device keys: P-256 keys in the Secure Enclave, kept as items, never a silent software fallback")
struct DeviceKeysTests {
    let keychain = makeKeychain()
    var backend: AppleKeychainBackend { AppleKeychainBackend(emulator: keychain) }
    func keys(enclave: (any SecureEnclaveClient)? = nil) -> DeviceKeys {
        DeviceKeys(backend: backend, service: "app", enclave: enclave ?? SecureEnclaveEmulator(device: keychain))
    }
    let message = Data("challenge-42".utf8)

    @Test("a Secure Enclave signing key signs; anyone verifies with its public key; it is listed and deleted")
    func signing() throws {
        let keys = keys()
        let key = try keys.makeSigningKey(named: "login")
        let signature = try key.signature(for: message)
        #expect(key.isValidSignature(signature, for: message))
        let published = try P256.Signing.PublicKey(derRepresentation: key.publicKey.derRepresentation)
        #expect(published.isValidSignature(signature, for: message))
        #expect(!published.isValidSignature(signature, for: Data("other".utf8)))

        let again = try #require(try keys.signingKey(named: "login"))
        #expect(again.isValidSignature(try again.signature(for: message), for: message))
        #expect(try keys.names() == ["login"])
        #expect(key.description == "DeviceSigningKey('login', secure-enclave, none)")
        #expect(try keys.delete(named: "login"))
        #expect(try keys.signingKey(named: "login") == nil)
        #expect(try keys.names().isEmpty)
    }

    @Test("the stored key data works only on the device that made it")
    func deviceBound() throws {
        _ = try keys().makeSigningKey(named: "login")
        let otherDevice = keys(enclave: SecureEnclaveEmulator(device: keychain))
        let key = try #require(try otherDevice.signingKey(named: "login"))
        expectSecretsError("corruptData") { _ = try key.signature(for: message) }
    }

    @Test("a Secure Enclave key-agreement key agrees the secret the other party computes")
    func keyAgreement() throws {
        let key = try keys().makeKeyAgreementKey(named: "pairing")
        let other = P256.KeyAgreement.PrivateKey()
        let ours = try key.sharedSecret(with: other.publicKey)
        let theirs = try other.sharedSecretFromKeyAgreement(with: key.publicKey)
        #expect(ours == theirs)
        expectSecretsError("decodingFailed") { _ = try keys().signingKey(named: "pairing") }
    }

    @Test("a key behind biometry prompts once per context, never in the background, and says when cancelled")
    func protectedUse() throws {
        let key = try keys().makeSigningKey(named: "pay", protection: .biometryAny)
        #expect(keychain.prompts.isEmpty, "making a key prompts for nothing")
        let unlock = AuthenticationContext(reason: "Confirm the payment")
        _ = try key.signature(for: message, authentication: unlock)
        _ = try key.signature(for: message, authentication: unlock)
        #expect(keychain.prompts.map(\.reason) == ["Confirm the payment"])
        expectSecretsError("authenticationRequired") {
            _ = try key.signature(for: message, authentication: .background())
        }
        keychain.respondToPrompts(.cancel, .deny)
        expectSecretsError("authenticationCancelled") { _ = try key.signature(for: message) }
        expectSecretsError("authenticationDenied") { _ = try key.signature(for: message) }
        keychain.setLocked(true)
        expectSecretsError("locked") { _ = try key.signature(for: message, authentication: .background()) }
    }

    @Test("a key bound to the current biometry is gone once it changes; one for any biometry still signs")
    func biometryChanged() throws {
        let keys = keys()
        let bound = try keys.makeSigningKey(named: "bound", protection: .biometryCurrentSet)
        let any = try keys.makeSigningKey(named: "any", protection: .biometryAny)
        keychain.changeBiometryEnrollment()
        expectSecretsError("biometryChanged") { _ = try bound.signature(for: message) }
        #expect(any.isValidSignature(try any.signature(for: message), for: message))
    }

    @Test("without a Secure Enclave a Secure Enclave key is unsupported; a software key only when asked")
    func noSecureEnclave() throws {
        let keys = keys(enclave: SecureEnclaveEmulator(device: keychain, isAvailable: false))
        expectSecretsError("unsupported") { _ = try keys.makeSigningKey(named: "login") }
        #expect(try keys.names().isEmpty, "nothing was stored in its place")
        let software = try keys.makeSigningKey(named: "login", storage: .software)
        #expect(software.storage == .software)
        #expect(software.isValidSignature(try software.signature(for: message), for: message))
        #if !canImport(CryptoKit)
            #expect(!DeviceKeys.platformEnclave.isAvailable, "Linux has no Secure Enclave")
        #endif
    }

    @Test(
        "two makes of one name at once: one key is made and kept, the other refused (Keychain, memory)",
        arguments: [true, false])
    func concurrentMakes(inKeychain: Bool) throws {
        // Both makes pass the name check before either stores its record.
        let store = RendezvousBackend(inKeychain ? backend : InMemoryBackend(), parties: 2)
        let keys = DeviceKeys(backend: store, service: "app", enclave: SecureEnclaveEmulator(device: keychain))
        let made = Locked([DeviceSigningKey]())
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let key = try? keys.makeSigningKey(named: "login") { made.withLock { $0.append(key) } }
        }
        let winners = made.withLock { $0 }
        #expect(winners.count == 1, "the other make was refused")
        let stored = try #require(try keys.signingKey(named: "login"))
        #expect(stored.publicKey.derRepresentation == winners.first?.publicKey.derRepresentation)
    }

    /// A backend that holds each caller of `listAccounts` until `parties` callers have arrived (or a second passed),
    /// so that concurrent checks really overlap; everything else goes to `wrapped`.
    final class RendezvousBackend: SecretsExclusiveCreating {
        let wrapped: any SecretsExclusiveCreating
        let parties: Int
        private let arrived = Locked(0)
        private let release = DispatchSemaphore(value: 0)

        init(_ wrapped: any SecretsExclusiveCreating, parties: Int) {
            self.wrapped = wrapped
            self.parties = parties
        }

        func listAccounts(service: String, accessGroup: String?) throws -> [String] {
            let count = arrived.withLock {
                $0 += 1
                return $0
            }
            if count == parties {
                for _ in 1..<parties { release.signal() }
            } else if count < parties {
                _ = release.wait(timeout: .now() + 1)
            }
            return try wrapped.listAccounts(service: service, accessGroup: accessGroup)
        }
        func create<Value>(_ data: Data, for query: SecretQuery<Value>) throws -> Bool {
            try wrapped.create(data, for: query)
        }
        func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws { try wrapped.save(data, for: query) }
        func read<Value>(_ query: SecretQuery<Value>) throws -> Data? { try wrapped.read(query) }
        func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { try wrapped.delete(query) }
    }

    @Test("a protected software key needs a store that enforces it: the Keychain prompts to read it, files refuse")
    func protectedSoftwareKey() throws {
        let files = DeviceKeys(
            backend: InMemoryBackend(), service: "app", enclave: SecureEnclaveEmulator(device: keychain))
        expectSecretsError("unsupported") {
            _ = try files.makeSigningKey(named: "login", protection: .biometryAny, storage: .software)
        }
        _ = try files.makeSigningKey(named: "plain", storage: .software)

        let keys = keys()
        _ = try keys.makeSigningKey(named: "login", protection: .biometryAny, storage: .software)
        expectSecretsError("authenticationRequired") {
            _ = try keys.signingKey(named: "login", authentication: .background())
        }
        let key = try #require(
            try keys.signingKey(named: "login", authentication: AuthenticationContext(reason: "Sign in")))
        #expect(keychain.prompts.map(\.reason) == ["Sign in"])
        #expect(key.isValidSignature(try key.signature(for: message), for: message))
    }

    @Test("a name in use is refused, a bad name is invalid, a damaged record is corruptData")
    func badInput() throws {
        let keys = keys()
        _ = try keys.makeSigningKey(named: "login")
        expectSecretsError("invalidIdentifier") { _ = try keys.makeSigningKey(named: "login") }
        expectSecretsError("invalidIdentifier") { _ = try keys.makeSigningKey(named: "../escape") }
        try backend.save(
            Data("{not json".utf8),
            for: SecretQuery<Data>(
                service: "app", account: "device-keys/damaged", accessPolicy: .neverLeavesThisDevice))
        expectSecretsError("corruptData") { _ = try keys.signingKey(named: "damaged") }
    }
}
