import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// What the create transaction decided.
    private enum CreationOutcome: Sendable {
        case answered(StoredResponse)
        case keyReused
    }

    /// Makes a tag with its owner (found or made) and its pass in one transaction, claiming the idempotency key first.
    ///
    /// The claim is an `INSERT … ON CONFLICT DO NOTHING` of the key's row before anything else: on PostgreSQL a
    /// second transaction with the same key waits on that row until the first commits (then finds it) or rolls back
    /// (then claims it); on SQLite the transactions run one after the other (`BEGIN IMMEDIATE`). The answer is
    /// written to the row in the same transaction, so no one ever sees a claimed key without its answer. Before the
    /// claim, the key is deleted if it is older than `IdempotencyKey/lifetime`: an expired key is a new one.
    /// `SessionPurger` deletes the other expired keys (``deleteExpiredIdempotencyKeys(before:limit:)``).
    package func createManagedPass(
        _ creation: ManagedPassCreation, claim: IdempotencyClaim?, now: Date,
        encode: @escaping @Sendable (ManagedPassState) throws -> Data
    ) async throws -> StoredResponse {
        do {
            return try await createIdempotently(clientID: creation.clientID, claim: claim, now: now) { db in
                let userID = try await Self.owner(of: creation, createdAt: now, on: db)
                let tag = ClientTag(
                    id: creation.tagID, clientID: creation.clientID, userID: userID,
                    referenceID: creation.referenceID, prontoTagID: creation.prontoTagID,
                    subscriptionID: creation.subscriptionID, createdAt: now)
                try await db.insert([TagRow(tag)]).run()
                try await db.insert([PassRow(creation.pass)]).run()
                try await Self.queueFirstGoogleWrites(passIDs: [creation.pass.id], now: now, on: db)
                let made = try await Self.managedPassStates(on: db, limit: 1) {
                    $0.where(PassRow.column(.id), .equal, SQLBind(creation.pass.id.uuidString))
                }
                guard let state = made.first?.state else {
                    throw WalletServerError.corruptRecord("the pass just made")
                }
                return try encode(state)
            }
        } catch WalletServerError.conflict {
            throw PassManagementFailure.conflict("a tag with one of these identifiers")
        }
    }

    /// Runs `make` (which stores a record and returns the body of its answer, `status`) in one transaction, claiming
    /// `claim` for the client first and storing the answer with it: a claim of an earlier request answers what that
    /// request answered and makes nothing, a claim of another request throws
    /// ``PassManagementFailure/idempotencyKeyReused``.
    func createIdempotently(
        clientID: UUID, claim: IdempotencyClaim?, now: Date, status: Int = 201,
        make: @escaping @Sendable (any SQLDatabase) async throws -> Data
    ) async throws -> StoredResponse {
        let client = clientID.uuidString
        let cutoff = Self.ms(now.addingTimeInterval(-IdempotencyKey.lifetime))
        let outcome = try await run {
            try await database.transaction { db -> CreationOutcome in
                if let claim {
                    // An expired key is a new one: its old row goes first (a point delete on the primary key; the
                    // session purger deletes the rest of the expired keys in the background).
                    try await db.delete(from: "idempotency_keys").where("client_id", .equal, client)
                        .where("idempotency_key", .equal, claim.key.value)
                        .where("created_at", .lessThanOrEqual, cutoff).run()
                    let claimed = try await db.insert(
                        [IdempotencyKeyRow(claim: claim, clientID: clientID, createdAt: now)]
                    )
                    .ignoringConflicts(with: IdempotencyKeyRow.primaryKey.map(\.stringValue))
                    .returning("client_id").all()
                    if claimed.isEmpty {
                        return try await Self.storedOutcome(of: claim, clientID: client, on: db)
                    }
                }
                let body = try await make(db)
                if let claim {
                    try await db.update("idempotency_keys").set("response_status", to: Int64(status))
                        .set("response_body", to: body).where("client_id", .equal, client)
                        .where("idempotency_key", .equal, claim.key.value).run()
                }
                return .answered(StoredResponse(status: status, body: body, replayed: false))
            }
        }
        switch outcome {
        case .answered(let response): return response
        case .keyReused: throw PassManagementFailure.idempotencyKeyReused
        }
    }

    /// What a key claimed by an earlier request answers: its stored response for the same request, or reuse.
    private static func storedOutcome(of claim: IdempotencyClaim, clientID: String, on db: any SQLDatabase)
        async throws -> CreationOutcome
    {
        guard
            let row = try await db.select().columns(of: IdempotencyKeyRow.self).from(IdempotencyKeyRow.table)
                .where(IdempotencyKeyRow.column(.clientID), .equal, SQLBind(clientID))
                .where(IdempotencyKeyRow.column(.idempotencyKey), .equal, SQLBind(claim.key.value))
                .first(decoding: IdempotencyKeyRow.self)
        else { throw WalletServerError.corruptRecord("an idempotency key that was just there") }
        guard SecretToken.constantTimeEquals(row.requestHash, claim.requestHash) else { return .keyReused }
        guard let status = row.responseStatus, let body = row.responseBody else {
            throw WalletServerError.corruptRecord("an idempotency key without its answer")
        }
        return .answered(StoredResponse(status: Int(status), body: body, replayed: true))
    }

    /// The client's oldest user with the creation's user reference, or a new user (with it) when there is none.
    private static func owner(of creation: ManagedPassCreation, createdAt: Date, on db: any SQLDatabase)
        async throws -> UUID
    {
        if let reference = creation.userReference,
            let owner = try await db.select().columns(of: UserRow.self).from(UserRow.table)
                .where(UserRow.column(.clientID), .equal, SQLBind(creation.clientID.uuidString))
                .where(UserRow.column(.externalReference), .equal, SQLBind(reference))
                .orderBy(UserRow.column(.createdAt)).orderBy(UserRow.column(.id)).limit(1)
                .first(decoding: UserRow.self)
        {
            return try owner.model().id
        }
        let user = User(clientID: creation.clientID, externalReference: creation.userReference, createdAt: createdAt)
        try await db.insert([UserRow(user)]).run()
        return user.id
    }

    /// Forgets idempotency keys created at or before `cutoff`, up to `limit` of them; returns how many.
    package func deleteExpiredIdempotencyKeys(before cutoff: Date, limit: Int) async throws -> Int {
        guard limit > 0 else { return 0 }
        let rows = try await run {
            try await sql.raw(
                """
                DELETE FROM idempotency_keys WHERE (client_id, idempotency_key) IN \
                (SELECT client_id, idempotency_key FROM idempotency_keys WHERE created_at <= \(bind: Self.ms(cutoff)) \
                LIMIT \(bind: limit)) RETURNING client_id
                """
            ).all()
        }
        return rows.count
    }
}
