import CofferTestSupport
import Foundation
import Testing

@testable import WalletDocuments
@testable import WalletGoogle
@testable import WalletPasses

@Suite("Add to Google Wallet: a save link whose JWT the service account signs, skinny when long")
struct GoogleSaveLinkTests {
    /// A service account key file with an RSA key openssl made, and the key's public half in PEM.
    static func account(in directory: TemporaryDirectory) throws -> (account: GoogleServiceAccount, publicKey: URL) {
        let key = directory.appending("account.pem")
        let publicKey = directory.appending("account.pub.pem")
        #expect(
            try OpenSSL.run("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.path).status
                == 0)
        #expect(try OpenSSL.run("pkey", "-in", key.path, "-pubout", "-out", publicKey.path).status == 0)
        let file: [String: Any] = [
            "type": "service_account", "client_email": "wallet@coffer-test.iam.gserviceaccount.com",
            "private_key_id": "k1", "private_key": try String(contentsOf: key, encoding: .utf8),
        ]
        return (try GoogleServiceAccount(json: try JSONSerialization.data(withJSONObject: file)), publicKey)
    }

    /// The JWT's header and claims, after openssl verified its signature with `publicKey`.
    static func verified(_ url: String, publicKey: URL, in directory: TemporaryDirectory) throws
        -> (header: [String: Any], claims: [String: Any])
    {
        #expect(url.hasPrefix(GoogleSaveLink.prefix))
        let parts = url.dropFirst(GoogleSaveLink.prefix.count).split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        func decoded(_ text: String) throws -> Data {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return try #require(Data(base64Encoded: base64))
        }
        let input = directory.appending("input")
        let signature = directory.appending("signature")
        try Data("\(parts[0]).\(parts[1])".utf8).write(to: input)
        try decoded(parts[2]).write(to: signature)
        let outcome = try OpenSSL.run(
            "dgst", "-sha256", "-verify", publicKey.path, "-signature", signature.path, input.path)
        #expect(outcome.status == 0, "openssl verifies the RS256 signature: \(outcome.errorOutput)")
        func object(_ data: Data) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (try object(try decoded(parts[0])), try object(try decoded(parts[1])))
    }

    @Test("a short pass's link carries its class and object, with Google's claims, and verifies with openssl")
    func whole() throws {
        let directory = try TemporaryDirectory()
        let (account, publicKey) = try Self.account(in: directory)
        #expect(!"\(account)".contains("PRIVATE"), "the description never shows the key")
        var pass = LintSample.eventTicket.pass
        pass.fields = PassFields(primaryFields: [.text("event", "Gala", label: "EVENT")])
        pass.locations = nil
        let conversion = GooglePassConversion(pass, options: .init(issuerID: "3388000000012345678"))
        let issued = Date(timeIntervalSince1970: 1_795_000_000)
        let link = try GoogleSaveLink(
            conversion, account: account, origins: ["https://tickets.example.com"], issuedAt: issued)
        #expect(!link.isSkinny)
        #expect(link.url.count <= GoogleSaveLink.maximumLength)
        let (header, claims) = try Self.verified(link.url, publicKey: publicKey, in: directory)
        #expect(header["alg"] as? String == "RS256" && header["kid"] as? String == "k1")
        #expect(claims["iss"] as? String == account.clientEmail)
        #expect(claims["aud"] as? String == "google" && claims["typ"] as? String == "savetowallet")
        #expect(claims["iat"] as? Int == 1_795_000_000)
        #expect(claims["origins"] as? [String] == ["https://tickets.example.com"])
        let payload = try #require(claims["payload"] as? [String: Any])
        let objects = try #require(payload["eventTicketObjects"] as? [[String: Any]])
        #expect(objects.first?["id"] as? String == conversion.walletObject.id)
        #expect(
            (payload["eventTicketClasses"] as? [[String: Any]])?.first?["id"] as? String == conversion.walletClass.id)
    }

    @Test("a link that would be longer than 1,800 characters names only the object and its class")
    func skinny() throws {
        let directory = try TemporaryDirectory()
        let (account, publicKey) = try Self.account(in: directory)
        let conversion = GooglePassConversion(
            LintSample.eventTicket.pass, files: LintSample.eventTicket.files,
            options: .init(
                issuerID: "3388000000012345678", imageBaseURL: "https://passes.example.com/images/TICKET-001"))
        let link = try GoogleSaveLink(conversion, account: account)
        #expect(link.isSkinny)
        let (_, claims) = try Self.verified(link.url, publicKey: publicKey, in: directory)
        let payload = try #require(claims["payload"] as? [String: Any])
        #expect(payload.keys.sorted() == ["eventTicketObjects"])
        let object = try #require((payload["eventTicketObjects"] as? [[String: String]])?.first)
        #expect(object == ["id": conversion.walletObject.id, "classId": conversion.walletClass.id])
    }

    @Test("a file that is not a service account key is refused, saying what one is")
    func refused() {
        for json in [#"{"client_email":"a@b"}"#, #"{"client_email":"a@b","private_key":"nope"}"#, "[]"] {
            #expect(throws: WalletDocumentError.self) { try GoogleServiceAccount(json: Data(json.utf8)) }
        }
    }
}
