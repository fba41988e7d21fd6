import Foundation
import SQLKit
import WalletDocuments
import WalletPasses
import WalletServices

extension SQLWalletRepository {
    /// Makes the job with its items in the idempotency key's transaction: the client's row is locked while its
    /// unfinished jobs are counted (PostgreSQL; SQLite runs one write transaction at a time), a match's passes are
    /// copied into items by one `INSERT … SELECT`, and a list's lines in statements of ``itemsPerInsert``.
    package func createPassChangeJob(
        _ job: NewPassChangeJob, claim: IdempotencyClaim?, now: Date,
        encode: @escaping @Sendable (PassChangeJob) throws -> Data
    ) async throws -> StoredResponse {
        try await createIdempotently(clientID: job.clientID, claim: claim, now: now, status: 202) { db in
            let client = job.clientID.uuidString
            if db.dialect.name == "postgresql" {
                _ = try await db.select().column("id").from(ClientRow.table).where("id", .equal, client)
                    .for(.update).first()
            }
            let unfinished = try await Self.unfinishedPassChangeJobs(clientID: job.clientID, on: db)
            guard unfinished < NewPassChangeJob.maximumUnfinished else {
                throw PassManagementFailure.limitReached(
                    "this client has \(unfinished) bulk changes under way, as many as it may: wait for one to finish")
            }
            let row = try PassChangeJobRow(job, now: now)
            try await db.insert([row]).run()
            let total: Int
            switch job.work {
            case .match(let match, _):
                total = try await Self.copyMatchedPasses(of: job, match: match, on: db)
            case .list(let lines):
                for chunk in lines.chunked(into: Self.itemsPerInsert) {
                    var insert = db.insert(into: PassChangeItemRow.table).columns(PassChangeItemRow.listColumns)
                    for line in chunk { insert = insert.values(PassChangeItemRow.values(of: line, jobID: row.id)) }
                    try await insert.run()
                }
                total = lines.count
            }
            var update = db.update(PassChangeJobRow.table).set("total", to: Int64(total))
            if total == 0 { update = update.set("finished_at", to: Self.ms(now)) }
            try await update.where("id", .equal, row.id).run()
            guard let made = try await Self.passChangeJob(id: job.id, clientID: job.clientID, failures: 0, on: db)
            else { throw WalletServerError.corruptRecord("the job just made") }
            if total == 0 { try await Self.queueJobFinished(made, clientID: job.clientID, now: now, on: db) }
            return try encode(made)
        }
    }

    /// How many list lines one statement inserts: 6 parameters each, under either engine's limit.
    static let itemsPerInsert = 1000

    /// Copies the client's passes the match names (by pass type; fields are compared when each is changed) into the
    /// job's items, in one statement; returns how many.
    private static func copyMatchedPasses(of job: NewPassChangeJob, match: PassChangeMatch, on db: any SQLDatabase)
        async throws -> Int
    {
        let client = job.clientID.uuidString
        let type = match.passTypeID?.uuidString
        try await db.raw(
            """
            INSERT INTO pass_change_items (job_id, seq, pass_id, state) \
            SELECT \(bind: job.id.uuidString), ROW_NUMBER() OVER (ORDER BY p.id), p.id, 'pending' \
            FROM apple_passes p JOIN tags t ON t.id = p.tag_id \
            WHERE t.client_id = \(bind: client) AND (\(bind: type) IS NULL OR p.pass_type_id = \(bind: type))
            """
        ).run()
        // Counted from what was copied: passes made meanwhile are in both or neither.
        let count =
            try await db.raw(
                "SELECT COUNT(*) AS count FROM pass_change_items WHERE job_id = \(bind: job.id.uuidString)"
            ).first(decodingColumn: "count", as: Int64.self) ?? 0
        guard count <= PassChangeJobRequest.maximumItems else {
            throw PassManagementFailure.invalidRequest(
                "the match finds \(count) passes, and a job changes at most \(PassChangeJobRequest.maximumItems): "
                    + "name a pass type, or split the change into lists")
        }
        return Int(count)
    }

    package func unfinishedPassChangeJobs(clientID: UUID) async throws -> Int {
        try await run { try await Self.unfinishedPassChangeJobs(clientID: clientID, on: sql) }
    }

