import Secrets
import WalletDocuments

extension PassChecks {
    /// The checks of NFC and of account binding (an account-bound pass is an NFC pass with a FIDO profile).
    static func checkNFCAndBinding(_ pass: Pass, in context: inout LintContext) {
        if let nfc = pass.nfc {
            if nfc.message.isEmpty, nfc.json["message"] != nil {
                context.error("nfc.message", "nfc.message", "must not be empty")
            }
            if nfc.message.utf8.count > Pass.maximumNFCMessageLength {
                context.error(
                    "nfc.message", "nfc.message",
                    "is \(nfc.message.utf8.count) bytes; Wallet sends at most \(Pass.maximumNFCMessageLength)")
            }
            // Wallet has accepted only encrypted NFC passes since iOS 11: the key is required (the schema says so).
            if let key = nfc.encryptionPublicKey, !PassNFC.isP256PublicKey(key) {
                context.error(
                    "nfc.encryption-key", "nfc.encryptionPublicKey",
                    "is not a Base64 X.509 SubjectPublicKeyInfo of a P-256 public key")
            }
            if nfc.requiresAuthentication == true, pass.sharingProhibited != true {
                context.warning(
                    "nfc.sharing", "sharingProhibited",
                    "should be true with nfc.requiresAuthentication, or a copy shared to iOS 13.0 and earlier skips "
                        + "the authentication")
            }
        }
        if let profile = pass.fidoProfile {
            for (key, value) in [
                ("relyingPartyIdentifier", profile.relyingPartyIdentifier), ("accountHash", profile.accountHash),
            ] where profile.json[key] != nil && DocumentChecks.isBlank(value) {
                context.error("binding.fido-profile", "fidoProfile.\(key)", "must not be empty")
            }
            if pass.json["nfc"] == nil {
                context.warning(
                    "binding.nfc", "nfc",
                    "is missing: Wallet binds only NFC passes (an NFC-enabled pass type), so this one is added unbound")
            }
        }
        if let binding = pass.issuerBindingData {
            if !Hex.isValid(binding.issuerBindingData, maximumLength: .max) {
                context.error("binding.hex", "issuerBindingData.issuerBindingData", "must be hexadecimal")
            }
            if pass.json["fidoProfile"] == nil {
                context.error(
                    "binding.fido-profile", "issuerBindingData",
                    "needs a fidoProfile: an account-bound pass carries both, or Wallet shows it unbound")
            }
        }
    }
}
