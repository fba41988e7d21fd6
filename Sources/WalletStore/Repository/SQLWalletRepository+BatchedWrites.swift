import Foundation
import SQLKit
import WalletServices

/// A write of the provisioning flow. Concurrent ones are committed together (``GroupCommit``): one transaction and
/// one sync for a whole batch, with a few multi-row statements instead of a few statements per write.
enum ProvisioningWrite: Sendable {
    /// Records issued binding data and opens its session.
    case issuance(Issuance)
    /// Marks a session used, if it can be (see ``SQLWalletRepository/consumeSession(id:now:)``).
    case consumption(sessionID: String, now: Date)
    /// Records what a device's callback bound, with the pass's new token when it gets one.
    case binding(StoredPass, PassAuthenticationTokens.Assignment?)
}

extension SQLWalletRepository {
    /// Commits `batch` in one transaction and returns, for each write in order, the session a consumption got (`nil`
    /// for every other write).
    ///
    /// The writes of a batch were all in flight at once, so any order is one they could have run in; the batch runs
    /// consumptions, then bindings, then issuances, each kind with the effect of running its writes one after
    /// another in the order they arrived.
    static func commit(_ batch: [ProvisioningWrite], to database: WalletDatabase) async throws
        -> [ProvisioningSession?]
    {
        var consumptions: [(index: Int, sessionID: String, now: Date)] = []
        var bindings: [UUID: (pass: StoredPass, authentication: PassAuthenticationTokens.Assignment?)] = [:]
        var issuances: [UUID: Issuance] = [:]
        for (index, write) in batch.enumerated() {
            switch write {
            case .consumption(let sessionID, let now): consumptions.append((index, sessionID, now))
            // A later write of the same pass replaces an earlier one's values, as running both would.
            case .binding(let pass, let authentication): bindings[pass.id] = (pass, authentication)
            case .issuance(let issuance): issuances[issuance.passID] = issuance
            }
        }
        let (consumed, bound, issued) = (consumptions, Array(bindings.values), Array(issuances.values))
        let engine = database.engine
        if engine == .sqlite, consumed.isEmpty, bound.isEmpty {
            // Issuances alone are one statement on SQLite: its own transaction, synced when it returns.
            try await commitIssuances(issued, engine: engine, on: database.sql)
            return [ProvisioningSession?](repeating: nil, count: batch.count)
        }
        return try await database.transaction { db in
            var outcomes = [ProvisioningSession?](repeating: nil, count: batch.count)
            for (index, session) in try await commitConsumptions(consumed, on: db) {
                outcomes[index] = session
            }
            try await commitBindings(bound, on: db)
            try await commitIssuances(issued, engine: engine, on: db)
            return outcomes
        }
    }

