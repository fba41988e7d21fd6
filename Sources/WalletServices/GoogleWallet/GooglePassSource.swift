import Foundation
import NIOPosix
import Secrets
import WalletPasses

/// Where Google Wallet writes and links read a pass: the stored pass with its pass type, and the service account of
/// the pass type's Google issuer.
package struct GooglePassSource: Sendable {
    /// The pass and its pass type, or `nil` when the pass is gone.
    let pass: @Sendable (_ passID: UUID) async throws -> (pass: StoredPass, passType: PassType)?
    /// The service account of a pass type's Google issuer.
    let account: @Sendable (_ passType: PassType) async throws -> GoogleServiceAccount

    /// A source of `pass` and `account`.
    package init(
        pass: @escaping @Sendable (UUID) async throws -> (pass: StoredPass, passType: PassType)?,
        account: @escaping @Sendable (PassType) async throws -> GoogleServiceAccount
    ) {
        self.pass = pass
        self.account = account
    }

    /// The passes of `repository`, personalized as their devices get them, and the service accounts kept in
    /// `secrets` (read off the async threads, since the store may block).
    package init(repository: any WalletRepository, secrets: any SecretsDataStoring) {
        pass = { passID in
            guard var pass = try await repository.pass(id: passID),
                let passType = try await repository.passType(id: pass.passTypeID)
            else { return nil }
            var package = try PassPackage(archive: pass.passContent)
            if package.files[PassRenderer.personalizationFile] != nil,
                let personalization = try await repository.personalization(passID: passID)
            {
                var content = try package.pass
                PassRenderer.personalize(&package, &content, with: personalization)
                try package.setPass(content)
                pass.passContent = try package.archived()
            }
            return (pass, passType)
        }
        account = { passType in
            try await NIOThreadPool.singleton.runIfActive {
                try GoogleIssuer.account(passTypeID: passType.id, in: secrets)
            }
        }
    }
}
