import Foundation
import SQLKit
import WalletDocuments
import WalletPasses
import WalletServices

extension SQLWalletRepository {
    // MARK: Endpoints

    /// Stores the endpoint unless its client has `maximum`, in one transaction that holds the client's row locked
    /// while it counts (PostgreSQL; SQLite runs one write transaction at a time), so that concurrent creations count
    /// one after the other on either engine.
    package func createWebhookEndpoint(_ endpoint: WebhookEndpoint, maximum: Int) async throws -> Bool {
        try await run {
            do {
                return try await insertCapped(endpoint, maximum: maximum)
            } catch is WebhookEndpointCapReached {
                return false
            }
        }
    }

    private func insertCapped(_ endpoint: WebhookEndpoint, maximum: Int) async throws -> Bool {
        try await database.transaction { db in
            if db.dialect.name == "postgresql" {
                _ = try await db.select().column("id").from(ClientRow.table)
                    .where("id", .equal, endpoint.clientID.uuidString).for(.update).first()
            }
            try await db.insert([WebhookEndpointRow(endpoint)]).run()
            let count =
                try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
                .from(WebhookEndpointRow.table)
                .where(WebhookEndpointRow.column(.clientID), .equal, SQLBind(endpoint.clientID.uuidString))
                .first(decodingColumn: "count", as: Int64.self) ?? 0
            // Over the cap: the insert is rolled back with the transaction.
            guard count <= maximum else { throw WebhookEndpointCapReached() }
            return true
        }
    }

    /// The client's endpoints, oldest first.
    package func webhookEndpoints(clientID: UUID) async throws -> [WebhookEndpoint] {
        try await select(WebhookEndpointRow.self, where: [.clientID: clientID.uuidString], orderBy: .createdAt)
            .map { try $0.model() }
    }

    /// Deletes the client's endpoint and its waiting deliveries, in one transaction.
    package func deleteWebhookEndpoint(id: UUID, clientID: UUID) async throws -> Bool {
        try await run {
            try await database.transaction { db in
                let removed = try await db.delete(from: WebhookEndpointRow.table)
                    .where("id", .equal, id.uuidString).where("client_id", .equal, clientID.uuidString)
                    .returning("id").all()
                guard !removed.isEmpty else { return false }
                try await db.delete(from: DeliveryOutboxRow.table).where("endpoint_id", .equal, id.uuidString).run()
                return true
            }
        }
    }

    // MARK: Deliveries

    /// An endpoint of a pass's or order's client, with what every webhook about it carries.
    typealias WebhookTarget = (endpoint: WebhookEndpoint, pass: [String: JSONValue])

    /// The endpoints of the client of each pass or order `events` are about, by pass or order.
    static func webhookTargets(of events: [NewPassEvent], on db: any SQLDatabase) async throws
        -> [String: [WebhookTarget]]
    {
        var targets = try await webhookTargets(
            ofPasses: Set(events.filter { $0.subject == .pass }.map(\.passID.uuidString)), on: db)
        targets.merge(
            try await webhookTargets(
                ofOrders: Set(events.filter { $0.subject == .order }.map(\.passID.uuidString)), on: db)
        ) { $0 + $1 }
        return targets
    }

    /// Queues, on `db`, one delivery of each event in `events` (with its trace event's identifier) to every endpoint
    /// of the pass's client that takes its type; whether it queued any.
    @discardableResult
    static func queueWebhooks(
        _ events: [(id: Int64, event: NewPassEvent)], targets: [String: [WebhookTarget]], on db: any SQLDatabase
    ) async throws -> Bool {
        var deliveries: [DeliveryOutboxRow] = []
        for (id, event) in events {
            guard let type = event.webhookType else { continue }
            for target in targets[event.passID.uuidString] ?? [] where target.endpoint.eventTypes.contains(type) {
                var data = target.pass
                if let device = event.device {
                    data["device"] = .string(
                        PassEventRecorder.webhookDeviceDigest(device, clientID: target.endpoint.clientID))
                }
                for (key, value) in event.details.merging(event.webhookDetails, uniquingKeysWith: { $1 }) {
                    data[key] = value
                }
                let body = webhookBody(type: type, occurredAt: event.occurredAt, data: data)
                deliveries.append(
                    DeliveryOutboxRow(
                        passID: event.passID, endpointID: target.endpoint.id, eventID: body.eventID, eventType: type,
                        payload: body.payload, sequence: id, now: event.occurredAt))
            }
        }
        if !deliveries.isEmpty { try await db.insert(deliveries).run() }
        return !deliveries.isEmpty
    }