    /// How many of the client's jobs are unfinished, read on `db`.
    private static func unfinishedPassChangeJobs(clientID: UUID, on db: any SQLDatabase) async throws -> Int {
        Int(
            try await db.raw(
                """
                SELECT COUNT(*) AS count FROM pass_change_jobs WHERE client_id = \(bind: clientID.uuidString) \
                AND finished_at IS NULL
                """
            ).first(decodingColumn: "count", as: Int64.self) ?? 0)
    }

    /// Deletes up to `limit` items of jobs finished before `cutoff`, whichever jobs they are of; when none is left,
    /// up to `limit` such jobs.
    package func deleteFinishedPassChangeJobs(before cutoff: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        let cutoff = Self.ms(cutoff)
        return try await run {
            let items = try await sql.raw(
                """
                DELETE FROM pass_change_items WHERE (job_id, seq) IN (SELECT i.job_id, i.seq \
                FROM pass_change_items i JOIN pass_change_jobs j ON j.id = i.job_id \
                WHERE j.finished_at < \(bind: cutoff) LIMIT \(bind: limit)) RETURNING seq
                """
            ).all().count
            guard items == 0 else { return items }
            return try await sql.raw(
                """
                DELETE FROM pass_change_jobs WHERE id IN (SELECT id FROM pass_change_jobs \
                WHERE finished_at < \(bind: cutoff) LIMIT \(bind: limit)) RETURNING id
                """
            ).all().count
        }
    }

    package func passChangeJob(id: UUID, clientID: UUID, failures: Int) async throws -> PassChangeJob? {
        try await run { try await Self.passChangeJob(id: id, clientID: clientID, failures: failures, on: sql) }
    }

    /// The client's job `id` with its first `failures` failures, read on `db`.
    static func passChangeJob(id: UUID, clientID: UUID, failures: Int, on db: any SQLDatabase) async throws
        -> PassChangeJob?
    {
        guard
            let row = try await db.select().columns(PassChangeJobRow.columns).from(PassChangeJobRow.table)
                .where("id", .equal, id.uuidString).where("client_id", .equal, clientID.uuidString)
                .first(decoding: PassChangeJobRow.self)
        else { return nil }
        var job = try row.model()
        if failures > 0, job.failed > 0 {
            job.failures = try await db.raw(
                """
                SELECT seq, target_attribute, target_value, error FROM pass_change_items \
                WHERE job_id = \(bind: id.uuidString) AND state = 'failed' ORDER BY seq LIMIT \(bind: failures)
                """
            ).all(decoding: PassChangeItemRow.Failure.self).map(\.model)
        }
        return job
    }

    /// Leases items of the unfinished jobs in turn (the one worked on longest ago first), marking each job worked
    /// on now so that the next claim, here or on another replica, takes the next job. On PostgreSQL, rows another
    /// replica is leasing are skipped rather than waited for.
    package func claimPassChangeBatch(now: Date, limit: Int, leaseFor: TimeInterval, jobID: UUID?) async throws
        -> PassChangeBatch?
    {
        let nowMS = Self.ms(now)
        let until = Self.ms(now.addingTimeInterval(leaseFor))
        let isPostgres = database.engine == .postgres
        return try await run {
            var query = sql.select().columns(PassChangeJobRow.columns).from(PassChangeJobRow.table)
                .where("finished_at", .is, SQLLiteral.null)
            if let jobID { query = query.where("id", .equal, jobID.uuidString) }
            let jobs = try await query.orderBy("worked_at").orderBy("id").limit(4).all(decoding: PassChangeJobRow.self)
            for job in jobs {
                try await sql.update(PassChangeJobRow.table).set("worked_at", to: nowMS).where("id", .equal, job.id)
                    .run()
                let free: SQLQueryString = """
                    SELECT seq FROM pass_change_items WHERE job_id = \(bind: job.id) AND state = 'pending' \
                    AND (leased_until IS NULL OR leased_until < \(bind: nowMS)) ORDER BY seq
                    """
                // An item claimed before whose batch did not commit goes alone, so that it fails no other.
                let retried =
                    try await sql.raw(
                        "SELECT attempts FROM pass_change_items WHERE job_id = \(bind: job.id) AND seq = (\(free) LIMIT 1)"
                    )
                    .first(decodingColumn: "attempts", as: Int64.self) ?? 0
                let pending: SQLQueryString = "\(free) LIMIT \(bind: retried > 0 ? 1 : limit)"
                let lease: SQLQueryString = """
                    UPDATE pass_change_items SET leased_until = \(bind: until), attempts = attempts + 1 \
                    WHERE job_id = \(bind: job.id) AND seq IN
                    """
                let returning: SQLQueryString =
                    "RETURNING seq, pass_id, target_attribute, target_value, change, attempts"
                // PostgreSQL runs a locking subquery once only as a materialized CTE, and skips rows another replica
                // is leasing; SQLite writes one transaction at a time.
                let items = try await sql.raw(
                    isPostgres
                        ? """
                        WITH picked AS MATERIALIZED (\(pending) FOR UPDATE SKIP LOCKED) \
                        \(lease) (SELECT seq FROM picked) \(returning)
                        """
                        : "\(lease) (\(pending)) \(returning)"
                ).all(decoding: PassChangeItemRow.Claimed.self).sorted { $0.seq < $1.seq }
                guard !items.isEmpty else {
                    // A replica killed between a job's last batch and its finish leaves it to this claim.
                    if retried == 0 {
                        _ = try await finishIfDone(
                            jobID: try PassChangeJobRow.uuid(job.id, .id),
                            clientID: try PassChangeJobRow.uuid(job.clientID, .clientID), now: now)
                    }
                    continue
                }
                return try await batch(of: job, items: items, leasedUntil: Self.date(until))
            }
            return nil
        }
    }

