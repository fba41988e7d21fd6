import Foundation
import WalletServer
import WalletServices
import WalletStore

extension WalletRepository {
    /// Records `pass`'s ``StoredPass/accountBindingData`` as issued at its ``StoredPass/updatedAt``, opening `session`:
    /// the issuance a test means when it has a pass record at hand.
    func recordIssuance(_ pass: StoredPass, session: ProvisioningSession) async throws {
        try await recordIssuance(
            Issuance(
                passID: pass.id, accountBindingData: pass.accountBindingData ?? Data(), issuedAt: pass.updatedAt,
                session: session))
    }
}
