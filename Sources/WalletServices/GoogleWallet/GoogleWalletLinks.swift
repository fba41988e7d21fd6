import Foundation
import Logging
import Secrets
import WalletGoogle

/// Hands out "Add to Google Wallet" links of passes whose pass type has a Google issuer: the management API's, and
/// the share page's for Android browsers. A link carries the pass's class and object whole, or only their
/// identifiers when that would be too long (`GoogleSaveLink`); either way the object's identifier is the pass's from
/// then on (so that a callback for it finds the pass), and a pass whose object was never written gets a write
/// queued, so that the object exists when the holder saves it.
package struct GoogleWalletLinks: Sendable {
    /// A link, and what it needs.
    package struct Link: Sendable, Hashable {
        /// `https://pay.google.com/gp/v/save/<JWT>`.
        package var url: String
        /// Whether it names the object only, which must then be written first.
        package var isSkinny: Bool
        /// The object's identifier.
        package var objectID: String
        /// Whether the object was written to Google Wallet already (a skinny link works only once it was).
        package var objectWritten: Bool
    }

    let repository: any TagLookup & GoogleWalletOutbox
    let source: GooglePassSource
    let converter: GooglePassConverter
    /// The origins whose pages may show the save button (the server's own).
    let origins: @Sendable () -> [String]
    /// Rings the outbox after a write was queued.
    let queued: @Sendable () -> Void
    let clock: any CofferClock
    let logger: Logger

    /// Creates the service.
    package init(
        repository: any TagLookup & GoogleWalletOutbox, source: GooglePassSource, converter: GooglePassConverter,
        origins: @escaping @Sendable () -> [String], queued: @escaping @Sendable () -> Void,
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.google")
    ) {
        self.repository = repository
        self.source = source
        self.converter = converter
        self.origins = origins
        self.queued = queued
        self.clock = clock
        self.logger = logger
    }

    /// The link of the pass of the client's tag whose `attribute` is `value`.
    ///
    /// - Throws: ``PassManagementFailure/notFound(_:)`` for an unknown tag,
    ///   ``PassManagementFailure/unsupportedHere(_:)`` when its pass type has no Google issuer.
    package func link(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> Link {
        let target = try await repository.managedPass(clientID: clientID, attribute: attribute, value: value)
        guard let link = try await link(passID: target.passID) else {
            throw PassManagementFailure.unsupportedHere(
                "the pass's pass type has no Google Wallet issuer (coffer admin pass-type google set)")
        }
        return link
    }

    /// The link of the pass `passID`, or `nil` when the pass is gone or its pass type has no Google issuer.
    ///
    /// - Throws: ``WalletServerError/corruptRecord(_:)`` when the issuer's key cannot be read, or when another pass
    ///   has the object's identifier; the store's errors.
    package func link(passID: UUID) async throws -> Link? {
        guard let (stored, passType) = try await source.pass(passID), passType.googleIssuerID != nil else {
            return nil
        }
        let account = try await source.account(passType)
        let record = try await repository.googleObject(passID: passID)
        let conversion = try converter.convert(
            try await source.package(of: stored), passType: passType, generation: record?.generation ?? 0,
            clientID: try await source.client(stored))
        let objectID = conversion.walletObject.id
        let written = record?.objectID == objectID && record?.writtenUpdateTag != nil
        if record?.objectID != objectID, try await !repository.reserveGoogleObject(passID: passID, objectID: objectID) {
            throw WalletServerError.corruptRecord("the Google Wallet object \(objectID) belongs to another pass")
        }
        let saveLink = try GoogleSaveLink(
            conversion, account: account, origins: origins(), issuedAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(Self.linkLifetime))
        if !written, try await repository.queueGoogleWrite(passID: passID, now: clock.now) {
            queued()
        }
        return Link(url: saveLink.url, isSkinny: saveLink.isSkinny, objectID: objectID, objectWritten: written)
    }

    /// How long a save link works: a day, as long as a landing page's session at most.
    package static let linkLifetime: TimeInterval = 86_400
}
