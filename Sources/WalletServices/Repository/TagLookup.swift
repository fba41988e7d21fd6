import Foundation

/// Finds a client's tag's pass by one of the tag's identifiers: what every service that a client names a pass to
/// starts with.
package protocol TagLookup: Sendable {
    /// What an issuance needs about the pass of the client's tag whose `attribute` is `value` (not the pass's
    /// content), read in one query.
    func issuanceTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> IssuanceTarget?
}