    /// Marks the sessions used that exist, are unused and have not expired, in one `UPDATE … RETURNING`: the gate.
    /// Only the caller whose update changed a row gets its session, however many race (within the batch, the first
    /// to ask; across processes, the database's row lock decides).
    private static func commitConsumptions(
        _ consumptions: [(index: Int, sessionID: String, now: Date)], on db: any SQLDatabase
    ) async throws -> [(Int, ProvisioningSession)] {
        guard let now = consumptions.map(\.now).max() else { return [] }
        let hashes = consumptions.map { SessionIdentifier.hash($0.sessionID) }
        let rows = try await db.update("provisioning_sessions").set("used_at", to: ms(now))
            .where("id_hash", .in, Array(Set(hashes))).where("used_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, ms(now))
            .returning(SessionRow.columns.map { SQLIdentifier($0) }).all(decoding: SessionRow.self)
        var changed: [Data: SessionRow] = [:]
        for row in rows { changed[row.idHash] = row }
        var granted: [(Int, ProvisioningSession)] = []
        for (consumption, hash) in zip(consumptions, hashes) {
            guard let row = changed.removeValue(forKey: hash) else { continue }
            granted.append((consumption.index, try row.model(id: consumption.sessionID)))
        }
        return granted
    }

    /// Stores what the devices bound (only the columns a callback owns) in one `UPDATE`, gives the passes that get one
    /// their new token (dropping their registrations and pending pushes), spends their landing links and drops their
    /// signed archives.
    private static func commitBindings(
        _ bindings: [(pass: StoredPass, authentication: PassAuthenticationTokens.Assignment?)], on db: any SQLDatabase
    ) async throws {
        guard !bindings.isEmpty else { return }
        // One order for every writer, so that two batches on PostgreSQL lock their passes' rows in the same order.
        let passes = bindings.map(\.pass).sorted { $0.id.uuidString < $1.id.uuidString }
        func values(_ value: (StoredPass) -> any Encodable & Sendable) -> SQLValueByID {
            SQLValueByID(passes, id: \.id.uuidString, value: value)
        }
        let passIDs = passes.map(\.id.uuidString)
        try await db.update("apple_passes")
            .set("issuer_binding_data", to: values { $0.issuerBindingData })
            .set("key_hash", to: values { $0.keyHash })
            .set("updated_at", to: values { ms($0.updatedAt) })
            .where("id", .in, passIDs).run()
        let rotated = bindings.compactMap { binding in binding.authentication.map { (binding.pass.id, $0) } }
            .sorted { $0.0.uuidString < $1.0.uuidString }
        if !rotated.isEmpty {
            let rotatedIDs = rotated.map(\.0.uuidString)
            try await db.update(PassAuthenticationRow.table)
                .set(
                    PassAuthenticationRow.CodingKeys.authenticationSalt.stringValue,
                    to: SQLValueByID(rotated, id: \.0.uuidString, value: { $0.1.salt })
                )
                .set(
                    PassAuthenticationRow.CodingKeys.authenticationTokenHash.stringValue,
                    to: SQLValueByID(rotated, id: \.0.uuidString, value: { $0.1.tokenHash })
                )
                .where("id", .in, rotatedIDs).run()
            try await endHolders(ofPasses: rotatedIDs, on: db)
        }
        try await db.delete(from: "landing_links").where("pass_id", .in, passIDs).run()
        try await db.delete(from: SignedPassArchiveRow.table).where("pass_id", .in, passIDs).run()
    }

    /// Ends everything the passes' earlier holders have, after the passes' tokens were replaced: their devices'
    /// registrations and pushes (webhooks about the passes still go to their issuer) and the share links that would
    /// hand the pass, with its new token, to whoever holds one.
    static func endHolders(ofPasses passIDs: [String], on db: any SQLDatabase) async throws {
        try await db.delete(from: "push_outbox").where("pass_id", .in, passIDs)
            .where("device_library_identifier", .notEqual, "").run()
        try await db.delete(from: "pass_registrations").where("pass_id", .in, passIDs).run()
        try await db.delete(from: ShareLinkRow.table).where("pass_id", .in, passIDs).run()
    }

    /// Stores the passes' new binding data (only the columns an issuance owns), ends their open sessions and opens
    /// the new ones: in three statements on PostgreSQL, in one on SQLite (``SQLiteIssuanceWrites``).
    private static func commitIssuances(
        _ issuances: [Issuance], engine: WalletDatabase.Engine, on db: any SQLDatabase
    ) async throws {
        guard !issuances.isEmpty else { return }
        guard engine == .postgres else { return try await SQLiteIssuanceWrites.insert(issuances, on: db) }
        let issuances = issuances.sorted { $0.passID.uuidString < $1.passID.uuidString }
        let passIDs = issuances.map(\.passID.uuidString)
        // Updating the passes first locks their rows (PostgreSQL) or the database (SQLite), so a concurrent issuance
        // for the same pass waits here and then ends these sessions in turn.
        func values(_ value: (Issuance) -> any Encodable & Sendable) -> SQLValueByID {
            SQLValueByID(issuances, id: \.passID.uuidString, value: value)
        }
        try await db.update("apple_passes")
            .set("account_binding_data", to: values { $0.accountBindingData })
            .set("updated_at", to: values { ms($0.issuedAt) })
            .where("id", .in, passIDs).run()
        try await db.delete(from: "provisioning_sessions").where("pass_id", .in, passIDs)
            .where("used_at", .is, SQLLiteral.null).run()
        try await db.insert(issuances.map { SessionRow($0.session) }).run()
    }
}
