import WalletDocuments

extension Order {
    /// What the customer pays, and how.
    public struct Payment: DocumentDictionary {
        /// Where the payment stands.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// Not yet authorized.
            case pending
            /// Authorized, not yet captured.
            case authorized
            /// Paid.
            case paid
            /// Refunded.
            case refunded
            /// Declined.
            case declined
            /// Voided.
            case voided
        }

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a payment.
        public init(total: CurrencyAmount, status: Status, summaryItems: [SummaryItem]? = nil) {
            self.init(json: [:])
            self.total = total
            self.status = status
            self.summaryItems = summaryItems
        }

        /// The total.
        public var total: CurrencyAmount {
            get { self["total"] ?? CurrencyAmount(json: [:]) }
            set { self["total"] = newValue }
        }
        /// Where the payment stands; `nil` when absent or unknown. Apple marks it deprecated yet still required
        /// ([Payment](https://developer.apple.com/documentation/walletorders/payment)), so the lint requires it.
        public var status: Status? {
            get { self["status"] }
            set { self["status"] = newValue }
        }
        /// The lines that add up to the total (subtotal, tax, shipping).
        public var summaryItems: [SummaryItem]? {
            get { self["summaryItems"] }
            set { self["summaryItems"] = newValue }
        }
        /// The payment's transactions: purchases and refunds (iOS 17).
        public var transactions: [Transaction]? {
            get { self["transactions"] }
            set { self["transactions"] = newValue }
        }
        /// How the customer paid, e.g. `Visa 1234`; Apple deprecates it for each transaction's `paymentMethod`.
        @available(*, deprecated, message: "Apple deprecates it: give each transaction's paymentMethod")
        public var paymentMethods: [String]? {
            get { self["paymentMethods"] }
            set { self["paymentMethods"] = newValue }
        }
        /// The Apple Pay transaction identifiers; Apple deprecates it for each transaction's own identifier.
        @available(*, deprecated, message: "Apple deprecates it: give each transaction's applePayTransactionIdentifier")
        public var applePayTransactionIdentifiers: [String]? {
            get { self["applePayTransactionIdentifiers"] }
            set { self["applePayTransactionIdentifiers"] = newValue }
        }

        /// The keys of a payment, with the deprecations of
        /// [Payment](https://developer.apple.com/documentation/walletorders/payment).
        public static let schema = DocumentSchema(
            "payment",
            [
                .init("total", .dictionary(CurrencyAmount.self), required: true),
                .init("status", .enumeration(Status.allCases.map(\.rawValue)), required: true),
                .init("summaryItems", .array(.dictionary(SummaryItem.self))),
                .init("transactions", .array(.dictionary(Transaction.self))),
                .init(
                    "paymentMethods", .array(.string),
                    deprecated: "Apple retires it; give each payment in 'transactions' with its 'paymentMethod'"),
                .init(
                    "applePayTransactionIdentifiers", .array(.string),
                    deprecated:
                        "Apple retires it; give each payment in 'transactions' with its 'applePayTransactionIdentifier'"
                ),
            ])
    }
}

extension Order.Payment {
    /// One line of a payment's summary.
    public struct SummaryItem: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a summary line.
        public init(label: String, value: Order.CurrencyAmount) {
            self.init(json: [:])
            self.label = label
            self.value = value
        }

        /// What the line is (or a key of `order.strings`).
        public var label: String {
            get { self["label", default: ""] }
            set { self["label", default: ""] = newValue }
        }
        /// The amount.
        public var value: Order.CurrencyAmount {
            get { self["value"] ?? Order.CurrencyAmount(json: [:]) }
            set { self["value"] = newValue }
        }

        /// The keys of a summary line.
        public static let schema = DocumentSchema(
            "summary item",
            [
                .init("label", .string, required: true),
                .init("value", .dictionary(Order.CurrencyAmount.self), required: true),
            ])
    }
}
