import Foundation
import SQLKit
import WalletGoogle
import WalletServices

extension SQLWalletRepository {
    /// Leases the due writes: each the oldest of its pass while no write of that pass is leased (so that one pass's
    /// writes reach Google in order, one at a time). Clients take turns within each pass type first (a pass type
    /// shared by several clients serves each of them before any client's second write), then clients take turns
    /// across pass types; writes under unexpired leases on any replica count against `perPassType` and `perClient`
    /// (the client of the pass's tag). One statement takes each row only if no unexpired lease holds it.
    package func claimDueGoogleWrites(
        now: Date, limit: Int, perClient: Int, perPassType: Int, leaseFor: TimeInterval
    ) async throws -> [PendingGoogleWrite] {
        guard limit > 0, perClient > 0, perPassType > 0 else { return [] }
        let nowMS = Self.ms(now)
        let until = Self.ms(now.addingTimeInterval(leaseFor))
        // No lane (pass type and client) can give a claim more than `perLane` writes, so the turns are taken among
        // each lane's first few, read in order from `push_outbox_google_lane`, however long the backlog: the lanes
        // are found by skipping through that index (the next client of the pass type, else the next pass type), and
        // a lane's writes are read until `perLane` are due, each the first of its pass and none of its pass leased.
        let perLane = min(limit, perClient, perPassType)
        let laneWindow: SQLQueryString = """
            FROM push_outbox r WHERE r.kind = 'google' AND r.pass_type_id = l.pass_type_id \
            AND r.client_id = l.client_id AND r.failed_at IS NULL AND r.next_attempt_at <= \(bind: nowMS) \
            AND (r.leased_until IS NULL OR r.leased_until < \(bind: nowMS)) \
            AND r.id = (SELECT e.id FROM push_outbox e WHERE e.pass_id = r.pass_id AND e.kind = 'google' \
            AND e.failed_at IS NULL \
            ORDER BY CASE WHEN e.leased_until >= \(bind: nowMS) THEN 0 ELSE 1 END, e.created_at, e.id LIMIT 1) \
            ORDER BY r.next_attempt_at, r.created_at, r.id LIMIT \(bind: perLane)
            """
        // The first write not given up, in the index's order, of the lanes `condition` leaves.
        func firstLaneWrite(_ condition: SQLQueryString) -> SQLQueryString {
            """
            (SELECT r.id FROM push_outbox r WHERE r.kind = 'google' AND r.failed_at IS NULL AND \(condition) \
            ORDER BY r.kind, r.pass_type_id, r.client_id LIMIT 1)
            """
        }
        // PostgreSQL reads a lane's writes in a lateral join; SQLite, which has none, in a correlated `IN`.
        let laneWrites: SQLQueryString =
            database.engine == .postgres
            ? "SELECT f.* FROM lanes l CROSS JOIN LATERAL (SELECT r.* \(laneWindow)) f"
            : "SELECT f.* FROM lanes l JOIN push_outbox f ON f.id IN (SELECT r.id \(laneWindow))"
        return try await run {
            let candidates = try await sql.raw(
                """
                WITH RECURSIVE lanes (pass_type_id, client_id) AS (SELECT f.pass_type_id, f.client_id \
                FROM push_outbox f WHERE f.id = \(firstLaneWrite("r.client_id IS NOT NULL")) \
                UNION ALL SELECT n.pass_type_id, n.client_id FROM lanes l JOIN push_outbox n ON n.id = COALESCE(\
                \(firstLaneWrite("r.pass_type_id = l.pass_type_id AND r.client_id > l.client_id")), \
                \(firstLaneWrite("r.pass_type_id > l.pass_type_id AND r.client_id IS NOT NULL")))), \
                due AS (\(laneWrites)), \
                held AS (SELECT pass_type_id, client_id FROM push_outbox \
                WHERE kind = 'google' AND leased_until >= \(bind: nowMS)), \
                held_types AS (SELECT pass_type_id, COUNT(*) AS n FROM held GROUP BY pass_type_id), \
                held_clients AS (SELECT client_id, COUNT(*) AS n FROM held GROUP BY client_id), \
                own AS (SELECT d.*, ROW_NUMBER() OVER (PARTITION BY d.pass_type_id, d.client_id \
                ORDER BY d.next_attempt_at, d.created_at, d.id) AS own_turn FROM due d), \
                typed AS (SELECT o.*, ROW_NUMBER() OVER (PARTITION BY o.pass_type_id \
                ORDER BY o.own_turn, o.next_attempt_at, o.id) AS type_turn FROM own o), \
                capped AS (SELECT y.* FROM typed y LEFT JOIN held_types h ON h.pass_type_id = y.pass_type_id \
                WHERE y.type_turn + COALESCE(h.n, 0) <= \(bind: perPassType)), \
                turned AS (SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c.client_id \
                ORDER BY c.type_turn, c.next_attempt_at, c.id) AS client_turn FROM capped c) \
                SELECT u.id, u.pass_id, u.pass_type_id, u.payload, u.attempts, u.created_at FROM turned u \
                LEFT JOIN held_clients k ON k.client_id = u.client_id \
                WHERE u.client_turn + COALESCE(k.n, 0) <= \(bind: perClient) \
                ORDER BY u.client_turn, u.type_turn, u.next_attempt_at LIMIT \(bind: limit)
                """
            ).all()
            return try await lease(candidates, until: until, now: nowMS).map { row in
                let payload = try row.decode(column: "payload", as: String?.self)
                return PendingGoogleWrite(
                    id: try DeliveryOutboxRow.uuid(try row.decode(column: "id", as: String.self), .id),
                    passID: try DeliveryOutboxRow.uuid(try row.decode(column: "pass_id", as: String.self), .passID),
                    passTypeID: try DeliveryOutboxRow.uuid(
                        try row.decode(column: "pass_type_id", as: String.self), .passTypeID),
                    notices: try payload.map { try JSONDecoder().decode([PassChangeNotice].self, from: Data($0.utf8)) }
                        ?? [],
                    attempts: Int(try row.decode(column: "attempts", as: Int64.self)),
                    createdAt: Self.date(try row.decode(column: "created_at", as: Int64.self)),
                    leasedUntil: Self.date(until))
            }
        }
    }

