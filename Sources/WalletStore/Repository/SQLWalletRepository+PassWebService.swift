import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// The pass of `passTypeIdentifier` with `serialNumber`, with its token hash and `Last-Modified`.
    package func webServicePass(passTypeIdentifier: String, serialNumber: String) async throws -> WebServicePass? {
        try await webServiceDocument(.pass, typeIdentifier: passTypeIdentifier, identifier: serialNumber)
    }

    package var changeWatch: (any DatabaseChangeWatch)? { database.changeWatch }

    /// The `Last-Modified` of a change at `now` to what was last modified at `previous`: the next whole second at
    /// least, so that an `If-Modified-Since` of the earlier version never hides the change.
    static func nextModified(after previous: Date, now: Date) -> Int64 {
        max(ms(now), (ms(previous) / 1000 + 1) * 1000)
    }

    /// The next value of the `update_tag` counter, incremented in the caller's transaction: its row lock holds every
    /// other change until this one commits, so tags commit in the order they were given.
    static func nextUpdateTag(on db: any SQLDatabase) async throws -> Int64 {
        guard
            let tag = try await db.raw(
                "UPDATE coffer_counters SET value = value + 1 WHERE name = 'update_tag' RETURNING value"
            ).first(decodingColumn: "value", as: Int64.self)
        else { throw WalletServerError.corruptRecord("the update tag counter") }
        return tag
    }

    /// The pass's salt, if it has one.
    package func authenticationSalt(passID: UUID) async throws -> String? {
        try await first(PassAuthenticationRow.self, of: lookups.passAuthentication.bound(to: [passID.uuidString]))?
            .authenticationSalt
    }

    /// The salt the pass has, or `salt` once stored: the first salt stored wins.
    package func authenticationSalt(passID: UUID, assigning salt: String, tokenHash: Data) async throws -> String {
        try await run {
            try await sql.update(PassRow.table)
                .set(model: PassAuthenticationRow(salt: salt, tokenHash: tokenHash))
                .where("id", .equal, passID.uuidString)
                .where("authentication_salt", .is, SQLLiteral.null)
                .run()
        }
        guard let stored = try await authenticationSalt(passID: passID) else {
            throw WalletServerError.notFound("pass \(passID)")
        }
        return stored
    }

    /// Stores device log messages and deletes all but the newest `keeping`.
    package func recordDeviceLogs(_ messages: [String], now: Date, keeping: Int) async throws {
        guard !messages.isEmpty else { return }
        try await run {
            try await database.transaction { db in
                try await db.insert(messages.map { DeviceLogRow(message: $0, receivedAt: now) }).run()
                try await db.raw(
                    """
                    DELETE FROM device_logs WHERE id NOT IN \
                    (SELECT id FROM device_logs ORDER BY received_at DESC, id DESC LIMIT \(bind: keeping))
                    """
                ).run()
            }
        }
    }

    /// The newest device log messages, newest first.
    package func deviceLogs(limit: Int) async throws -> [(receivedAt: Date, message: String)] {
        try await run {
            try await sql.select().columns(of: DeviceLogRow.self).from(DeviceLogRow.table)
                .orderBy(DeviceLogRow.column(.receivedAt), SQLDirection.descending).limit(limit).all(
                    decoding: DeviceLogRow.self)
        }.map { (Self.date($0.receivedAt), $0.message) }
    }

    /// The pass's personalization fields, if any.
    package func personalization(passID: UUID) async throws -> Data? {
        try await run {
            try await sql.select().columns(of: PassPersonalizationRow.self).from(PassPersonalizationRow.table)
                .where(PassPersonalizationRow.column(.passID), .equal, SQLBind(passID.uuidString))
                .first(decoding: PassPersonalizationRow.self)
        }?.fields
    }

    /// Stores the first personalization of a pass and changes the pass (new `Last-Modified`, tag and pushes).
    package func recordPersonalization(passID: UUID, fields: Data, now: Date) async throws -> Bool {
        try await run {
            try await database.transaction { db in
                let existing = try await db.select().column("pass_id").from("pass_personalizations")
                    .where("pass_id", .equal, passID.uuidString).first()
                guard existing == nil else { return false }
                try await db.insert([PassPersonalizationRow(passID: passID, fields: fields, personalizedAt: now)]).run()
                _ = try await Self.applyChange(passID: passID, now: now, rewritingContent: nil, on: db)
                return true
            }
        }
    }

    /// Changes the pass and queues its pushes, in one transaction.
    package func applyChange(
        passID: UUID, now: Date, rewritingContent rewrite: (@Sendable (Data) throws -> PassRewrite)?
    )
        async throws -> (pass: StoredPass, queuedPushes: Int)
    {
        try await run {
            try await database.transaction { db in
                try await Self.applyChange(passID: passID, now: now, rewritingContent: rewrite, on: db)
            }
        }
    }

    /// Moves the pass's `Last-Modified` to the next whole second at least, gives it the next update tag, stores
    /// what `rewrite` makes of the content it read when given, drops its signed archive, queues a push to every
    /// registered device that has none waiting, and a write of its Google Wallet object when it has an issuer. The row is read for update (SQLite's write transactions already run
    /// one at a time), so the content rewritten is the latest.
    ///
    /// The tag comes from the `update_tag` counter, incremented in this transaction: its row lock holds every other
    /// change until this one commits, so tags commit in the order they were given and a device that listed in
    /// between never skips one.
    static func applyChange(
        passID: UUID, now: Date, rewritingContent rewrite: (@Sendable (Data) throws -> PassRewrite)?,
        on db: any SQLDatabase
    ) async throws -> (pass: StoredPass, queuedPushes: Int) {
        var query = db.select().columns(of: PassRow.self).from(PassRow.table)
            .where(PassRow.column(.id), .equal, SQLBind(passID.uuidString))
        if db.dialect.name == "postgresql" { query = query.for(.update) }
        guard var pass = try await query.first(decoding: PassRow.self)?.model() else {
            throw WalletServerError.notFound("pass \(passID)")
        }
        var notices: [PassChangeNotice] = []
        if let rewrite {
            let rewritten = try rewrite(pass.passContent)
            pass.passContent = rewritten.content
            notices = rewritten.notices
        }
        let modified = nextModified(after: pass.modifiedAt, now: now)
        pass.modifiedAt = date(modified)
        pass.updatedAt = date(max(ms(now), ms(pass.updatedAt)))
        pass.updateTag = try await nextUpdateTag(on: db)
        try await db.update("apple_passes")
            .set("pass_content", to: pass.passContent)
            .set("modified_at", to: modified)
            .set("update_tag", to: pass.updateTag)
            .set("updated_at", to: ms(pass.updatedAt))
            .where("id", .equal, passID.uuidString).run()
        try await db.delete(from: SignedPassArchiveRow.table).where("pass_id", .equal, passID.uuidString).run()
        let pushes = try await queuePushes(toDevicesOf: [passID.uuidString], now: now, on: db)
        try await queueGoogleWrite(passID: passID, notices: notices, now: now, on: db)
        return (pass, pushes[passID] ?? 0)
    }

    /// Queues a push of each of the passes `passIDs` to each device registered for it, but for a device with a push
    /// of it waiting that no dispatcher has taken yet, which will fetch this change too; the pushes queued by pass.
    static func queuePushes(toDevicesOf passIDs: [String], now: Date, on db: any SQLDatabase) async throws
        -> [UUID: Int]
    {
        let registrations = try await db.raw(
            """
            SELECT r.pass_id, r.device_library_identifier FROM pass_registrations r \
            WHERE r.pass_id IN \(SQLBind.group(passIDs)) AND NOT EXISTS (SELECT 1 FROM push_outbox o \
            WHERE o.pass_id = r.pass_id AND o.device_library_identifier = r.device_library_identifier \
            AND (o.leased_until IS NULL OR o.leased_until < \(bind: ms(now))))
            """
        ).all()
        var queued: [UUID: Int] = [:]
        for chunk in registrations.chunked(into: itemsPerInsert) {
            let rows = try chunk.map { registration in
                let passID = try PassRow.uuid(try registration.decode(column: "pass_id", as: String.self), .id)
                queued[passID, default: 0] += 1
                return DeliveryOutboxRow(
                    passID: passID,
                    deviceLibraryIdentifier: try registration.decode(
                        column: "device_library_identifier", as: String.self),
                    now: now)
            }
            try await db.insert(rows).run()
        }
        return queued
    }
}

extension SQLWalletRepository {
    /// What the pass's signed archive depends on, with the archive kept for it, in one query.
    package func keptPassArchive(passID: UUID) async throws -> KeptPassArchive? {
        try await first(PassArchiveVersionRow.self, of: lookups.keptArchive.bound(to: [passID.uuidString]))?.model()
    }

    package func keptPassArchive(passTypeIdentifier: String, serialNumber: String) async throws -> KeptPassArchive? {
        try await first(
            PassArchiveVersionRow.self, of: lookups.keptArchiveBySerial.bound(to: [passTypeIdentifier, serialNumber])
        )?.model()
    }

    /// Keeps `pkpass` as the pass's signed archive at `digest`, in place of the one kept.
    package func keepPassArchive(passID: UUID, digest: Data, pkpass: Data, now: Date) async throws {
        let row = SignedPassArchiveRow(
            passID: passID.uuidString, version: digest, pkpass: pkpass, signedAt: Self.ms(now))
        try await run {
            try await sql.insert([row])
                .onConflict(with: [SignedPassArchiveRow.CodingKeys.passID.stringValue]) {
                    $0.set(excludedValueOf: "version").set(excludedValueOf: "pkpass").set(excludedValueOf: "signed_at")
                }
                .run()
        }
    }
}
