import Foundation
import Logging
import Secrets
import SecretsKeychain
import SecretsSecretService

/// The platform's default secret store: the Keychain on Apple platforms; on Linux the Secret Service when one
/// answers on the session bus, and the encrypted file store otherwise. It says which it chose, and why.
public enum SecretsStack {
    /// A kind of store ``SecretsStack`` can choose.
    public enum Kind: String, Sendable, CustomStringConvertible {
        /// The Apple Keychain (``SecretsKeychain/AppleKeychainBackend``).
        case keychain
        /// The Linux Secret Service (``SecretsSecretService/SecretServiceBackend``).
        case secretService = "secret-service"
        /// The encrypted file store (``Secrets/EncryptedFileBackend``).
        case encryptedFile = "encrypted-file"

        /// The kind's name.
        public var description: String { rawValue }
    }

    /// The backend chosen, its kind and the reason for the choice.
    public struct Selection: Sendable {
        /// The backend.
        public let backend: any SecretsBackend
        /// What kind of store it is.
        public let kind: Kind
        /// Why it was chosen, for a log line or a note to the user.
        public let reason: String
        /// What tells reads waiting for the device to be unlocked that it is: the Keychain's lock probe on devices
        /// that lock (iOS, iPadOS, watchOS, tvOS, visionOS); `nil` elsewhere, where a locked store is answered at once.
        public let protectedData: (any ProtectedDataMonitor)?

        init(backend: any SecretsBackend, kind: Kind, reason: String) {
            self.backend = backend
            self.kind = kind
            self.reason = reason
            #if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
                self.protectedData = (backend as? AppleKeychainBackend).map { KeychainUnlockMonitor(backend: $0) }
            #else
                self.protectedData = nil
            #endif
        }
    }

    /// Chooses the platform's store.
    ///
    /// - Parameters:
    ///   - configuration: The store directory for the file store fallback.
    ///   - fileStoreKey: Called only when the encrypted file store is chosen, for what unlocks it; without it,
    ///     that choice throws `unavailable`.
    ///   - secretServiceTimeout: How long the Secret Service may take to answer the first call.
    /// - Throws: What `fileStoreKey` or opening the file store throws.
    public static func select(
        configuration: SecretsConfiguration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment),
        fileStoreKey: (() throws -> KeySource)? = nil,
        secretServiceTimeout: TimeInterval = 2
    ) throws -> Selection {
        #if canImport(Security)
            // The Keychain when this process can use it. An unsigned macOS tool cannot (the data protection keychain
            // answers errSecMissingEntitlement): probe once, and fall back to the encrypted file store (KeychainProbe).
            let client = LiveSecItemClient()
            switch KeychainProbe.verdict(for: KeychainProbe.status(of: client), on: .current) {
            case .useKeychain(let reason):
                return Selection(backend: AppleKeychainBackend(client: client), kind: .keychain, reason: reason)
            case .fallBack(let why):
                return try encryptedFileStore(because: why, configuration: configuration, key: fileStoreKey)
            }
        #else
            let why: String
            do {
                try SecretServiceBackend.checkReachable(timeout: secretServiceTimeout)
                return Selection(
                    backend: SecretServiceBackend(), kind: .secretService,
                    reason: "a Secret Service answers on the session bus")
            } catch .unavailable(let reason) {
                why = reason
            } catch {
                why = error.description
            }
            return try encryptedFileStore(because: why, configuration: configuration, key: fileStoreKey)
        #endif
    }

    /// The fallback when the platform's own store cannot be used: the encrypted file store, with `why` in the reason.
    ///
    /// - Throws: `unavailable` (saying `why`) when there is no `key` to open it with.
    private static func encryptedFileStore(
        because why: String, configuration: SecretsConfiguration, key: (() throws -> KeySource)?
    ) throws -> Selection {
        guard let key else {
            throw SecretsError.unavailable(
                "\(why), and no passphrase or key file was given for the encrypted file store")
        }
        let backend = try EncryptedFileBackend(directory: configuration.storeDirectory, key: try key())
        return Selection(
            backend: backend, kind: .encryptedFile,
            reason: "\(why); using the encrypted file store at " + configuration.storeDirectory.path)
    }

    /// The platform's store as a typed store, logging which backend was chosen and why.
    public static func make(
        configuration: SecretsConfiguration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment),
        fileStoreKey: (() throws -> KeySource)? = nil,
        logger: Logger = Logger(label: "coffer.secrets")
    ) throws -> AggregateSecretsStore {
        let selection = try selectLogging(configuration: configuration, fileStoreKey: fileStoreKey, logger: logger)
        return AggregateSecretsStore(backend: selection.backend, configuration: configuration)
    }

    /// The platform's store as a ``Secrets/SecretsStore`` shared by the app's tasks, logging which backend was chosen
    /// and why; on devices that lock, its reads can wait for the unlock (``Selection/protectedData``).
    public static func makeSharedStore(
        configuration: SecretsConfiguration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment),
        fileStoreKey: (() throws -> KeySource)? = nil,
        logger: Logger = Logger(label: "coffer.secrets")
    ) throws -> SecretsStore {
        let selection = try selectLogging(configuration: configuration, fileStoreKey: fileStoreKey, logger: logger)
        return SecretsStore(
            AggregateSecretsStore(backend: selection.backend, configuration: configuration),
            protectedData: selection.protectedData)
    }

    /// ``select(configuration:fileStoreKey:secretServiceTimeout:)``, logging the choice and its reason.
    private static func selectLogging(
        configuration: SecretsConfiguration, fileStoreKey: (() throws -> KeySource)?, logger: Logger
    ) throws -> Selection {
        let selection = try select(configuration: configuration, fileStoreKey: fileStoreKey)
        logger.info(
            "secret store chosen", metadata: ["backend": "\(selection.kind)", "reason": "\(selection.reason)"])
        return selection
    }
}