    /// The endpoints of each order's client, with what every webhook about the order carries (its type and
    /// identifier), by order.
    private static func webhookTargets(ofOrders orderIDs: Set<String>, on db: any SQLDatabase) async throws
        -> [String: [(endpoint: WebhookEndpoint, pass: [String: JSONValue])]]
    {
        guard !orderIDs.isEmpty else { return [:] }
        let rows = try await db.select()
            .column(OrderRow.column(.id), as: "order_id")
            .column(OrderRow.column(.orderIdentifier), as: "order_identifier")
            .column(PassTypeRow.column(.passTypeIdentifier), as: "order_type_identifier")
            .prefixedColumns(of: WebhookEndpointRow.self)
            .from(OrderRow.table)
            .join(PassTypeRow.table, on: PassTypeRow.column(.id), .equal, OrderRow.column(.orderTypeID))
            .join(
                WebhookEndpointRow.table, on: WebhookEndpointRow.column(.clientID), .equal, OrderRow.column(.clientID)
            )
            .where(OrderRow.column(.id), .in, SQLBind.group(Array(orderIDs)))
            .all()
        var targets: [String: [(endpoint: WebhookEndpoint, pass: [String: JSONValue])]] = [:]
        for row in rows {
            let order: [String: JSONValue] = [
                "order": .object([
                    "order_identifier": .string(try row.decode(column: "order_identifier", as: String.self)),
                    "order_type_identifier": .string(try row.decode(column: "order_type_identifier", as: String.self)),
                ])
            ]
            targets[try row.decode(column: "order_id", as: String.self), default: []].append(
                (try row.decode(prefixed: WebhookEndpointRow.self).model(), order))
        }
        return targets
    }

    /// The endpoints of each pass's client, with what every webhook about the pass carries (its serial number, pass
    /// type and tag), by pass.
    private static func webhookTargets(ofPasses passIDs: Set<String>, on db: any SQLDatabase) async throws
        -> [String: [(endpoint: WebhookEndpoint, pass: [String: JSONValue])]]
    {
        let passIDs = Array(passIDs)
        guard !passIDs.isEmpty else { return [:] }
        let rows = try await db.select()
            .column(PassRow.column(.id), as: "pass_id").column(PassRow.column(.serialNumber), as: "serial_number")
            .column(PassTypeRow.column(.passTypeIdentifier), as: "pass_type_identifier")
            .prefixedColumns(of: TagRow.self).prefixedColumns(of: WebhookEndpointRow.self)
            .from(PassRow.table)
            .joiningPassTypes()
            .join(TagRow.table, on: TagRow.column(.id), .equal, PassRow.column(.tagID))
            .join(WebhookEndpointRow.table, on: WebhookEndpointRow.column(.clientID), .equal, TagRow.column(.clientID))
            .where(PassRow.column(.id), .in, SQLBind.group(passIDs))
            .all()
        var targets: [String: [(endpoint: WebhookEndpoint, pass: [String: JSONValue])]] = [:]
        for row in rows {
            let passID = try row.decode(column: "pass_id", as: String.self)
            let tag = try row.decode(prefixed: TagRow.self)
            var tagObject: [String: JSONValue] = ["id": .string(tag.id)]
            for (key, value) in [
                ("reference_id", tag.referenceID), ("pronto_tag_id", tag.prontoTagID),
                ("subscription_id", tag.subscriptionID),
            ] {
                tagObject[key] = value.map(JSONValue.string) ?? .null
            }
            let pass: [String: JSONValue] = [
                "pass": .object([
                    "serial_number": .string(try row.decode(column: "serial_number", as: String.self)),
                    "pass_type_identifier": .string(try row.decode(column: "pass_type_identifier", as: String.self)),
                ]),
                "tag": .object(tagObject),
            ]
            targets[passID, default: []].append((try row.decode(prefixed: WebhookEndpointRow.self).model(), pass))
        }
        return targets
    }

