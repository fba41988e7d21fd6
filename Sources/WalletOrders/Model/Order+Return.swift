import Foundation
import WalletDocuments

extension Order {
    /// A return of some of an order's items (iOS 17.2).
    public struct Return: DocumentDictionary {
        /// Where the return stands.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable, DocumentJSONConvertible {
            /// Started.
            case open
            /// With the carrier.
            case onTheWay
            /// Received and being processed.
            case processing
            /// Something went wrong.
            case issue
            /// Done.
            case completed
            /// Cancelled.
            case cancelled
        }

        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a return.
        public init(returnIdentifier: String, status: Status) {
            self.init(json: [:])
            self.returnIdentifier = returnIdentifier
            self.status = status
        }

        /// The return's identifier, stable across updates.
        public var returnIdentifier: String {
            get { self["returnIdentifier", default: ""] }
            set { self["returnIdentifier", default: ""] = newValue }
        }
        /// Where it stands; `nil` when absent or unknown.
        public var status: Status? {
            get { self["status"] }
            set { self["status"] = newValue }
        }
        /// A message about the status (or a key of `order.strings`).
        public var statusDescription: String? {
            get { self["statusDescription"] }
            set { self["statusDescription"] = newValue }
        }
        /// The return number the customer sees.
        public var returnNumber: String? {
            get { self["returnNumber"] }
            set { self["returnNumber"] = newValue }
        }
        /// The carrier's name.
        public var carrier: String? {
            get { self["carrier"] }
            set { self["carrier"] = newValue }
        }
        /// When the return started.
        public var initiatedAt: Date? {
            get { self["initiatedAt"] }
            set { self["initiatedAt"] = newValue }
        }
        /// When the goods must be dropped off.
        public var dropOffBy: Date? {
            get { self["dropOffBy"] }
            set { self["dropOffBy"] = newValue }
        }
        /// When the merchant received the goods.
        public var returnedAt: Date? {
            get { self["returnedAt"] }
            set { self["returnedAt"] = newValue }
        }
        /// The items returned.
        public var lineItems: [LineItem]? {
            get { self["lineItems"] }
            set { self["lineItems"] = newValue }
        }
        /// Notes for the customer.
        public var notes: String? {
            get { self["notes"] }
            set { self["notes"] = newValue }
        }
        /// The name of the return label (PDF, PNG or JPEG) in the package.
        public var returnLabel: String? {
            get { self["returnLabel"] }
            set { self["returnLabel"] = newValue }
        }
        /// Where the customer manages the return.
        public var returnManagementURL: String? {
            get { self["returnManagementURL"] }
            set { self["returnManagementURL"] = newValue }
        }

        /// The keys of a return.
        public static let schema = DocumentSchema(
            "return",
            [
                .init("returnIdentifier", .string, required: true),
                .init("status", .enumeration(Status.allCases.map(\.rawValue)), required: true),
                .init("statusDescription", .string),
                .init("returnNumber", .string),
                .init("carrier", .string),
                .init("initiatedAt", .dateTime),
                .init("dropOffBy", .dateTime),
                .init("returnedAt", .dateTime),
                .init("lineItems", .array(.dictionary(LineItem.self))),
                .init("notes", .string),
                .init("returnLabel", .string),
                .init("returnManagementURL", .url(secure: false)),
            ])
    }
}
