import Foundation
import WalletDocuments

/// The contents of an order's `order.json`, as Apple's
/// [WalletOrders](https://developer.apple.com/documentation/walletorders/order) format defines it: a merchant's
/// order, its status, payment, fulfilments and returns, tracked in Wallet and updated by push.
///
/// Like a pass's model (`Pass` in WalletPasses), every key Apple documents has a typed property and every key is kept as read (``json``), so
/// decoding and encoding an order loses nothing. Call ``lint(files:)`` for what Wallet would reject; ``OrderPackage``
/// refuses errors before signing.
public struct Order: WebServiceDocument {
    /// Whether the order is open or closed.
    public enum Status: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
        /// The order is in progress.
        case open
        /// The order was fulfilled (closed).
        case completed
        /// The order was cancelled (closed).
        case cancelled
    }

    /// The kind of order; Apple documents one.
    public enum OrderType: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
        /// An online purchase.
        case ecommerce
    }

    /// When Wallet notifies the customer of a change.
    public enum ChangeNotifications: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
        /// Always (the default).
        case enabled
        /// Not when the merchant's app is installed (it notifies by itself).
        case disabledIfAppInstalled
    }

    /// Every key of `order.json`, as read or set.
    public var json: [String: JSONValue]

    /// Wraps an `order.json` object as it is.
    public init(json: [String: JSONValue]) {
        self.json = json
    }

    /// Creates an open order with the required keys; ``updatedAt`` starts equal to `createdAt`, as Apple asks.
    public init(
        orderTypeIdentifier: String, orderIdentifier: String, merchant: Merchant, orderManagementURL: String,
        createdAt: Date = Date(), status: Status = .open
    ) {
        self.init(json: [:])
        self.schemaVersion = 1
        self.orderType = .ecommerce
        self.orderTypeIdentifier = orderTypeIdentifier
        self.orderIdentifier = orderIdentifier
        self.merchant = merchant
        self.orderManagementURL = orderManagementURL
        self.createdAt = createdAt
        self.updatedAt = createdAt
        self.status = status
    }

    /// Parses `order.json` bytes.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for text that is not JSON or not a dictionary.
    public init(json data: Data) throws {
        guard case .object(let object) = try JSONValue(parsing: data) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "order.json must be a dictionary"))
        }
        self.init(json: object)
    }

    /// `order.json` as UTF-8 JSON, keys sorted.
    public func encoded() throws -> Data {
        JSONValue.object(json).serialized(pretty: true)
    }

    // MARK: Identity

    /// The schema version; always 1.
    public var schemaVersion: Int {
        get { self["schemaVersion", default: 0] }
        set { self["schemaVersion", default: 0] = newValue }
    }
    /// The order type identifier, e.g. `order.com.example.shop`: it must be the signing certificate's.
    public var orderTypeIdentifier: String {
        get { self["orderTypeIdentifier", default: ""] }
        set { self["orderTypeIdentifier", default: ""] = newValue }
    }
    /// The order's identifier, unique within the order type; never shown.
    public var orderIdentifier: String {
        get { self["orderIdentifier", default: ""] }
        set { self["orderIdentifier", default: ""] = newValue }
    }
    /// The kind of order (``OrderType/ecommerce``); `nil` when absent or unknown.
    public var orderType: OrderType? {
        get { self["orderType"] }
        set { self["orderType"] = newValue }
    }
    /// The order number the customer sees.
    public var orderNumber: String? {
        get { self["orderNumber"] }
        set { self["orderNumber"] = newValue }
    }
    /// The merchant.
    public var merchant: Merchant {
        get { self["merchant"] ?? Merchant(json: [:]) }
        set { self["merchant"] = newValue }
    }
    /// Where the customer manages the order.
    public var orderManagementURL: String {
        get { self["orderManagementURL", default: ""] }
        set { self["orderManagementURL", default: ""] = newValue }
    }

    // MARK: Status

    /// Whether the order is open, completed or cancelled; `nil` when absent or unknown.
    public var status: Status? {
        get { self["status"] }
        set { self["status"] = newValue }
    }
    /// A message about the status (or a key of `order.strings`).
    public var statusDescription: String? {
        get { self["statusDescription"] }
        set { self["statusDescription"] = newValue }
    }
    /// When the customer placed the order.
    public var createdAt: Date? {
        get { self["createdAt"] }
        set { self["createdAt"] = newValue }
    }
    /// When the order last changed: equal to ``createdAt`` until it changes, then strictly increasing (Wallet keeps
    /// the order with the later date).
    public var updatedAt: Date? {
        get { self["updatedAt"] }
        set { self["updatedAt"] = newValue }
    }
    /// When Wallet notifies the customer of changes.
    public var changeNotifications: ChangeNotifications? {
        get { self["changeNotifications"] }
        set { self["changeNotifications"] = newValue }
    }

    // MARK: Contents

    /// The customer.
    public var customer: Customer? {
        get { self["customer"] }
        set { self["customer"] = newValue }
    }
    /// What was ordered, in display order.
    public var lineItems: [LineItem]? {
        get { self["lineItems"] }
        set { self["lineItems"] = newValue }
    }
    /// The shipments and pickups, in display order.
    public var fulfillments: [Fulfillment]? {
        get { self["fulfillments"] }
        set { self["fulfillments"] = newValue }
    }
    /// The payment.
    public var payment: Payment? {
        get { self["payment"] }
        set { self["payment"] = newValue }
    }
    /// A barcode for the whole order.
    public var barcode: Barcode? {
        get { self["barcode"] }
        set { self["barcode"] = newValue }
    }
    /// The return policy (iOS 17.2).
    public var returnInfo: ReturnInfo? {
        get { self["returnInfo"] }
        set { self["returnInfo"] = newValue }
    }
    /// The returns (iOS 17.2).
    public var returns: [Return]? {
        get { self["returns"] }
        set { self["returns"] = newValue }
    }
    /// The platform that processed the order for the merchant (iOS 17.4).
    public var orderProvider: Provider? {
        get { self["orderProvider"] }
        set { self["orderProvider"] = newValue }
    }

    // MARK: Apps and web service

    /// The merchant's apps, in order of preference.
    public var associatedApplications: [Application]? {
        get { self["associatedApplications"] }
        set { self["associatedApplications"] = newValue }
    }
    /// The identifiers of the merchant's apps.
    public var associatedApplicationIdentifiers: [String]? {
        get { self["associatedApplicationIdentifiers"] }
        set { self["associatedApplicationIdentifiers"] = newValue }
    }

    /// The keys of `order.json`.
    public static let schema = DocumentSchema(
        "order",
        [
            .init("schemaVersion", .integer, required: true),
            .init("orderTypeIdentifier", .string, required: true),
            .init("orderIdentifier", .string, required: true),
            .init("orderType", .enumeration(OrderType.allCases.map(\.rawValue)), required: true),
            .init("orderNumber", .string),
            .init("merchant", .dictionary(Merchant.self), required: true),
            .init("orderManagementURL", .url(secure: false), required: true),
            .init("status", .enumeration(Status.allCases.map(\.rawValue)), required: true),
            .init("statusDescription", .string),
            .init("createdAt", .dateTime, required: true),
            .init("updatedAt", .dateTime, required: true),
            .init("changeNotifications", .enumeration(ChangeNotifications.allCases.map(\.rawValue))),
            .init("customer", .dictionary(Customer.self)),
            .init("lineItems", .array(.dictionary(LineItem.self))),
            .init("fulfillments", .array(Fulfillment.kind)),
            .init("payment", .dictionary(Payment.self)),
            .init("barcode", .dictionary(Barcode.self)),
            .init("returnInfo", .dictionary(ReturnInfo.self)),
            .init("returns", .array(.dictionary(Return.self))),
            .init("orderProvider", .dictionary(Provider.self)),
            .init("associatedApplications", .array(.dictionary(Application.self))),
            .init("associatedApplicationIdentifiers", .array(.string)),
            .init("webServiceURL", .url(secure: true)),
            .init("authenticationToken", .string),
        ])
}
