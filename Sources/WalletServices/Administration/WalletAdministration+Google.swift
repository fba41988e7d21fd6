import Foundation
import Logging
import Secrets
import WalletGoogle
import WalletPasses

extension WalletAdministration {
    /// The most bytes of a service account key file.
    static let maximumServiceAccountSize = 16 * 1024

    /// Issues the pass type's passes under the Google Wallet issuer `issuerID` too, signing with the service account
    /// whose key file is `serviceAccount` (kept in the secret store, never in the database); the passes' locations
    /// go along as `merchantLocations` only when `mayUseMerchantLocations` says Google allowlisted the issuer for
    /// them. Setting it again replaces all three.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type; ``WalletServerError/invalidArgument(_:)``
    ///   for an issuer ID that is not digits or a file that is not a service account key.
    public func setGoogleIssuer(
        passTypeID: UUID, issuerID: String, serviceAccount: Data, mayUseMerchantLocations: Bool = false
    ) async throws -> GoogleIssuer {
        let passType = try await existingPassType(passTypeID)
        guard passType.kind == .pass else {
            throw WalletServerError.invalidArgument(
                "\(passType.passTypeIdentifier) is an order type: only passes go to Google Wallet")
        }
        guard GoogleIssuer.isIssuerID(issuerID) else {
            throw WalletServerError.invalidArgument(
                "the Google issuer ID is the number (1–20 digits) the Google Pay & Wallet console shows")
        }
        guard serviceAccount.count <= Self.maximumServiceAccountSize else {
            throw WalletServerError.invalidArgument("a service account key file is at most 16 KiB")
        }
        let account: GoogleServiceAccount
        do {
            account = try GoogleServiceAccount(json: serviceAccount)
        } catch {
            throw WalletServerError.invalidArgument("\(error)")
        }
        try secrets.saveData(serviceAccount, account: GoogleIssuer.secretPath(passTypeID: passTypeID))
        guard
            try await repository.setGoogleIssuer(
                passTypeID: passTypeID, issuerID: issuerID, mayUseMerchantLocations: mayUseMerchantLocations)
        else {
            throw WalletServerError.notFound("pass type \(passTypeID)")
        }
        logger.notice(
            "set the Google Wallet issuer of a pass type",
            metadata: [
                "pass_type": "\(passType.passTypeIdentifier)", "issuer": "\(issuerID)",
                "service_account": "\(account.clientEmail)",
            ])
        return GoogleIssuer(
            issuerID: issuerID, serviceAccountEmail: account.clientEmail, keyID: account.privateKeyID,
            mayUseMerchantLocations: mayUseMerchantLocations)
    }

    /// The pass type's Google Wallet issuer, or `nil` when it has none.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type; ``WalletServerError/corruptRecord(_:)``
    ///   when its service account key is gone from the store or unreadable.
    public func googleIssuer(passTypeID: UUID) async throws -> GoogleIssuer? {
        let passType = try await existingPassType(passTypeID)
        guard let issuerID = passType.googleIssuerID else { return nil }
        let account: GoogleServiceAccount
        do {
            account = try GoogleIssuer.account(passTypeID: passTypeID, in: secrets)
        } catch WalletServerError.corruptRecord {
            throw WalletServerError.corruptRecord(
                "the Google service account key of \(passType.passTypeIdentifier) (set it again)")
        }
        return GoogleIssuer(
            issuerID: issuerID, serviceAccountEmail: account.clientEmail, keyID: account.privateKeyID,
            mayUseMerchantLocations: passType.googleMayUseMerchantLocations)
    }

    /// Stops issuing the pass type's passes to Google Wallet and deletes its service account key from the store.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type or one without a Google issuer.
    public func removeGoogleIssuer(passTypeID: UUID) async throws {
        let passType = try await existingPassType(passTypeID)
        guard passType.googleIssuerID != nil else {
            throw WalletServerError.notFound("a Google Wallet issuer of \(passType.passTypeIdentifier)")
        }
        _ = try await repository.setGoogleIssuer(passTypeID: passTypeID, issuerID: nil, mayUseMerchantLocations: false)
        _ = try? secrets.deleteData(account: GoogleIssuer.secretPath(passTypeID: passTypeID))
        logger.notice(
            "removed the Google Wallet issuer of a pass type", metadata: ["pass_type": "\(passType.passTypeIdentifier)"]
        )
    }
}
