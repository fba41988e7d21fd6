import Foundation
import WalletServer

extension SQLWalletRepository {
    /// A client, user, tag (`T1`), pass type and pass (`S1`): what a provisioning session or a push points at.
    func makePass(
        passTypeIdentifier: String = "pass.com.example", teamIdentifier: String = "T"
    ) async throws -> (pass: ApplePass, passType: PassType) {
        let acme = try await createClient(name: "Acme")
        let user = try await createUser(clientID: acme.id, externalReference: nil)
        let tag = ClientTag(clientID: acme.id, userID: user.id, referenceID: "T1")
        try await createTag(tag)
        let passType = PassType(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, organizationName: "Acme",
            signingKeyPath: "k")
        try await createPassType(passType)
        let pass = ApplePass(tagID: tag.id, passTypeID: passType.id, serialNumber: "S1", passContent: Data())
        try await createPass(pass)
        return (pass, passType)
    }
}
