import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletOrders
@testable import WalletPasses

@Suite("Signed orders verify with openssl and with DocumentVerifier; tampering and the wrong signer are caught")
struct OrderSigningTests {
    let directory: TemporaryDirectory
    let signer = DocumentSigner(identity: OrderFixtures.identity.signingIdentity)
    let rootPEM: Data
    var verifier: DocumentVerifier { DocumentVerifier(trustRoots: [OrderFixtures.identity.root]) }

    init() throws {
        directory = try TemporaryDirectory()
        rootPEM = Data(try OrderFixtures.identity.rootPEM.utf8)
    }

    @Test("the manifest lists every file with its lowercase SHA-256; openssl cms -verify accepts the signature")
    func manifestAndOpenSSL() throws {
        let signed = try signer.sign(try OrderFixtures.package())
        let (outcome, manifestData) = try OpenSSL.verify(pkpass: signed.archive, root: rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let manifest = try JSONDecoder().decode([String: String].self, from: manifestData)
        #expect(Set(manifest.keys) == Set(OrderFixtures.files().keys).union(["order.json"]))
        let logo = try #require(manifest["logo.png"])
        #expect(logo.count == 64 && logo == logo.lowercased())
        #expect(logo == DocumentManifest.sha256(OrderFixtures.files()["logo.png"]!))
    }

    @Test("the example order in Examples/ signs, and openssl verifies it")
    func example() throws {
        let package = try OrderPackage(contentsOf: SourceTree.appending("Examples/Orders/Shoes"))
        let signed = try signer.sign(package)
        let outcome = try OpenSSL.verify(pkpass: signed.archive, root: rootPEM, in: directory).outcome
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
    }

    @Test("DocumentVerifier accepts an untouched order and returns its order.json and signer")
    func verifierAccepts() async throws {
        let signed = try signer.sign(try OrderFixtures.package())
        let verified = try await verifier.verify(order: signed.archive)
        #expect(verified.order.orderIdentifier == "ORDER-0001")
        #expect(verified.signer == OrderFixtures.identity.signingIdentity.certificate)
        #expect(verified.files.count == OrderFixtures.files().count + 1)
    }

    @Test(
        "a flipped byte in any file fails on that file's hash", arguments: ["order.json", "logo.png", "sneaker@2x.png"])
    func flippedByte(_ path: String) async throws {
        var entries = try DocumentArchive.unzip(try signer.sign(try OrderFixtures.package()).archive)
        entries[path]![entries[path]!.startIndex + 3] ^= 0x01
        await #expect(throws: WalletDocumentError.verificationFailed(.hashMismatch(path))) {
            try await verifier.verify(order: try DocumentArchive.zip(entries))
        }
    }

    @Test("an added file, a removed one and a truncated archive are each refused")
    func structuralTampering() async throws {
        let archive = try signer.sign(try OrderFixtures.package()).archive
        var added = try DocumentArchive.unzip(archive)
        added["extra.png"] = Fixtures.png(9)
        await #expect(throws: WalletDocumentError.verificationFailed(.unlistedFile("extra.png"))) {
            try await verifier.verify(order: try DocumentArchive.zip(added))
        }
        var removed = try DocumentArchive.unzip(archive)
        removed["logo.png"] = nil
        await #expect(throws: WalletDocumentError.verificationFailed(.missingFile("logo.png"))) {
            try await verifier.verify(order: try DocumentArchive.zip(removed))
        }
        await #expect(throws: WalletDocumentError.self) {
            try await verifier.verify(order: archive.prefix(archive.count / 2))
        }
    }

    @Test("a Pass Type ID identity cannot sign an order, nor vouch for one")
    func passIdentityRefused() async throws {
        let passSigner = DocumentSigner(identity: Fixtures.identity.signingIdentity)
        #expect(throws: WalletDocumentError.self) { try passSigner.sign(try OrderFixtures.package()) }
        var order = OrderFixtures.order()
        order.orderTypeIdentifier = "order.other.example"
        #expect(throws: WalletDocumentError.self) { try signer.sign(try OrderPackage(order: order)) }

        // An order whose manifest and signature come from a Pass Type ID certificate under the same root.
        let root = Fixtures.identity.root
        let files = OrderFixtures.files().merging(["order.json": try OrderFixtures.order().encoded()]) { $1 }
        let manifest = DocumentManifest.json(files.mapValues(DocumentManifest.sha256))
        let forged = try DocumentArchive.zip(
            files.merging(["manifest.json": manifest, "signature": try passSigner.signature(for: manifest)]) { $1 })
        await #expect {
            try await DocumentVerifier(trustRoots: [root]).verify(order: forged)
        } throws: { error in
            guard case WalletDocumentError.verificationFailed(.wrongSigner) = error else { return false }
            return true
        }
    }

    @Test("an order with errors is not signed")
    func invalidNotSigned() throws {
        var order = OrderFixtures.order()
        order.status = nil
        #expect(throws: WalletDocumentError.self) { try signer.sign(try OrderPackage(order: order)) }
    }

    @Test("files of 5 MB or more are refused: Wallet takes orders below 5 MB")
    func sizeLimit() throws {
        #expect(throws: WalletDocumentError.tooLarge(what: "the order's files", limit: 5_000_000)) {
            try OrderPackage(order: OrderFixtures.order(), files: ["big.png": Data(count: 5_000_000)])
        }
        var package = try OrderFixtures.package()
        #expect(throws: WalletDocumentError.self) { try package.add(Data(count: 4_999_000), at: "big.png") }
        #expect(throws: WalletDocumentError.self) { try package.add(Data(), at: "../escape.png") }
    }
}
