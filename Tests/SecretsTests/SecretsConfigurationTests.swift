import Foundation
import Secrets
import Testing

@Suite("A SecretsConfiguration is read from COFFER_* environment variables")
struct SecretsConfigurationTests {
    @Test("defaults when nothing is set")
    func defaults() {
        let configuration = SecretsConfiguration(environment: ["HOME": "/home/u"])
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

    @Test("COFFER_* variables are applied")
    func variables() {
        let configuration = SecretsConfiguration(environment: [
            "COFFER_SERVICE": "TauIntegrations", "COFFER_ACCESS_GROUP": "ABCDE12345.group.tau",
            "COFFER_SYNCHRONIZABLE": "true", "COFFER_STORE_DIR": "/srv/secrets", "COFFER_CIPHER": "chacha20-poly1305",
        ])
        #expect(configuration.service == "TauIntegrations")
        #expect(configuration.accessGroup == "ABCDE12345.group.tau")
        #expect(configuration.synchronizable)
        #expect(configuration.storeDirectory.path == "/srv/secrets")
        #expect(configuration.encryptionAlgorithm == .chaCha20Poly1305)
        #expect(configuration.diagnostics.isEmpty)
    }

    @Test("the old KEYCHAIN_* names still work, each with a deprecation message; COFFER_* wins over them")
    func deprecatedNames() {
        let old = SecretsConfiguration(environment: [
            "KEYCHAIN_SERVICE": "TauIntegrations", "KEYCHAIN_ACCESS_GROUP": "ABCDE12345.group.tau",
            "KEYCHAIN_SYNCHRONIZABLE": "yes",
        ])
        #expect(old.service == "TauIntegrations" && old.accessGroup == "ABCDE12345.group.tau" && old.synchronizable)
        #expect(old.diagnostics.count == 3)
        #expect(old.diagnostics.allSatisfy { $0.contains("is deprecated; set COFFER_") })
        let both = SecretsConfiguration(environment: ["KEYCHAIN_SERVICE": "old", "COFFER_SERVICE": "new"])
        #expect(both.service == "new" && both.diagnostics.isEmpty)
    }

    @Test("XDG_DATA_HOME decides the default store directory on Linux")
    func xdgDataHome() {
        #if !canImport(Darwin)
            let configuration = SecretsConfiguration(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"])
            #expect(configuration.storeDirectory.path == "/data/coffer/secrets")
        #endif
    }

    @Test(arguments: ["1", "yes", "TRUE", "on"]) func truthy(_ value: String) {
        #expect(SecretsConfiguration(environment: ["COFFER_SYNCHRONIZABLE": value]).synchronizable)
    }

    @Test("unusable values keep the defaults and are reported, never silently accepted")
    func invalidValues() {
        let configuration = SecretsConfiguration(environment: [
            "COFFER_SYNCHRONIZABLE": "maybe", "COFFER_CIPHER": "rot13", "COFFER_SERVICE": "bad\u{7}service",
        ])
        #expect(configuration.synchronizable == false)
        #expect(configuration.encryptionAlgorithm == .aes256GCM)
        #expect(configuration.diagnostics.count == 3)
        let findings = SecretsPreflight.run(
            on: AggregateSecretsStore(backend: InMemoryBackend(), configuration: configuration))
        #expect(findings.filter { $0.kind == .configuration }.count == 3)
    }
}
