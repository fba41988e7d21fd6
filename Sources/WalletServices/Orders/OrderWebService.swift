import Foundation
import Logging
import Secrets
import WalletPasses

/// Apple's Wallet Orders web service (version 1), independent of HTTP: device registration, the list of changed
/// orders, the latest version of an order. Device logs go through ``PassWebService/log(_:)``.
///
/// Every request about an order carries its `authenticationToken` (`Authorization: AppleOrder <token>`), checked
/// against the stored hash in constant time; an unknown order and a wrong token are refused alike. Failures are
/// ``PassWebService/Failure``'s, and registrations keep the same device cap as a pass's.
package struct OrderWebService: Sendable {
    /// What a fetch of the latest order answers.
    package enum LatestOrder: Sendable {
        /// The order has not changed since the device's `If-Modified-Since`.
        case notModified(lastModified: Date)
        /// The signed order and its `Last-Modified`.
        case order(Data, lastModified: Date)
    }

    /// The most orders one listing names: the oldest changes first, and the device asks from the last one's tag for
    /// the rest.
    package static let maximumListedOrders = 1000

    /// How often one order may be signed for its devices: 60 a minute, 20 at once (a 304 costs nothing). Wallet
    /// fetches an order after a push or when it is added; whoever holds a token cannot make the server sign without
    /// end.
    package static let signingLimit = RateLimit(perMinute: 60, burst: 20)

    let repository: any OrderStore
    let renderer: OrderRenderer
    /// Counts each order's signed fetches (``signingLimit``).
    let signingBudget: RateLimiter<UUID>
    let clock: any CofferClock
    let logger: Logger
    let trace: PassEventRecorder
    /// How many devices may register for one order.
    package let maximumDevicesPerOrder: Int

    /// Creates the service.
    package init(
        repository: any OrderStore, renderer: OrderRenderer, trace: PassEventRecorder,
        maximumDevicesPerOrder: Int = PassWebService.defaultMaximumDevicesPerPass,
        clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.orders"), rateBuckets: (any RateBucketStore)? = nil
    ) {
        self.signingBudget = RateLimiter<UUID>(
            limit: Self.signingLimit, clock: clock, shared: rateBuckets.map { (name: "order-signing", store: $0) })
        self.repository = repository
        self.renderer = renderer
        self.trace = trace
        self.maximumDevicesPerOrder = maximumDevicesPerOrder
        self.clock = clock
        self.logger = logger
    }

    /// Registers a device for an order's updates with a push token for this order alone; whether it is new.
    ///
    /// - Throws: ``PassWebService/Failure/tooManyDevices(limit:)`` at the device cap (a registration unseen for
    ///   ``PassWebService/staleRegistrationAge`` makes room, as for a pass).
    package func register(
        deviceLibraryIdentifier: String, orderTypeIdentifier: String, orderIdentifier: String, pushToken: String,
        authorization: String?
    ) async throws -> Bool {
        try PassWebService.checkDevice(deviceLibraryIdentifier)
        let found = try await authenticate(orderTypeIdentifier, orderIdentifier, authorization)
        guard Hex.isValid(pushToken, maximumLength: 512), !pushToken.isEmpty else {
            throw PassWebService.Failure.invalidRequest("pushToken must be hexadecimal, 1 to 512 characters")
        }
        let now = clock.now
        let outcome = try await repository.registerOrderDevice(
            deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken.lowercased(), orderID: found.passID,
            now: now, maximumDevices: maximumDevicesPerOrder,
            evictingUnseenSince: now.addingTimeInterval(-PassWebService.staleRegistrationAge))
        let metadata: Logger.Metadata = [
            "order": "\(found.passID)", "device": "\(DeviceIdentifierDigest.logValue(deviceLibraryIdentifier))",
        ]
        switch outcome {
        case .created(let registered, let evicted):
            logger.info("registered a device for an order", metadata: metadata)
            if let evicted {
                await trace.record(
                    trace.event(
                        .unregistered, orderID: found.passID, device: evicted,
                        details: ["was_registered": .bool(true), "cause": .string("evicted_unseen")]))
            }
            var details: [String: JSONValue] = ["outcome": .string("created")]
            if registered == 1 { details["first_device"] = .bool(true) }
            await trace.record(
                trace.event(.registered, orderID: found.passID, device: deviceLibraryIdentifier, details: details))
            return true
        case .renewed:
            await trace.record(
                trace.event(
                    .registered, orderID: found.passID, device: deviceLibraryIdentifier,
                    details: ["outcome": .string("renewed")]))
            return false
        case .refused(let registered):
            logger.notice(
                "refused a device registration: the order has as many devices as it may",
                metadata: metadata.merging(["registered_devices": "\(registered)"]) { $1 })
            throw PassWebService.Failure.tooManyDevices(limit: maximumDevicesPerOrder)
        }
    }

    /// Ends a device's registration for an order.
    package func unregister(
        deviceLibraryIdentifier: String, orderTypeIdentifier: String, orderIdentifier: String, authorization: String?
    ) async throws {
        try PassWebService.checkDevice(deviceLibraryIdentifier)
        let found = try await authenticate(orderTypeIdentifier, orderIdentifier, authorization)
        let remaining = try await repository.unregisterOrderDevice(
            deviceLibraryIdentifier: deviceLibraryIdentifier, orderID: found.passID)
        var details: [String: JSONValue] = ["was_registered": .bool(remaining != nil)]
        if remaining == 0 { details["last_device"] = .bool(true) }
        await trace.record(
            trace.event(.unregistered, orderID: found.passID, device: deviceLibraryIdentifier, details: details))
    }

    /// The identifiers of the device's orders of the type changed after `ordersModifiedSince` (a `lastModified` this
    /// service gave: an update tag; absent or unreadable means all), with the `lastModified` to ask from next time;
    /// `nil` when there are none.
    package func updatedOrders(
        deviceLibraryIdentifier: String, orderTypeIdentifier: String, ordersModifiedSince: String?
    ) async throws -> (orderIdentifiers: [String], lastModified: String)? {
        try PassWebService.checkDevice(deviceLibraryIdentifier)
        try PassWebService.checkIdentifier(orderTypeIdentifier, name: "orderTypeIdentifier")
        let since = ordersModifiedSince.flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let orders = try await repository.updatedOrders(
            deviceLibraryIdentifier: deviceLibraryIdentifier, orderTypeIdentifier: orderTypeIdentifier, since: since)
        trace.note(
            orders.map {
                trace.event(
                    .listed, orderID: $0.orderID, device: deviceLibraryIdentifier,
                    details: ["update_tag": .number(Double($0.updateTag))])
            })
        guard let newest = orders.map(\.updateTag).max() else { return nil }
        return (orders.map(\.orderIdentifier), String(max(newest, since ?? 0)))
    }

    /// The latest version of an order, or `notModified` when it has not changed since `ifModifiedSince` (whole
    /// seconds, as HTTP dates are).
    package func latestOrder(
        orderTypeIdentifier: String, orderIdentifier: String, authorization: String?, ifModifiedSince: Date?
    ) async throws -> LatestOrder {
        let found = try await authenticate(orderTypeIdentifier, orderIdentifier, authorization)
        let lastModified = Date(timeIntervalSince1970: found.modifiedAt.timeIntervalSince1970.rounded(.down))
        if let ifModifiedSince, lastModified <= ifModifiedSince {
            trace.note([trace.event(.fetched, orderID: found.passID, details: ["status": .number(304)])])
            return .notModified(lastModified: lastModified)
        }
        if case .limited(let wait) = await signingBudget.acquireAcrossReplicas(for: found.passID) {
            throw PassWebService.Failure.rateLimited(retryAfter: wait)
        }
        // The whole order, read now that it is signed: it may have changed since the lookup, and is newer then.
        guard
            let (order, orderType) = try await repository.order(
                orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier)
        else { throw PassWebService.Failure.unauthorized }
        let archive = try await renderer.signedArchive(of: order, orderType: orderType, signingTime: clock.now)
        trace.note([trace.event(.fetched, orderID: order.id, details: ["status": .number(200)])])
        return .order(
            archive, lastModified: Date(timeIntervalSince1970: order.modifiedAt.timeIntervalSince1970.rounded(.down)))
    }

    /// The order's identifier, token hash and `Last-Modified` (as a pass's), when `authorization` carries its token.
    private func authenticate(_ orderTypeIdentifier: String, _ orderIdentifier: String, _ authorization: String?)
        async throws -> WebServicePass
    {
        try PassWebService.checkIdentifier(orderTypeIdentifier, name: "orderTypeIdentifier")
        try PassWebService.checkIdentifier(orderIdentifier, name: "orderIdentifier")
        guard
            let found = try await repository.webServiceOrder(
                orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier),
            PassAuthenticationTokens.authorizes(
                authorization, storedHash: found.authenticationTokenHash, scheme: "AppleOrder")
        else { throw PassWebService.Failure.unauthorized }
        return found
    }
}
