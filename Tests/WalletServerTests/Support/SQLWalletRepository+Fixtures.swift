import Foundation
import WalletServer
import WalletServices
import WalletStore

extension SQLWalletRepository {
    /// A client, user, tag (`T1`), pass type and pass (`S1`): what a provisioning session or a push points at.
    func makePass(
        passTypeIdentifier: String = "pass.com.example", teamIdentifier: String = "T"
    ) async throws -> (pass: StoredPass, passType: PassType) {
        let acme = try await createClient(name: "Acme")
        let user = try await createUser(clientID: acme.id, externalReference: nil)
        let tag = ClientTag(clientID: acme.id, userID: user.id, referenceID: "T1")
        try await createTag(tag)
        let passType = PassType(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, organizationName: "Acme",
            signingKeyPath: "k")
        try await createPassType(passType)
        let pass = StoredPass(tagID: tag.id, passTypeID: passType.id, serialNumber: "S1", passContent: Data())
        try await createPass(pass)
        return (pass, passType)
    }

    /// For `pass`: `expired` sessions that ended before `now` (`expired-0`, `expired-1`, …) and one still open
    /// (`live`), for the purger to tell apart.
    func makeSessions(of pass: StoredPass, expired: Int, now: Date) async throws {
        for index in 0..<expired {
            try await createSession(
                ProvisioningSession(
                    id: "expired-\(index)", passID: pass.id, createdAt: now.addingTimeInterval(-600),
                    expiresAt: now.addingTimeInterval(-300)))
        }
        try await createSession(
            ProvisioningSession(id: "live", passID: pass.id, createdAt: now, expiresAt: now.addingTimeInterval(600)))
    }
}
