import Foundation
import Secrets
import WalletDocuments
import WalletPasses

/// The management API's work, for the HTTP routes and `coffer admin pass update` alike: create a tag with its pass
/// (idempotently), read a pass's state, change it (through ``PassUpdater``, which re-signs, bumps its update tag and
/// pushes to its devices), and list a client's passes. Every call is scoped to one client: another client's tag is
/// ``PassManagementFailure/notFound(_:)``, exactly like a tag that does not exist.
package struct PassManagement: Sendable {
    /// The storage.
    package let repository: any PassManagementStore
    /// Applies changes to passes.
    package let updater: PassUpdater
    private let clock: any CofferClock

    /// The most passes one page lists.
    package static let maximumPageSize = 200

    /// Creates the service.
    package init(
        repository: any PassManagementStore, updater: PassUpdater,
        clock: any CofferClock = SystemClock()
    ) {
        self.repository = repository
        self.updater = updater
        self.clock = clock
    }

    /// Makes a tag with its pass from the pass type's template (its stored one, else ``PassTemplate/demoTicket(eventName:)``)
    /// with the request's field values and dates, and answers the pass's state (201).
    ///
    /// With an idempotency key, a retry of the same request within a day answers the first answer again and makes
    /// nothing; the same key with another request is ``PassManagementFailure/idempotencyKeyReused``.
    package func create(_ request: PassCreationRequest, clientID: UUID, idempotencyKey: IdempotencyKey?) async throws
        -> StoredResponse
    {
        let passType = try await passType(request.passTypeID, clientID: clientID)
        let template: PassTemplate
        if let archive = try await repository.passTemplate(passTypeID: passType.id) {
            do {
                template = PassTemplate(package: try PassPackage(archive: archive))
            } catch {
                throw WalletServerError.corruptRecord("the template of pass type \(passType.passTypeIdentifier)")
            }
        } else {
            template = try PassTemplate.demoTicket()
        }
        let tagID = UUID()
        // The tag's own identifier: unique across clients, unlike their references.
        let serialNumber = try template.serialNumber(preferring: tagID.uuidString)
        var package: PassPackage
        do {
            package = try template.package(for: passType, serialNumber: serialNumber)
        } catch WalletServerError.invalidArgument(let reason) {
            throw PassManagementFailure.invalidRequest(reason)
        } catch WalletDocumentError.invalidPass(let findings) {
            throw PassManagementFailure.invalidPass(findings)
        }
        let change = PassChange(
            fields: request.fields, texts: request.texts, relevantDate: request.relevantDate,
            expirationDate: request.expirationDate)
        do {
            package = try Self.refusingInvalid { try change.applied(to: package) }
            try package.validate()
        } catch WalletDocumentError.invalidPass(let findings) {
            throw PassManagementFailure.invalidPass(findings)
        } catch let error as WalletDocumentError {
            throw PassManagementFailure.invalidRequest("the pass would not be valid: \(error)")
        }
        let created = clock.now
        let record = StoredPass(
            tagID: tagID, passTypeID: passType.id, serialNumber: serialNumber, passContent: try package.archived(),
            updatedAt: created)
        let creation = ManagedPassCreation(
            clientID: clientID, tagID: tagID, referenceID: request.referenceID, prontoTagID: request.prontoTagID,
            subscriptionID: request.subscriptionID, userReference: request.userReference, pass: record)
        let stored = try await repository.createManagedPass(
            creation, claim: idempotencyKey.map { IdempotencyClaim(key: $0, requestHash: request.fingerprint) },
            now: created, encode: { try $0.encoded() })
        if !stored.replayed {
            await updater.trace.record(
                updater.trace.event(.issued, passID: record.id, details: ["via": .string("management")]))
        }
        return stored
    }

    /// The state of the pass of the client's tag whose `attribute` is `value`.
    package func state(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ManagedPassState {
        guard let state = try await repository.managedPassState(clientID: clientID, attribute: attribute, value: value)
        else { throw PassManagementFailure.notFound("a tag '\(value)' (\(attribute.rawValue)) with a pass") }
        return state
    }

    /// Changes the pass of the client's tag whose `attribute` is `value` (only fields its `pass.json` has), re-signs
    /// it, bumps its update tag and pushes to its devices; answers the new state.
    package func update(clientID: UUID, attribute: TagIDAttribute, value: String, change: PassChange) async throws
        -> ManagedPassState
    {
        guard !change.isEmpty else { throw PassManagementFailure.invalidRequest("the change changes nothing") }
        let target = try await repository.managedPass(clientID: clientID, attribute: attribute, value: value)
        try await Self.refusingInvalid { try await updater.update(passID: target.passID, change) }
        return try await state(clientID: clientID, attribute: attribute, value: value)
    }

    /// Voids the pass (``update(clientID:attribute:value:change:)`` with `voided`).
    package func void(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ManagedPassState {
        try await update(clientID: clientID, attribute: attribute, value: value, change: .init(voided: true))
    }

    /// Expires the pass now (``update(clientID:attribute:value:change:)`` with an expiration date of now).
    package func expire(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ManagedPassState {
        try await update(
            clientID: clientID, attribute: attribute, value: value, change: .init(expirationDate: clock.now))
    }

    /// A page of up to `limit` (1–``maximumPageSize``) of the client's passes after `cursor`.
    package func list(clientID: UUID, limit: Int, cursor: String?) async throws -> ManagedPassPage {
        guard (1...Self.maximumPageSize).contains(limit) else {
            throw PassManagementFailure.invalidRequest("'limit' must be 1–\(Self.maximumPageSize)")
        }
        var after: PassPageCursor?
        if let cursor {
            guard let parsed = PassPageCursor(cursor) else {
                throw PassManagementFailure.invalidRequest("'cursor' is not a cursor a page handed out")
            }
            after = parsed
        }
        // One more than asked tells whether there is a next page.
        let rows = try await repository.managedPasses(clientID: clientID, after: after, limit: limit + 1)
        let page = rows.prefix(limit)
        return ManagedPassPage(
            passes: page.map(\.state), nextCursor: rows.count > limit ? page.last?.cursor.text : nil)
    }

    /// The pass types shared with the client: what it may issue under, with each one's current NFC public key.
    package func passTypes(clientID: UUID) async throws -> [ManagedPassType] {
        try await repository.passTypes(sharedWith: clientID).map(ManagedPassType.init)
    }

    /// The pass type `id` names, or the only one shared with the client; refused when the client may not issue
    /// under it.
    private func passType(_ id: UUID?, clientID: UUID) async throws -> PassType {
        try await repository.sharedType(id, kind: .pass, clientID: clientID, parameter: "pass_type_id")
    }

    /// Runs `body`, answering a change the pass cannot take as ``PassManagementFailure/invalidRequest(_:)``, and
    /// one that would make it invalid as ``PassManagementFailure/invalidPass(_:)``.
    @discardableResult
    private static func refusingInvalid<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch WalletServerError.invalidArgument(let reason) {
            throw PassManagementFailure.invalidRequest(reason)
        } catch WalletDocumentError.invalidPass(let findings) {
            throw PassManagementFailure.invalidPass(findings)
        }
    }

    /// Runs `body`, answering a change the pass cannot take as ``PassManagementFailure/invalidRequest(_:)``, and
    /// one that would make it invalid as ``PassManagementFailure/invalidPass(_:)``.
    package static func refusingInvalid<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch WalletServerError.invalidArgument(let reason) {
            throw PassManagementFailure.invalidRequest(reason)
        } catch WalletDocumentError.invalidPass(let findings) {
            throw PassManagementFailure.invalidPass(findings)
        }
    }
}
