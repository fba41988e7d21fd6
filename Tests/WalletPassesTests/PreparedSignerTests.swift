import CofferTestSupport
import Crypto
import Foundation
import SwiftASN1
import Testing
@testable import WalletDocuments
@_spi(CMS) import X509
@testable import WalletPasses

/// The prepared signer (fixed parts encoded once, a byte template per signature) against swift-certificates'
/// `CMS.sign` and openssl, on each RSA engine.
@Suite("Prepared CMS signatures are what CMS.sign makes, on every RSA engine, and openssl verifies them")
struct PreparedSignerTests {
    let directory: TemporaryDirectory
    let rootPEM: Data
    let identity = Fixtures.identity.signingIdentity
    let content = Data("{\"pass.json\":\"da39a3ee5e6b4b0d3255bfef95601890afd80709\"}".utf8)

    init() throws {
        directory = try TemporaryDirectory()
        rootPEM = Data(try Fixtures.identity.rootPEM.utf8)
    }

    func signer(_ engine: RSASigningEngine) throws -> DocumentSigner {
        DocumentSigner(identity: try identity.using(engine))
    }

    /// What swift-certificates makes for the same content and time (RSA PKCS#1 v1.5 is deterministic).
    func reference(_ content: Data, at time: Date) throws -> Data {
        Data(
            try CMS.sign(
                content, signatureAlgorithm: .sha256WithRSAEncryption,
                additionalIntermediateCertificates: identity.intermediates, certificate: identity.certificate,
                privateKey: identity.privateKey, signingTime: time, detached: true))
    }

    static let times: [Date] = [
        Date(timeIntervalSince1970: 1_795_000_000),  // 2026-11-18
        Date(timeIntervalSince1970: 1_709_164_799.5),  // 2024-02-28T23:59:59.5Z rounds up to the leap day
        Date(timeIntervalSince1970: 1_709_164_799.49),  // stays on 2024-02-28
        Date(timeIntervalSince1970: -631_152_000),  // 1950-01-01, the first UTCTime year
        Date(timeIntervalSince1970: 2_524_607_999),  // 2049-12-31T23:59:59Z, the last
        Date(timeIntervalSince1970: 946_684_800),  // 2000-01-01
    ]

    @Test(
        "the signature is byte for byte CMS.sign's (same certificates, attributes, order and signature)",
        arguments: RSASigningEngine.allCases, times)
    func sameBytesAsCMSSign(engine: RSASigningEngine, time: Date) throws {
        let signature = try signer(engine).signature(for: content, signingTime: time)
        #expect(signature == (try reference(content, at: time)))
    }

    @Test("openssl cms -verify accepts every engine's signature", arguments: RSASigningEngine.allCases)
    func opensslVerifies(engine: RSASigningEngine) throws {
        let signature = try signer(engine).signature(for: content)
        let outcome = try OpenSSL.verify(signature: signature, content: content, root: rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.errorOutput.contains("Verification successful"))
        let forged = try OpenSSL.verify(
            signature: signature, content: content + Data(" ".utf8), root: rootPEM, in: directory)
        #expect(forged.status != 0, "a changed content must not verify")
    }

