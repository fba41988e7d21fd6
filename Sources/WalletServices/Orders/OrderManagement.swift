import Foundation
import Secrets
import WalletDocuments
import WalletOrders

/// The management API's orders: create one (idempotently) from the client's `order.json` and files, read it, change
/// it (status, fulfilments, returns, payment, as first-class changes), and download it signed. A change re-stamps
/// `updatedAt`, bumps the update tag and pushes to every registered device; every call is scoped to one client:
/// another client's order is ``PassManagementFailure/notFound(_:)``, exactly like one that does not exist.
package struct OrderManagement: Sendable {
    /// The storage.
    package let repository: any OrderStore
    /// Signs orders, and makes their tokens and Apple Pay details.
    package let renderer: OrderRenderer
    /// Where orders' events go.
    package let trace: PassEventRecorder
    /// Called after a change committed with pushes queued (the dispatcher's wake-up).
    let pushesQueued: @Sendable () -> Void
    private let clock: any CofferClock

    /// The largest request body: an order with its images.
    package static let maximumBodySize = 1024 * 1024
    /// How many bytes one client's orders may hold together (their packages, images included): 1 GiB.
    package static let storagePerClient = 1 << 30

    /// Creates the service.
    package init(
        repository: any OrderStore, renderer: OrderRenderer, trace: PassEventRecorder,
        pushesQueued: @escaping @Sendable () -> Void = {}, clock: any CofferClock = SystemClock()
    ) {
        self.repository = repository
        self.renderer = renderer
        self.trace = trace
        self.pushesQueued = pushesQueued
        self.clock = clock
    }

    /// Stores a new order and answers its state (201); with an idempotency key, a retry of the same request within
    /// a day answers the first answer again and stores nothing.
    ///
    /// - Throws: ``PassManagementFailure/invalidOrder(_:)`` with `OrderLint`'s errors,
    ///   ``PassManagementFailure/conflict(_:)`` when the order type has an order with the identifier.
    package func create(_ request: OrderCreationRequest, clientID: UUID, idempotencyKey: IdempotencyKey?)
        async throws -> StoredResponse
    {
        let orderType = try await orderType(request.orderTypeID, clientID: clientID)
        // Whole milliseconds, as the record keeps them.
        let now = Date(timeIntervalSince1970: (clock.now.timeIntervalSince1970 * 1000).rounded() / 1000)
        var order = try Self.storedForm(Order(json: request.order))
        order.orderTypeIdentifier = orderType.passTypeIdentifier
        if order.json["schemaVersion"] == nil { order.schemaVersion = 1 }
        if order.json["orderType"] == nil { order.orderType = .ecommerce }
        if order.json["status"] == nil { order.status = .open }
        if order.json["createdAt"] == nil { order.createdAt = now }
        // updatedAt starts at now, and may not be before createdAt.
        if let created = order.createdAt, created > now {
            throw PassManagementFailure.invalidRequest("'order.createdAt' is in the future")
        }
        order.updatedAt = now
        let id = UUID()
        let record = StoredOrder(
            id: id, clientID: clientID, orderTypeID: orderType.id, orderIdentifier: order.orderIdentifier,
            content: try validated(order, files: request.files),
            authentication: renderer.tokens.newToken(orderID: id).assignment, createdAt: now, modifiedAt: now)
        let renderer = renderer
        let stored = try await repository.createOrder(
            record, claim: idempotencyKey.map { IdempotencyClaim(key: $0, requestHash: request.fingerprint) },
            now: now, storageLimit: Self.storagePerClient,
            encode: {
                try ManagedOrderState($0, orderType: orderType, registeredDevices: 0, renderer: renderer).encoded()
            })
        if !stored.replayed {
            await trace.record(trace.event(.issued, orderID: id, details: ["via": .string("management")]))
        }
        return stored
    }

    /// The state of the client's order.
    package func state(clientID: UUID, orderTypeIdentifier: String, orderIdentifier: String) async throws
        -> ManagedOrderState
    {
        let (order, orderType) = try await owned(clientID, orderTypeIdentifier, orderIdentifier)
        return try ManagedOrderState(
            order, orderType: orderType,
            registeredDevices: try await repository.registrationCount(of: .order, id: order.id),
            renderer: renderer)
    }

    /// Applies `change` to the client's order, re-stamps it and pushes to its devices; answers the new state.
    ///
    /// - Throws: ``PassManagementFailure/invalidOrder(_:)`` when the result would not lint clean (nothing changes).
    package func update(clientID: UUID, orderTypeIdentifier: String, orderIdentifier: String, change: OrderChange)
        async throws -> ManagedOrderState
    {
        let (order, orderType) = try await issuable(clientID, orderTypeIdentifier, orderIdentifier)
        let details = Locked<[String: JSONValue]>([:])
        let (changed, queued) = try await repository.changeOrder(
            id: order.id, now: clock.now, storageLimit: Self.storagePerClient
        ) { content in
            var package = try OrderPackage(archive: content)
            let (applied, changes) = try change.applied(to: try package.order)
            let json = try Self.storedForm(applied)
            details.withLock { $0 = changes }
            do {
                for (path, data) in change.files { try package.add(data, at: path) }
            } catch let error as WalletDocumentError {
                throw PassManagementFailure.invalidRequest("\(error)")
            }
            try package.setOrder(json)
            return try Self.validated(package)
        }
        var traced = details.withLock { $0 }
        traced["update_tag"] = .number(Double(changed.updateTag))
        var events = [trace.event(.changed, orderID: order.id, details: traced)]
        if queued > 0 {
            events.append(trace.event(.pushQueued, orderID: order.id, details: ["devices": .number(Double(queued))]))
        }
        await trace.record(events)
        if queued > 0 { pushesQueued() }
        return try ManagedOrderState(
            changed, orderType: orderType,
            registeredDevices: try await repository.registrationCount(of: .order, id: order.id), renderer: renderer)
    }

    /// The client's order, signed: the `.order` Wallet would fetch.
    package func signedOrder(clientID: UUID, orderTypeIdentifier: String, orderIdentifier: String) async throws
        -> Data
    {
        let (order, orderType) = try await issuable(clientID, orderTypeIdentifier, orderIdentifier)
        return try await renderer.signedArchive(of: order, orderType: orderType, signingTime: clock.now)
    }

    /// The order types shared with the client.
    package func orderTypes(clientID: UUID) async throws -> [PassType] {
        try await repository.passTypes(sharedWith: clientID).filter { $0.kind == .order }
    }

    /// The client's order, with its type; ``PassManagementFailure/notFound(_:)`` for another client's.
    func owned(_ clientID: UUID, _ orderTypeIdentifier: String, _ orderIdentifier: String) async throws
        -> (StoredOrder, PassType)
    {
        guard
            let found = try await repository.order(
                orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier),
            found.order.clientID == clientID
        else { throw PassManagementFailure.notFound("an order '\(orderIdentifier)' of \(orderTypeIdentifier)") }
        return found
    }

    /// The client's order, with its type, while the type is still shared with the client: a client the type was
    /// taken from reads its orders but never issues under the type's key again.
    ///
    /// - Throws: ``PassManagementFailure/forbidden(_:)`` when the order type is no longer shared with the client.
    func issuable(_ clientID: UUID, _ orderTypeIdentifier: String, _ orderIdentifier: String) async throws
        -> (StoredOrder, PassType)
    {
        let (order, orderType) = try await owned(clientID, orderTypeIdentifier, orderIdentifier)
        guard try await repository.isPassTypeGranted(passTypeID: orderType.id, clientID: clientID) else {
            throw PassManagementFailure.forbidden(ProvisioningService.notGranted(orderType.passTypeIdentifier))
        }
        return (order, orderType)
    }

    /// The archived package of `order` with `files`, once it lints clean.
    private func validated(_ order: Order, files: [String: Data]) throws -> Data {
        let package: OrderPackage
        do {
            package = try OrderPackage(order: order, files: files)
        } catch let error as WalletDocumentError {
            throw PassManagementFailure.invalidRequest("\(error)")
        }
        return try Self.validated(package)
    }

    /// `package` archived, once it lints clean.
    static func validated(_ package: OrderPackage) throws -> Data {
        let errors = package.lint().errors
        guard errors.isEmpty else { throw PassManagementFailure.invalidOrder(errors) }
        return try package.archived()
    }

    /// `order` as the server keeps it, made or changed: without the web service's keys, which only signing writes
    /// (``OrderRenderer``), and with at most ``OrderChange/maximumEntries`` line items, fulfilments and returns.
    static func storedForm(_ order: Order) throws(PassManagementFailure) -> Order {
        var stored = order
        for key in ["webServiceURL", "authenticationToken"] { stored.json[key] = nil }
        for key in ["lineItems", "fulfillments", "returns"] {
            if case .array(let entries)? = stored.json[key], entries.count > OrderChange.maximumEntries {
                throw .invalidRequest(
                    "'order.\(key)' has \(entries.count) entries; an order may have at most \(OrderChange.maximumEntries)"
                )
            }
        }
        return stored
    }

    /// The order type `id` names, or the only one shared with the client.
    private func orderType(_ id: UUID?, clientID: UUID) async throws -> PassType {
        try await repository.sharedType(id, kind: .order, clientID: clientID, parameter: "order_type_id")
    }
}