    package func renewPassChangeLease(_ batch: PassChangeBatch, until: Date) async throws -> Date? {
        let renewed = try await run {
            try await sql.raw(
                """
                UPDATE pass_change_items SET leased_until = \(bind: Self.ms(until)) \
                WHERE job_id = \(bind: batch.jobID.uuidString) AND seq IN \(SQLBind.group(batch.items.map(\.seq))) \
                AND state = 'pending' AND leased_until = \(bind: Self.ms(batch.leasedUntil)) RETURNING seq
                """
            ).all()
        }
        return renewed.count == batch.items.count ? until : nil
    }

    /// The batch of `items` of `job`, with their passes as stored: a match's by identifier, a list's by its tags.
    private func batch(of job: PassChangeJobRow, items: [PassChangeItemRow.Claimed], leasedUntil: Date)
        async throws -> PassChangeBatch
    {
        let model = try job.model()
        let jobChange = Data((job.change ?? "").utf8)
        var found: [String: (pass: PassChangeBatch.ClaimedPass, target: String)] = [:]
        let byID = items.compactMap(\.passID)
        if !byID.isEmpty {
            let rows = try await sql.raw(
                """
                SELECT id, pass_content, COALESCE(update_tag, 0) AS update_tag, serial_number AS label FROM apple_passes \
                WHERE id IN \(SQLBind.group(byID))
                """
            ).all(decoding: PassChangeItemRow.StoredPass.self)
            for row in rows { found[row.id] = (try row.claimed(), "serial_number \(row.label)") }
        }
        for attribute in TagIDAttribute.allCases {
            let values = items.filter { $0.targetAttribute == attribute.rawValue }.compactMap(\.targetValue)
            guard !values.isEmpty else { continue }
            let rows = try await sql.raw(
                """
                SELECT p.id, p.pass_content, COALESCE(p.update_tag, 0) AS update_tag, \
                t.\(unsafeRaw: attribute.rawValue) AS label FROM tags t JOIN apple_passes p ON p.tag_id = t.id \
                WHERE t.client_id = \(bind: job.clientID) AND t.\(unsafeRaw: attribute.rawValue) IN \
                \(SQLBind.group(Array(Set(values))))
                """
            ).all(decoding: PassChangeItemRow.StoredPass.self)
            // Keyed by the tag as the line names it.
            for row in rows { found["\(attribute.rawValue) \(row.label)"] = (try row.claimed(), "") }
        }
        return PassChangeBatch(
            jobID: model.id, clientID: try PassChangeJobRow.uuid(job.clientID, .clientID),
            match: try job.match(), leasedUntil: leasedUntil,
            items: items.map { item in
                if let passID = item.passID {
                    let pass = found[passID]
                    return PassChangeBatch.Item(
                        seq: item.seq, target: pass?.target ?? "pass \(passID)", pass: pass?.pass, change: jobChange,
                        attempts: Int(item.attempts))
                }
                let target = "\(item.targetAttribute ?? "") \(item.targetValue ?? "")"
                return PassChangeBatch.Item(
                    seq: item.seq, target: target, pass: found[target]?.pass, change: Data((item.change ?? "").utf8),
                    attempts: Int(item.attempts))
            })
    }

