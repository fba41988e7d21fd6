import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Stores the order with the next update tag, answering `encode`'s body, claiming the idempotency key first (as
    /// `createManagedPass` does).
    package func createOrder(
        _ order: StoredOrder, claim: IdempotencyClaim?, now: Date, storageLimit: Int,
        encode: @escaping @Sendable (StoredOrder) throws -> Data
    ) async throws -> StoredResponse {
        do {
            return try await createIdempotently(clientID: order.clientID, claim: claim, now: now) { db in
                var stored = order
                stored.updateTag = try await Self.nextUpdateTag(on: db)
                try await db.insert([OrderRow(stored)]).run()
                try await Self.addOrderStorage(
                    order.content.count, clientID: order.clientID, limit: storageLimit, on: db)
                return try encode(stored)
            }
        } catch WalletServerError.conflict {
            throw PassManagementFailure.conflict("an order '\(order.orderIdentifier)' of this order type")
        }
    }

    /// Adds `bytes` (which may be negative) to what the client's orders hold, in the caller's transaction (the
    /// client's row holds every other change until it commits); throws ``PassManagementFailure/forbidden(_:)``, which
    /// rolls the transaction back, when growing past `limit`.
    static func addOrderStorage(_ bytes: Int, clientID: UUID, limit: Int, on db: any SQLDatabase) async throws {
        guard
            let total = try await db.raw(
                """
                INSERT INTO order_storage (client_id, bytes) \
                VALUES (\(bind: clientID.uuidString), \(bind: Int64(bytes))) \
                ON CONFLICT (client_id) DO UPDATE SET bytes = order_storage.bytes + excluded.bytes RETURNING bytes
                """
            ).first(decodingColumn: "bytes", as: Int64.self)
        else { throw WalletServerError.corruptRecord("the client's order storage") }
        guard bytes <= 0 || total <= Int64(limit) else {
            throw PassManagementFailure.forbidden(
                "the client's orders would hold \(total) bytes, past the \(limit) they may: change or remove files first"
            )
        }
    }

    /// The order with its order type, in one query.
    package func order(orderTypeIdentifier: String, orderIdentifier: String) async throws
        -> (order: StoredOrder, orderType: PassType)?
    {
        let query = sql.select().prefixedColumns(of: OrderRow.self).prefixedColumns(of: PassTypeRow.self)
            .from(OrderRow.table)
            .join(PassTypeRow.table, on: PassTypeRow.column(.id), .equal, OrderRow.column(.orderTypeID))
            .where(PassTypeRow.column(.passTypeIdentifier), .equal, SQLBind(orderTypeIdentifier))
            .where(PassTypeRow.column(.kind), .equal, SQLBind(PassType.Kind.order.rawValue))
            .where(OrderRow.column(.orderIdentifier), .equal, SQLBind(orderIdentifier))
        guard let row = try await run({ try await query.first() }) else { return nil }
        return (
            try row.decode(prefixed: OrderRow.self).model(), try row.decode(prefixed: PassTypeRow.self).model()
        )
    }

    /// Rewrites the order under its row's lock, moves its `Last-Modified` to the next whole second at least, gives it
    /// the next update tag and queues a push to every registered device that has none waiting unclaimed.
    package func changeOrder(
        id: UUID, now: Date, storageLimit: Int, rewriting rewrite: @escaping @Sendable (Data) throws -> Data
    ) async throws -> (order: StoredOrder, queuedPushes: Int) {
        try await run {
            try await database.transaction { db in
                var query = db.select().columns(of: OrderRow.self).from(OrderRow.table)
                    .where(OrderRow.column(.id), .equal, SQLBind(id.uuidString))
                if db.dialect.name == "postgresql" { query = query.for(.update) }
                guard var order = try await query.first(decoding: OrderRow.self)?.model() else {
                    throw WalletServerError.notFound("order \(id)")
                }
                let before = order.content.count
                order.content = try rewrite(order.content)
                try await Self.addOrderStorage(
                    order.content.count - before, clientID: order.clientID, limit: storageLimit, on: db)
                let modified = Self.nextModified(after: order.modifiedAt, now: now)
                order.modifiedAt = Self.date(modified)
                order.updateTag = try await Self.nextUpdateTag(on: db)
                try await db.update(OrderRow.table)
                    .set("content", to: order.content).set("modified_at", to: modified)
                    .set("update_tag", to: order.updateTag)
                    .where("id", .equal, id.uuidString).run()
                // A device with a push waiting that no dispatcher has taken yet will fetch this change too.
                let devices = try await db.raw(
                    """
                    SELECT device_library_identifier FROM order_registrations WHERE order_id = \(bind: id.uuidString) \
                    AND device_library_identifier NOT IN (SELECT device_library_identifier FROM push_outbox \
                    WHERE pass_id = \(bind: id.uuidString) AND kind = \(bind: DeliveryOutboxRow.orderPushKind) \
                    AND (leased_until IS NULL OR leased_until < \(bind: Self.ms(now))))
                    """
                ).all(decodingColumn: "device_library_identifier", as: String.self)
                if !devices.isEmpty {
                    try await db.insert(
                        devices.map { DeliveryOutboxRow(orderPushOf: id, deviceLibraryIdentifier: $0, now: now) }
                    ).run()
                }
                return (order, devices.count)
            }
        }
    }

    /// The device's orders of the order type whose update tag is above `since`, at most
    /// `DeviceRegistrations.maximumListedOrders` of them, in the order they changed.
    func updatedOrders(deviceLibraryIdentifier: String, orderTypeIdentifier: String, since: Int64?)
        async throws -> [UpdatedDocument]
    {
        var query = sql.select()
            .column(OrderRow.column(.orderIdentifier), as: "order_identifier")
            .column(OrderRow.column(.updateTag), as: "update_tag").column(OrderRow.column(.id), as: "id")
            .from(OrderRegistrationRow.table)
            .join(
                OrderRow.table, method: InnerJoinInOrder(), on: OrderRow.column(.id), .equal,
                OrderRegistrationRow.column(.orderID)
            )
            .join(
                PassTypeRow.table, method: InnerJoinInOrder(), on: PassTypeRow.column(.id), .equal,
                OrderRow.column(.orderTypeID)
            )
            .where(OrderRegistrationRow.column(.deviceLibraryIdentifier), .equal, SQLBind(deviceLibraryIdentifier))
            .where(PassTypeRow.column(.passTypeIdentifier), .equal, SQLBind(orderTypeIdentifier))
        if let since { query = query.where(OrderRow.column(.updateTag), .greaterThan, SQLBind(since)) }
        // Oldest change first: a device that gets only the first page asks from its last tag for the rest.
        let finished = query.orderBy(OrderRow.column(.updateTag)).limit(DeviceRegistrations.maximumListedOrders)
        return try await run { try await finished.all() }.map { row in
            UpdatedDocument(
                identifier: try row.decode(column: "order_identifier", as: String.self),
                updateTag: try row.decode(column: "update_tag", as: Int64.self),
                documentID: try OrderRow.uuid(try row.decode(column: "id", as: String.self), .id))
        }
    }
}
