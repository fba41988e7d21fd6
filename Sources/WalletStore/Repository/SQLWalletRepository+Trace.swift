import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Stores events through the trace's group commit: concurrent callers share one transaction.
    @discardableResult
    package func recordPassEvents(_ events: [NewPassEvent]) async throws -> Bool {
        guard !events.isEmpty else { return false }
        return try await run { try await traceWrites.submit(events) }
    }

    /// Inserts every event of `batches` in order, and queues the webhook deliveries they make, in one transaction;
    /// one outcome per batch: whether the transaction queued any delivery. An event that makes webhooks is inserted
    /// alone, for the identifier that orders its deliveries; the events between such events in one statement each.
    static func commitPassEvents(_ batches: [[NewPassEvent]], to database: WalletDatabase) async throws -> [Bool] {
        let events = batches.flatMap { $0 }
        let queued = try await database.transaction { db in try await storePassEvents(events, on: db) }
        return batches.map { _ in queued }
    }

    /// Inserts `events` in order on `db` (inside the caller's transaction) and queues the webhook deliveries they
    /// make; whether they made any. An event that an endpoint takes is inserted alone, for the identifier that orders
    /// its deliveries; the events between such events in one statement each.
    @discardableResult
    static func storePassEvents(_ events: [NewPassEvent], on db: any SQLDatabase) async throws -> Bool {
        let targets = try await webhookTargets(of: events.filter { $0.webhookType != nil }, on: db)
        var notified: [(id: Int64, event: NewPassEvent)] = []
        var run: [NewPassEvent] = []
        for event in events {
            guard let type = event.webhookType,
                targets[event.passID.uuidString]?.contains(where: { $0.endpoint.eventTypes.contains(type) }) == true
            else {
                run.append(event)
                continue
            }
            try await insertPassEvents(run, on: db)
            run = []
            guard
                let id = try await db.insert(into: PassEventRow.table)
                    .columns(PassEventRow.insertedColumns.map(\.stringValue))
                    .values(PassEventRow.values(of: event).map { SQLBind($0) })
                    .returning("id").first(decodingColumn: "id", as: Int64.self)
            else { throw WalletServerError.corruptRecord("a trace event inserted without an identifier") }
            notified.append((id, event))
        }
        try await insertPassEvents(run, on: db)
        return try await queueWebhooks(notified, targets: targets, on: db)
    }

    /// Inserts `events` in one statement on `db` (inside a caller's transaction, or alone).
    static func insertPassEvents(_ events: [NewPassEvent], on db: any SQLDatabase) async throws {
        guard !events.isEmpty else { return }
        var insert = db.insert(into: PassEventRow.table).columns(PassEventRow.insertedColumns.map(\.stringValue))
        for event in events { insert = insert.values(PassEventRow.values(of: event).map { SQLBind($0) }) }
        try await insert.run()
    }

    /// Up to `limit` of the pass's events after `after`, oldest first.
    package func passEvents(passID: UUID, after: Int64?, limit: Int) async throws -> [PassEvent] {
        var query = sql.select().columns(of: PassEventRow.self).from(PassEventRow.table)
            .where(PassEventRow.column(.passID), .equal, SQLBind(passID.uuidString))
        if let after { query = query.where(PassEventRow.column(.id), .greaterThan, SQLBind(after)) }
        let finished = query.orderBy(PassEventRow.column(.id)).limit(limit)
        return try await run { try await finished.all(decoding: PassEventRow.self) }.map { try $0.model() }
    }

    /// The pass's newest `limit` events, newest first.
    package func latestPassEvents(passID: UUID, limit: Int) async throws -> [PassEvent] {
        let query = sql.select().columns(of: PassEventRow.self).from(PassEventRow.table)
            .where(PassEventRow.column(.passID), .equal, SQLBind(passID.uuidString))
            .orderBy(PassEventRow.column(.id), SQLDirection.descending).limit(limit)
        return try await run { try await query.all(decoding: PassEventRow.self) }.map { try $0.model() }
    }

    /// The pass's newest `limit` device logs, or events of every other kind, newest first.
    package func latestPassEvents(passID: UUID, limit: Int, deviceLogs: Bool) async throws -> [PassEvent] {
        let query = sql.select().columns(of: PassEventRow.self).from(PassEventRow.table)
            .where(PassEventRow.column(.passID), .equal, SQLBind(passID.uuidString))
            .where(
                PassEventRow.column(.kind), deviceLogs ? .equal : .notEqual, SQLBind(PassEvent.Kind.deviceLog.rawValue)
            )
            .orderBy(PassEventRow.column(.id), SQLDirection.descending).limit(limit)
        return try await run { try await query.all(decoding: PassEventRow.self) }.map { try $0.model() }
    }

    /// Stores each new device log of `events` (its pass under `perPass` since `since`, its details not seen there),
    /// in one transaction that holds each pass's row; returns how many it stored.
    package func recordDeviceLogEvents(_ events: [NewPassEvent], perPass: Int, since: Date) async throws -> Int {
        let byPass = Dictionary(grouping: events.filter { $0.kind == .deviceLog }, by: \.passID)
        guard !byPass.isEmpty else { return 0 }
        return try await run {
            try await database.transaction { db in
                var admitted: [NewPassEvent] = []
                for passID in byPass.keys.sorted(by: { $0.uuidString < $1.uuidString }) {
                    try await Self.lockPass(passID, on: db)
                    let stored = try await db.select().column(PassEventRow.column(.details)).from(PassEventRow.table)
                        .where(PassEventRow.column(.passID), .equal, SQLBind(passID.uuidString))
                        .where(PassEventRow.column(.kind), .equal, SQLBind(PassEvent.Kind.deviceLog.rawValue))
                        .where(PassEventRow.column(.occurredAt), .greaterThanOrEqual, SQLBind(Self.ms(since)))
                        .limit(perPass).all(
                            decodingColumn: PassEventRow.CodingKeys.details.stringValue, as: String.self)
                    var seen = Set(stored)
                    for event in byPass[passID] ?? [] where seen.count < perPass {
                        if seen.insert(PassEventRow.details(of: event)).inserted { admitted.append(event) }
                    }
                }
                try await Self.insertPassEvents(admitted, on: db)
                return admitted.count
            }
        }
    }

    /// Deletes up to `limit` events older than `cutoff`.
    package func deletePassEvents(before cutoff: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        let cutoffMS = Self.ms(cutoff)
        return try await run {
            try await sql.raw(
                """
                DELETE FROM pass_events WHERE id IN \
                (SELECT id FROM pass_events WHERE occurred_at < \(bind: cutoffMS) LIMIT \(bind: limit)) RETURNING id
                """
            ).all()
        }.count
    }

    /// The passes `identifier` names, in one query over passes, their tags and pass types.
    public func passes(named identifier: String, limit: Int) async throws -> [NamedPass] {
        var names: [any SQLExpression] = [
            SQLBinaryExpression(PassRow.column(.serialNumber), .equal, SQLBind(identifier)),
            SQLBinaryExpression(TagRow.column(.referenceID), .equal, SQLBind(identifier)),
            SQLBinaryExpression(TagRow.column(.prontoTagID), .equal, SQLBind(identifier)),
            SQLBinaryExpression(TagRow.column(.subscriptionID), .equal, SQLBind(identifier)),
        ]
        if let id = UUID(uuidString: identifier) {
            names.append(SQLBinaryExpression(PassRow.column(.id), .equal, SQLBind(id.uuidString)))
            names.append(SQLBinaryExpression(TagRow.column(.id), .equal, SQLBind(id.uuidString)))
        }
        let condition = names.dropFirst().reduce(names[0]) { SQLBinaryExpression($0, .or, $1) }
        let query = sql.select()
            .column(PassRow.column(.id), as: "pass_id").column(PassRow.column(.serialNumber), as: "serial_number")
            .column(PassTypeRow.column(.passTypeIdentifier), as: "pass_type_identifier")
            .column(TagRow.column(.clientID), as: "client_id")
            .from(PassRow.table)
            .joiningPassTypes()
            .join(TagRow.table, on: TagRow.column(.id), .equal, PassRow.column(.tagID))
            .where(SQLGroupExpression(condition))
            .orderBy(PassRow.column(.id)).limit(limit)
        return try await run { try await query.all() }.map { row in
            NamedPass(
                passID: try PassRow.uuid(try row.decode(column: "pass_id", as: String.self), .id),
                serialNumber: try row.decode(column: "serial_number", as: String.self),
                passTypeIdentifier: try row.decode(column: "pass_type_identifier", as: String.self),
                clientID: try TagRow.uuid(try row.decode(column: "client_id", as: String.self), .clientID))
        }
    }
}
