import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository: DeliveryOutbox {
    /// Leases the due pushes: one statement takes each row only if no unexpired lease holds it, so replicas that
    /// claim at once never get the same push.
    ///
    /// Orders' pushes take turns with passes': up to half of `limit` goes to orders first, the rest to passes, and
    /// what passes leave to orders again, so that a burst of either never holds the other back.
    package func claimDuePushes(now: Date, limit: Int, leaseFor: TimeInterval) async throws -> [PendingPush] {
        guard limit > 0 else { return [] }
        let half = max(1, limit / 2)
        let orders = try await claimDuePushes(of: .order, now: now, limit: half, leaseFor: leaseFor)
        var claimed = orders
        claimed += try await claimDuePushes(of: .pass, now: now, limit: limit - claimed.count, leaseFor: leaseFor)
        // Only when orders filled their half may more of them wait.
        if claimed.count < limit, orders.count == half {
            claimed += try await claimDuePushes(of: .order, now: now, limit: limit - claimed.count, leaseFor: leaseFor)
        }
        return claimed
    }

    /// Leases the due pushes of passes, or of orders (``claimDuePushes(now:limit:leaseFor:)``), with each one's push
    /// token and type in the same query.
    private func claimDuePushes(of subject: TraceSubject, now: Date, limit: Int, leaseFor: TimeInterval) async throws
        -> [PendingPush]
    {
        guard limit > 0 else { return [] }
        let nowMS = Self.ms(now)
        let until = Self.ms(now.addingTimeInterval(leaseFor))
        let due = subject == .pass ? lookups.duePassPushes : lookups.dueOrderPushes
        let candidates = try await rows(ClaimedPushRow.self, of: due.bound(to: [nowMS, nowMS, Int64(limit)]))
        let claimed = try await run { try await leased(candidates.map(\.id), until: until, now: nowMS) }
        return try candidates.filter { claimed.contains($0.id) }.map { candidate in
            PendingPush(
                id: try DeliveryOutboxRow.uuid(candidate.id, .id), subject: subject,
                passID: try DeliveryOutboxRow.uuid(candidate.passID ?? "", .passID),
                passTypeID: try PassTypeRow.uuid(candidate.passTypeID, .id),
                passTypeIdentifier: candidate.passTypeIdentifier,
                deviceLibraryIdentifier: candidate.deviceLibraryIdentifier, pushToken: candidate.pushToken,
                attempts: Int(candidate.attempts), leasedUntil: Self.date(until))
        }
    }

    /// Which of the outbox rows `ids` it leased until `until`: each only if no unexpired lease holds it at `now`
    /// (milliseconds), in one statement, so that replicas claiming at once never both get one.
    func leased(_ ids: [String], until: Int64, now: Int64) async throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        return Set(
            try await sql.update(DeliveryOutboxRow.table).set("leased_until", to: until)
                .where(SQLIdentifier("id"), .in, SQLBind.group(ids)).where(Self.unleased(at: now))
                .returning("id").all(decodingColumn: "id", as: String.self))
    }

    /// The rows of `candidates` (outbox rows with their `id`) it leased until `until`: each only if no unexpired
    /// lease holds it at `now` (milliseconds), in one statement, so that replicas claiming at once never both get one.
    func lease(_ candidates: [any SQLRow], until: Int64, now: Int64) async throws -> [any SQLRow] {
        let claimed = try await leased(
            try candidates.map { try $0.decode(column: "id", as: String.self) }, until: until, now: now)
        return try candidates.filter { claimed.contains(try $0.decode(column: "id", as: String.self)) }
    }

    /// No lease holds the row at `now` (milliseconds).
    static func unleased(at now: Int64) -> SQLGroupExpression {
        SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(DeliveryOutboxRow.column(.leasedUntil), .is, SQLLiteral.null), .or,
                SQLBinaryExpression(DeliveryOutboxRow.column(.leasedUntil), .lessThan, SQLBind(now))))
    }

    /// Deletes a delivered push, if this claim still holds its lease; returns whether it did.
    @discardableResult
    package func completePush(_ push: PendingPush, now: Date) async throws -> Bool {
        try await completeDelivery(
            DeliveryCompletion(
                id: push.id, leasedUntil: push.leasedUntil,
                seen: (passID: push.passID, device: push.deviceLibraryIdentifier, at: now, subject: push.subject)))
    }

    /// Schedules a push again, one attempt more, unleased, if this claim still holds its lease; returns whether it
    /// did (a replica that claimed it after the lease ran out owns it now).
    @discardableResult
    package func retryPush(_ push: PendingPush, at: Date) async throws -> Bool {
        try await retryDelivery(id: push.id, leasedUntil: push.leasedUntil, at: at, error: nil)
    }

    /// Deletes the outbox row of `completion` (a push or a webhook), if the claim whose lease it names still holds
    /// it; deliveries completed at once are deleted together, in one transaction.
    func completeDelivery(_ completion: DeliveryCompletion) async throws -> Bool {
        try await run { try await completions.submit(completion) }
    }

    /// How stale a registration's `last_seen_at` must be before a delivered push writes it again: a day.
    static let seenGranularity: TimeInterval = 86_400

    /// Deletes each completed delivery of `batch` whose lease is still the one it names, and marks the devices of
    /// delivered pushes seen now unless they were seen within ``seenGranularity`` (one statement per pass), in one
    /// transaction; whether each was deleted.
    static func commitCompletions(_ batch: [DeliveryCompletion], to database: WalletDatabase) async throws -> [Bool] {
        try await database.transaction { db in
            // One statement per lease (the deliveries of one claim share theirs), not one per delivery.
            var removed: Set<String> = []
            for (leasedUntil, completions) in Dictionary(grouping: batch, by: \.leasedUntil).sorted(by: {
                $0.key < $1.key
            }) {
                removed.formUnion(
                    try await db.delete(from: "push_outbox").where("leased_until", .equal, ms(leasedUntil))
                        .where("id", .in, completions.map(\.id.uuidString).sorted())
                        .returning("id").all(decodingColumn: "id", as: String.self))
            }
            var deleted: [Bool] = []
            var seen: [UUID: (devices: [String], at: Date, subject: TraceSubject)] = [:]
            for completion in batch {
                let wasDeleted = removed.remove(completion.id.uuidString) != nil
                deleted.append(wasDeleted)
                if wasDeleted, let device = completion.seen {
                    var entry = seen[device.passID] ?? ([], device.at, device.subject)
                    entry.devices.append(device.device)
                    entry.at = max(entry.at, device.at)
                    seen[device.passID] = entry
                }
            }
            // To the day: a registration is evicted only after days unseen, so a device seen today is not written again.
            for (passID, devices) in seen.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
                let before = SQLBind(ms(devices.at.addingTimeInterval(-seenGranularity)))
                let registrations = RegistrationTable.of(devices.subject)
                try await db.update(registrations.table).set("last_seen_at", to: ms(devices.at))
                    .where(registrations.documentColumn, .equal, passID.uuidString)
                    .where("device_library_identifier", .in, devices.devices)
                    .where(registrations.lastSeen, .lessThan, before).run()
            }
            return deleted
        }
    }

    /// The most characters of an attempt's error an outbox row keeps.
    static let maximumErrorLength = 500

    /// Schedules the outbox row `id` again at `at`, one attempt more, unleased, with `error` kept as its last, if the
    /// claim whose lease ends at `leasedUntil` still holds it.
    func retryDelivery(id: UUID, leasedUntil: Date, at: Date, error: String?) async throws -> Bool {
        var update = sql.update("push_outbox")
            .set("attempts", to: SQLBinaryExpression(SQLIdentifier("attempts"), .add, SQLLiteral.numeric("1")))
            .set("next_attempt_at", to: Self.ms(at))
            .set("leased_until", to: SQLLiteral.null)
        if let error { update = update.set("last_error", to: String(error.prefix(Self.maximumErrorLength))) }
        let finished = update.where("id", .equal, id.uuidString)
            .where("leased_until", .equal, Self.ms(leasedUntil)).returning("id")
        return try await run { try await finished.all() }.count == 1
    }

    /// Keeps the outbox row `id` as failed at `now` (never sent again), one attempt more, with `error` and, when
    /// given, `payload` in place of its own, if the claim whose lease ends at `leasedUntil` still holds it.
    func failDelivery(id: UUID, leasedUntil: Date, now: Date, error: String, payload: String? = nil) async throws
        -> Bool
    {
        var update = sql.update(DeliveryOutboxRow.table)
            .set("failed_at", to: Self.ms(now)).set("leased_until", to: SQLLiteral.null)
            .set("last_error", to: String(error.prefix(Self.maximumErrorLength)))
            .set("attempts", to: SQLBinaryExpression(SQLIdentifier("attempts"), .add, SQLLiteral.numeric("1")))
        if let payload { update = update.set("payload", to: payload) }
        let finished = update.where("id", .equal, id.uuidString).where("leased_until", .equal, Self.ms(leasedUntil))
            .returning("id")
        return try await run { try await finished.all() }.count == 1
    }

    /// Drops a push that will not be sent, if this claim still holds its lease.
    @discardableResult
    package func abandonPush(_ push: PendingPush) async throws -> Bool {
        try await completeDelivery(DeliveryCompletion(id: push.id, leasedUntil: push.leasedUntil, seen: nil))
    }

}

/// A delivery the dispatcher completed: its outbox row, the lease its claim holds, and for a push APNs accepted, the
/// registration whose device it shows to be there.
struct DeliveryCompletion: Sendable {
    var id: UUID
    var leasedUntil: Date
    var seen: (passID: UUID, device: String, at: Date, subject: TraceSubject)?
}
