import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 12: `pass_registrations.last_seen_at`, when the device last showed it is there (it registered, or
    /// APNs accepted a push to it), so that a pass at its device cap can make room in place of a registration no
    /// device has answered for (`DeviceRegistrations/staleRegistrationAge`). Existing registrations start at their last
    /// renewal.
    static func addRegistrationsSeen(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "pass_registrations").column("last_seen_at", type: .bigint).run()
        try await db.update("pass_registrations").set("last_seen_at", to: SQLIdentifier("updated_at")).run()
    }
}
