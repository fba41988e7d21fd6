import Foundation
import WalletDocuments

extension PassChecks {
    /// The checks of a personalizable pass (one with `personalization.json`): its barcode must not show its serial
    /// number, which is all Wallet's unauthenticated personalize request needs, so whoever saw the code could
    /// personalize the pass before its holder.
    static func checkPersonalization(_ pass: Pass, files: [String: Data]?, in context: inout LintContext) {
        guard files?["personalization.json"] != nil, !pass.serialNumber.isEmpty else { return }
        let barcodes = (pass.barcodes ?? []) + (pass.barcode.map { [$0] } ?? [])
        for (index, barcode) in barcodes.enumerated() where barcode.message == pass.serialNumber {
            let path = index < (pass.barcodes ?? []).count ? "barcodes[\(index)].message" : "barcode.message"
            context.error(
                "personalization.serial-in-barcode", path,
                "is the serial number of a personalizable pass: anyone who sees the code can personalize the pass "
                    + "before its holder; use a message that is not the serial number (a member number the "
                    + "personalization fills in, or a random one)")
        }
    }
}
