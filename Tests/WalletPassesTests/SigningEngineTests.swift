import CofferTestSupport
import Crypto
import CryptoExtras
import Foundation
import Secrets
import Testing
@testable import WalletDocuments
import X509
@testable import WalletPasses

/// The RSA engines behind pass signatures: OpenSSL's libcrypto loaded at run time, swift-crypto as the fallback.
@Suite("RSA signing engines: libcrypto at run time, swift-crypto when missing, typed errors, any thread")
struct SigningEngineTests {
    let directory: TemporaryDirectory
    let rootPEM: Data
    let identity = Fixtures.identity.signingIdentity
    let time = Date(timeIntervalSince1970: 1_795_000_000)

    init() throws {
        directory = try TemporaryDirectory()
        rootPEM = Data(try Fixtures.identity.rootPEM.utf8)
    }

    func verify(_ signature: Data, over content: Data, root: Data? = nil) throws -> ChildProcess.Outcome {
        try OpenSSL.verify(signature: signature, content: content, root: root ?? rootPEM, in: directory)
    }

    // MARK: Loading libcrypto

    @Test(
        "with libcrypto 3 installed and COFFER_RSA_ENGINE unset, identities sign with OpenSSL",
        .enabled(if: ProcessInfo.processInfo.environment[RSASigningEngine.environmentVariable] == nil))
    func openSSLByDefault() throws {
        #expect(RSASigningEngine.openSSL.isAvailable, "this machine has libssl3; libcrypto.so.3 must load")
        #expect(try RSASigningEngine.preferred == .openSSL)
        #expect(identity.signingEngine == .openSSL)
    }