    @discardableResult
    package func queueGoogleWrite(passID: UUID, now: Date) async throws -> Bool {
        try await run {
            try await database.transaction { db in
                try await Self.queueGoogleWrite(passID: passID, notices: [], now: now, on: db)
            }
        }
    }

    /// Queues a write of the pass's object with `notices`, if its pass type has a Google issuer; without notices, a
    /// write already waiting unclaimed does (it writes the pass as it is when sent), and is locked until this
    /// transaction ends, so that no dispatcher reads the pass before the change that queued it commits.
    @discardableResult
    static func queueGoogleWrite(passID: UUID, notices: [PassChangeNotice], now: Date, on db: any SQLDatabase)
        async throws -> Bool
    {
        let nowMS = ms(now)
        if notices.isEmpty {
            let waiting = try await db.raw(
                """
                UPDATE push_outbox SET attempts = attempts WHERE pass_id = \(bind: passID.uuidString) \
                AND kind = 'google' AND payload IS NULL AND failed_at IS NULL \
                AND (leased_until IS NULL OR leased_until < \(bind: nowMS)) RETURNING id
                """
            ).all()
            if !waiting.isEmpty { return true }
        }
        let payload = try notices.isEmpty ? nil : String(decoding: JSONEncoder().encode(notices), as: UTF8.self)
        let inserted = try await db.raw(
            """
            INSERT INTO push_outbox (id, pass_id, pass_type_id, client_id, device_library_identifier, attempts, \
            next_attempt_at, created_at, kind, payload) SELECT \(bind: UUID().uuidString), p.id, p.pass_type_id, \
            g.client_id, '', 0, \(bind: nowMS), \(bind: nowMS), 'google', \(bind: payload) FROM apple_passes p \
            JOIN pass_types t ON t.id = p.pass_type_id JOIN tags g ON g.id = p.tag_id \
            WHERE p.id = \(bind: passID.uuidString) AND t.google_issuer_id IS NOT NULL RETURNING id
            """
        ).all()
        return !inserted.isEmpty
    }

