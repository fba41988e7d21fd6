import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Secrets
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Fetches that cost no signature: a pass that has not changed is served as it was signed")
struct SignedArchiveTests {
    typealias Fixture = PassWebServiceTests.Fixture

    /// The pass's archive as a device fetches it.
    static func fetch(_ fixture: Fixture) async throws -> Data {
        try await fixture.client.execute(uri: fixture.passPath, method: .get, headers: fixture.auth) { response in
            #expect(response.status == .ok)
            return Data(response.body.readableBytesView)
        }
    }

    static func passID(_ fixture: Fixture) async throws -> UUID {
        try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)?.id)
    }

    static func keptVersions(_ fixture: Fixture) async throws -> [Data] {
        try await fixture.world.database.sql.select().column("version").from("signed_pass_archives")
            .all(decodingColumn: "version", as: Data.self)
    }

    @Test("a second fetch, later, answers the very bytes of the first: no new signature", arguments: Engine.available)
    func unchangedPassIsNotSignedAgain(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let first = try await Self.fetch(fixture)
            fixture.world.clock.advance(by: 90)
            let second = try await Self.fetch(fixture)
            // A new signature would carry a new signingTime.
            #expect(second == first)
            #expect(try await Self.keptVersions(fixture).count == 1)
            let verified = try OpenSSL.verify(
                pkpass: second, root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: fixture.world.directory)
            #expect(verified.outcome.status == 0, "\(verified.outcome.errorOutput)")
        }
    }

    @Test(
        "the database reveals no pass token: kept archives are sealed, for their own pass and version only",
        arguments: Engine.available)
    func keptArchivesAreSealed(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let served = try await Self.fetch(fixture)
            let verifier = DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root])
            #expect(try await verifier.verify(pkpass: served).pass.authenticationToken == fixture.token)
            let rows = try await fixture.world.database.sql.select().column("pass_id").column("version")
                .column("pkpass").from("signed_pass_archives").all()
            #expect(rows.count == 1)
            for row in rows {
                let kept = try row.decode(column: "pkpass", as: Data.self)
                #expect((try? await verifier.verify(pkpass: kept)) == nil, "not an archive anyone can open")
                #expect(kept.range(of: Data(fixture.token.utf8)) == nil)
            }
            let contents = try await fixture.world.database.sql.select().column("pass_content").from("apple_passes")
                .all(decodingColumn: "pass_content", as: Data.self)
            for content in contents {
                #expect(try PassPackage(archive: content).pass.authenticationToken == nil, "passes are kept tokenless")
            }
            if engine == .sqliteFile {
                // What someone who copies the database files reads.
                let files = try FileManager.default.contentsOfDirectory(
                    at: fixture.world.directory.url, includingPropertiesForKeys: nil
                ).filter { $0.lastPathComponent.hasPrefix("coffer-wallet.sqlite") }
                #expect(!files.isEmpty)
                for file in files {
                    #expect(try Data(contentsOf: file).range(of: Data(fixture.token.utf8)) == nil, "\(file)")
                }
            }
            // A kept archive moved to another pass (or another version) does not open: it is signed again.
            let seal = try #require(fixture.world.service.renderer.webService?.tokens.archiveSeal)
            let version = try #require(rows.first).decode(column: "version", as: Data.self)
            let sealed = try #require(rows.first).decode(column: "pkpass", as: Data.self)
            let passID = try await Self.passID(fixture)
            #expect(seal.open(sealed, passID: passID, version: version) == served)
            #expect(seal.open(sealed, passID: UUID(), version: version) == nil)
            #expect(seal.open(sealed, passID: passID, version: version + Data([1])) == nil)
        }
    }

    @Test(
        "a change drops the kept archive in its own transaction; the next fetch signs the change",
        arguments: Engine.available)
    func changeInvalidates(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let first = try await Self.fetch(fixture)
            let before = try await Self.keptVersions(fixture)
            try await fixture.updater.update(passID: try await Self.passID(fixture), PassChange(voided: true))
            #expect(try await Self.keptVersions(fixture).isEmpty)
            fixture.world.clock.advance(by: 5)
            let changed = try await Self.fetch(fixture)
            #expect(changed != first)
            let pass = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: changed)
                .pass
            #expect(pass.voided == true)
            #expect(pass.fidoProfile?.keyHash == "c0ffee", "the binding is kept")
            let after = try await Self.keptVersions(fixture)
            #expect(after.count == 1)
            #expect(after != before)
        }
    }

    @Test(
        "a change to the pass type (its binding page) is a new version of each of its passes",
        arguments: Engine.available)
    func passTypeChangeIsANewVersion(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let first = try await Self.fetch(fixture)
            let repository = fixture.world.repository
            let stored = try #require(try await repository.passTypes().first)
            var passType = stored
            passType.bindingLearnMoreURL = "https://acme.example.com/binding-2"
            #expect(try await repository.updatePassType(passType, replacing: stored))
            fixture.world.clock.advance(by: 5)
            let second = try await Self.fetch(fixture)
            #expect(second != first)
            let pass = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: second)
                .pass
            #expect(pass.issuerBindingData?.learnMoreURL == "https://acme.example.com/binding-2")
        }
    }

    @Test(
        "a kept archive whose version does not match is never served, whatever its bytes", arguments: Engine.available)
    func staleArchiveIsNotServed(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            _ = try await Self.fetch(fixture)
            try await fixture.world.database.sql.update("signed_pass_archives")
                .set("version", to: Data(repeating: 0, count: 32)).set("pkpass", to: Data("not a pass".utf8)).run()
            let served = try await Self.fetch(fixture)
            #expect(served != Data("not a pass".utf8))
            _ = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: served)
        }
    }

    @Test("If-Modified-Since answers 304 without reading the archive", arguments: Engine.available)
    func notModifiedReadsNoArchive(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let lastModified = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: fixture.auth
            ) { try #require($0.headers[.lastModified]) }
            // Nothing kept: a 304 that rendered the pass would sign and keep it again.
            try await fixture.world.database.sql.delete(from: "signed_pass_archives").run()
            var conditional = fixture.auth
            conditional[.ifModifiedSince] = lastModified
            try await fixture.client.execute(uri: fixture.passPath, method: .get, headers: conditional) { response in
                #expect(response.status == .notModified)
            }
            #expect(try await Self.keptVersions(fixture).isEmpty, "a 304 signs nothing and keeps nothing")
        }
    }

    @Test("callers that find no kept archive at once share one signing")
    func concurrentMissesSignOnce() async throws {
        let flights = SigningFlights()
        let signings = Locked(0)
        let digest = Data([1, 2, 3])
        let archives = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    try await flights.archive(for: digest) {
                        signings.withLock { $0 += 1 }
                        try await Task.sleep(for: .seconds(1))
                        return Data("signed".utf8)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(archives.count == 32)
        #expect(Set(archives) == [Data("signed".utf8)])
        #expect(signings.withLock { $0 } == 1)
    }
}
