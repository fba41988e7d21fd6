import Foundation

/// The pass types, as the services read them: by identifier, all of them, and whether a client may issue under one.
package protocol PassTypeStore: Sendable {
    /// The pass type with `id`.
    func passType(id: UUID) async throws -> PassType?
    /// Every pass type.
    func passTypes() async throws -> [PassType]
    /// Whether the client may issue passes under the pass type.
    func isPassTypeGranted(passTypeID: UUID, clientID: UUID) async throws -> Bool
    /// The pass types shared with the client, oldest first.
    func passTypes(sharedWith clientID: UUID) async throws -> [PassType]
}
