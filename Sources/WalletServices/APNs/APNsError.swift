import Foundation

/// The errors of APNs settings: a signing key, key ID or team ID that cannot be used.
///
/// Messages name the setting and say what to give instead; they never carry the key itself.
public enum APNsError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The `.p8` signing key cannot be read or is not a P-256 private key (`reason` says which).
    case unreadableSigningKey(String)
    /// The key ID is not the 10 letters and digits App Store Connect shows for the key.
    case invalidKeyID
    /// The team ID is not the 10 letters and digits of an Apple developer team.
    case invalidTeamID
    /// Token authentication was asked for with some of its settings missing (their names).
    case incompleteTokenSettings(missing: [String])
    /// The gateway URL is not an https URL with a host.
    case invalidGateway(String)

    /// A message for operators; never contains the key.
    public var description: String {
        switch self {
        case .unreadableSigningKey(let reason):
            return
                "the APNs signing key cannot be used: \(reason); give the .p8 file App Store Connect made for the key"
        case .invalidKeyID:
            return "the APNs key ID must be the 10 letters and digits App Store Connect shows for the key"
        case .invalidTeamID:
            return "the APNs team ID must be the 10 letters and digits of the Apple developer team"
        case .incompleteTokenSettings(let missing):
            return "APNs token authentication needs a key file, its key ID and the team ID: give "
                + missing.joined(separator: ", ") + " too (or none of them, to push with each pass type's certificate)"
        case .invalidGateway(let url):
            return "the APNs gateway \(url) is not an https URL with a host"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
