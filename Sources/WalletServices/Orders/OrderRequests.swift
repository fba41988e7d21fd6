import Crypto
import Foundation
import WalletDocuments
import WalletOrders

/// `POST /api/v2/orders`: a new order, its `order.json` as the client writes it and the files it names.
package struct OrderCreationRequest: Hashable, Sendable, Decodable {
    /// The order type (the only order type shared with the client when `nil`).
    package var orderTypeID: UUID?
    /// `order.json`; the server sets `orderTypeIdentifier`, `webServiceURL`, `authenticationToken` and `updatedAt`.
    package var order: [String: JSONValue]
    /// The images, receipts and localizations `order.json` names, by path.
    package var files: [String: Data]

    /// The most files a request may carry.
    package static let maximumFiles = 32

    /// Creates a request.
    package init(orderTypeID: UUID? = nil, order: [String: JSONValue], files: [String: Data] = [:]) {
        self.orderTypeID = orderTypeID
        self.order = order
        self.files = files
    }

    /// Reads a request body: `order` (an object), optional `order_type_id` and `files` (paths to Base64).
    ///
    /// - Throws: ``PassManagementFailure/invalidRequest(_:)`` naming the key at fault.
    package init(from decoder: any Decoder) throws {
        let body = try ManagementBody(decoder, keys: ["order_type_id", "order", "files"])
        if let text = try body.string("order_type_id") {
            guard let id = UUID(uuidString: text) else {
                throw PassManagementFailure.invalidRequest("'order_type_id' is not a UUID")
            }
            orderTypeID = id
        }
        guard case .object(let order)? = try body.value("order") else {
            throw PassManagementFailure.invalidRequest("'order' must be the order.json object")
        }
        self.order = order
        files = try Self.files(try body.value("files"))
    }

    /// The files of a `files` object: each key a path, each value Base64.
    static func files(_ value: JSONValue?) throws(PassManagementFailure) -> [String: Data] {
        guard let value else { return [:] }
        guard case .object(let object) = value else {
            throw .invalidRequest("'files' must be an object of paths to Base64 contents")
        }
        guard object.count <= maximumFiles else { throw .invalidRequest("'files' may hold at most \(maximumFiles)") }
        var files: [String: Data] = [:]
        for (path, content) in object {
            guard case .string(let text) = content, let data = Data(base64Encoded: text) else {
                throw .invalidRequest("'files.\(path)' must be Base64")
            }
            // The package checks each path when the files go into it; what is signed is images, receipts, labels and
            // localizations, never a file of any other kind.
            guard isOrderFile(path) else {
                throw .invalidRequest(
                    "'files.\(path)' is not a file an order holds: a .png, .jpg, .jpeg or .pdf, or xx.lproj/order.strings"
                )
            }
            files[path] = data
        }
        return files
    }

    /// Whether `path` names a file an order holds: an image, a PDF (a return label, a receipt) or a language's
    /// `order.strings`.
    static func isOrderFile(_ path: String) -> Bool {
        let name = path.lowercased()
        return [".png", ".jpg", ".jpeg", ".pdf"].contains { name.hasSuffix($0) }
            || (path.hasSuffix(".lproj/order.strings") && path.split(separator: "/").count == 2)
    }

    /// The SHA-256 of the request's meaning: `order.json` with its keys sorted, and each file's path and digest.
    package var fingerprint: Data {
        var hash = SHA256()
        hash.update(data: Data((orderTypeID?.uuidString ?? "-").utf8))
        hash.update(data: JSONValue.object(order).serialized())
        for path in files.keys.sorted() {
            hash.update(data: Data("\u{0}\(path)\u{0}".utf8))
            hash.update(data: Data(SHA256.hash(data: files[path]!)))
        }
        return Data(hash.finalize())
    }
}

