import WalletDocuments

extension Order {
    /// One product of an order.
    public struct LineItem: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a line item.
        public init(title: String, quantity: Double, price: CurrencyAmount? = nil, image: String? = nil) {
            self.init(json: [:])
            self.title = title
            self.quantity = quantity
            self.price = price
            self.image = image
        }

        /// The product's name (or a key of `order.strings`).
        public var title: String {
            get { self["title", default: ""] }
            set { self["title", default: ""] = newValue }
        }
        /// A second line, such as the size or color.
        public var subtitle: String? {
            get { self["subtitle"] }
            set { self["subtitle"] = newValue }
        }
        /// How many were ordered.
        public var quantity: Double {
            get { self["quantity", default: 0] }
            set { self["quantity", default: 0] = newValue }
        }
        /// The price of the item.
        public var price: CurrencyAmount? {
            get { self["price"] }
            set { self["price"] = newValue }
        }
        /// The name of the product image in the package.
        public var image: String? {
            get { self["image"] }
            set { self["image"] = newValue }
        }
        /// The Global Trade Item Number (EAN, UPC, ISBN).
        public var gtin: String? {
            get { self["gtin"] }
            set { self["gtin"] = newValue }
        }
        /// The merchant's stock-keeping unit.
        public var sku: String? {
            get { self["sku"] }
            set { self["sku"] = newValue }
        }

        /// The keys of a line item.
        public static let schema = DocumentSchema(
            "line item",
            [
                .init("title", .string, required: true),
                .init("subtitle", .string),
                .init("quantity", .number, required: true),
                .init("price", .dictionary(CurrencyAmount.self)),
                .init("image", .string),
                .init("gtin", .string),
                .init("sku", .string),
            ])
    }
}
