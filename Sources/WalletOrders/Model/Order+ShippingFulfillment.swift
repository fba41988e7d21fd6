import Foundation
import WalletDocuments

extension Order {
    /// A shipment of an order: its status, carrier and tracking.
    public struct ShippingFulfillment: DocumentDictionary {
        /// Where the shipment stands.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// Not yet prepared.
            case open
            /// Being prepared.
            case processing
            /// With the carrier, when the carrier's steps are known.
            case onTheWay
            /// Out for delivery.
            case outForDelivery
            /// Delivered.
            case delivered
            /// Handed to the carrier, when its further steps are not known.
            case shipped
            /// Something went wrong.
            case issue
            /// Cancelled.
            case cancelled
        }

        /// How the goods travel.
        public enum ShippingType: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// By a carrier (the default).
            case shipping
            /// Delivered by the merchant.
            case delivery
        }

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a shipment.
        public init(fulfillmentIdentifier: String, status: Status) {
            self.init(json: [:])
            json["fulfillmentType"] = .string(Fulfillment.shippingType)
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.status = status
        }

        /// The shipment's identifier, stable across updates.
        public var fulfillmentIdentifier: String {
            get { self["fulfillmentIdentifier", default: ""] }
            set { self["fulfillmentIdentifier", default: ""] = newValue }
        }
        /// Where the shipment stands; `nil` when absent or unknown.
        public var status: Status? {
            get { self["status"] }
            set { self["status"] = newValue }
        }
        /// A message about the status (or a key of `order.strings`).
        public var statusDescription: String? {
            get { self["statusDescription"] }
            set { self["statusDescription"] = newValue }
        }
        /// The carrier's name.
        public var carrier: String? {
            get { self["carrier"] }
            set { self["carrier"] = newValue }
        }
        /// The tracking number.
        public var trackingNumber: String? {
            get { self["trackingNumber"] }
            set { self["trackingNumber"] = newValue }
        }
        /// The carrier's tracking page.
        public var trackingURL: String? {
            get { self["trackingURL"] }
            set { self["trackingURL"] = newValue }
        }
        /// By carrier or by the merchant.
        public var shippingType: ShippingType? {
            get { self["shippingType"] }
            set { self["shippingType"] = newValue }
        }
        /// When the goods left.
        public var shippedAt: Date? {
            get { self["shippedAt"] }
            set { self["shippedAt"] = newValue }
        }
        /// When the goods arrived.
        public var deliveredAt: Date? {
            get { self["deliveredAt"] }
            set { self["deliveredAt"] = newValue }
        }
        /// When the goods should arrive (the day only, unless a window is given).
        public var estimatedDeliveryAt: Date? {
            get { self["estimatedDeliveryAt"] }
            set { self["estimatedDeliveryAt"] = newValue }
        }
        /// The delivery window from ``estimatedDeliveryAt``, as an ISO 8601 duration such as `PT2H`.
        public var estimatedDeliveryWindowDuration: String? {
            get { self["estimatedDeliveryWindowDuration"] }
            set { self["estimatedDeliveryWindowDuration"] = newValue }
        }
        /// The items in this shipment.
        public var lineItems: [LineItem]? {
            get { self["lineItems"] }
            set { self["lineItems"] = newValue }
        }
        /// Notes for the customer.
        public var notes: String? {
            get { self["notes"] }
            set { self["notes"] = newValue }
        }
        /// Who receives it.
        public var recipient: Recipient? {
            get { self["recipient"] }
            set { self["recipient"] = newValue }
        }

        /// The keys of a shipment.
        public static let schema = DocumentSchema(
            "shipping fulfillment",
            [
                .init("fulfillmentType", .enumeration([Fulfillment.shippingType]), required: true),
                .init("fulfillmentIdentifier", .string, required: true),
                .init("status", .enumeration(Status.allCases.map(\.rawValue)), required: true),
                .init("statusDescription", .string),
                .init("carrier", .string),
                .init("trackingNumber", .string),
                .init("trackingURL", .url(secure: false)),
                .init("shippingType", .enumeration(ShippingType.allCases.map(\.rawValue))),
                .init("shippedAt", .dateTime),
                .init("deliveredAt", .dateTime),
                .init("estimatedDeliveryAt", .dateTime),
                .init("estimatedDeliveryWindowDuration", .duration),
                .init("lineItems", .array(.dictionary(LineItem.self))),
                .init("notes", .string),
                .init("recipient", .dictionary(Recipient.self)),
            ])

        /// Who receives a shipment.
        public struct Recipient: DocumentDictionary {
            /// Every key, as read or set.
            public var json: [String: JSONValue]

            /// Wraps the dictionary as it is.
            public init(json: [String: JSONValue]) { self.json = json }

            /// The given name.
            public var givenName: String? {
                get { self["givenName"] }
                set { self["givenName"] = newValue }
            }
            /// The family name.
            public var familyName: String? {
                get { self["familyName"] }
                set { self["familyName"] = newValue }
            }
            /// The organization.
            public var organizationName: String? {
                get { self["organizationName"] }
                set { self["organizationName"] = newValue }
            }
            /// The delivery address.
            public var address: Address? {
                get { self["address"] }
                set { self["address"] = newValue }
            }

            /// The keys of a recipient.
            public static let schema = DocumentSchema(
                "recipient",
                [
                    .init("givenName", .string),
                    .init("familyName", .string),
                    .init("organizationName", .string),
                    .init("address", .dictionary(Address.self)),
                ])
        }
    }
}