    /// Queues a first write of each of the passes `passIDs` whose pass type has a Google issuer (passes just made:
    /// none has a write waiting), in two statements.
    static func queueFirstGoogleWrites(passIDs: [UUID], now: Date, on db: any SQLDatabase) async throws {
        guard !passIDs.isEmpty else { return }
        let issued = try await db.raw(
            """
            SELECT p.id, p.pass_type_id, g.client_id FROM apple_passes p JOIN pass_types t ON t.id = p.pass_type_id \
            JOIN tags g ON g.id = p.tag_id WHERE p.id IN \(SQLBind.group(passIDs.map(\.uuidString))) \
            AND t.google_issuer_id IS NOT NULL
            """
        ).all()
        guard !issued.isEmpty else { return }
        try await db.insert(
            try issued.map {
                DeliveryOutboxRow(
                    googleWriteOf: try $0.decode(column: "id", as: String.self),
                    passTypeID: try $0.decode(column: "pass_type_id", as: String.self),
                    clientID: try $0.decode(column: "client_id", as: String.self), now: now)
            }
        ).run()
    }

    /// Deletes the sent write, if the claim still holds its lease, and records what it wrote, in one transaction
    /// (what Google holds is recorded even when the lease ran out).
    @discardableResult
    package func completeGoogleWrite(_ write: PendingGoogleWrite, wrote: GoogleObjectWrite?) async throws -> Bool {
        let messages = try wrote.map { String(decoding: try JSONEncoder().encode($0.messages), as: UTF8.self) }
        return try await run {
            try await database.transaction { db in
                let deleted = try await db.delete(from: DeliveryOutboxRow.table)
                    .where("id", .equal, write.id.uuidString).where("leased_until", .equal, Self.ms(write.leasedUntil))
                    .returning("id").all()
                if let wrote, let messages {
                    try await db.update("google_objects").set("class_id", to: wrote.classID)
                        .set("written_update_tag", to: wrote.updateTag).set("written_digest", to: wrote.digest)
                        .set("written_at", to: Self.ms(wrote.at)).set("messages", to: messages)
                        .set("retired_object_id", to: SQLLiteral.null)
                        .where("pass_id", .equal, write.passID.uuidString).where("object_id", .equal, wrote.objectID)
                        .run()
                }
                return !deleted.isEmpty
            }
        }
    }

    @discardableResult
    package func retryGoogleWrite(_ write: PendingGoogleWrite, at: Date, error: String) async throws -> Bool {
        try await retryDelivery(id: write.id, leasedUntil: write.leasedUntil, at: at, error: error)
    }

    @discardableResult
    package func failGoogleWrite(_ write: PendingGoogleWrite, now: Date, error: String) async throws -> Bool {
        try await failDelivery(id: write.id, leasedUntil: write.leasedUntil, now: now, error: error)
    }

    package func googleObject(passID: UUID) async throws -> GoogleObjectRecord? {
        let query = sql.select().column("*").from("google_objects").where("pass_id", .equal, passID.uuidString)
        return try await run {
            guard let row = try await query.first() else { return nil }
            return GoogleObjectRecord(
                passID: passID, objectID: try row.decode(column: "object_id", as: String.self),
                generation: Int(try row.decode(column: "generation", as: Int64.self)),
                classID: try row.decode(column: "class_id", as: String?.self),
                writtenUpdateTag: try row.decode(column: "written_update_tag", as: Int64?.self),
                writtenDigest: try row.decode(column: "written_digest", as: String?.self),
                writtenAt: try row.decode(column: "written_at", as: Int64?.self).map(Self.date),
                retiredObjectID: try row.decode(column: "retired_object_id", as: String?.self),
                messages: try JSONDecoder().decode(
                    [GoogleWallet.Message].self, from: Data(try row.decode(column: "messages", as: String.self).utf8)),
                savedAt: try row.decode(column: "saved_at", as: Int64?.self).map(Self.date),
                removedAt: try row.decode(column: "removed_at", as: Int64?.self).map(Self.date))
        }
    }

    /// Makes `objectID` the pass's in one statement that a unique index guards: a row for a new pass, or a new
    /// identifier (unwritten, without messages) for the pass's row; nothing when another pass has it.
    package func reserveGoogleObject(passID: UUID, objectID: String) async throws -> Bool {
        try await run {
            let owner = try await sql.select().column("pass_id").from("google_objects")
                .where("object_id", .equal, objectID).first(decodingColumn: "pass_id", as: String.self)
            if let owner { return owner == passID.uuidString }
            try await sql.raw(
                """
                INSERT INTO google_objects (pass_id, object_id, messages)                 VALUES (\(bind: passID.uuidString), \(bind: objectID), '[]') ON CONFLICT (pass_id) DO UPDATE                 SET object_id = excluded.object_id, class_id = NULL, written_update_tag = NULL,                 written_digest = NULL, written_at = NULL, messages = '[]', saved_at = NULL, removed_at = NULL
                """
            ).run()
            return true
        }
    }

