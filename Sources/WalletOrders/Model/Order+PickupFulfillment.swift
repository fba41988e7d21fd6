import Foundation
import WalletDocuments

extension Order {
    /// A pickup of an order at a place.
    public struct PickupFulfillment: DocumentDictionary {
        /// Where the pickup stands.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// Not yet prepared.
            case open
            /// Being prepared.
            case processing
            /// Ready for pickup.
            case readyForPickup
            /// Picked up.
            case pickedUp
            /// Something went wrong.
            case issue
            /// Cancelled.
            case cancelled
        }

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a pickup.
        public init(fulfillmentIdentifier: String, displayName: String, status: Status) {
            self.init(json: [:])
            json["fulfillmentType"] = .string(Fulfillment.pickupType)
            self.fulfillmentIdentifier = fulfillmentIdentifier
            self.displayName = displayName
            self.status = status
        }

        /// The pickup's identifier, stable across updates.
        public var fulfillmentIdentifier: String {
            get { self["fulfillmentIdentifier", default: ""] }
            set { self["fulfillmentIdentifier", default: ""] = newValue }
        }
        /// The pickup location's name.
        public var displayName: String {
            get { self["displayName", default: ""] }
            set { self["displayName", default: ""] = newValue }
        }
        /// Where the pickup stands; `nil` when absent or unknown.
        public var status: Status? {
            get { self["status"] }
            set { self["status"] = newValue }
        }
        /// A message about the status (or a key of `order.strings`).
        public var statusDescription: String? {
            get { self["statusDescription"] }
            set { self["statusDescription"] = newValue }
        }
        /// The location's address.
        public var address: Address? {
            get { self["address"] }
            set { self["address"] = newValue }
        }
        /// The location's coordinates.
        public var location: Location? {
            get { self["location"] }
            set { self["location"] = newValue }
        }
        /// A barcode to show at pickup.
        public var barcode: Barcode? {
            get { self["barcode"] }
            set { self["barcode"] = newValue }
        }
        /// When the pickup window opens.
        public var pickupAt: Date? {
            get { self["pickupAt"] }
            set { self["pickupAt"] = newValue }
        }
        /// How long the window lasts, as an ISO 8601 duration such as `PT30M`.
        public var pickupWindowDuration: String? {
            get { self["pickupWindowDuration"] }
            set { self["pickupWindowDuration"] = newValue }
        }
        /// When the goods were picked up.
        public var pickedUpAt: Date? {
            get { self["pickedUpAt"] }
            set { self["pickedUpAt"] = newValue }
        }
        /// The items in this pickup.
        public var lineItems: [LineItem]? {
            get { self["lineItems"] }
            set { self["lineItems"] = newValue }
        }
        /// Notes for the customer.
        public var notes: String? {
            get { self["notes"] }
            set { self["notes"] = newValue }
        }

        /// The keys of a pickup.
        public static let schema = DocumentSchema(
            "pickup fulfillment",
            [
                .init("fulfillmentType", .enumeration([Fulfillment.pickupType]), required: true),
                .init("fulfillmentIdentifier", .string, required: true),
                .init("displayName", .string, required: true),
                .init("status", .enumeration(Status.allCases.map(\.rawValue)), required: true),
                .init("statusDescription", .string),
                .init("address", .dictionary(Address.self)),
                .init("location", .dictionary(Location.self)),
                .init("barcode", .dictionary(Barcode.self)),
                .init("pickupAt", .dateTime),
                .init("pickupWindowDuration", .duration),
                .init("pickedUpAt", .dateTime),
                .init("lineItems", .array(.dictionary(LineItem.self))),
                .init("notes", .string),
            ])
    }
}
