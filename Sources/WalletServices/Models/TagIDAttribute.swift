import Foundation

/// The attribute a tag is looked up by in the API (`id_attribute`).
public enum TagIDAttribute: String, Codable, Hashable, Sendable, CaseIterable {
    /// The client's reference.
    case referenceID = "reference_id"
    /// Pronto's own tag identifier.
    case prontoTagID = "pronto_tag_id"
    /// A subscription identifier.
    case subscriptionID = "subscription_id"
}
