import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import Testing
@testable import WalletDocuments
@testable import WalletPasses

/// Identities made by openssl, the way pass issuers get them: PEM keys in every common shape and `.p12` files,
/// modern and legacy.
@Suite("Signing identities load from PEM and .p12 files made by openssl")
struct SigningIdentityTests {
    let directory: TemporaryDirectory
    let wwdr: Data

    init() throws {
        directory = try TemporaryDirectory()
        wwdr = Data(try Fixtures.identity.wwdr.serializeAsPEMString().utf8)
        // A self-signed Pass Type ID-like certificate and its key, made by openssl.
        try OpenSSL.run(
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("key-pkcs8.pem"), "-out", path("cert.pem"),
            "-days", "30", "-subj",
            "/UID=pass.com.example.ticket/CN=Pass Type ID: pass.com.example.ticket/OU=ABCDE12345/O=Example/C=US",
            "-addext", "1.2.840.113635.100.6.1.16=ASN1:UTF8String:pass.com.example.ticket")
    }

    func path(_ name: String) -> String { directory.appending(name).path }
    func read(_ name: String) throws -> Data { try Data(contentsOf: directory.appending(name)) }

    func load(key name: String, passphrase: Passphrase? = nil) throws -> SigningIdentity {
        try SigningIdentity(
            certificate: try read("cert.pem"), privateKey: try read(name), passphrase: passphrase, wwdr: wwdr)
    }

    @Test("an unencrypted PKCS#8 key")
    func pkcs8() throws {
        let identity = try load(key: "key-pkcs8.pem")
        #expect(identity.passTypeIdentifier == "pass.com.example.ticket")
        #expect(identity.teamIdentifier == "ABCDE12345")
        try identity.check(passTypeIdentifier: "pass.com.example.ticket", teamIdentifier: "ABCDE12345")
    }

    @Test("an unencrypted PKCS#1 key")
    func pkcs1() throws {
        try OpenSSL.run("rsa", "-in", path("key-pkcs8.pem"), "-traditional", "-out", path("key-pkcs1.pem"))
        #expect(String(decoding: try read("key-pkcs1.pem"), as: UTF8.self).contains("BEGIN RSA PRIVATE KEY"))
        _ = try load(key: "key-pkcs1.pem")
    }

    @Test("an encrypted PKCS#8 key, with the right and the wrong passphrase")
    func encryptedPKCS8() throws {
        try OpenSSL.run(
            "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", path("key-pkcs8.pem"), "-out", path("key-enc8.pem"),
            "-passout", "pass:p8-secret")
        _ = try load(key: "key-enc8.pem", passphrase: "p8-secret")
        #expect { try load(key: "key-enc8.pem", passphrase: "wrong") } throws: {
            "\($0)".contains("passphrase is wrong")
        }
        #expect { try load(key: "key-enc8.pem") } throws: { "\($0)".contains("give its passphrase") }
    }

    @Test("an encrypted traditional (PKCS#1) PEM key")
    func encryptedPKCS1() throws {
        try OpenSSL.run(
            "rsa", "-in", path("key-pkcs8.pem"), "-traditional", "-aes256", "-out", path("key-enc1.pem"), "-passout",
            "pass:p1-secret")
        _ = try load(key: "key-enc1.pem", passphrase: "p1-secret")
    }

    @Test("a key that is not the certificate's is refused")
    func mismatchedKey() throws {
        try OpenSSL.run("genrsa", "-out", path("other.pem"), "2048")
        #expect(throws: WalletDocumentError.keyDoesNotMatchCertificate) { try load(key: "other.pem") }
    }

    @Test("a .p12 in OpenSSL 3's default format (AES, PBKDF2)")
    func modernP12() throws {
        try OpenSSL.run(
            "pkcs12", "-export", "-in", path("cert.pem"), "-inkey", path("key-pkcs8.pem"), "-out", path("modern.p12"),
            "-passout", "pass:p12-secret")
        let identity = try SigningIdentity(pkcs12: try read("modern.p12"), passphrase: "p12-secret", wwdr: wwdr)
        #expect(identity.passTypeIdentifier == "pass.com.example.ticket")
        #expect(identity.intermediates.count == 1)
    }

    @Test("a legacy .p12 (RC2-40 certificates, 3DES key) that OpenSSL 3 reads only with -legacy")
    func legacyP12() throws {
        let made = try OpenSSL.run(
            "pkcs12", "-export", "-legacy", "-in", path("cert.pem"), "-inkey", path("key-pkcs8.pem"), "-out",
            path("legacy.p12"), "-passout", "pass:old-secret")
        try #require(made.status == 0, "openssl could not write a legacy .p12: \(made.errorOutput)")
        let info = try OpenSSL.run(
            "pkcs12", "-info", "-noout", "-legacy", "-in", path("legacy.p12"), "-passin", "pass:old-secret")
        #expect((info.output + info.errorOutput).contains("RC2") || (info.output + info.errorOutput).contains("3DES"))
        let withoutLegacy = try OpenSSL.run(
            "pkcs12", "-info", "-noout", "-in", path("legacy.p12"), "-passin", "pass:old-secret")
        #expect(withoutLegacy.status != 0, "OpenSSL 3 should need -legacy for this file")
        let identity = try SigningIdentity(pkcs12: try read("legacy.p12"), passphrase: "old-secret", wwdr: wwdr)
        #expect(identity.teamIdentifier == "ABCDE12345")
    }

    @Test("a wrong .p12 passphrase is a clear error")
    func wrongP12Passphrase() throws {
        try OpenSSL.run(
            "pkcs12", "-export", "-in", path("cert.pem"), "-inkey", path("key-pkcs8.pem"), "-out", path("modern.p12"),
            "-passout", "pass:p12-secret")
        #expect { try SigningIdentity(pkcs12: try read("modern.p12"), passphrase: "nope", wwdr: wwdr) } throws: {
            "\($0)".contains("wrong passphrase")
        }
    }

    @Test("a DER (.cer) WWDR certificate, as Apple ships it, is accepted")
    func derWWDR() throws {
        try wwdr.write(to: directory.appending("wwdr.pem"))
        try OpenSSL.run("x509", "-in", path("wwdr.pem"), "-outform", "DER", "-out", path("wwdr.cer"))
        _ = try SigningIdentity(
            certificate: try read("cert.pem"), privateKey: try read("key-pkcs8.pem"), wwdr: try read("wwdr.cer"))
    }

    @Test("garbage certificates and keys are typed errors")
    func garbage() throws {
        #expect(throws: WalletDocumentError.self) {
            try SigningIdentity(certificate: Data("nope".utf8), privateKey: try read("key-pkcs8.pem"), wwdr: wwdr)
        }
        #expect(throws: WalletDocumentError.self) {
            try SigningIdentity(certificate: try read("cert.pem"), privateKey: Data("nope".utf8), wwdr: wwdr)
        }
    }

    @Test("an identity prints no key material, and its key round-trips through DER for the secret store")
    func keyHandling() throws {
        let identity = try load(key: "key-pkcs8.pem")
        #expect(!"\(identity)".contains("PRIVATE"))
        let again = try SigningIdentity(
            certificate: identity.certificate, privateKeyDER: identity.privateKeyDER(),
            intermediates: identity.intermediates)
        #expect(again.certificate == identity.certificate)
    }
}

