import Foundation
import WalletDocuments

/// The checks of an order beyond its schema: identifiers, dates, the web service, amounts and places, and the
/// package's files.
enum OrderChecks {
    /// The largest signed order Wallet takes: "below 5 MB" ([Return](https://developer.apple.com/documentation/walletorders/return)).
    static let maximumPackageSize = 5_000_000

    /// Every check of `order` and its `files` (`nil` when only `order.json` is at hand).
    static func check(_ order: Order, files: [String: Data]?, in context: inout LintContext) {
        checkIdentity(order, in: &context)
        checkDates(order, in: &context)
        DocumentChecks.checkWebServicePair(order.json, in: &context)
        checkUniqueIdentifiers(order, in: &context)
        checkPayment(order, in: &context)
        var images: [(path: String, name: String)] = []
        visit(.object(order.json), kind: .dictionary(Order.self), at: "") { type, object, path in
            checkValues(type, object, at: path, in: &context)
            for key in imageKeys(of: type) {
                if case .string(let name)? = object[key] { images.append((LintContext.path(path, key), name)) }
            }
        }
        if let files {
            checkFiles(order, images: images, files: files, in: &context)
        }
    }

    // MARK: order.json

    /// The schema version, the identifiers and the required texts.
    static func checkIdentity(_ order: Order, in context: inout LintContext) {
        if case .number(let version)? = order.json["schemaVersion"], version != 1 {
            context.error("order.schema-version", "schemaVersion", "must be 1")
        }
        for key in ["orderTypeIdentifier", "orderIdentifier"] {
            guard case .string(let text)? = order.json[key] else { continue }
            if DocumentChecks.isBlank(text) {
                context.error("order.blank", key, "must not be empty")
            } else if let problem = WebServiceIdentifier.problem(text) {
                context.error("order.identifier", key, problem)
            }
        }
        for key in ["displayName", "merchantIdentifier"] {
            if case .string(let text)? = order.merchant.json[key], DocumentChecks.isBlank(text) {
                context.error("order.blank", "merchant.\(key)", "must not be empty")
            }
        }
        let type = order.orderTypeIdentifier
        if !type.isEmpty, !type.hasPrefix("order.") {
            context.warning(
                "order.type-identifier", "orderTypeIdentifier",
                "does not start with 'order.' as the Order Type IDs Apple issues do (order.com.example.shop)")
        }
        let merchant = order.merchant.merchantIdentifier
        if !merchant.isEmpty, !merchant.hasPrefix("merchant.") {
            context.warning(
                "merchant.identifier", "merchant.merchantIdentifier",
                "is not an Apple Pay merchant identifier (merchant.com.example)")
        }
    }

    /// `updatedAt` is not before `createdAt`.
    static func checkDates(_ order: Order, in context: inout LintContext) {
        if let created = order.createdAt, let updated = order.updatedAt, updated < created {
            context.error(
                "order.updated-at", "updatedAt",
                "is before createdAt; it equals createdAt until the order changes, then only increases")
        }
    }

    /// Fulfilments and returns each have their own identifier: Wallet tells changes apart by it.
    static func checkUniqueIdentifiers(_ order: Order, in context: inout LintContext) {
        for (key, identifierKey) in [("fulfillments", "fulfillmentIdentifier"), ("returns", "returnIdentifier")] {
            guard case .array(let entries)? = order.json[key] else { continue }
            var seen: Set<String> = []
            for (index, entry) in entries.enumerated() {
                guard case .object(let object) = entry, case .string(let identifier)? = object[identifierKey] else {
                    continue
                }
                if !seen.insert(identifier).inserted {
                    context.error(
                        "order.duplicate-identifier", "\(key)[\(index)].\(identifierKey)",
                        "'\(identifier)' is used by an earlier entry; Wallet tells entries apart by it")
                }
            }
        }
    }

    /// The payment's status, and one currency throughout (Wallet converts none).
    static func checkPayment(_ order: Order, in context: inout LintContext) {
        guard let payment = order.payment else { return }
        let currency = payment.total.currency
        for (index, item) in (payment.summaryItems ?? []).enumerated() {
            let other = item.value.currency
            if !currency.isEmpty, !other.isEmpty, other != currency {
                context.warning(
                    "payment.currency", "payment.summaryItems[\(index)].value.currency",
                    "is \(other) while the total is in \(currency); Wallet converts no currency")
            }
        }
    }

    /// The checks of values within one dictionary: currency codes, country codes, coordinates.
    static func checkValues(
        _ type: any DocumentDictionary.Type, _ object: [String: JSONValue], at path: String,
        in context: inout LintContext
    ) {
        switch type {
        case is Order.CurrencyAmount.Type:
            if case .string(let code)? = object["currency"], !DocumentChecks.isCurrencyCode(code) {
                context.error(
                    "value.currency", LintContext.path(path, "currency"),
                    "'\(code)' is not an ISO 4217 code such as USD")
            }
        case is Order.Address.Type:
            if case .string(let code)? = object["countryCode"],
                code.count != 2 || !code.allSatisfy({ $0.isASCII && $0.isUppercase })
            {
                context.error(
                    "value.country-code", LintContext.path(path, "countryCode"),
                    "'\(code)' is not an ISO 3166 country code such as US")
            }
        case is Order.Location.Type:
            for (key, limit) in [("latitude", 90.0), ("longitude", 180.0)] {
                if case .number(let degrees)? = object[key], abs(degrees) > limit {
                    context.error(
                        "value.coordinate", LintContext.path(path, key),
                        "must be between -\(Int(limit)) and \(Int(limit))")
                }
            }
        default:
            break
        }
    }

    /// The keys of `type` that name a file of the package.
    static func imageKeys(of type: any DocumentDictionary.Type) -> [String] {
        switch type {
        case is Order.Merchant.Type: ["logo"]
        case is Order.LineItem.Type: ["image"]
        case is Order.Provider.Type: ["trackingLogoNameLightColorScheme", "trackingLogoNameDarkColorScheme"]
        case is Order.Return.Type: ["returnLabel"]
        case is Order.Payment.Transaction.Type: ["receipt"]
        default: []
        }
    }

    /// Calls `body` with every dictionary in `value` that the schemas describe, and its path.
    static func visit(
        _ value: JSONValue, kind: SchemaValueKind, at path: String,
        _ body: (any DocumentDictionary.Type, [String: JSONValue], String) -> Void
    ) {
        switch (kind, value) {
        case (.dictionary(let type), .object(let object)):
            body(type, object, path)
            for entry in type.schema.entries {
                if let child = object[entry.key] {
                    visit(child, kind: entry.kind, at: LintContext.path(path, entry.key), body)
                }
            }
        case (.tagged(let key, let types), .object(let object)):
            if case .string(let tag)? = object[key], let type = types[tag] {
                visit(value, kind: .dictionary(type), at: path, body)
            }
        case (.array(let element, _), .array(let elements)):
            for (index, item) in elements.enumerated() {
                visit(item, kind: element, at: "\(path)[\(index)]", body)
            }
        default:
            break
        }
    }
}
