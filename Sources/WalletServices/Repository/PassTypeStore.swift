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

extension PassTypeStore {
    /// The type of `kind` that `id` names, or the only one of that kind shared with the client.
    ///
    /// - Throws: ``PassManagementFailure/notFound(_:)`` for no such type (or none shared),
    ///   ``PassManagementFailure/forbidden(_:)`` for one not shared with the client,
    ///   ``PassManagementFailure/invalidRequest(_:)`` when several are shared and none is named (`parameter`).
    func sharedType(_ id: UUID?, kind: PassType.Kind, clientID: UUID, parameter: String) async throws -> PassType {
        let noun = kind == .pass ? "pass type" : "order type"
        if let id {
            guard let type = try await passType(id: id), type.kind == kind else {
                throw PassManagementFailure.notFound("a \(noun) \(id)")
            }
            guard try await isPassTypeGranted(passTypeID: id, clientID: clientID) else {
                throw PassManagementFailure.forbidden(ProvisioningService.notGranted(type.passTypeIdentifier))
            }
            return type
        }
        let granted = try await passTypes(sharedWith: clientID).filter { $0.kind == kind }
        guard granted.count <= 1 else {
            throw PassManagementFailure.invalidRequest(
                "this client may use \(granted.count) \(noun)s: name one with '\(parameter)'")
        }
        guard let only = granted.first else { throw PassManagementFailure.notFound("a \(noun)") }
        return only
    }
}
