import WalletDocuments

extension Order {
    /// An amount of money in one currency.
    public struct CurrencyAmount: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates an amount, such as `"12.50"` in `"EUR"`.
        public init(amount: String, currency: String) {
            self.init(json: [:])
            self.amount = amount
            self.currency = currency
        }

        /// The amount as decimal text, the JSON string Apple documents
        /// ([CurrencyAmount](https://developer.apple.com/documentation/walletorders/currencyamount)); a JSON number,
        /// which some orders carry, reads as its text and the lint warns.
        public var amount: String {
            get {
                switch json["amount"] {
                case .string(let text)?: text
                case .number(let number)?: number.description
                default: ""
                }
            }
            set { json["amount"] = .string(newValue) }
        }
        /// The ISO 4217 currency code, e.g. `EUR`.
        public var currency: String {
            get { self["currency", default: ""] }
            set { self["currency", default: ""] = newValue }
        }

        /// The keys of an amount.
        public static let schema = DocumentSchema(
            "currency amount",
            [
                .init("amount", .decimal, required: true),
                .init("currency", .string, required: true),
            ])
    }
}
