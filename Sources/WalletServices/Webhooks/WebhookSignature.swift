import Crypto
import Foundation
import Secrets

/// The `Coffer-Signature` header of a webhook delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, keyed
/// by the endpoint's secret (its UTF-8 text), the scheme payment APIs use. A receiver recomputes it over the raw body,
/// compares in constant time, and refuses a timestamp far from its clock (a replay).
public enum WebhookSignature {
    /// The header's name.
    public static let header = "Coffer-Signature"
    /// How far a delivery's timestamp may be from the receiver's clock by default: 5 minutes.
    public static let defaultTolerance: TimeInterval = 300

    /// The header value for `body` sent at `timestamp` with `secret`.
    public static func header(for body: Data, secret: String, timestamp: Date) -> String {
        let seconds = Int64(timestamp.timeIntervalSince1970.rounded(.down))
        return "t=\(seconds),v1=\(mac(body: body, secret: secret, seconds: seconds).hexString)"
    }

    /// Whether `header` signs `body` with `secret` at a time within `tolerance` of `now`; every `v1` in the header
    /// is tried (an endpoint whose secret is rolled may carry two), each compared in constant time.
    public static func verify(
        header: String, body: Data, secret: String, now: Date = Date(), tolerance: TimeInterval = defaultTolerance
    ) -> Bool {
        var seconds: Int64?
        var signatures: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { seconds = Int64(pair[1]) }
            if pair[0] == "v1", let bytes = Hex.bytes(pair[1]) { signatures.append(Data(bytes)) }
        }
        guard let seconds, abs(now.timeIntervalSince1970 - TimeInterval(seconds)) <= tolerance else { return false }
        let expected = Data(mac(body: body, secret: secret, seconds: seconds))
        // Every candidate is compared, so the time taken says nothing about which one matched.
        return signatures.reduce(false) { matched, signature in
            SecretToken.constantTimeEquals(signature, expected) || matched
        }
    }

    private static func mac(body: Data, secret: String, seconds: Int64) -> HashedAuthenticationCode<SHA256> {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(seconds).".utf8))
        hmac.update(data: body)
        return hmac.finalize()
    }
}
