import Crypto
import Foundation
import Logging
import Secrets
import WalletDocuments
import WalletGoogle

/// Receives Google Wallet's save and delete callbacks: verifies each from Google's root keys to the message, for
/// the issuer the route names, refuses an expired or replayed one, and records the rest in the pass's trace
/// (`google_saved`, `google_removed`), which sends the issuer's backend `pass.added` or `pass.removed`.
///
/// A refused callback is recorded nowhere: its nonce is kept only with the event it brought, in one transaction.
package struct GoogleWalletCallbacks: Sendable {
    /// What became of a callback.
    package enum Outcome: Sendable, Hashable {
        /// It was recorded for the pass.
        case recorded(passID: UUID, event: GoogleWalletCallback.Event)
        /// Its nonce was seen before.
        case replayed
        /// It names an object the server has not written (yet): Google sends it again later.
        case unknownObject
    }

    /// The largest callback body read.
    package static let maximumBodySize = 16 * 1024

    let repository: any GoogleWalletOutbox
    let rootKeys: GoogleRootKeys
    let senderID: String
    let trace: PassEventRecorder
    let clock: any CofferClock
    let logger: Logger

    /// Creates the service; callbacks are signed by `senderID` under `rootKeys`.
    package init(
        repository: any GoogleWalletOutbox, rootKeys: GoogleRootKeys, senderID: String, trace: PassEventRecorder,
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.google")
    ) {
        self.repository = repository
        self.rootKeys = rootKeys
        self.senderID = senderID
        self.trace = trace
        self.clock = clock
        self.logger = logger
    }

    /// Verifies and records the callback `body` posted for the issuer `issuerID`.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an issuer no pass type has; `GoogleWalletCallback.Failure`
    ///   for a callback that does not verify or has expired; the store's errors (nothing is recorded).
    package func receive(_ body: Data, issuerID: String) async throws -> Outcome {
        guard GoogleIssuer.isIssuerID(issuerID), try await repository.hasGoogleIssuer(issuerID) else {
            throw WalletServerError.notFound("a Google Wallet issuer \(issuerID)")
        }
        let callback: GoogleWalletCallback
        do {
            callback = try await verify(body, issuerID: issuerID, refreshingKeys: false)
        } catch .badSignature {
            // Google may have rotated its keys since they were fetched.
            callback = try await verify(body, issuerID: issuerID, refreshingKeys: true)
        }
        guard callback.objectID.hasPrefix(issuerID + "."), callback.nonce.utf8.count <= 256 else {
            throw GoogleWalletCallback.Failure.malformed("the object is not the issuer's, or the nonce is too long")
        }
        let now = clock.now
        let outcome = try await repository.recordGoogleCallback(
            nonce: callback.nonce, expiresAt: callback.expiresAt, objectID: callback.objectID,
            saved: callback.event == .saved, now: now)
        switch outcome {
        case .recorded(let passID):
            await trace.record(
                trace.event(
                    callback.event == .saved ? .googleSaved : .googleRemoved, passID: passID,
                    details: [
                        "object_id": .string(callback.objectID), "class_id": .string(callback.classID),
                        "wallet": .string("google"),
                    ]))
            logger.info(
                "Google Wallet said a holder \(callback.event == .saved ? "saved" : "removed") a pass",
                metadata: ["pass": "\(passID)"])
            return .recorded(passID: passID, event: callback.event)
        case .replayed:
            logger.notice("a Google Wallet callback was replayed; it is refused", metadata: ["issuer": "\(issuerID)"])
            return .replayed
        case .unknownObject:
            logger.notice(
                "a Google Wallet callback names an object this server has not written; Google sends it again",
                metadata: ["issuer": "\(issuerID)"])
            return .unknownObject
        }
    }

    private func verify(_ body: Data, issuerID: String, refreshingKeys: Bool) async throws(GoogleWalletCallback.Failure)
        -> GoogleWalletCallback
    {
        let keys: [P256.Signing.PublicKey]
        do {
            keys = try await rootKeys.current(refresh: refreshingKeys)
        } catch {
            throw .badSignature("Google's root keys cannot be fetched")
        }
        return try GoogleWalletCallback(
            verifying: body, rootKeys: keys, issuerID: issuerID, senderID: senderID, now: clock.now)
    }
}