    package func commitPassChangeBatch(
        _ batch: PassChangeBatch, outcomes: [PassChangeOutcome], now: Date,
        redo: @escaping @Sendable (PassChangeBatch.Item, Data) -> PassChangeOutcome
    ) async throws -> PassChangeBatchResult {
        var result = try await run {
            try await database.transaction { db in
                try await Self.commit(batch, outcomes: outcomes, now: now, redo: redo, on: db)
            }
        }
        if result.committed > 0,
            let webhooks = try await finishIfDone(jobID: batch.jobID, clientID: batch.clientID, now: now)
        {
            result.finishedJob = true
            result.queuedDeliveries = result.queuedDeliveries || webhooks
        }
        return result
    }

    /// Finishes the job when none of its items is pending, and queues its `job.finished` webhooks; `nil` when this
    /// call did not finish it, else whether webhooks were queued. Run after each batch commits: of batches that commit side by side, the statement of the last one
    /// sees every item done, and the job's row lets one of them finish it.
    private func finishIfDone(jobID: UUID, clientID: UUID, now: Date) async throws -> Bool? {
        let job = jobID.uuidString
        return try await run {
            try await database.transaction { db in
                let finished = try await db.raw(
                    """
                    UPDATE pass_change_jobs SET finished_at = \(bind: Self.ms(now)) WHERE id = \(bind: job) \
                    AND finished_at IS NULL AND NOT EXISTS (SELECT 1 FROM pass_change_items \
                    WHERE job_id = \(bind: job) AND state = 'pending') RETURNING id
                    """
                ).all()
                guard !finished.isEmpty else { return nil }
                guard let view = try await Self.passChangeJob(id: jobID, clientID: clientID, failures: 0, on: db)
                else { return false }
                return try await Self.queueJobFinished(view, clientID: clientID, now: now, on: db)
            }
        }
    }
}

extension SQLWalletRepository {
    /// A pass the batch changes, in the order of its items.
    private struct PassChangeWrite {
        var passID: UUID
        var rewrite: PassRewrite
        var details: [String: JSONValue]
    }

