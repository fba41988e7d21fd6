import Crypto
import Foundation
import Secrets
import WalletPasses

/// Writes one pending write to Google Wallet: converts the pass as it is now, sets the object it replaced (after a
/// rotated token) `INACTIVE`, and writes its class and object unless they already hold this content. The write's
/// notices travel as one new message in the object itself (so that a retried write adds it once), notifying the
/// holder while the pass has notifications left today (``notificationsPerDay``, counted in the database, so on every
/// replica together); earlier messages stay as `TEXT`, the newest ``GoogleObjectRecord/maximumMessages`` kept.
package struct GoogleWalletWriter: Sendable {
    /// What a write came to.
    package enum Result: Sendable, Hashable {
        /// The object holds the pass as it is; the details go in the pass's trace.
        case written(details: [String: JSONValue])
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
            guard passType.googleIssuerID != nil else {
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
            let record = try await outbox.googleObject(passID: write.passID)
            let conversion = try converter.convert(
                try await source.package(of: stored), passType: passType, generation: record?.generation ?? 0)
            var object = conversion.walletObject
            if record?.objectID != object.id,
                try await !outbox.reserveGoogleObject(passID: write.passID, objectID: object.id)
            {
                return .failed(
                    .refused(
                        status: 0, reason: "another pass has this Google Wallet object identifier",
                        detail: object.id))
            }
            let kept = (record?.objectID == object.id ? record?.messages ?? [] : []).map {
                var message = $0
                message.messageType = "TEXT"
                return message
            }
            if let retired = record?.retiredObjectID, retired != object.id {
                let outcome = await api.retire(
                    retired, of: object.type, messages: Array((kept + [Self.replaced]).suffix(10)), as: account)
                guard outcome == .done else { return .failed(outcome) }
            }
            var notified = false
            var messages = kept
            if !write.notices.isEmpty {
                notified = try await outbox.reserveGoogleNotification(
                    passID: write.passID, now: clock.now, limit: Self.notificationsPerDay, window: 86_400)
                messages.append(
                    GoogleWallet.Message(
                        id: "coffer-\(write.id.uuidString.lowercased())",
                        header: write.notices.count == 1 ? write.notices[0].label : nil,
                        body: String(write.notices.map(\.message).joined(separator: "\n").prefix(1000)),
                        messageType: notified ? "TEXT_AND_NOTIFY" : "TEXT"))
            }
            object.messages = messages.isEmpty ? nil : Array(messages.suffix(GoogleObjectRecord.maximumMessages))
            let digest = Self.digest(of: conversion.walletClass, object)
            let current = record?.objectID == object.id && record?.writtenDigest == digest
            if !current {
                // Google fetches the images when it takes the class and object.
                try await outbox.keepGoogleImages(conversion.images, now: clock.now)
                let saved = await api.save(
                    conversion.walletClass, object, classKnown: record?.classID == conversion.walletClass.id,
                    as: account)
                guard saved == .done else { return .failed(saved) }
            }
            try await outbox.recordGoogleObjectWritten(
                passID: write.passID, objectID: object.id, classID: conversion.walletClass.id,
                updateTag: stored.updateTag, digest: digest, messages: object.messages ?? [], at: clock.now)
            return .written(details: [
                "object_id": .string(object.id), "class_id": .string(conversion.walletClass.id),
                "content_written": .bool(!current), "messages": .number(write.notices.isEmpty ? 0 : 1),
                "notified": .number(notified ? 1 : 0),
            ])
        } catch let error as WalletPassesError {
            return .failed(.refused(status: 0, reason: "the stored pass cannot be read", detail: "\(error)"))
        } catch {
            return .failed(.retry(after: nil, reason: "the database failed: \(type(of: error))"))
        }
    }

    /// The message a replaced object gets.
    static let replaced = GoogleWallet.Message(
        id: "coffer-replaced", header: "This pass was replaced",
        body: "Its issuer replaced it; ask them for the new one.", messageType: "TEXT")

    /// The SHA-256 (hex) of the class's and the object's JSON: what the object last written holds.
    static func digest(of walletClass: GoogleWalletClass, _ object: GoogleWalletObject) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var hash = SHA256()
        hash.update(data: (try? encoder.encode(walletClass)) ?? Data())
        hash.update(data: (try? encoder.encode(object)) ?? Data())
        return hash.finalize().hexString
    }
}
