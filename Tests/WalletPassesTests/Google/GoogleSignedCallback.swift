import Foundation

@testable import WalletDocuments
@testable import WalletPasses

/// A delete callback Google really signed, as posted to an issuer's endpoint: published in the tests of the Python
/// library edutap.wallet_google (`tests/test_handler_validate.py`, commit c3e7a35, EUPL-1.2). Its `signedKey` keeps
/// Google's `\u003d` escapes as six characters each: Google signed those exact characters.
enum GoogleSignedCallback {
    /// The issuer it was sent to.
    static let issuerID = "3388000000022141777"
    /// A moment when its intermediate key (until 2025-10-09) and its message (until 2025-10-01 15:09 UTC) were valid.
    static let validAt = Date(timeIntervalSince1970: 1_759_330_000)
    /// Google's root signing key for `ECv2SigningOnly`, as a public gist lists it (pc-coholic/125340e9…): it
    /// verifies the intermediate key's signature below, which only Google's key can.
    static let rootKey =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEs/J7ghdwu4/b6NvqzQebS+Z80FEP8ZlGdAdWDUjfPeBKaV+YOWW0l6U/4IGXnfY9NrsND1fwx"
        + "AqRq0unR/LCIg=="

    /// The intermediate key, as Google signed it.
    static let signedKey =
        #"{"keyValue":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEKb256ssDdmf7DokZ7jsMtAvjiTX2HF1ay8QR1sSA+gFpC/ChhRwVdMEV"#
        + #"JTaoAP1MIH38QWtqShiQ63zROaKtgQ\u003d\u003d","keyExpiration":"1759996807000"}"#
    /// The root key's signature of it.
    static let keySignature =
        "MEUCIDd7rXh7qgJZ7YSlQiXG2zOdZUT5XlMSUPu3RfyV3p2CAiEApxrIwTmRVig93FVJUC6bSWdQXMqata5sHenKsVYreUk="
    /// The message.
    static let signedMessage =
        #"{"classId":"3388000000022141777.lib.edutap.eu","objectId":"3388000000022141777.6b4cbd15-0de7-4fe8-95f6-"#
        + #"995a51b4595e.object","eventType":"del","expTimeMillis":1759331348143,"count":1,"#
        + #""nonce":"1a9e3df0-ec10-4a17-8b39-89d2d7f48e3b"}"#
    /// The intermediate key's signature of the message.
    static let signature =
        "MEUCIQC+xKva1ydmNwJJiP2HJJWsteUe02ztTDKExzcWIpmlywIgJwD4HUYvZJg/cr1OL21vVKr0b2ZXt79NblCQ1V18zsc="

    /// The body Google posted.
    static var body: Data {
        JSONValue.object([
            "signature": .string(signature),
            "intermediateSigningKey": .object([
                "signedKey": .string(signedKey), "signatures": .array([.string(keySignature)]),
            ]),
            "protocolVersion": .string("ECv2SigningOnly"), "signedMessage": .string(signedMessage),
        ]).serialized()
    }
}