@Suite("The development identity works out of the box")
struct DevelopmentIdentityTests {
    @Test("its files are written 0600, the key only inside an encrypted .p12 that loads back")
    func writeAndLoad() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.identity.write(to: directory.url, passphrase: "dev-secret")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(names == ["pass-type.p12", "pass-type.pem", "root.pem", "wwdr.pem"])
        for name in names {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appending(name).path)[
                .posixPermissions]
            #expect((mode as? NSNumber)?.intValue == 0o600)
            #expect(
                !String(decoding: try Data(contentsOf: directory.appending(name)), as: UTF8.self).contains(
                    "PRIVATE KEY"))
        }
        let identity = try SigningIdentity(
            pkcs12: try Data(contentsOf: directory.appending("pass-type.p12")), passphrase: "dev-secret", wwdr: nil)
        #expect(identity.passTypeIdentifier == Fixtures.passTypeIdentifier)
        #expect(identity.intermediates == [Fixtures.identity.wwdr])
        let opensslView = try OpenSSL.run(
            "pkcs12", "-in", directory.appending("pass-type.p12").path, "-nokeys", "-passin", "pass:dev-secret")
        #expect(opensslView.status == 0, "\(opensslView.errorOutput)")
        #expect(throws: WalletDocumentError.self) {
            try Fixtures.identity.write(to: directory.url, passphrase: "again")
        }
    }

    @Test("every certificate says it is not Apple's, and the chain verifies with openssl")
    func labelledAndChained() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.identity.write(to: directory.url, passphrase: "dev-secret")
        for name in ["root.pem", "wwdr.pem", "pass-type.pem"] {
            let subject = try OpenSSL.run("x509", "-in", directory.appending(name).path, "-noout", "-subject").output
            #expect(subject.contains("NOT APPLE"), "\(name): \(subject)")
        }
        let chain = try OpenSSL.run(
            "verify", "-CAfile", directory.appending("root.pem").path, "-untrusted",
            directory.appending("wwdr.pem").path,
            directory.appending("pass-type.pem").path)
        #expect(chain.status == 0, "\(chain.output)\(chain.errorOutput)")
    }

    @Test("an empty .p12 passphrase is refused")
    func emptyPassphrase() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: WalletDocumentError.self) { try Fixtures.identity.write(to: directory.url, passphrase: "") }
    }
}

@Suite("Signing identities live in Coffer's encrypted store")
struct StoredIdentityTests {
    @Test("an identity saved in an encrypted store signs after loading, and its key is not in any file in clear")
    func roundTripThroughEncryptedStore() throws {
        let directory = try TemporaryDirectory()
        let backend = try EncryptedFileBackend(
            directory: directory.url, key: .passphrase("store pass"), options: .weakKeyDerivationForTesting())
        let store = AggregateSecretsStore(backend: backend)
        let identity = Fixtures.identity.signingIdentity
        try identity.save(to: store, at: "wallet/pass-types/dev")
        let loaded = try SigningIdentity(from: store, at: "wallet/pass-types/dev")
        #expect(loaded.certificate == identity.certificate)
        #expect(loaded.intermediates == identity.intermediates)
        _ = try DocumentSigner(identity: loaded).sign(try Fixtures.package())
        let keyBytes = identity.privateKeyDER()
        let files = FileManager.default.enumerator(at: directory.url, includingPropertiesForKeys: nil)!
        for case let file as URL in files
        where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let contents = try Data(contentsOf: file)
            #expect(contents.range(of: keyBytes.prefix(64)) == nil, "\(file.lastPathComponent) holds the key in clear")
            #expect(contents.range(of: Data(keyBytes.base64EncodedString().prefix(64).utf8)) == nil)
        }
    }

    @Test("a missing or foreign item is a typed error")
    func missing() throws {
        let store = AggregateSecretsStore(backend: InMemoryBackend())
        #expect(throws: WalletDocumentError.self) { try SigningIdentity(from: store, at: "wallet/none") }
        try store.saveData(Data("{}".utf8), account: "wallet/junk")
        #expect(throws: WalletDocumentError.self) { try SigningIdentity(from: store, at: "wallet/junk") }
    }
}