    @Test("both engines make the same signature for the same content and time")
    func enginesAgree() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let signatures = try RSASigningEngine.allCases.map {
            try signer($0).signature(for: content, signingTime: time)
        }
        #expect(signatures[0] == signatures[1])
    }

    @Test("the attributes are contentType data, signingTime and the content's SHA-256, in DER SET order")
    func attributes() throws {
        let time = Date(timeIntervalSince1970: 1_795_000_003.4)
        let read = try SignedAttributes(try signer(.openSSL).signature(for: content, signingTime: time))
        #expect(
            read.types == [
                SignedAttributes.contentTypeOID, SignedAttributes.signingTimeOID, SignedAttributes.messageDigestOID,
            ])
        #expect(read.contentType == SignedAttributes.dataOID)
        #expect(read.messageDigest == Array(SHA256.hash(data: content)))
        #expect(read.signingTime?.tag == .utcTime)
        #expect(read.signingTime?.text == "261118110643Z")
        #expect(read.isDetached)
        #expect(read.certificateCount == 2)
        #expect(read.signatureLength == 256)
    }

    @Test("openssl reads the signing time that was given", arguments: RSASigningEngine.allCases)
    func opensslReadsSigningTime(engine: RSASigningEngine) throws {
        let signature = try signer(engine).signature(
            for: content, signingTime: Date(timeIntervalSince1970: 1_795_000_003))
        let url = directory.appending("time-\(engine).sig")
        try signature.write(to: url)
        let printed = try OpenSSL.run("cms", "-cmsout", "-print", "-inform", "DER", "-in", url.path).output
        #expect(printed.contains("UTCTIME:Nov 18 11:06:43 2026 GMT"), "\(printed)")
    }

    @Test("a signing time from 2050 on is a GeneralizedTime (RFC 5652), and openssl verifies it")
    func generalizedTime() throws {
        let time = Date(timeIntervalSince1970: 2_524_608_000)  // 2050-01-01T00:00:00Z
        let signature = try signer(.openSSL).signature(for: content, signingTime: time)
        let read = try SignedAttributes(signature)
        #expect(read.signingTime?.tag == .generalizedTime)
        #expect(read.signingTime?.text == "20500101000000Z")
        let outcome = try OpenSSL.verify(signature: signature, content: content, root: rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(
            try signer(.swiftCrypto).signature(for: content, signingTime: time) == signature,
            "both engines, the same bytes")
    }

    @Test(
        "a signing time no ASN.1 time can hold is a typed error",
        arguments: [Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -70_000_000_000)])
    func unrepresentableTime(_ time: Date) throws {
        #expect {
            try signer(.openSSL).signature(for: content, signingTime: time)
        } throws: { error in
            guard case WalletDocumentError.signingFailed(let reason) = error else { return false }
            return reason.contains("outside the years 0 to 9999")
        }
    }

    @Test("empty and large contents are signed over their own digest", arguments: [0, 1, 1 << 20])
    func contentSizes(_ size: Int) throws {
        let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let time = Date(timeIntervalSince1970: 1_795_000_000)
        let signature = try signer(.openSSL).signature(for: data, signingTime: time)
        #expect(signature == (try reference(data, at: time)))
        #expect(try SignedAttributes(signature).messageDigest == Array(SHA256.hash(data: data)))
    }

    @Test("a signed .pkpass verifies with DocumentVerifier on each engine", arguments: RSASigningEngine.allCases)
    func verifierAccepts(engine: RSASigningEngine) async throws {
        let pkpass = try signer(engine).sign(try Fixtures.package()).pkpass()
        let verified = try await DocumentVerifier(trustRoots: [Fixtures.identity.root]).verify(pkpass: pkpass)
        #expect(verified.signer == identity.certificate)
    }
}

/// The signing-time encoder against swift-asn1's UTCTime and GeneralizedTime.
@Suite("Signing times are encoded as swift-asn1 encodes them")
struct SigningTimeEncodingTests {
    static let timestamps: [Double] = [
        -62_167_219_200, -2_208_988_800, -631_152_001, -631_152_000, -1, 0, 0.5, 951_782_400, 1_709_164_799.5,
        2_524_607_999, 2_524_608_000, 4_102_444_800, 253_402_300_799,
    ]

    @Test("the DER matches swift-asn1's for the same calendar fields", arguments: timestamps)
    func matchesSwiftASN1(_ timestamp: Double) throws {
        let time = try CMSSigningTime(Date(timeIntervalSince1970: timestamp))
        var bytes = [UInt8](repeating: 0, count: time.encodedCount)
        bytes.withUnsafeMutableBytes { time.write(to: $0) }
        var serializer = DER.Serializer()
        if time.isUTCTime {
            try serializer.serialize(
                try UTCTime(
                    year: time.year, month: time.month, day: time.day, hours: time.hours, minutes: time.minutes,
                    seconds: time.seconds))
        } else {
            try serializer.serialize(
                try GeneralizedTime(
                    year: time.year, month: time.month, day: time.day, hours: time.hours, minutes: time.minutes,
                    seconds: time.seconds, fractionalSeconds: 0))
        }
        #expect(bytes == serializer.serializedBytes)
        // And the fields are the calendar's (Foundation's Gregorian calendar is Julian before 1582-10-15).
        guard timestamp >= -12_219_292_800 else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let fields = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second],
            from: Date(timeIntervalSince1970: timestamp.rounded()))
        #expect(
            [time.year, time.month, time.day, time.hours, time.minutes, time.seconds]
                == [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second])
    }
}