    /// Gives the pass a new Google Wallet object (its token was rotated): the next write makes it, and sets the one
    /// it replaces `INACTIVE` if that was ever written.
    static func replaceGoogleObject(passID: UUID, now: Date, on db: any SQLDatabase) async throws {
        let replaced = try await db.raw(
            """
            UPDATE google_objects SET generation = generation + 1, retired_object_id = \
            CASE WHEN written_update_tag IS NULL THEN retired_object_id ELSE object_id END \
            WHERE pass_id = \(bind: passID.uuidString) RETURNING pass_id
            """
        ).all()
        if !replaced.isEmpty { try await queueGoogleWrite(passID: passID, notices: [], now: now, on: db) }
    }

    package func keepGoogleImages(_ images: [String: Data], now: Date) async throws {
        guard !images.isEmpty else { return }
        let rows = images.sorted { $0.key < $1.key }.map {
            GoogleImageRow(name: $0.key, content: $0.value, keptAt: Self.ms(now))
        }
        try await run {
            try await sql.insert(rows).ignoringConflicts(with: [GoogleImageRow.CodingKeys.name.stringValue]).run()
        }
    }

    package func googleImage(named name: String) async throws -> Data? {
        let query = sql.select().column("content").from(GoogleImageRow.table).where("name", .equal, name)
        return try await run { try await query.first(decodingColumn: "content", as: Data.self) }
    }

    package func hasGoogleIssuer(_ issuerID: String) async throws -> Bool {
        let query = sql.select().column("id").from(PassTypeRow.table).where("google_issuer_id", .equal, issuerID)
            .limit(1)
        return try await run { try await query.first() } != nil
    }

    /// How many expired nonces a recorded callback deletes: more than one, so that they never pile up.
    static let expiredNoncesPerCallback = 16

    package func recordGoogleCallback(nonce: String, expiresAt: Date, objectID: String, saved: Bool, now: Date)
        async throws -> GoogleCallbackRecording
    {
        let nowMS = Self.ms(now)
        return try await run {
            do {
                return try await recordGoogleCallback(
                    nonce: nonce, expiresAt: expiresAt, objectID: objectID, saved: saved, nowMS: nowMS)
            } catch is GoogleCallbackReplayed {
                return .replayed
            }
        }
    }

    /// ``recordGoogleCallback(nonce:expiresAt:objectID:saved:now:)``'s transaction, rolled back by
    /// ``GoogleCallbackReplayed``.
    private func recordGoogleCallback(nonce: String, expiresAt: Date, objectID: String, saved: Bool, nowMS: Int64)
        async throws -> GoogleCallbackRecording
    {
        try await database.transaction { db in
            try await db.raw(
                """
                DELETE FROM google_callback_nonces \
                WHERE nonce IN (SELECT nonce FROM google_callback_nonces \
                WHERE expires_at < \(bind: nowMS) LIMIT \(bind: Self.expiredNoncesPerCallback))
                """
            ).run()
            let marked = try await db.update("google_objects")
                .set(saved ? "saved_at" : "removed_at", to: nowMS)
                .where("object_id", .equal, objectID).returning("pass_id", "written_update_tag").all()
            guard let row = marked.first,
                let passID = UUID(uuidString: try row.decode(column: "pass_id", as: String.self))
            else { return .unknownObject }
            // Saved from a whole save link before the outbox wrote it: write it, so that its updates reach Google.
            if try row.decode(column: "written_update_tag", as: Int64?.self) == nil {
                try await Self.queueGoogleWrite(passID: passID, notices: [], now: Self.date(nowMS), on: db)
            }
            let kept = try await db.raw(
                """
                INSERT INTO google_callback_nonces (nonce, expires_at) \
                VALUES (\(bind: nonce), \(bind: Self.ms(expiresAt))) ON CONFLICT (nonce) DO NOTHING RETURNING nonce
                """
            ).all()
            guard !kept.isEmpty else { throw GoogleCallbackReplayed() }
            return .recorded(passID: passID)
        }
    }

