import Foundation
import WalletServer
import WalletServices
import WalletStore

extension WalletRepository {
    /// Records `pass`'s ``ApplePass/accountBindingData`` as issued at its ``ApplePass/updatedAt``, opening `session`:
    /// the issuance a test means when it has a pass record at hand.
    func recordIssuance(_ pass: ApplePass, session: ProvisioningSession) async throws {
        try await recordIssuance(
            Issuance(
                passID: pass.id, accountBindingData: pass.accountBindingData ?? Data(), issuedAt: pass.updatedAt,
                session: session))
    }
}
