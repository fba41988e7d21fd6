import SQLKit
import WalletServices

extension SchemaMigrator {
    /// Migration 11: kept archives are sealed (`KeptArchiveSeal`), because a pass's archive carries its
    /// `authenticationToken`; the ones kept in clear before are dropped, and each is signed and sealed again when it
    /// is next fetched.
    static func dropUnsealedArchives(_ db: any SQLDatabase) async throws {
        try await db.delete(from: "signed_pass_archives").run()
    }
}
