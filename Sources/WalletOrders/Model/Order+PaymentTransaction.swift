import Foundation
import WalletDocuments

extension Order.Payment {
    /// A purchase or refund of a payment (iOS 17).
    public struct Transaction: DocumentDictionary {
        /// Where the transaction stands.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// Not yet processed.
            case pending
            /// Approved.
            case approved
            /// Settled.
            case completed
            /// Cancelled.
            case cancelled
            /// Failed.
            case failed
        }

        /// Whether money goes to the merchant or back.
        public enum TransactionType: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// A purchase.
            case purchase
            /// A refund.
            case refund
        }

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a transaction.
        public init(
            amount: Order.CurrencyAmount, createdAt: Date, paymentMethodName: String, status: Status,
            transactionType: TransactionType
        ) {
            self.init(json: [:])
            self.amount = amount
            self.createdAt = createdAt
            self.paymentMethod = Method(json: ["displayName": .string(paymentMethodName)])
            self.status = status
            self.transactionType = transactionType
        }

        /// The amount.
        public var amount: Order.CurrencyAmount {
            get { self["amount"] ?? Order.CurrencyAmount(json: [:]) }
            set { self["amount"] = newValue }
        }
        /// When it happened.
        public var createdAt: Date? {
            get { self["createdAt"] }
            set { self["createdAt"] = newValue }
        }
        /// How the customer paid.
        public var paymentMethod: Method? {
            get { self["paymentMethod"] }
            set { self["paymentMethod"] = newValue }
        }
        /// Where it stands; `nil` when absent or unknown.
        public var status: Status? {
            get { self["status"] }
            set { self["status"] = newValue }
        }
        /// A purchase or a refund; `nil` when absent or unknown.
        public var transactionType: TransactionType? {
            get { self["transactionType"] }
            set { self["transactionType"] = newValue }
        }
        /// The Apple Pay transaction identifier.
        public var applePayTransactionIdentifier: String? {
            get { self["applePayTransactionIdentifier"] }
            set { self["applePayTransactionIdentifier"] = newValue }
        }
        /// The name of a receipt file in the package.
        public var receipt: String? {
            get { self["receipt"] }
            set { self["receipt"] = newValue }
        }

        /// The keys of a transaction.
        public static let schema = DocumentSchema(
            "payment transaction",
            [
                .init("amount", .dictionary(Order.CurrencyAmount.self), required: true),
                .init("createdAt", .dateTime, required: true),
                .init("paymentMethod", .dictionary(Method.self), required: true),
                .init("status", .enumeration(Status.allCases.map(\.rawValue)), required: true),
                .init("transactionType", .enumeration(TransactionType.allCases.map(\.rawValue)), required: true),
                .init("applePayTransactionIdentifier", .string),
                .init("receipt", .string),
            ])

        /// The payment method of a transaction.
        public struct Method: DocumentDictionary {
            /// Every key, as read or set.
            public var json: [String: JSONValue]

            /// Wraps the dictionary as it is.
            public init(json: [String: JSONValue]) { self.json = json }

            /// The method's name, e.g. `Visa 1234`.
            public var displayName: String {
                get { self["displayName", default: ""] }
                set { self["displayName", default: ""] = newValue }
            }

            /// The keys of a payment method.
            public static let schema = DocumentSchema("payment method", [.init("displayName", .string, required: true)])
        }
    }
}