    /// ``commitPassChangeBatch(_:outcomes:now:redo:)`` on `db`, inside its transaction.
    private static func commit(
        _ batch: PassChangeBatch, outcomes: [PassChangeOutcome], now: Date,
        redo: @Sendable (PassChangeBatch.Item, Data) -> PassChangeOutcome, on db: any SQLDatabase
    ) async throws -> PassChangeBatchResult {
        let nothing = PassChangeBatchResult(committed: 0, pushes: 0, queuedDeliveries: false, finishedJob: false)
        let job = batch.jobID.uuidString
        let isPostgres = db.dialect.name == "postgresql"
        // The job's row is locked last (its counts), so that batches of one job commit side by side.
        let open = try await db.raw(
            "SELECT id FROM pass_change_jobs WHERE id = \(bind: job) AND finished_at IS NULL"
        ).all()
        guard !open.isEmpty else { return nothing }
        let held = Set(
            try await db.raw(
                """
                SELECT seq FROM pass_change_items WHERE job_id = \(bind: job) \
                AND seq IN \(SQLBind.group(batch.items.map(\.seq))) AND state = 'pending' \
                AND leased_until = \(bind: ms(batch.leasedUntil))\(unsafeRaw: isPostgres ? " FOR UPDATE" : "")
                """
            ).all(decodingColumn: "seq", as: Int64.self))
        let items = zip(batch.items, outcomes).filter { held.contains($0.0.seq) }
        guard !items.isEmpty else { return nothing }

        // The passes as stored now, locked in one order (every batch locks its passes before the update tag).
        let passIDs = Set(items.compactMap { $0.0.pass?.id.uuidString }).sorted()
        var stored: [UUID: PassChangeItemRow.LockedPass] = [:]
        if !passIDs.isEmpty {
            for row in try await db.raw(
                """
                SELECT id, pass_content, COALESCE(update_tag, 0) AS update_tag, modified_at, updated_at \
                FROM apple_passes WHERE id IN \(SQLBind.group(passIDs)) ORDER BY id\
                \(unsafeRaw: isPostgres ? " FOR UPDATE" : "")
                """
            ).all(decoding: PassChangeItemRow.LockedPass.self) {
                stored[try PassRow.uuid(row.id, .id)] = row
            }
        }
        var outcomesHeld: [(item: PassChangeBatch.Item, outcome: PassChangeOutcome)] = []
        var writes: [PassChangeWrite] = []
        var rewritten: Set<UUID> = []
        for (item, claimedOutcome) in items {
            guard let pass = item.pass else {
                outcomesHeld.append((item, claimedOutcome))
                continue
            }
            guard var current = stored[pass.id] else {
                outcomesHeld.append((item, .failed("the pass was deleted")))
                continue
            }
            var outcome = claimedOutcome
            // Changed since the claim, by another writer or an earlier line of this batch: done again on it.
            if current.updateTag != pass.updateTag || rewritten.contains(pass.id) {
                outcome = redo(item, current.passContent)
            }
            if case .changed(let rewrite, let details) = outcome {
                current.passContent = rewrite.content
                stored[pass.id] = current
                rewritten.insert(pass.id)
                writes.append(PassChangeWrite(passID: pass.id, rewrite: rewrite, details: details))
            }
            outcomesHeld.append((item, outcome))
        }

        // Everything but the passes' own rows first: the update tag's lock, taken last, is held only for those.
        var deliveries = QueuedDeliveries()
        if !writes.isEmpty { deliveries = try await queueDeliveries(of: writes, now: now, on: db) }
        let pushes = deliveries.devices.values.reduce(0, +)
        var queuedDeliveries = deliveries.others

        var counts = (matched: 0, changed: 0, skipped: 0, failed: 0)
        var settled: [String: [Int64]] = ["changed": [], "skipped": []]
        for (item, outcome) in outcomesHeld {
            switch outcome {
            case .changed:
                counts.matched += 1
                counts.changed += 1
                settled["changed", default: []].append(item.seq)
            case .skipped:
                counts.skipped += 1
                settled["skipped", default: []].append(item.seq)
            case .failed(let reason):
                if item.pass != nil { counts.matched += 1 }
                counts.failed += 1
                let parts = item.target.split(separator: " ", maxSplits: 1).map(String.init)
                try await db.update(PassChangeItemRow.table).set("state", to: "failed")
                    .set("error", to: String(reason.prefix(maximumErrorLength)))
                    .set("target_attribute", to: parts.first ?? "")
                    .set("target_value", to: parts.count > 1 ? parts[1] : "")
                    .set("leased_until", to: SQLLiteral.null)
                    .where("job_id", .equal, job).where("seq", .equal, item.seq).run()
            }
        }
        for (state, seqs) in settled where !seqs.isEmpty {
            try await db.update(PassChangeItemRow.table).set("state", to: state)
                .set("leased_until", to: SQLLiteral.null)
                .where("job_id", .equal, job).where("seq", .in, seqs).run()
        }
        if !writes.isEmpty {
            queuedDeliveries =
                try await storeChanges(writes, passes: stored, devices: deliveries.devices, now: now, on: db)
                || queuedDeliveries
        }
        try await db.raw(
            """
            UPDATE pass_change_jobs SET matched = matched + \(bind: counts.matched), \
            changed = changed + \(bind: counts.changed), skipped = skipped + \(bind: counts.skipped), \
            failed = failed + \(bind: counts.failed), pushes = pushes + \(bind: pushes) WHERE id = \(bind: job)
            """
        ).run()
        return PassChangeBatchResult(
            committed: outcomesHeld.count, pushes: pushes, queuedDeliveries: queuedDeliveries, finishedJob: false)
    }

    /// What a batch queued before its passes were stored: the pushes by pass, and whether Google Wallet writes were.
    private struct QueuedDeliveries {
        var devices: [UUID: Int] = [:]
        var others = false
    }

