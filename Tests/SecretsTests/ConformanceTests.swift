import CofferTestSupport
import Foundation
import Secrets
import SecretsTesting
import Testing

@Suite("Every shipped backend passes the conformance suite")
struct ConformanceTests {
    @Test(arguments: BackendKind.allCases, SecretsBackendConformance.Check.allCases)
    func backendConforms(_ kind: BackendKind, _ check: SecretsBackendConformance.Check) async throws {
        let directory = try TemporaryDirectory()
        try await SecretsBackendConformance { try kind.makeBackend(in: directory) }.run(check)
    }

    @Test("the suite fails a backend that ignores access groups")
    func suiteCatchesSharedAccessGroups() async throws {
        let suite = SecretsBackendConformance { GroupBlindBackend() }
        await #expect(throws: ConformanceFailure.self) { try await suite.run(.accessGroupIsolation) }
        try await suite.run(.roundTrip)
    }

    @Test("the suite fails a backend that accepts path traversal")
    func suiteCatchesTraversal() async throws {
        let suite = SecretsBackendConformance { GroupBlindBackend() }
        await #expect(throws: ConformanceFailure.self) { try await suite.run(.invalidIdentifiers) }
    }
}

/// A deliberately wrong backend: it ignores access groups and never validates identifiers.
private final class GroupBlindBackend: SecretsBackend {
    private let inner = InMemoryBackend()
    private func blind<Value>(_ query: SecretQuery<Value>) -> SecretQuery<Value> {
        var copy = query
        copy.accessGroup = nil
        if (try? copy.validate()) == nil { copy.account = "invalid-but-accepted" }
        return copy
    }
    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws { try inner.save(data, for: blind(query)) }
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? { try inner.read(blind(query)) }
    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool { try inner.delete(blind(query)) }
    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try inner.listAccounts(service: service, accessGroup: nil)
    }
}
