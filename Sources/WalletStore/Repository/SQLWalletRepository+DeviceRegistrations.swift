import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// The pass or order of `typeIdentifier` with `identifier`, with its token hash and `Last-Modified`, in one
    /// prepared query.
    package func webServiceDocument(_ subject: TraceSubject, typeIdentifier: String, identifier: String)
        async throws -> WebServicePass?
    {
        let lookup = subject == .pass ? lookups.webServicePass : lookups.webServiceOrder
        return try await first(WebServicePassRow.self, of: lookup.bound(to: [typeIdentifier, identifier]))?.model()
    }

    /// Registers the device for the document with its push token for this document alone, unless the document
    /// already has `maximumDevices` other devices (the one unseen longest since `unseenSince` makes room). The
    /// document's row is held (PostgreSQL) or the database written (SQLite) for the transaction, so concurrent
    /// registrations of one document count one after the other.
    package func register(
        _ subject: TraceSubject, deviceLibraryIdentifier: String, pushToken: String, documentID: UUID, now: Date,
        maximumDevices: Int, evictingUnseenSince unseenSince: Date = .distantPast
    ) async throws -> DeviceRegistration {
        let registrations = RegistrationTable.of(subject)
        return try await run {
            try await database.transaction { db in
                try await Self.lock(subject, documentID, on: db)
                let existing = try await db.select().column("push_token").from(registrations.table)
                    .where("device_library_identifier", .equal, deviceLibraryIdentifier)
                    .where(registrations.documentColumn, .equal, documentID.uuidString).first()
                var count = 0
                var evicted: String?
                if existing == nil {
                    count = try await Self.registrationCount(registrations, id: documentID, on: db)
                    if count >= maximumDevices {
                        evicted = try await Self.evictUnseen(registrations, id: documentID, since: unseenSince, on: db)
                        guard evicted != nil else { return .refused(registeredDevices: count) }
                        count -= 1
                    }
                }
                let millis = Self.ms(now)
                try await db.insert(into: registrations.table)
                    .columns(
                        "device_library_identifier", registrations.documentColumn, "push_token", "created_at",
                        "updated_at", "last_seen_at"
                    )
                    .values(
                        SQLBind(deviceLibraryIdentifier), SQLBind(documentID.uuidString), SQLBind(pushToken),
                        SQLBind(millis), SQLBind(millis), SQLBind(millis)
                    )
                    .onConflict(with: ["device_library_identifier", registrations.documentColumn]) {
                        $0.set(excludedValueOf: "push_token").set(excludedValueOf: "updated_at")
                            .set(excludedValueOf: "last_seen_at")
                    }
                    .run()
                return existing == nil ? .created(registeredDevices: count + 1, evicted: evicted) : .renewed
            }
        }
    }

    /// Deletes the document's registration last seen longest ago, with its pending pushes, if it was last seen
    /// before `since`; its device library identifier, or `nil` when every device was seen since.
    private static func evictUnseen(
        _ registrations: RegistrationTable, id: UUID, since: Date, on db: any SQLDatabase
    ) async throws -> String? {
        guard
            let stalest = try await db.select().column(registrations.column("device_library_identifier"))
                .from(registrations.table)
                .where(registrations.column(registrations.documentColumn), .equal, SQLBind(id.uuidString))
                .where(registrations.lastSeen, .lessThan, SQLBind(ms(since)))
                .orderBy(registrations.lastSeen).limit(1)
                .first(decodingColumn: "device_library_identifier", as: String.self)
        else { return nil }
        _ = try await removeRegistration(registrations, device: stalest, id: id, token: nil, on: db)
        return stalest
    }

    /// Ends the registration and drops its pending pushes, holding the document's row like a registration; returns
    /// how many devices are left, or `nil` when the device was not registered.
    package func unregister(_ subject: TraceSubject, deviceLibraryIdentifier: String, documentID: UUID)
        async throws -> Int?
    {
        let registrations = RegistrationTable.of(subject)
        return try await run {
            try await database.transaction { db in
                try await Self.lock(subject, documentID, on: db)
                guard
                    try await Self.removeRegistration(
                        registrations, device: deviceLibraryIdentifier, id: documentID, token: nil, on: db)
                else { return nil }
                return try await Self.registrationCount(registrations, id: documentID, on: db)
            }
        }
    }

    /// Removes the registration the push was for (and the push) when the registration still has the push's token;
    /// returns how many devices the pass or order has left, or `nil` when the registration was not removed.
    @discardableResult
    package func removeRegistration(for push: PendingPush) async throws -> Int? {
        let registrations = RegistrationTable.of(push.subject)
        return try await run {
            try await database.transaction { db in
                try await Self.lock(push.subject, push.passID, on: db)
                try await db.delete(from: DeliveryOutboxRow.table).where("id", .equal, push.id.uuidString).run()
                guard
                    try await Self.removeRegistration(
                        registrations, device: push.deviceLibraryIdentifier, id: push.passID, token: push.pushToken,
                        on: db)
                else { return nil }
                return try await Self.registrationCount(registrations, id: push.passID, on: db)
            }
        }
    }

    /// Deletes the device's registration of the document (only with `token`, when given) and its pending pushes, on
    /// `db`; whether there was one.
    private static func removeRegistration(
        _ registrations: RegistrationTable, device: String, id: UUID, token: String?, on db: any SQLDatabase
    ) async throws -> Bool {
        var delete = db.delete(from: registrations.table)
            .where("device_library_identifier", .equal, device)
            .where(registrations.documentColumn, .equal, id.uuidString)
        if let token { delete = delete.where("push_token", .equal, token) }
        let removed = try await delete.returning(registrations.documentColumn).all()
        guard !removed.isEmpty else { return false }
        var pushes = db.delete(from: DeliveryOutboxRow.table)
            .where("device_library_identifier", .equal, device)
            .where("pass_id", .equal, id.uuidString)
        if let kind = registrations.pushKind { pushes = pushes.where("kind", .equal, kind) }
        try await pushes.run()
        return true
    }

    /// Holds the pass's or order's row until the transaction ends (PostgreSQL; SQLite's write transactions run one at
    /// a time).
    static func lock(_ subject: TraceSubject, _ id: UUID, on db: any SQLDatabase) async throws {
        guard db.dialect.name == "postgresql" else { return }
        _ = try await db.select().column("id").from(RegistrationTable.of(subject).documents)
            .where("id", .equal, id.uuidString).for(.update).first()
    }

    /// Holds the pass's row until the transaction ends.
    static func lockPass(_ passID: UUID, on db: any SQLDatabase) async throws {
        try await lock(.pass, passID, on: db)
    }

    /// How many devices are registered for the pass or order.
    package func registrationCount(of subject: TraceSubject, id: UUID) async throws -> Int {
        try await run { try await Self.registrationCount(RegistrationTable.of(subject), id: id, on: sql) }
    }

    static func registrationCount(_ registrations: RegistrationTable, id: UUID, on db: any SQLDatabase)
        async throws -> Int
    {
        let count = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
            .from(registrations.table)
            .where(registrations.column(registrations.documentColumn), .equal, SQLBind(id.uuidString))
            .first(decodingColumn: "count", as: Int64.self)
        return Int(count ?? 0)
    }

    /// The device's documents of the type whose update tag is above `since`: a pass type's in serial-number order
    /// (one prepared lookup), an order type's oldest change first and at most
    /// `DeviceRegistrations.maximumListedOrders`.
    package func updatedDocuments(
        _ subject: TraceSubject, deviceLibraryIdentifier: String, typeIdentifier: String, since: Int64?
    ) async throws -> [UpdatedDocument] {
        switch subject {
        case .pass:
            let statement =
                if let since {
                    lookups.updatedPassesSince.bound(to: [deviceLibraryIdentifier, typeIdentifier, since])
                } else {
                    lookups.updatedPasses.bound(to: [deviceLibraryIdentifier, typeIdentifier])
                }
            return try await rows(UpdatedPassRow.self, of: statement).map { row in
                UpdatedDocument(
                    identifier: row.serialNumber, updateTag: row.updateTag ?? 0,
                    documentID: try PassRow.uuid(row.passID, .id))
            }
        case .order:
            return try await updatedOrders(
                deviceLibraryIdentifier: deviceLibraryIdentifier, orderTypeIdentifier: typeIdentifier, since: since)
        }
    }
}