    /// A webhook's JSON body: a new event identifier (`evt_…`, the same in every attempt), `type`, when it happened
    /// and `data`.
    static func webhookBody(type: WebhookEventType, occurredAt: Date, data: [String: JSONValue])
        -> (eventID: String, payload: String)
    {
        let eventID = "evt_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let body: JSONValue = .object([
            "id": .string(eventID), "type": .string(type.rawValue), "created_at": .string(PassTrace.time(occurredAt)),
            "data": .object(data),
        ])
        return (eventID, String(decoding: body.serialized(), as: UTF8.self))
    }

    /// Leases the due webhook deliveries: each the oldest still waiting of its pass for its endpoint (so that one
    /// pass's events reach an endpoint in order), unleased and not given up; clients and their endpoints take turns
    /// (each one's first due, then the second…), and deliveries under unexpired leases, on any replica, count against
    /// `perEndpoint` and `perClient`. One statement takes each row only if no unexpired lease holds it, so replicas
    /// that claim at once never get the same delivery.
    package func claimDueWebhooks(
        now: Date, limit: Int, perEndpoint: Int, perClient: Int, leaseFor: TimeInterval
    ) async throws -> [PendingWebhook] {
        guard limit > 0, perEndpoint > 0, perClient > 0 else { return [] }
        let nowMS = Self.ms(now)
        let until = Self.ms(now.addingTimeInterval(leaseFor))
        return try await run {
            let candidates = try await sql.raw(
                """
                SELECT \(unsafeRaw: Self.webhookColumns) FROM (SELECT c.*, ROW_NUMBER() OVER \
                (PARTITION BY c.client_id ORDER BY c.endpoint_turn, c.next_attempt_at, c.sequence) AS client_turn \
                FROM (SELECT q.id, q.pass_id, q.endpoint_id, q.event_id, q.event_type, q.payload, q.attempts, \
                q.created_at, q.next_attempt_at, q.sequence, e.client_id, ROW_NUMBER() OVER \
                (PARTITION BY q.endpoint_id ORDER BY q.next_attempt_at, q.sequence) AS endpoint_turn \
                FROM push_outbox q JOIN webhook_endpoints e ON e.id = q.endpoint_id \
                WHERE q.kind = 'webhook' AND q.failed_at IS NULL \
                AND q.next_attempt_at <= \(bind: nowMS) AND (q.leased_until IS NULL OR q.leased_until < \(bind: nowMS)) \
                AND NOT EXISTS (SELECT 1 FROM push_outbox p WHERE p.kind = 'webhook' \
                AND p.endpoint_id = q.endpoint_id AND p.pass_id = q.pass_id AND p.failed_at IS NULL \
                AND p.sequence < q.sequence)) c \
                WHERE c.endpoint_turn + (SELECT COUNT(*) FROM push_outbox l WHERE l.kind = 'webhook' \
                AND l.endpoint_id = c.endpoint_id AND l.leased_until >= \(bind: nowMS)) <= \(bind: perEndpoint)) o \
                JOIN webhook_endpoints e ON e.id = o.endpoint_id \
                WHERE o.client_turn + (SELECT COUNT(*) FROM push_outbox m JOIN webhook_endpoints me \
                ON me.id = m.endpoint_id WHERE m.kind = 'webhook' AND me.client_id = o.client_id \
                AND m.leased_until >= \(bind: nowMS)) <= \(bind: perClient) \
                ORDER BY o.client_turn, o.endpoint_turn, o.next_attempt_at LIMIT \(bind: limit)
                """
            ).all()
            return try await lease(candidates, until: until, now: nowMS).map {
                try Self.pendingWebhook($0, leasedUntil: Self.date(until))
            }
        }
    }

    /// Deletes a delivered webhook, if this claim still holds its lease.
    @discardableResult
    package func completeWebhook(_ delivery: PendingWebhook) async throws -> Bool {
        try await completeDelivery(DeliveryCompletion(id: delivery.id, leasedUntil: delivery.leasedUntil, seen: nil))
    }

    /// Schedules a webhook again at `at`, one attempt more, with why it failed, if this claim still holds its lease.
    @discardableResult
    package func retryWebhook(_ delivery: PendingWebhook, at: Date, error: String) async throws -> Bool {
        try await retryDelivery(id: delivery.id, leasedUntil: delivery.leasedUntil, at: at, error: error)
    }

    /// Keeps a webhook as failed (never sent again, visible in the pass's trace and to
    /// ``failedWebhookDeliveries(passID:limit:)``) with its payload as `PendingWebhook/keptPayload` keeps it, if
    /// this claim still holds its lease.
    @discardableResult
    package func failWebhook(_ delivery: PendingWebhook, now: Date, error: String) async throws -> Bool {
        try await failDelivery(
            id: delivery.id, leasedUntil: delivery.leasedUntil, now: now, error: error,
            payload: String(decoding: delivery.keptPayload, as: UTF8.self))
    }

    /// The pass's webhook deliveries kept as failed, newest first.
    package func failedWebhookDeliveries(passID: UUID, limit: Int) async throws -> [PendingWebhook] {
        let rows = try await run {
            try await sql.raw(
                """
                SELECT \(unsafeRaw: Self.webhookColumns) FROM push_outbox o \
                JOIN webhook_endpoints e ON e.id = o.endpoint_id \
                WHERE o.kind = 'webhook' AND o.pass_id = \(bind: passID.uuidString) AND o.failed_at IS NOT NULL \
                ORDER BY o.failed_at DESC LIMIT \(bind: limit)
                """
            ).all()
        }
        // A failed delivery holds no lease.
        return try rows.map { try Self.pendingWebhook($0, leasedUntil: .distantPast) }
    }

    /// Deletes up to `limit` webhook deliveries and Google Wallet writes that failed before `cutoff`.
    package func deleteFailedDeliveries(before cutoff: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        return try await run {
            try await sql.raw(
                """
                DELETE FROM push_outbox WHERE id IN (SELECT id FROM push_outbox WHERE kind IN ('webhook', 'google') \
                AND failed_at IS NOT NULL AND failed_at < \(bind: Self.ms(cutoff)) LIMIT \(bind: limit)) RETURNING id
                """
            ).all()
        }.count
    }

    /// The columns ``pendingWebhook(_:leasedUntil:)`` reads, of `push_outbox o` joined to `webhook_endpoints e`.
    private static let webhookColumns =
        "o.id, o.pass_id, o.endpoint_id, e.client_id, o.event_id, o.event_type, o.payload, o.attempts, o.created_at, e.url"

    /// The delivery a row of ``webhookColumns`` describes; an event type this server does not know means the record
    /// is corrupt.
    private static func pendingWebhook(_ row: any SQLRow, leasedUntil: Date) throws -> PendingWebhook {
        let id = try row.decode(column: "id", as: String.self)
        let typeName = try row.decode(column: "event_type", as: String.self)
        guard let type = WebhookEventType(rawValue: typeName) else {
            throw WalletServerError.corruptRecord("webhook delivery \(id)'s event type '\(typeName)'")
        }
        return PendingWebhook(
            id: try DeliveryOutboxRow.uuid(id, .id),
            passID: try row.decode(column: "pass_id", as: String?.self).map { try DeliveryOutboxRow.uuid($0, .passID) },
            endpointID: try DeliveryOutboxRow.uuid(try row.decode(column: "endpoint_id", as: String.self), .endpointID),
            clientID: try DeliveryOutboxRow.uuid(try row.decode(column: "client_id", as: String.self), .clientID),
            url: try row.decode(column: "url", as: String.self),
            eventID: try row.decode(column: "event_id", as: String.self), eventType: type,
            payload: Data(try row.decode(column: "payload", as: String.self).utf8),
            attempts: Int(try row.decode(column: "attempts", as: Int64.self)),
            createdAt: date(try row.decode(column: "created_at", as: Int64.self)), leasedUntil: leasedUntil)
    }
}

/// A client has as many webhook endpoints as it may: the transaction that would add one is rolled back.
struct WebhookEndpointCapReached: Error {}
