/// Which of a tag's identifiers a `tagId` is.
public enum TagIdAttribute: String, CaseIterable, Sendable {
    /// The tag's reference ID, such as a ticket number (the default).
    case referenceId = "reference_id"
    /// Pronto's own tag ID.
    case prontoTagId = "pronto_tag_id"
    /// The subscription ID the tag belongs to.
    case subscriptionId = "subscription_id"
}
