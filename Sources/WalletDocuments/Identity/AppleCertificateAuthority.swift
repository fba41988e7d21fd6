import Crypto
import Foundation
import Secrets
import X509

/// Apple's certificate authorities that Wallet certificates chain to, known by the SHA-256 fingerprints of the
/// certificates Apple serves at https://www.apple.com/certificateauthority/, so that Coffer can say which one an
/// operator gave.
public enum AppleCertificateAuthority {
    /// Each authority's name, by the lowercase hex SHA-256 of its DER certificate.
    static let names: [String: String] = [
        "b0b1730ecbc7ff4505142c49f1295e6eda6bcaed7e2c68c5be91b5a11001f024": "Apple Root CA",
        "ce057691d730f89ca25e916f7335f4c8a15713dcd273a658c024023f8eb809c2": "Apple WWDR (G1, expired 2023-02-07)",
        "9ed4b3b88c6a339cf1387895bda9ca6ea31a6b5ce9edf7511845923b0c8ac94c": "Apple WWDR G2",
        "dcf21878c77f4198e4b4614f03d696d89c66c66008d4244e1b99161aac91601f": "Apple WWDR G3",
        "ea4757885538dd8cb59ff4556f676087d83c85e70902c122e42c0808b5bce14c": "Apple WWDR G4",
        "53fd008278e5a595fe1e908ae9c5e5675f26243264a5a6438c023e3ce2870760": "Apple WWDR G5",
        "bdd4ed6e74691f0c2bfd01be0296197af1379e0418e2d300efa9c3bef642ca30": "Apple WWDR G6",
    ]

    /// The authority's name ("Apple WWDR G4"), or its subject marked as not Apple's (a development or test CA).
    public static func name(of certificate: Certificate) -> String {
        guard let der = try? certificate.derBytes() else { return "\(certificate.subject)" }
        let fingerprint = SHA256.hash(data: der).hexString
        return names[fingerprint] ?? "\(certificate.subject), not one of Apple's authorities"
    }
}
