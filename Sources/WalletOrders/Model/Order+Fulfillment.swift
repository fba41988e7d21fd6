import WalletDocuments

extension Order {
    /// One entry of ``Order/fulfillments``: a shipment or a pickup, told apart by `fulfillmentType`.
    public enum Fulfillment: Hashable, Sendable, DocumentJSONConvertible {
        /// A shipment.
        case shipping(ShippingFulfillment)
        /// A pickup.
        case pickup(PickupFulfillment)
        /// A dictionary whose `fulfillmentType` is missing or unknown, kept as read.
        case other([String: JSONValue])

        /// `fulfillmentType` of a shipment.
        static let shippingType = "shipping"
        /// `fulfillmentType` of a pickup.
        static let pickupType = "pickup"

        /// What ``Order/schema`` checks each entry against.
        static let kind = SchemaValueKind.tagged(
            "fulfillmentType", [shippingType: ShippingFulfillment.self, pickupType: PickupFulfillment.self])

        /// Reads a dictionary; `nil` for anything else.
        public init?(documentJSON: JSONValue) {
            guard case .object(let object) = documentJSON else { return nil }
            switch object["fulfillmentType"] {
            case .string(Self.shippingType)?: self = .shipping(ShippingFulfillment(json: object))
            case .string(Self.pickupType)?: self = .pickup(PickupFulfillment(json: object))
            default: self = .other(object)
            }
        }

        /// The dictionary.
        public var documentJSON: JSONValue {
            switch self {
            case .shipping(let shipping): shipping.documentJSON
            case .pickup(let pickup): pickup.documentJSON
            case .other(let object): .object(object)
            }
        }

        /// The fulfilment's identifier, stable across updates.
        public var fulfillmentIdentifier: String? {
            guard case .object(let object) = documentJSON,
                case .string(let identifier)? = object["fulfillmentIdentifier"]
            else { return nil }
            return identifier
        }
    }
}
