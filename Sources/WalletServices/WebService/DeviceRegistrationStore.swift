import Foundation

/// Wallet's device registrations as the store keeps them, for passes (`pass_registrations`) and orders
/// (`order_registrations`) alike: one mechanism, told which by a ``TraceSubject``. `SQLWalletRepository` implements it.
package protocol DeviceRegistrationStore: Sendable {
    /// The pass or order of `typeIdentifier` with `identifier` (a pass's serial number, an order's identifier), as
    /// the web service authenticates it: its identifier, token hash and `Last-Modified`, without its content.
    func webServiceDocument(_ subject: TraceSubject, typeIdentifier: String, identifier: String) async throws
        -> WebServicePass?
    /// Registers a device for a document's updates with a push token for this registration alone (a later
    /// registration of the same device and document replaces it), unless the document has `maximumDevices` other
    /// devices already: then the registration last seen longest ago takes its place if it was last seen before
    /// `unseenSince`, and otherwise nothing is stored. The document's row is held for the transaction, so that
    /// concurrent registrations count one after the other.
    func register(
        _ subject: TraceSubject, deviceLibraryIdentifier: String, pushToken: String, documentID: UUID, now: Date,
        maximumDevices: Int, evictingUnseenSince unseenSince: Date
    ) async throws -> DeviceRegistration
    /// Ends a device's registration for a document and drops its pending pushes; returns how many devices the
    /// document has left, or `nil` when the device was not registered.
    func unregister(_ subject: TraceSubject, deviceLibraryIdentifier: String, documentID: UUID) async throws -> Int?
    /// The documents of `typeIdentifier` the device is registered for, changed after the update tag `since` (all of
    /// them when `nil`): a pass type's in serial-number order, an order type's oldest change first and at most
    /// ``DeviceRegistrations/maximumListedOrders``.
    func updatedDocuments(
        _ subject: TraceSubject, deviceLibraryIdentifier: String, typeIdentifier: String, since: Int64?
    ) async throws -> [UpdatedDocument]
    /// How many devices are registered for the pass or order `id`.
    func registrationCount(of subject: TraceSubject, id: UUID) async throws -> Int
}

/// A document a device lists as changed: its identifier in the web service's path (a serial number, an order
/// identifier), its update tag and its row's identifier.
package struct UpdatedDocument: Hashable, Sendable {
    /// The serial number or order identifier.
    package var identifier: String
    /// The update tag it changed at.
    package var updateTag: Int64
    /// The pass's or order's identifier.
    package var documentID: UUID

    /// Creates the record.
    package init(identifier: String, updateTag: Int64, documentID: UUID) {
        self.identifier = identifier
        self.updateTag = updateTag
        self.documentID = documentID
    }
}
