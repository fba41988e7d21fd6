import Foundation

/// A pass type as the management API shows it to a client it is shared with (`GET /api/v2/pass_types`): what to name
/// in `pass_type_id`, and the NFC public key its passes carry (what the client's NFC readers are set up for).
package struct ManagedPassType: Codable, Hashable, Sendable {
    /// The pass type's identifier: what `pass_type_id` names.
    package var id: UUID
    /// The Pass Type ID, e.g. `pass.com.example.ticket`.
    package var passTypeIdentifier: String
    /// The Apple team.
    package var teamIdentifier: String
    /// The organization name users see.
    package var organizationName: String
    /// The current NFC public key (Base64 SubjectPublicKeyInfo, P-256), `nil` when the pass type has none.
    package var nfcPublicKey: String?
    /// `pass`, or `order` for an order type (named by `order_type_id` when making orders).
    package var kind: PassType.Kind

    /// The management API's view of `passType`.
    package init(_ passType: PassType) {
        id = passType.id
        passTypeIdentifier = passType.passTypeIdentifier
        teamIdentifier = passType.teamIdentifier
        organizationName = passType.organizationName
        nfcPublicKey = passType.nfcPublicKey
        kind = passType.kind
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case passTypeIdentifier = "pass_type_identifier"
        case teamIdentifier = "team_identifier"
        case organizationName = "organization_name"
        case nfcPublicKey = "nfc_public_key"
        case kind
    }

    /// Always writes `nfc_public_key`, `null` when there is none, so every object has the same keys.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(passTypeIdentifier, forKey: .passTypeIdentifier)
        try container.encode(teamIdentifier, forKey: .teamIdentifier)
        try container.encode(organizationName, forKey: .organizationName)
        try container.encode(nfcPublicKey, forKey: .nfcPublicKey)
        try container.encode(kind, forKey: .kind)
    }
}