    package func reserveGoogleNotification(passID: UUID, now: Date, limit: Int, window: TimeInterval) async throws
        -> Bool
    {
        let since = Self.ms(now.addingTimeInterval(-window))
        return try await run {
            try await database.transaction { db in
                try await db.delete(from: "google_notifications").where("pass_id", .equal, passID.uuidString)
                    .where("sent_at", .lessThanOrEqual, since).run()
                let recent =
                    try await db.raw(
                        "SELECT COUNT(*) AS n FROM google_notifications WHERE pass_id = \(bind: passID.uuidString)"
                    ).first(decodingColumn: "n", as: Int64.self) ?? 0
                guard recent < limit else { return false }
                try await db.raw(
                    """
                    INSERT INTO google_notifications (pass_id, sent_at) \
                    VALUES (\(bind: passID.uuidString), \(bind: Self.ms(now)))
                    """
                ).run()
                return true
            }
        }
    }
}

/// A callback's nonce was kept before: its transaction is rolled back.
private struct GoogleCallbackReplayed: Error {}

extension SQLWalletRepository {
    package func googleClass(id classID: String) async throws -> GoogleClassRecord? {
        let query = sql.select().column("*").from("google_classes").where("class_id", .equal, classID)
        return try await run {
            guard let row = try await query.first() else { return nil }
            let decoder = JSONDecoder()
            return GoogleClassRecord(
                classID: classID, digest: try row.decode(column: "digest", as: String.self),
                sourceUpdateTag: try row.decode(column: "source_update_tag", as: Int64.self),
                messages: try decoder.decode(
                    [GoogleWallet.Message].self, from: Data(try row.decode(column: "messages", as: String.self).utf8)),
                notifiedAt: try decoder.decode(
                    [Int64].self, from: Data(try row.decode(column: "notified", as: String.self).utf8)
                ).map(Self.date),
                confirmed: try row.decode(column: "confirmed", as: Int64.self) != 0)
        }
    }

    /// One upsert that only a writer allowed to write the class passes; when it does not, a read of what holds it.
    package func claimGoogleClassWrite(_ record: GoogleClassRecord, until: Date, now: Date) async throws
        -> GoogleClassClaim
    {
        let encoder = JSONEncoder()
        let messages = String(decoding: try encoder.encode(record.messages), as: UTF8.self)
        let notified = String(decoding: try encoder.encode(record.notifiedAt.map(Self.ms)), as: UTF8.self)
        let nowMS = Self.ms(now)
        return try await run {
            let claimed = try await sql.raw(
                """
                INSERT INTO google_classes (class_id, digest, source_update_tag, messages, notified, confirmed, \
                leased_until) VALUES (\(bind: record.classID), \(bind: record.digest), \
                \(bind: record.sourceUpdateTag), \(bind: messages), \(bind: notified), 0, \(bind: Self.ms(until))) \
                ON CONFLICT (class_id) DO UPDATE SET digest = excluded.digest, \
                source_update_tag = excluded.source_update_tag, messages = excluded.messages, \
                notified = excluded.notified, confirmed = 0, leased_until = excluded.leased_until \
                WHERE google_classes.leased_until < \(bind: nowMS) AND ((google_classes.digest <> excluded.digest \
                AND google_classes.source_update_tag <= excluded.source_update_tag) OR google_classes.confirmed = 0) \
                RETURNING class_id
                """
            ).all()
            guard claimed.isEmpty else { return .claimed }
            let held = try await sql.select().columns("digest", "source_update_tag").from("google_classes")
                .where("class_id", .equal, record.classID).first()
            guard let held else { return .busy }
            let digest = try held.decode(column: "digest", as: String.self)
            let source = try held.decode(column: "source_update_tag", as: Int64.self)
            return digest == record.digest || source > record.sourceUpdateTag ? .current : .busy
        }
    }

    package func finishGoogleClassWrite(classID: String, digest: String, written: Bool, at: Date) async throws {
        try await run {
            var update = sql.update("google_classes").set("leased_until", to: 0)
            if written { update = update.set("confirmed", to: 1).set("written_at", to: Self.ms(at)) }
            try await update.where("class_id", .equal, classID).where("digest", .equal, digest).run()
        }
    }
}
