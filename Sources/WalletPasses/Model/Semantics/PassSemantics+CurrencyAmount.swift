import WalletDocuments

extension PassSemantics {
    /// An amount of money (`balance`, `totalPrice`).
    public struct CurrencyAmount: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates an amount, such as `"12.50"` in `"EUR"`.
        public init(amount: String, currencyCode: String) {
            self.init(json: [:])
            self.amount = amount
            self.currencyCode = currencyCode
        }

        /// The amount, as decimal text.
        public var amount: String? {
            get { self["amount"] }
            set { self["amount"] = newValue }
        }
        /// The ISO 4217 code of the currency.
        public var currencyCode: String? {
            get { self["currencyCode"] }
            set { self["currencyCode"] = newValue }
        }

        /// The keys of an amount.
        public static let schema = DocumentSchema(
            "currency amount",
            [
                .init("amount", .string),
                .init("currencyCode", .string),
            ])
    }
}
