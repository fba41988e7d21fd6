import Foundation
import Secrets

/// Makes a typed store over the Apple Keychain.
///
/// ```swift
/// let store: any SecretsStoring = AppleSecretsStack.make(configuration: SecretsConfiguration(environment: ProcessInfo.processInfo.environment))
/// ```
public enum AppleSecretsStack {
    /// A store whose items live in the Keychain `client` reaches, under `configuration`'s service, access group,
    /// synchronizability and access policy.
    package static func make(configuration: SecretsConfiguration, client: any SecItemClient) -> AggregateSecretsStore {
        AggregateSecretsStore(backend: AppleKeychainBackend(client: client), configuration: configuration)
    }

    #if canImport(Security)
        /// A store whose items live in this device's Keychain.
        public static func make(
            configuration: SecretsConfiguration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment)
        ) -> AggregateSecretsStore {
            make(configuration: configuration, client: LiveSecItemClient())
        }
    #endif
}
