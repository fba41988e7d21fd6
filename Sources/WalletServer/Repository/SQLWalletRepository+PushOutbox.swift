import Foundation
import SQLKit

extension SQLWalletRepository: PushOutbox {
    /// Leases the due pushes: one statement takes each row only if no unexpired lease holds it, so replicas that
    /// claim at once never get the same push.
    public func claimDuePushes(now: Date, limit: Int, leaseFor: TimeInterval) async throws -> [PendingPush] {
        guard limit > 0 else { return [] }
        let nowMS = Self.ms(now)
        let until = Self.ms(now.addingTimeInterval(leaseFor))
        return try await run {
            let candidates = try await sql.select()
                .column(SQLColumn("id", table: "push_outbox"), as: "id")
                .column(SQLColumn("pass_id", table: "push_outbox"), as: "pass_id")
                .column(SQLColumn("device_library_identifier", table: "push_outbox"), as: "device_library_identifier")
                .column(SQLColumn("attempts", table: "push_outbox"), as: "attempts")
                .column(SQLColumn("push_token", table: "pass_registrations"), as: "push_token")
                .column(SQLColumn("pass_type_id", table: "apple_passes"), as: "pass_type_id")
                .column(SQLColumn("pass_type_identifier", table: "pass_types"), as: "pass_type_identifier")
                .from("push_outbox")
                .join(
                    "pass_registrations",
                    equating: [
                        (
                            SQLColumn("device_library_identifier", table: "pass_registrations"),
                            SQLColumn("device_library_identifier", table: "push_outbox")
                        ),
                        (SQLColumn("pass_id", table: "pass_registrations"), SQLColumn("pass_id", table: "push_outbox")),
                    ]
                )
                .joiningPasses(of: "push_outbox")
                .joiningPassTypes()
                .where(SQLColumn("next_attempt_at", table: "push_outbox"), .lessThanOrEqual, SQLBind(nowMS))
                .where(Self.unleased(at: nowMS))
                .orderBy(SQLColumn("next_attempt_at", table: "push_outbox"))
                .limit(limit)
                .all()
            guard !candidates.isEmpty else { return [] }
            let ids = try candidates.map { try $0.decode(column: "id", as: String.self) }
            let claimed = Set(
                try await sql.update("push_outbox").set("leased_until", to: until)
                    .where(SQLIdentifier("id"), .in, SQLGroupExpression(ids.map { SQLBind($0) }))
                    .where(Self.unleased(at: nowMS))
                    .returning("id").all()
                    .map { try $0.decode(column: "id", as: String.self) })
            return try candidates.filter { claimed.contains(try $0.decode(column: "id", as: String.self)) }
                .map { row in
                    PendingPush(
                        id: try Self.uuid(row, "id"), passID: try Self.uuid(row, "pass_id"),
                        passTypeID: try Self.uuid(row, "pass_type_id"),
                        passTypeIdentifier: try row.decode(column: "pass_type_identifier", as: String.self),
                        deviceLibraryIdentifier: try row.decode(column: "device_library_identifier", as: String.self),
                        pushToken: try row.decode(column: "push_token", as: String.self),
                        attempts: Int(try row.decode(column: "attempts", as: Int64.self)), leasedUntil: Self.date(until)
                    )
                }
        }
    }

    /// No lease holds the row at `now` (milliseconds).
    private static func unleased(at now: Int64) -> SQLGroupExpression {
        SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(SQLColumn("leased_until", table: "push_outbox"), .is, SQLLiteral.null), .or,
                SQLBinaryExpression(SQLColumn("leased_until", table: "push_outbox"), .lessThan, SQLBind(now))))
    }

    /// Deletes a delivered push, if this claim still holds its lease; returns whether it did.
    @discardableResult
    public func completePush(_ push: PendingPush) async throws -> Bool {
        try await run {
            try await sql.delete(from: "push_outbox").where("id", .equal, push.id.uuidString)
                .where("leased_until", .equal, Self.ms(push.leasedUntil)).returning("id").all()
        }.count == 1
    }

    /// Schedules a push again, one attempt more, unleased, if this claim still holds its lease; returns whether it
    /// did (a replica that claimed it after the lease ran out owns it now).
    @discardableResult
    public func retryPush(_ push: PendingPush, at: Date) async throws -> Bool {
        try await run {
            try await sql.update("push_outbox")
                .set("attempts", to: SQLBinaryExpression(SQLIdentifier("attempts"), .add, SQLLiteral.numeric("1")))
                .set("next_attempt_at", to: Self.ms(at))
                .set("leased_until", to: SQLLiteral.null)
                .where("id", .equal, push.id.uuidString)
                .where("leased_until", .equal, Self.ms(push.leasedUntil)).returning("id").all()
        }.count == 1
    }

    /// Drops a push that will not be sent, if this claim still holds its lease.
    @discardableResult
    public func abandonPush(_ push: PendingPush) async throws -> Bool {
        try await completePush(push)
    }

    /// Removes the registration the push was for (and the push) when the registration still has the push's token.
    public func removeRegistration(for push: PendingPush) async throws {
        try await run {
            try await database.transaction { db in
                try await db.delete(from: "push_outbox").where("id", .equal, push.id.uuidString).run()
                try await db.delete(from: "pass_registrations")
                    .where("device_library_identifier", .equal, push.deviceLibraryIdentifier)
                    .where("pass_id", .equal, push.passID.uuidString)
                    .where("push_token", .equal, push.pushToken).run()
            }
        }
    }
}