    /// Drops the changed passes' signed archives and queues their pushes (to each registered device without one
    /// waiting) and Google Wallet writes.
    private static func queueDeliveries(of writes: [PassChangeWrite], now: Date, on db: any SQLDatabase)
        async throws -> QueuedDeliveries
    {
        let changed = Set(writes.map(\.passID.uuidString)).sorted()
        try await db.delete(from: SignedPassArchiveRow.table).where("pass_id", .in, changed).run()

        var queued = QueuedDeliveries()
        queued.devices = try await queuePushes(toDevicesOf: changed, now: now, on: db)

        let google = Set(
            try await db.raw(
                """
                SELECT p.id FROM apple_passes p JOIN pass_types t ON t.id = p.pass_type_id \
                WHERE p.id IN \(SQLBind.group(changed)) AND t.google_issuer_id IS NOT NULL
                """
            ).all(decodingColumn: "id", as: String.self))
        for write in writes where google.contains(write.passID.uuidString) {
            try await queueGoogleWrite(passID: write.passID, notices: write.rewrite.notices, now: now, on: db)
        }
        queued.others = !google.isEmpty
        return queued
    }

    /// Stores the changed passes, each with the next update tag, and their trace events with their webhooks; whether
    /// webhooks were queued. The update tag counter is stepped once for the batch, and its lock held from here to the
    /// commit, so that tags commit in the order they were given.
    private static func storeChanges(
        _ writes: [PassChangeWrite], passes: [UUID: PassChangeItemRow.LockedPass], devices: [UUID: Int], now: Date,
        on db: any SQLDatabase
    ) async throws -> Bool {
        let nowMS = ms(now)
        guard
            let last = try await db.raw(
                """
                UPDATE coffer_counters SET value = value + \(bind: Int64(writes.count)) WHERE name = 'update_tag' \
                RETURNING value
                """
            ).first(decodingColumn: "value", as: Int64.self)
        else { throw WalletServerError.corruptRecord("the update tag counter") }
        var passes = passes
        var events: [NewPassEvent] = []
        // Each pass's last write holds every line's change to it: one row per pass in the update.
        var stored: [UUID: [any Encodable & Sendable]] = [:]
        for (offset, write) in writes.enumerated() {
            let tag = last - Int64(writes.count) + 1 + Int64(offset)
            guard var pass = passes[write.passID] else { continue }
            let modified = nextModified(after: date(pass.modifiedAt ?? pass.updatedAt), now: now)
            pass.modifiedAt = modified
            passes[write.passID] = pass
            stored[write.passID] = [
                write.passID.uuidString, write.rewrite.content, modified, tag, max(nowMS, pass.updatedAt),
            ]
            var details = write.details
            details["update_tag"] = .number(Double(tag))
            details["via"] = .string("bulk_change")
            events.append(NewPassEvent(passID: write.passID, occurredAt: now, kind: .changed, details: details))
        }
        for rows in Array(stored.values).chunked(into: itemsPerInsert) {
            try await db.raw(
                """
                UPDATE apple_passes SET pass_content = v.column2, modified_at = v.column3, update_tag = v.column4, \
                updated_at = v.column5 FROM (VALUES \(SQLList(rows.map(SQLBind.group)))) AS v \
                WHERE apple_passes.id = v.column1
                """
            ).run()
        }
        for (passID, count) in devices.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            events.append(
                NewPassEvent(
                    passID: passID, occurredAt: now, kind: .pushQueued, details: ["devices": .number(Double(count))]))
        }
        return try await storePassEvents(events, on: db)
    }

    /// Queues a `job.finished` delivery of `job` to every endpoint of the client that takes it; whether any was.
    @discardableResult
    static func queueJobFinished(_ job: PassChangeJob, clientID: UUID, now: Date, on db: any SQLDatabase)
        async throws -> Bool
    {
        let type = WebhookEventType.jobFinished
        let endpoints = try await db.select().columns(of: WebhookEndpointRow.self).from(WebhookEndpointRow.table)
            .where(WebhookEndpointRow.column(.clientID), .equal, SQLBind(clientID.uuidString))
            .all(decoding: WebhookEndpointRow.self).map { try $0.model() }.filter { $0.eventTypes.contains(type) }
        guard !endpoints.isEmpty else { return false }
        let data = try JSONDecoder().decode([String: JSONValue].self, from: try job.encoded())
        let deliveries = endpoints.map { endpoint in
            let body = webhookBody(type: type, occurredAt: now, data: ["job": .object(data)])
            return DeliveryOutboxRow(
                passID: nil, endpointID: endpoint.id, eventID: body.eventID, eventType: type, payload: body.payload,
                sequence: ms(now), now: now)
        }
        try await db.insert(deliveries).run()
        return true
    }
}

extension Array {
    /// The array in consecutive slices of at most `size` elements.
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
