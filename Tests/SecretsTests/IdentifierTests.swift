import Secrets
import Testing

@Suite("Service ID paths are validated")
struct IdentifierTests {
    @Test(arguments: ["ai/openai", "brokers/schwab/credentials", "a", "user@example.com", "v1.2_beta-3/x"])
    func acceptsNamespacedPaths(_ path: String) throws {
        try ServiceID<String>(path: path).validate()
    }

    @Test(arguments: [
        "", "/", "/etc/passwd", "../secrets", "a/../b", "a/./b", ".", "..", "a//b", "a/", "with space", "tab\t",
        "nul\u{0}", "back\\slash", "ünï", "emoji🔑", String(repeating: "a", count: 257),
    ])
    func rejectsUnsafePaths(_ path: String) {
        #expect {
            try ServiceID<String>(path: path).validate()
        } throws: { error in
            guard case SecretsError.invalidIdentifier = error else { return false }
            return true
        }
    }

    @Test("the longest allowed path is accepted")
    func acceptsLongestPath() throws {
        try SecretPath.validate(path: String(repeating: "a", count: SecretPath.maximumPathLength))
    }

    @Test("an error message quotes a hostile identifier shortened and without control characters")
    func errorMessagesAreBounded() {
        let hostile = "bad\u{1B}[31m" + String(repeating: "x", count: 500)
        let message = SecretsError.invalidIdentifier(hostile, reason: "test").description
        #expect(!message.contains("\u{1B}"))
        #expect(message.count < 200)
    }

    @Test("a query expands an ID with the configuration")
    func queryFromConfiguration() {
        let configuration = SecretsConfiguration(
            service: "TauIntegrations", accessGroup: "group.x", synchronizable: true)
        let query = SecretQuery(id: ServiceID<String>(path: "ai/openai"), configuration: configuration)
        #expect(query.service == "TauIntegrations")
        #expect(query.account == "ai/openai")
        #expect(query.accessGroup == "group.x")
        #expect(query.synchronizable)
        #expect(query.accessPolicy == .defaultSyncableWhenUnlocked)
    }
}