/// `PATCH /api/v2/orders/{order_type_identifier}/{order_identifier}`: a change to an order, each part first-class.
package struct OrderChange: Hashable, Sendable, Decodable {
    /// The order's new status.
    package var status: Order.Status?
    /// A new message about the status; `.null` removes it.
    package var statusDescription: JSONValue?
    /// Fulfilments to change (merged into the one with the same `fulfillmentIdentifier`, its keys set to `null`
    /// removed) or add.
    package var fulfillments: [[String: JSONValue]]?
    /// Returns to change or add, by `returnIdentifier`, like ``fulfillments``.
    package var returns: [[String: JSONValue]]?
    /// The new payment.
    package var payment: [String: JSONValue]?
    /// The new line items.
    package var lineItems: [JSONValue]?
    /// A whole new `order.json` (its identity keys stay the order's).
    package var order: [String: JSONValue]?
    /// Files to add or replace.
    package var files: [String: Data]

    /// The most fulfilments or returns one change may carry.
    package static let maximumEntries = 64

    /// Creates a change.
    package init(
        status: Order.Status? = nil, statusDescription: JSONValue? = nil, fulfillments: [[String: JSONValue]]? = nil,
        returns: [[String: JSONValue]]? = nil, payment: [String: JSONValue]? = nil, lineItems: [JSONValue]? = nil,
        order: [String: JSONValue]? = nil, files: [String: Data] = [:]
    ) {
        self.status = status
        self.statusDescription = statusDescription
        self.fulfillments = fulfillments
        self.returns = returns
        self.payment = payment
        self.lineItems = lineItems
        self.order = order
        self.files = files
    }

    /// Reads a change body; at least one key.
    ///
    /// - Throws: ``PassManagementFailure/invalidRequest(_:)`` naming the key at fault.
    package init(from decoder: any Decoder) throws {
        let body = try ManagementBody(
            decoder,
            keys: [
                "status", "status_description", "fulfillments", "returns", "payment", "line_items", "order", "files",
            ])
        if let text = try body.string("status") {
            guard let status = Order.Status(rawValue: text) else {
                throw PassManagementFailure.invalidRequest("'status' must be open, completed or cancelled")
            }
            self.status = status
        }
        switch try body.value("status_description") {
        case nil: break
        case .string(let text)?: statusDescription = .string(text)
        case .null?: statusDescription = .null
        default: throw PassManagementFailure.invalidRequest("'status_description' must be a string or null")
        }
        fulfillments = try Self.entries(body.value("fulfillments"), key: "fulfillments")
        returns = try Self.entries(body.value("returns"), key: "returns")
        switch try body.value("payment") {
        case nil: break
        case .object(let payment)?: self.payment = payment
        default: throw PassManagementFailure.invalidRequest("'payment' must be an object")
        }
        switch try body.value("line_items") {
        case nil: break
        case .array(let items)? where items.count <= Self.maximumEntries: lineItems = items
        default:
            throw PassManagementFailure.invalidRequest(
                "'line_items' must be an array of at most \(Self.maximumEntries)")
        }
        switch try body.value("order") {
        case nil: break
        case .object(let order)?: self.order = order
        default: throw PassManagementFailure.invalidRequest("'order' must be the order.json object")
        }
        files = try OrderCreationRequest.files(try body.value("files"))
        guard !isEmpty else { throw PassManagementFailure.invalidRequest("the change changes nothing") }
    }

    /// An array of at most ``maximumEntries`` objects at `key`, or `nil` when absent.
    private static func entries(_ value: JSONValue?, key: String) throws(PassManagementFailure)
        -> [[String: JSONValue]]?
    {
        guard let value else { return nil }
        guard case .array(let items) = value, items.count <= maximumEntries else {
            throw .invalidRequest("'\(key)' must be an array of at most \(maximumEntries) objects")
        }
        var objects: [[String: JSONValue]] = []
        for item in items {
            guard case .object(let object) = item else { throw .invalidRequest("'\(key)' must hold objects") }
            objects.append(object)
        }
        return objects
    }

    /// Whether it changes nothing.
    package var isEmpty: Bool {
        status == nil && statusDescription == nil && fulfillments == nil && returns == nil && payment == nil
            && lineItems == nil && order == nil && files.isEmpty
    }

    /// `order` with the change applied, and which parts changed for its trace: the status, the identifiers of the
    /// fulfilments and returns it touched, and the other keys it set.
    package func applied(to order: Order) throws(PassManagementFailure) -> (Order, [String: JSONValue]) {
        var changed = order
        var details: [String: JSONValue] = [:]
        if let replacement = self.order {
            changed = Order(json: replacement)
            for key in ["orderTypeIdentifier", "orderIdentifier", "createdAt"] { changed.json[key] = order.json[key] }
            details["order"] = .bool(true)
        }
        if let status {
            changed.status = status
            details["status"] = .string(status.rawValue)
        }
        if let statusDescription {
            changed.json["statusDescription"] = statusDescription == .null ? nil : statusDescription
            details["status_description"] = .bool(true)
        }
        if let fulfillments {
            let (merged, touched) = try Self.merge(
                fulfillments, into: changed.json["fulfillments"], identifiedBy: "fulfillmentIdentifier",
                key: "fulfillments")
            changed.json["fulfillments"] = merged
            details["fulfillments"] = .array(touched.map(JSONValue.string))
        }
        if let returns {
            let (merged, touched) = try Self.merge(
                returns, into: changed.json["returns"], identifiedBy: "returnIdentifier", key: "returns")
            changed.json["returns"] = merged
            details["returns"] = .array(touched.map(JSONValue.string))
        }
        if let payment {
            changed.json["payment"] = .object(payment)
            details["payment"] = .bool(true)
        }
        if let lineItems {
            changed.json["lineItems"] = .array(lineItems)
            details["line_items"] = .bool(true)
        }
        if !files.isEmpty { details["files"] = .array(files.keys.sorted().map(JSONValue.string)) }
        return (changed, details)
    }

    /// `existing` with each of `entries` merged into the entry with its identifier (keys set to `null` removed), or
    /// appended; and the identifiers touched.
    private static func merge(
        _ entries: [[String: JSONValue]], into existing: JSONValue?, identifiedBy identifierKey: String, key: String
    ) throws(PassManagementFailure) -> (JSONValue, [String]) {
        guard case .array(var items) = existing ?? .array([]) else {
            throw .invalidRequest("the order's '\(key)' is not an array: replace it with 'order'")
        }
        var touched: [String] = []
        for entry in entries {
            guard case .string(let identifier)? = entry[identifierKey] else {
                throw .invalidRequest("each of '\(key)' needs its '\(identifierKey)'")
            }
            touched.append(identifier)
            let index = items.firstIndex {
                if case .object(let object) = $0, object[identifierKey] == .string(identifier) { return true }
                return false
            }
            guard let index, case .object(var merged) = items[index] else {
                items.append(.object(entry.filter { $0.value != .null }))
                continue
            }
            for (name, value) in entry { merged[name] = value == .null ? nil : value }
            items[index] = .object(merged)
        }
        return (.array(items), touched)
    }
}
