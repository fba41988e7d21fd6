import Foundation

extension TagLookup {
    /// The pass of the client's tag whose `attribute` is `value`, as the management API names it.
    ///
    /// - Throws: ``PassManagementFailure/notFound(_:)`` when the client has no such tag, or the tag no pass (another
    ///   client's tag is answered the same way).
    package func managedPass(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> IssuanceTarget {
        guard let target = try await issuanceTarget(clientID: clientID, attribute: attribute, value: value) else {
            throw PassManagementFailure.notFound("a tag '\(value)' (\(attribute.rawValue)) with a pass")
        }
        return target
    }
}
