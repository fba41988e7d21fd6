import Crypto
import Foundation
import Testing

@testable import WalletDocuments
@testable import WalletGoogle
@testable import WalletPasses

@Suite("Google Wallet's save and delete callbacks: verified from root key to message, refused when anything is off")
struct GoogleWalletCallbackTests {
    static let issuer = "3388000000012345678"
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// Google's side, made here: a root key, an intermediate key it signs, and messages that key signs.
    struct Google {
        let root = P256.Signing.PrivateKey()
        let intermediate = P256.Signing.PrivateKey()

        func rootKeys(expiring: Date = GoogleWalletCallbackTests.now.addingTimeInterval(86_400)) -> Data {
            let key: [String: Any] = [
                "keyValue": root.publicKey.derRepresentation.base64EncodedString(),
                "protocolVersion": "ECv2SigningOnly",
                "keyExpiration": "\(Int64(expiring.timeIntervalSince1970 * 1000))",
            ]
            return try! JSONSerialization.data(withJSONObject: ["keys": [key]])
        }

        /// A callback body for `recipient`, changed by `edit` after signing.
        func callback(
            event: String = "save", recipient: String = GoogleWalletCallbackTests.issuer,
            keyExpires: Date = GoogleWalletCallbackTests.now.addingTimeInterval(3600),
            messageExpires: Date = GoogleWalletCallbackTests.now.addingTimeInterval(60),
            edit: (inout [String: Any]) -> Void = { _ in }
        ) throws -> Data {
            let signedKey = String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "keyValue": intermediate.publicKey.derRepresentation.base64EncodedString(),
                    "keyExpiration": "\(Int64(keyExpires.timeIntervalSince1970 * 1000))",
                ]), as: UTF8.self)
            let message = String(
                decoding: try JSONSerialization.data(withJSONObject: [
                    "classId": "\(GoogleWalletCallbackTests.issuer).event",
                    "objectId": "\(GoogleWalletCallbackTests.issuer).ticket-1",
                    "eventType": event, "nonce": UUID().uuidString,
                    "expTimeMillis": Int64(messageExpires.timeIntervalSince1970 * 1000),
                ]), as: UTF8.self)
            let keySignature = try root.signature(
                for: GoogleWalletCallback.lengthPrefixed(["GooglePayPasses", "ECv2SigningOnly", signedKey]))
            let messageSignature = try intermediate.signature(
                for: GoogleWalletCallback.lengthPrefixed(["GooglePayPasses", recipient, "ECv2SigningOnly", message]))
            var body: [String: Any] = [
                "protocolVersion": "ECv2SigningOnly", "signedMessage": message,
                "signature": messageSignature.derRepresentation.base64EncodedString(),
                "intermediateSigningKey": [
                    "signedKey": signedKey, "signatures": [keySignature.derRepresentation.base64EncodedString()],
                ],
            ]
            edit(&body)
            return try JSONSerialization.data(withJSONObject: body)
        }
    }

    func verify(_ body: Data, _ google: Google) throws(GoogleWalletCallback.Failure) -> GoogleWalletCallback {
        let keys = try GoogleWalletCallback.rootKeys(json: google.rootKeys(), now: Self.now)
        return try GoogleWalletCallback(verifying: body, rootKeys: keys, issuerID: Self.issuer, now: Self.now)
    }

    @Test("a save and a delete signed by Google's chain verify, naming the class, object, event and nonce")
    func verifies() throws {
        let google = Google()
        let saved = try verify(try google.callback(), google)
        #expect(
            saved.event == .saved && saved.objectID == "\(Self.issuer).ticket-1"
                && saved.classID == "\(Self.issuer).event")
        #expect(!saved.nonce.isEmpty)
        #expect(try verify(try google.callback(event: "del"), google).event == .removed)
    }

    @Test("a forged, changed, foreign, expired or malformed callback, or one with too many signatures, is refused")
    func refused() throws {
        let google = Google()
        let cases: [(Data, (GoogleWalletCallback.Failure) -> Bool)] = [
            (try Google().callback(), { if case .badSignature = $0 { true } else { false } }),  // another root
            (try google.callback(recipient: "1111"), { if case .badSignature = $0 { true } else { false } }),
            (
                try google.callback { body in
                    body["signedMessage"] = (body["signedMessage"] as! String).replacingOccurrences(
                        of: "save", with: "del")
                }, { if case .badSignature = $0 { true } else { false } }
            ),
            (
                try google.callback(keyExpires: Self.now.addingTimeInterval(-1)),
                { if case .expired = $0 { true } else { false } }
            ),
            (
                try google.callback(messageExpires: Self.now.addingTimeInterval(-1)),
                { if case .expired = $0 { true } else { false } }
            ),
            (try google.callback { $0["extra"] = true }, { if case .malformed = $0 { true } else { false } }),
            (
                try google.callback { body in
                    var key = body["intermediateSigningKey"] as! [String: Any]
                    key["signatures"] = Array(repeating: (key["signatures"] as! [String])[0], count: 5)
                    body["intermediateSigningKey"] = key
                }, { if case .malformed = $0 { true } else { false } }
            ),
            (
                try google.callback { $0["protocolVersion"] = "ECv2" },
                { if case .malformed = $0 { true } else { false } }
            ),
            (try google.callback(event: "update"), { if case .malformed = $0 { true } else { false } }),
            (Data("not json".utf8), { if case .malformed = $0 { true } else { false } }),
        ]
        for (index, (body, expected)) in cases.enumerated() {
            do {
                _ = try verify(body, google)
                Issue.record("case \(index) verified")
            } catch {
                #expect(expected(error), "case \(index): \(error)")
            }
        }
    }

    @Test("root keys of another protocol or past their expiry are not trusted")
    func rootKeys() throws {
        let google = Google()
        #expect(
            try GoogleWalletCallback.rootKeys(
                json: google.rootKeys(expiring: Self.now.addingTimeInterval(-1)), now: Self.now
            ).isEmpty)
        let other = try JSONSerialization.data(withJSONObject: [
            "keys": [
                [
                    "keyValue": google.root.publicKey.derRepresentation.base64EncodedString(),
                    "protocolVersion": "ECv1",
                    "keyExpiration": "9999999999999",
                ]
            ]
        ])
        #expect(try GoogleWalletCallback.rootKeys(json: other, now: Self.now).isEmpty)
        #expect(throws: GoogleWalletCallback.Failure.self) { try GoogleWalletCallback.rootKeys(json: Data("[]".utf8)) }
    }

    @Test("a callback Google really signed verifies: its message by its intermediate key, that key by Google's root")
    func realCallback() throws {
        let body = GoogleSignedCallback.body
        let message = GoogleSignedCallback.signedMessage
        guard case .object(let key) = try JSONValue(parsing: Data(GoogleSignedCallback.signedKey.utf8)),
            case .string(let keyValue)? = key["keyValue"]
        else { throw CocoaError(.coderReadCorrupt) }
        let intermediate = try P256.Signing.PublicKey(derRepresentation: try #require(Data(base64Encoded: keyValue)))
        let signatureBytes = try #require(Data(base64Encoded: GoogleSignedCallback.signature))
        #expect(
            GoogleWalletCallback.isSigned(
                message, signature: signatureBytes, by: intermediate, issuerID: GoogleSignedCallback.issuerID,
                senderID: GoogleWalletCallback.senderID))
        #expect(
            !GoogleWalletCallback.isSigned(
                message, signature: signatureBytes, by: intermediate, issuerID: GoogleSignedCallback.issuerID,
                senderID: "GoogleWalletPasses"), "the other sender id is another format's")
        #expect(
            !GoogleWalletCallback.isSigned(
                message, signature: signatureBytes, by: intermediate, issuerID: "3388000000012345678",
                senderID: GoogleWalletCallback.senderID), "signed for its issuer only")

        let root = try P256.Signing.PublicKey(
            derRepresentation: try #require(Data(base64Encoded: GoogleSignedCallback.rootKey)))
        let callback = try GoogleWalletCallback(
            verifying: body, rootKeys: [root], issuerID: GoogleSignedCallback.issuerID,
            now: GoogleSignedCallback.validAt)
        #expect(callback.event == .removed)
        #expect(callback.objectID == "3388000000022141777.6b4cbd15-0de7-4fe8-95f6-995a51b4595e.object")
        #expect(callback.nonce == "1a9e3df0-ec10-4a17-8b39-89d2d7f48e3b")
        #expect(throws: GoogleWalletCallback.Failure.self) {
            try GoogleWalletCallback(
                verifying: body, rootKeys: [root], issuerID: GoogleSignedCallback.issuerID,
                now: GoogleSignedCallback.validAt.addingTimeInterval(86_400 * 30))
        }
    }
}
