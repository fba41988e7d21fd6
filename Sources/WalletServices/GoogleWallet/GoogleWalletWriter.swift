import Crypto
import Foundation
import Secrets
import WalletDocuments
import WalletGoogle

/// Writes one pending write to Google Wallet: converts the pass as it is now, sets the object it replaced (after a
/// rotated token) `INACTIVE`, writes its class when what the class holds changed (once for every pass of the class,
/// on every replica together, the newest change winning), and writes its object when what the object holds changed.
///
/// A change's notices become one message: on the class when the change touched only what the class holds (every
/// holder shares it, so it is added once), else on the object, travelling in the object's own write so that a retried
/// write adds it once. It notifies holders while the pass (or, for the class, the class) has notifications left today
/// (``notificationsPerDay``, counted in the database); earlier messages stay as `TEXT`, and the newest
/// ``GoogleObjectRecord/maximumMessages`` are kept.
package struct GoogleWalletWriter: Sendable {
    /// What a write came to.
    package enum Result: Sendable, Hashable {
        /// The object holds the pass as it is (`object`, recorded with the write's completion); the details go in
        /// the pass's trace.
        case written(GoogleObjectWrite, details: [String: JSONValue])
        /// There is nothing to write (the pass is gone, or its pass type has no Google issuer any more).
        case skipped(String)
        /// Google's answer, or the lack of one, when it was not a success.
        case failed(GoogleWalletOutcome)
    }

    /// The most notifying messages per pass (or class) in a day, as Google allows.
    package static let notificationsPerDay = 3
    /// How long a writer holds a class it writes before another may take it.
    static let classLease: TimeInterval = 60
    /// How many image names ``keptImages`` holds at most.
    static let keptImageCapacity = 4096

    package let api: any GoogleWalletAPI
    let outbox: any GoogleWalletOutbox
    /// Where the pass and its issuer's account are read.
    let source: GooglePassSource
    /// How passes become classes and objects.
    let converter: GooglePassConverter
    let clock: any CofferClock
    /// The names of the images this writer kept in the database.
    private let keptImages = Locked<Set<String>>([])

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
                try await source.package(of: stored), passType: passType, generation: record?.generation ?? 0,
                clientID: try await source.client(stored))
            var object = conversion.walletObject
            if record?.objectID != object.id,
                try await !outbox.reserveGoogleObject(passID: write.passID, objectID: object.id)
            {
                return .failed(
                    .refused(
                        status: 0, reason: "another pass has this Google Wallet object identifier",
                        detail: object.id))
            }
            let ownRecord = record?.objectID == object.id ? record : nil
            let kept = Self.asText(ownRecord?.messages ?? [])
            if let retired = record?.retiredObjectID, retired != object.id {
                // Retried while Google may take it later; a refusal (another issuer now) does not hold up the new one.
                let outcome = await api.retire(
                    retired, of: object.type,
                    messages: Self.newest(Self.asText(record?.messages ?? []) + [Self.replaced]),
                    as: account)
                if case .retry = outcome { return .failed(outcome) }
            }
            let objectDigest = Self.digest(of: object)
            let objectChanged = ownRecord?.writtenDigest != objectDigest
            let message = write.notices.isEmpty ? nil : Self.message(write.notices)
            // What only the class holds changed: its message is the class's, added once for every holder.
            let classMessage = !objectChanged && message != nil

            let classWritten: Bool
            var notified: Bool
            switch try await writeClass(conversion, of: stored, message: classMessage ? message : nil, account: account)
            {
            case .success(let written, let classNotified): (classWritten, notified) = (written, classNotified)
            case .failure(let outcome): return .failed(outcome)
            }

            var messages = kept
            if var message, !classMessage {
                message.id = "coffer-\(write.id.uuidString.lowercased())"
                notified = try await outbox.reserveGoogleNotification(
                    passID: write.passID, now: clock.now, limit: Self.notificationsPerDay, window: 86_400)
                message.messageType = notified ? "TEXT_AND_NOTIFY" : "TEXT"
                messages.append(message)
            }
            object.messages = messages.isEmpty ? nil : Self.newest(messages)
            let objectWritten = objectChanged || messages.count != kept.count
            if objectWritten {
                // Google fetches the images when it takes the object.
                try await keep(conversion.images)
                let saved = await api.saveObject(object, as: account)
                guard saved == .done else { return .failed(saved) }
            }
            let written = GoogleObjectWrite(
                objectID: object.id, classID: conversion.walletClass.id, updateTag: stored.updateTag,
                digest: objectDigest, messages: object.messages ?? [], at: clock.now)
            return .written(
                written,
                details: [
                    "object_id": .string(object.id), "class_id": .string(conversion.walletClass.id),
                    "content_written": .bool(objectWritten), "class_written": .bool(classWritten),
                    "messages": .number(message == nil ? 0 : 1), "notified": .number(notified ? 1 : 0),
                ])
        } catch let error as WalletDocumentError {
            return .failed(.refused(status: 0, reason: "the stored pass cannot be read", detail: "\(error)"))
        } catch {
            return .failed(.retry(after: nil, reason: "the database failed: \(type(of: error))"))
        }
    }

    /// What writing the class came to: whether this writer wrote it, and whether its new message notifies.
    enum ClassOutcome {
        case success(written: Bool, notified: Bool)
        case failure(GoogleWalletOutcome)
    }

    /// Writes the class of `conversion` when what it holds (or its messages, with `message` added) differs from
    /// what it was last given by a change older than `stored`'s, and no other writer holds it.
    func writeClass(
        _ conversion: GooglePassConversion, of stored: StoredPass, message: GoogleWallet.Message?,
        account: GoogleServiceAccount
    ) async throws -> ClassOutcome {
        var walletClass = conversion.walletClass
        let now = clock.now
        let known = try await outbox.googleClass(id: walletClass.id)
        var messages = Self.asText(known?.messages ?? [])
        var notifiedAt = (known?.notifiedAt ?? []).filter { now.timeIntervalSince($0) < 86_400 }
        var notified = false
        if var message {
            // The same change of every pass of the class makes the same message: it is added once.
            let content = [walletClass.id, message.header ?? "", message.body ?? ""]
            message.id = "coffer-class-" + Self.sha256(of: content).prefix(32)
            if !messages.contains(where: { $0.id == message.id }) {
                notified = notifiedAt.count < Self.notificationsPerDay
                message.messageType = notified ? "TEXT_AND_NOTIFY" : "TEXT"
                if notified { notifiedAt.append(now) }
                messages.append(message)
            }
        }
        walletClass.messages = messages.isEmpty ? nil : Self.newest(messages)
        // What the class holds once its new message has notified: the same for every writer of this change.
        var kept = walletClass
        kept.messages = walletClass.messages.map(Self.asText)
        let next = GoogleClassRecord(
            classID: walletClass.id, digest: Self.sha256(of: kept), sourceUpdateTag: stored.updateTag,
            messages: kept.messages ?? [], notifiedAt: notifiedAt)
        guard known?.digest != next.digest || known?.confirmed == false else {
            return .success(written: false, notified: false)
        }
        switch try await outbox.claimGoogleClassWrite(next, until: now.addingTimeInterval(Self.classLease), now: now) {
        case .claimed: break
        case .current: return .success(written: false, notified: false)
        case .busy: return .failure(.retry(after: 1, reason: "another writer is writing the pass's class"))
        }
        try await keep(conversion.images)
        let outcome = await api.saveClass(walletClass, exists: known != nil, as: account)
        try await outbox.finishGoogleClassWrite(
            classID: walletClass.id, digest: next.digest, written: outcome == .done, at: clock.now)
        return outcome == .done ? .success(written: true, notified: notified) : .failure(outcome)
    }

    /// Keeps `images` for Google to fetch, unless this writer kept them before (they are named by their content, and
    /// kept for good).
    func keep(_ images: [String: Data]) async throws {
        let kept = keptImages.withLock { $0 }
        let new = images.filter { !kept.contains($0.key) }
        guard !new.isEmpty else { return }
        try await outbox.keepGoogleImages(new, now: clock.now)
        keptImages.withLock { kept in
            if kept.count + new.count > Self.keptImageCapacity { kept.removeAll() }
            kept.formUnion(new.keys)
        }
    }

    /// The message a change's `notices` make, before it has an identifier and a type.
    static func message(_ notices: [PassChangeNotice]) -> GoogleWallet.Message {
        GoogleWallet.Message(
            header: notices.count == 1 ? notices[0].label : nil,
            body: String(notices.map(\.message).joined(separator: "\n").prefix(1000)), messageType: "TEXT")
    }

    /// `messages` as kept: `TEXT`, so that they never notify again.
    static func asText(_ messages: [GoogleWallet.Message]) -> [GoogleWallet.Message] {
        messages.map {
            var message = $0
            message.messageType = "TEXT"
            return message
        }
    }

    /// The newest of `messages` Google keeps.
    static func newest(_ messages: [GoogleWallet.Message]) -> [GoogleWallet.Message] {
        Array(messages.suffix(GoogleObjectRecord.maximumMessages))
    }

    /// The message a replaced object gets.
    static let replaced = GoogleWallet.Message(
        id: "coffer-replaced", header: "This pass was replaced",
        body: "Its issuer replaced it; ask them for the new one.", messageType: "TEXT")

    /// The SHA-256 (hex) of `value`'s JSON.
    static func sha256(of value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return SHA256.hash(data: (try? encoder.encode(value)) ?? Data()).hexString
    }

    /// The SHA-256 (hex) of `object`'s JSON without its messages: what the object holds.
    static func digest(of object: GoogleWalletObject) -> String {
        var object = object
        object.messages = nil
        return sha256(of: object)
    }
}
