import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Stores (or, with `nil`, removes) the template archive passes of a pass type are made from.
    ///
    /// - Throws: `WalletServerError/notFound(_:)` when there is no such pass type.
    package func setPassTemplate(passTypeID: UUID, archive: Data?) async throws {
        try await run {
            let updated = try await sql.update("pass_types").set("template", to: archive)
                .where("id", .equal, passTypeID.uuidString).returning("id").all()
            guard !updated.isEmpty else { throw WalletServerError.notFound("pass type \(passTypeID)") }
        }
    }
}