    @Test("a missing library is signingEngineUnavailable, naming the package to install")
    func missingLibrary() throws {
        let result = LibCrypto.load(["/nonexistent/coffer/libcrypto.so.3"])
        #expect {
            try result.get()
        } throws: { error in
            guard case WalletDocumentError.signingEngineUnavailable(let reason) = error else { return false }
            return reason.contains("libssl3") && reason.contains("/nonexistent/coffer/libcrypto.so.3")
        }
    }

    @Test("a library that is not libcrypto is signingEngineUnavailable, naming the missing function")
    func foreignLibrary() throws {
        #expect {
            try LibCrypto.load(["libc.so.6"]).get()
        } throws: { error in
            guard case WalletDocumentError.signingEngineUnavailable(let reason) = error else { return false }
            return reason.contains("OpenSSL_version_num")
        }
    }

    @Test("the loader tries each file in turn and takes the first that is libcrypto 3")
    func candidatesInTurn() throws {
        let library = try LibCrypto.load(["/nonexistent/libcrypto.so.3", "libcrypto.so.3"]).get()
        #expect(library.version >= LibCrypto.minimumVersion)
    }

    @Test("without libcrypto, an identity falls back to swift-crypto and its signatures verify")
    func fallsBack() throws {
        let missing = LibCrypto.load(["/nonexistent/coffer/libcrypto.so.3"])
        let fallback = try identity.using(nil, libcrypto: missing)
        #expect(fallback.signingEngine == .swiftCrypto)
        let content = Data("fallback".utf8)
        let outcome = try verify(try DocumentSigner(identity: fallback).signature(for: content), over: content)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
    }

    @Test("asking for OpenSSL without libcrypto is a typed error, not a silent fallback")
    func forcedOpenSSLWithoutLibrary() throws {
        let missing = LibCrypto.load(["/nonexistent/coffer/libcrypto.so.3"])
        #expect {
            try identity.using(.openSSL, libcrypto: missing)
        } throws: { error in
            guard case WalletDocumentError.signingEngineUnavailable = error else { return false }
            return true
        }
    }

    @Test(
        "COFFER_RSA_ENGINE names an engine in any case, is ignored when empty; anything else is a typed error",
        arguments: [
            ("openssl", RSASigningEngine.openSSL), ("OpenSSL", .openSSL), ("swift-crypto", .swiftCrypto),
            ("", nil), (nil, nil),
        ] as [(String?, RSASigningEngine?)])
    func environmentValues(value: String?, engine: RSASigningEngine?) throws {
        #expect(try RSASigningEngine.parse(value).get() == engine)
    }

    @Test("an unknown COFFER_RSA_ENGINE says which values work", arguments: ["boringssl", "open ssl", "1"])
    func unknownEngine(_ value: String) throws {
        #expect {
            try RSASigningEngine.parse(value).get()
        } throws: { error in
            guard case WalletDocumentError.signingEngineUnavailable(let reason) = error else { return false }
            return reason.contains("'openssl' or 'swift-crypto'") && reason.contains(value)
        }
    }

    // MARK: Keys

    func library() throws -> LibCrypto { try LibCrypto.shared.get() }

    func expectUnreadableKey(_ der: Data, saying expected: String) throws {
        #expect {
            try OpenSSLRSAKey(derRepresentation: der, library: try library())
        } throws: { error in
            guard case WalletDocumentError.unreadableKey(let reason) = error else { return false }
            let text = String(describing: error)
            return reason.contains(expected) && !text.contains(der.base64EncodedString().prefix(24))
                && !text.contains(der.prefix(12).map { String(format: "%02x", $0) }.joined())
        }
    }

    @Test("bytes that are not a key, or a truncated key, are unreadableKey")
    func notAKey() throws {
        try expectUnreadableKey(Data("not a key".utf8), saying: "not a DER private key")
        let der = identity.privateKeyDER()
        try expectUnreadableKey(der.prefix(der.count / 2), saying: "not a DER private key")
        try expectUnreadableKey(Data(), saying: "not a DER private key")
    }

    @Test("an EC key is unreadableKey: Pass Type ID keys are RSA")
    func ecKey() throws {
        try expectUnreadableKey(P256.Signing.PrivateKey().derRepresentation, saying: "not an RSA private key")
    }

    @Test("an RSA key shorter than 2048 bits is unreadableKey")
    func shortKey() throws {
        let path = directory.appending("rsa1024.der").path
        try OpenSSL.run(
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-outform", "DER", "-out", path)
        try expectUnreadableKey(try Data(contentsOf: URL(fileURLWithPath: path)), saying: "1024 bits")
    }

    @Test("a PKCS#8 RSA key loads as well as a PKCS#1 one, and both sign identically")
    func pkcs1AndPKCS8Keys() throws {
        let pkcs1Path = directory.appending("key-pkcs1.der").path
        let pkcs8Path = directory.appending("key-pkcs8.der").path
        try identity.privateKeyDER().write(to: URL(fileURLWithPath: pkcs1Path))
        try OpenSSL.run(
            "pkcs8", "-topk8", "-nocrypt", "-inform", "DER", "-in", pkcs1Path, "-outform", "DER", "-out", pkcs8Path)
        let pkcs8Der = try Data(contentsOf: URL(fileURLWithPath: pkcs8Path))
        #expect(pkcs8Der.count > identity.privateKeyDER().count, "PKCS#8 wraps the PKCS#1 key")
        let pkcs1 = try OpenSSLRSAKey(derRepresentation: identity.privateKeyDER(), library: try library())
        let pkcs8 = try OpenSSLRSAKey(derRepresentation: pkcs8Der, library: try library())
        #expect(pkcs1.bits == 2048 && pkcs8.bits == 2048 && pkcs8.signatureSize == 256)
        let digest = SHA256.hash(data: Data("same".utf8))
        let signatures = try [pkcs1, pkcs8].map { key in
            var signature = [UInt8](repeating: 0, count: key.signatureSize)
            try digest.withUnsafeBytes { bytes in
                try signature.withUnsafeMutableBytes { try key.sign(sha256: bytes, into: $0) }
            }
            return signature
        }
        #expect(signatures[0] == signatures[1])
        #expect(
            identity.rsaKey.publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signatures[0]), for: digest, padding: .insecurePKCS1v1_5))
    }

    @Test("a 3072-bit identity signs on both engines with 384-byte signatures that openssl verifies")
    func largerKey() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits3072)
        let name = try DistinguishedName { CommonName("Coffer 3072-bit test signer (NOT APPLE)") }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: Date().addingTimeInterval(-3600), notValidAfter: Date().addingTimeInterval(3600),
            issuer: name, subject: name, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            }, issuerPrivateKey: .init(key))
        let base = try SigningIdentity(
            certificate: certificate, privateKeyDER: key.derRepresentation, intermediates: [])
        let root = Data(try certificate.serializeAsPEMString().utf8)
        let content = Data("three thousand and seventy-two".utf8)
        var signatures: [Data] = []
        for engine in RSASigningEngine.allCases {
            let signature = try DocumentSigner(identity: try base.using(engine)).signature(
                for: content, signingTime: time)
            #expect(try SignedAttributes(signature).signatureLength == 384)
            #expect(try SignedAttributes(signature).certificateCount == 1)
            let outcome = try verify(signature, over: content, root: root)
            #expect(outcome.status == 0, "\(engine): \(outcome.errorOutput)")
            signatures.append(signature)
        }
        #expect(signatures[0] == signatures[1])
    }

    @Test("a key that is not the certificate's is refused before any engine is used")
    func mismatchedKey() throws {
        let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(throws: WalletDocumentError.keyDoesNotMatchCertificate) {
            try SigningIdentity(
                certificate: identity.certificate, privateKeyDER: other.derRepresentation,
                intermediates: identity.intermediates)
        }
    }

    // MARK: Threads

    @Test(
        "many tasks sign at once on each engine, and every signature is the one a single thread makes",
        arguments: RSASigningEngine.allCases)
    func concurrentTasks(engine: RSASigningEngine) async throws {
        let signer = DocumentSigner(identity: try identity.using(engine))
        let reference = DocumentSigner(identity: try identity.using(.swiftCrypto))
        let time = self.time
        let signatures = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<96 {
                group.addTask { (index, try signer.signature(for: Data("content \(index)".utf8), signingTime: time)) }
            }
            var signatures: [Int: Data] = [:]
            for try await (index, signature) in group { signatures[index] = signature }
            return signatures
        }
        #expect(signatures.count == 96)
        for (index, signature) in signatures {
            #expect(signature == (try reference.signature(for: Data("content \(index)".utf8), signingTime: time)))
        }
    }

    @Test("more threads than the context pool keeps sign at once with OpenSSL, all correctly")
    func manyThreads() throws {
        let signer = DocumentSigner(identity: try identity.using(.openSSL))
        let threads = OpenSSLRSAKey.poolLimit + 8
        let perThread = 6
        let results = Locked<[String: Data]>([:])
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread { [time] in
                for round in 0..<perThread {
                    let name = "thread \(thread) round \(round)"
                    let signature = try? signer.signature(for: Data(name.utf8), signingTime: time)
                    results.withLock { $0[name] = signature }
                }
                finished.leave()
            }.start()
        }
        finished.wait()
        let reference = DocumentSigner(identity: try identity.using(.swiftCrypto))
        let signed = results.withLock { $0 }
        #expect(signed.count == threads * perThread)
        for (name, signature) in signed {
            #expect(signature == (try reference.signature(for: Data(name.utf8), signingTime: time)), "\(name)")
        }
        let sample = signed.first!
        #expect(try verify(sample.value, over: Data(sample.key.utf8)).status == 0)
    }
}
