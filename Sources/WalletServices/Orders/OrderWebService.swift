import Foundation
import Logging
import Secrets
import WalletDocuments

/// Apple's Wallet Orders web service (version 1), independent of HTTP: device registration and the list of changed
/// orders (``DeviceRegistrations``, as for passes), and the latest version of an order. Device logs go through
/// ``PassWebService/log(_:)``.
///
/// Every request about an order carries its `authenticationToken` (`Authorization: AppleOrder <token>`), checked
/// against the stored hash in constant time; an unknown order and a wrong token are refused alike.
package struct OrderWebService: Sendable {
    /// What a fetch of the latest order answers.
    package enum LatestOrder: Sendable {
        /// The order has not changed since the device's `If-Modified-Since`.
        case notModified(lastModified: Date)
        /// The signed order and its `Last-Modified`.
        case order(Data, lastModified: Date)
    }

    /// How often one order may be signed for its devices: 60 a minute, 20 at once (a 304 costs nothing). Wallet
    /// fetches an order after a push or when it is added; whoever holds a token cannot make the server sign without
    /// end.
    package static let signingLimit = RateLimit(perMinute: 60, burst: 20)

    let repository: any OrderStore
    let renderer: OrderRenderer
    /// Counts each order's signed fetches (``signingLimit``).
    let signingBudget: RateLimiter<UUID>
    let clock: any CofferClock
    let trace: PassEventRecorder
    /// The orders' device registrations, in the form of the passes'.
    package let registrations: DeviceRegistrations

    /// Creates the service.
    package init(
        repository: any OrderStore, renderer: OrderRenderer, trace: PassEventRecorder,
        maximumDevices: Int = DeviceRegistrations.defaultMaximumDevices,
        clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.orders"), rateBuckets: (any RateBucketStore)? = nil
    ) {
        self.signingBudget = RateLimiter<UUID>(
            limit: Self.signingLimit, clock: clock, shared: rateBuckets.map { (name: "order-signing", store: $0) })
        self.repository = repository
        self.renderer = renderer
        self.trace = trace
        self.registrations = DeviceRegistrations(
            .order, store: repository, trace: trace, maximumDevices: maximumDevices, clock: clock, logger: logger)
        self.clock = clock
    }

    /// The latest version of an order, or `notModified` when it has not changed since `ifModifiedSince` (whole
    /// seconds, as HTTP dates are).
    package func latestOrder(
        orderTypeIdentifier: String, orderIdentifier: String, authorization: String?, ifModifiedSince: Date?
    ) async throws -> LatestOrder {
        let found = try await registrations.authenticate(orderTypeIdentifier, orderIdentifier, authorization)
        let lastModified = Date(timeIntervalSince1970: found.modifiedAt.timeIntervalSince1970.rounded(.down))
        if let ifModifiedSince, lastModified <= ifModifiedSince {
            trace.note([trace.event(.fetched, orderID: found.passID, details: ["status": .number(304)])])
            return .notModified(lastModified: lastModified)
        }
        if case .limited(let wait) = await signingBudget.acquireAcrossReplicas(for: found.passID) {
            throw WebServiceFailure.rateLimited(retryAfter: wait)
        }
        // The whole order, read now that it is signed: it may have changed since the lookup, and is newer then.
        guard
            let (order, orderType) = try await repository.order(
                orderTypeIdentifier: orderTypeIdentifier, orderIdentifier: orderIdentifier)
        else { throw WebServiceFailure.unauthorized }
        let archive = try await renderer.signedArchive(of: order, orderType: orderType, signingTime: clock.now)
        trace.note([trace.event(.fetched, orderID: order.id, details: ["status": .number(200)])])
        return .order(
            archive, lastModified: Date(timeIntervalSince1970: order.modifiedAt.timeIntervalSince1970.rounded(.down)))
    }
}
