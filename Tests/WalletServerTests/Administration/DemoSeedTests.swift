import CofferTestSupport
import Foundation
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("seed-demo with many tags: what a load test starts from")
struct DemoSeedTests {
    @Test("--tags N makes N tags for one user, each with its own pass, every one ready for issuer data")
    func manyTags() async throws {
        let directory = try TemporaryDirectory()
        let storage = try await WalletServerStorage.open(
            configuration: WalletServerConfiguration(dataDirectory: directory.appending("data")))
        do {
            let administration = WalletAdministration(storage: storage)
            let seed = try await administration.seedDemo(tagCount: 25)
            #expect(seed.tagIDs.count == 25)
            #expect(Set(seed.tagIDs).count == 25)
            #expect(seed.tagIDs.first == seed.tagID)
            let repository = storage.repository
            let apiUser = try #require(try await repository.apiUser(token: seed.apiToken))
            var passes = Set<UUID>()
            for tagID in seed.tagIDs {
                let target = try #require(
                    try await repository.issuanceTarget(clientID: seed.clientID, attribute: .referenceID, value: tagID))
                #expect(target.user.id == seed.userID)
                passes.insert(target.passID)
            }
            #expect(passes.count == 25, "a pass per tag")
            let service = ProvisioningService(
                repository: repository, identities: storage.identities, relyingPartyIdentifier: "127.0.0.1",
                callbackURL: storage.configuration.callbackURL, trace: PassEventRecorder(storage: storage))
            let answer = try await service.issuerData(for: apiUser, tagID: seed.tagIDs[24], attribute: .referenceID)
            #expect(!answer.signature.isEmpty)

            for count in [0, -1, WalletAdministration.maximumDemoTags + 1] {
                await #expect(throws: WalletServerError.self) { try await administration.seedDemo(tagCount: count) }
            }
        } catch {
            try await storage.shutdown()
            throw error
        }
        try await storage.shutdown()
    }
}
