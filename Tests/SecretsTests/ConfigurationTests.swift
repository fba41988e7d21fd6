import Foundation
import Secrets
import Testing

@Suite("SecretsConfig.resolve reads the environment")
struct ConfigurationTests {
    @Test("defaults when nothing is set")
    func defaults() {
        let configuration = SecretsConfig.resolve(environment: ["HOME": "/home/u"])
        #expect(configuration.service == "coffer")
        #expect(configuration.accessGroup == nil)
        #expect(configuration.synchronizable == false)
        #expect(configuration.accessPolicy == .defaultSyncableWhenUnlocked)
        #expect(configuration.encryptionAlgorithm == .aes256GCM)
        #expect(configuration.diagnostics.isEmpty)
        #if !canImport(Darwin)
            #expect(configuration.storeDirectory.path == "/home/u/.local/share/coffer/secrets")
        #endif
    }

    @Test("KEYCHAIN_* and COFFER_* variables are applied")
    func variables() {
        let configuration = SecretsConfig.resolve(environment: [
            "KEYCHAIN_SERVICE": "TauIntegrations", "KEYCHAIN_ACCESS_GROUP": "ABCDE12345.group.tau",
            "KEYCHAIN_SYNCHRONIZABLE": "true", "COFFER_STORE_DIR": "/srv/secrets", "COFFER_CIPHER": "chacha20-poly1305",
        ])
        #expect(configuration.service == "TauIntegrations")
        #expect(configuration.accessGroup == "ABCDE12345.group.tau")
        #expect(configuration.synchronizable)
        #expect(configuration.storeDirectory.path == "/srv/secrets")
        #expect(configuration.encryptionAlgorithm == .chaCha20Poly1305)
    }

    @Test("XDG_DATA_HOME decides the default store directory on Linux")
    func xdgDataHome() {
        #if !canImport(Darwin)
            let configuration = SecretsConfig.resolve(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
            #expect(configuration.storeDirectory.path == "/data/coffer/secrets")
        #endif
    }

    @Test(arguments: ["1", "yes", "TRUE", "on"]) func truthy(_ value: String) {
        #expect(SecretsConfig.resolve(environment: ["KEYCHAIN_SYNCHRONIZABLE": value]).synchronizable)
    }

    @Test("unusable values keep the defaults and are reported, never silently accepted")
    func invalidValues() {
        let configuration = SecretsConfig.resolve(environment: [
            "KEYCHAIN_SYNCHRONIZABLE": "maybe", "COFFER_CIPHER": "rot13", "KEYCHAIN_SERVICE": "bad\u{7}service",
        ])
        #expect(configuration.synchronizable == false)
        #expect(configuration.encryptionAlgorithm == .aes256GCM)
        #expect(configuration.diagnostics.count == 3)
        let findings = SecretsPreflight.run(
            on: AggregateSecretsStore(backend: InMemoryBackend(), configuration: configuration))
        #expect(findings.filter { $0.kind == .configuration }.count == 3)
    }
}
