import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import SecretsAudit
import Testing
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("A pass type's Google Wallet issuer: its key in the secret store, never in the database or the output")
struct GoogleIssuerTests {
    /// A service account key file with a fresh RSA key.
    static func serviceAccount(in directory: TemporaryDirectory) throws -> Data {
        let key = directory.appending("google.pem")
        #expect(
            try OpenSSL.run("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key.path).status
                == 0)
        return try JSONSerialization.data(withJSONObject: [
            "type": "service_account", "client_email": "wallet@coffer-test.iam.gserviceaccount.com",
            "private_key_id": "k1", "private_key": try String(contentsOf: key, encoding: .utf8),
        ])
    }

    @Test(
        "set, show and remove; the key is in the store, the database holds only the issuer ID",
        arguments: Engine.available)
    func lifecycle(_ engine: Engine) async throws {
        try await AdministrationTests().withAdministration(engine) { administration, storage in
            let (passType, _) = try await administration.developmentPassType()
            #expect(try await administration.googleIssuer(passTypeID: passType.id) == nil)
            let key = try Self.serviceAccount(in: try TemporaryDirectory())
            let issuer = try await administration.setGoogleIssuer(
                passTypeID: passType.id, issuerID: "3388000000012345678", serviceAccount: key)
            #expect(
                issuer
                    == GoogleIssuer(
                        issuerID: "3388000000012345678",
                        serviceAccountEmail: "wallet@coffer-test.iam.gserviceaccount.com", keyID: "k1",
                        mayUseMerchantLocations: false))
            #expect(try await administration.googleIssuer(passTypeID: passType.id) == issuer)
            #expect(try await storage.repository.passType(id: passType.id)?.googleIssuerID == "3388000000012345678")
            #expect(try storage.secrets.readData(account: GoogleIssuer.secretPath(passTypeID: passType.id)) == key)

            let rows = try await storage.database.sql.raw("SELECT * FROM pass_types").all()
            for row in rows {
                for column in row.allColumns {
                    let text = (try? row.decode(column: column, as: String?.self)) ?? nil
                    #expect(text?.contains("PRIVATE KEY") != true, "column \(column) holds no key")
                }
            }

            try await administration.removeGoogleIssuer(passTypeID: passType.id)
            #expect(try await administration.googleIssuer(passTypeID: passType.id) == nil)
            #expect(try storage.secrets.readData(account: GoogleIssuer.secretPath(passTypeID: passType.id)) == nil)
            await #expect(throws: WalletServerError.self) {
                try await administration.removeGoogleIssuer(passTypeID: passType.id)
            }
        }
    }

    @Test("an issuer ID that is not digits, a file that is not a key, or an unknown pass type changes nothing")
    func refused() async throws {
        try await AdministrationTests().withAdministration(.sqliteFile) { administration, storage in
            let (passType, _) = try await administration.developmentPassType()
            let key = try Self.serviceAccount(in: try TemporaryDirectory())
            let accounts = try storage.secrets.listAccounts()
            for (id, issuer, file) in [
                (passType.id, "acme", key), (passType.id, "3388000000012345678", Data(#"{"client_email":"a@b"}"#.utf8)),
                (UUID(), "3388000000012345678", key),
            ] {
                await #expect(throws: WalletServerError.self) {
                    try await administration.setGoogleIssuer(passTypeID: id, issuerID: issuer, serviceAccount: file)
                }
            }
            #expect(try storage.secrets.listAccounts() == accounts)
            #expect(try await storage.repository.passType(id: passType.id)?.googleIssuerID == nil)
        }
    }
}
