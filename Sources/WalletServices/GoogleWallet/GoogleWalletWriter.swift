import Foundation
import Secrets
import WalletPasses

/// Writes one pending write to Google Wallet: converts the pass as it is now, writes its class and object unless
/// the object already holds this update of the pass, and adds the write's notices as one message, notifying the holder
/// while the pass has notifications left today (``notificationsPerDay``, counted in the database, so on every
/// replica together) and adding them silently after.
package struct GoogleWalletWriter: Sendable {
    /// What a write came to.
    package enum Result: Sendable, Hashable {
        /// The object holds the pass as it is, and the messages were added; the details go in the pass's trace.
        case written(details: [String: JSONValue], messages: [GoogleWallet.Message])
        /// There is nothing to write (the pass is gone, or its pass type has no Google issuer any more).
        case skipped(String)
        /// Google's answer, or the lack of one, when it was not a success.
        case failed(GoogleWalletOutcome)
    }

    /// The most notifying messages per pass in a day, as Google allows.
    package static let notificationsPerDay = 3

    package let api: any GoogleWalletAPI
    let outbox: any GoogleWalletOutbox
    /// Where the pass and its issuer's account are read.
    let source: GooglePassSource
    /// How passes become classes and objects.
    let converter: GooglePassConverter
    let clock: any CofferClock

    /// A writer through `api` of the passes of `source`, recording in `outbox`.
    package init(
        api: any GoogleWalletAPI, outbox: any GoogleWalletOutbox, source: GooglePassSource,
        converter: GooglePassConverter = GooglePassConverter(publicBaseURL: { nil }),
        clock: any CofferClock = SystemClock()
    ) {
        self.api = api
        self.outbox = outbox
        self.source = source
        self.converter = converter
        self.clock = clock
    }

    /// Sends `write`.
    package func write(_ write: PendingGoogleWrite) async -> Result {
        do {
            guard let (stored, passType) = try await source.pass(write.passID) else {
                return .skipped("the pass no longer exists")
            }
            guard let issuerID = passType.googleIssuerID else {
                return .skipped("the pass type has no Google Wallet issuer")
            }
            let account: GoogleServiceAccount
            do {
                account = try await source.account(passType)
            } catch {
                return .failed(
                    .refused(
                        status: 0, reason: "the service account key cannot be read",
                        detail: "set it again with `coffer admin pass-type google set`"))
            }
            let conversion = try converter.convert(try await source.package(of: stored), issuerID: issuerID)
            let record = try await outbox.googleObject(passID: write.passID)
            var object = conversion.walletObject
            object.messages = record.flatMap { $0.messages.isEmpty ? nil : $0.messages }
            let current =
                record?.writtenUpdateTag == stored.updateTag && record?.objectID == object.id
                && record?.classID == conversion.walletClass.id
            if !current {
                // Google fetches the images when it takes the class and object.
                try await outbox.keepGoogleImages(conversion.images, now: clock.now)
                let saved = await api.save(conversion.walletClass, object, as: account)
                guard saved == .done else { return .failed(saved) }
                try await outbox.recordGoogleObjectWritten(
                    passID: write.passID, objectID: object.id, classID: conversion.walletClass.id,
                    updateTag: stored.updateTag, at: clock.now)
            }
            // One message per change, whatever it changed: Google notifies three times a day, and each call costs.
            var added: [GoogleWallet.Message] = []
            var notified = 0
            if !write.notices.isEmpty {
                let notifies = try await outbox.reserveGoogleNotification(
                    passID: write.passID, now: clock.now, limit: Self.notificationsPerDay, window: 86_400)
                let message = GoogleWallet.Message(
                    id: "coffer-\(write.id.uuidString.lowercased())",
                    header: write.notices.count == 1 ? write.notices[0].label : nil,
                    body: String(write.notices.map(\.message).joined(separator: "\n").prefix(1000)),
                    messageType: notifies ? "TEXT_AND_NOTIFY" : "TEXT")
                let outcome = await api.addMessage(message, toObject: object.id, of: object.type, as: account)
                guard outcome == .done else { return .failed(outcome) }
                added.append(message)
                if notifies { notified = 1 }
            }
            return .written(
                details: [
                    "object_id": .string(object.id), "class_id": .string(conversion.walletClass.id),
                    "content_written": .bool(!current), "messages": .number(Double(added.count)),
                    "notified": .number(Double(notified)),
                ], messages: added)
        } catch let error as WalletPassesError {
            return .failed(.refused(status: 0, reason: "the stored pass cannot be read", detail: "\(error)"))
        } catch {
            return .failed(.retry(after: nil, reason: "the database failed: \(type(of: error))"))
        }
    }
}
