import Foundation
import NIOPosix
import Secrets
import WalletDocuments
import WalletGoogle
import WalletPasses

/// Where Google Wallet writes and links read a pass: the stored pass with its pass type, what its user entered when
/// personalizing it, and the service account of the pass type's Google issuer.
package struct GooglePassSource: Sendable {
    /// The pass and its pass type, or `nil` when the pass is gone.
    let pass: @Sendable (_ passID: UUID) async throws -> (pass: StoredPass, passType: PassType)?
    /// The service account of a pass type's Google issuer.
    let account: @Sendable (_ passType: PassType) async throws -> GoogleServiceAccount
    /// What the pass's user entered when personalizing it, if they did.
    let personalization: @Sendable (_ passID: UUID) async throws -> Data?
    /// The client whose tag holds the pass: its passes' classes are its own.
    let client: @Sendable (_ pass: StoredPass) async throws -> UUID?

    /// A source of `pass`, `account`, `personalization` and `client`.
    package init(
        pass: @escaping @Sendable (UUID) async throws -> (pass: StoredPass, passType: PassType)?,
        account: @escaping @Sendable (PassType) async throws -> GoogleServiceAccount,
        personalization: @escaping @Sendable (UUID) async throws -> Data? = { _ in nil },
        client: @escaping @Sendable (StoredPass) async throws -> UUID? = { _ in nil }
    ) {
        self.pass = pass
        self.account = account
        self.personalization = personalization
        self.client = client
    }

    /// The passes of `repository` and their personalizations, and the service accounts kept in `secrets` (read off
    /// the async threads, since the store may block).
    package init(repository: any WalletRepository, secrets: any SecretsDataStoring) {
        self.init(
            pass: { passID in
                guard let pass = try await repository.pass(id: passID),
                    let passType = try await repository.passType(id: pass.passTypeID)
                else { return nil }
                return (pass, passType)
            },
            account: { passType in
                try await NIOThreadPool.singleton.runIfActive {
                    try GoogleIssuer.account(passTypeID: passType.id, in: secrets)
                }
            },
            personalization: { try await repository.personalization(passID: $0) },
            client: { try await repository.tag(id: $0.tagID)?.clientID })
    }

    /// The package of `stored` as its devices get it: personalized, when it asks for personalization and its user
    /// gave it (`PassRenderer/personalize(_:_:with:)`).
    ///
    /// - Throws: `WalletDocumentError` when the stored pass cannot be read; the store's errors.
    package func package(of stored: StoredPass) async throws -> PassPackage {
        var package = try PassPackage(archive: stored.passContent)
        if package.files[PassRenderer.personalizationFile] != nil,
            let personalization = try await personalization(stored.id)
        {
            var pass = try package.pass
            PassRenderer.personalize(&package, &pass, with: personalization)
            try package.setPass(pass)
        }
        return package
    }
}
