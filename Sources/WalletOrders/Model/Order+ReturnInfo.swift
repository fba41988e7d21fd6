import Foundation
import WalletDocuments

extension Order {
    /// An order's return policy (iOS 17.2).
    public struct ReturnInfo: DocumentDictionary {
        /// Every key, as read or set.
        public var json: [String: JSONValue]

        /// Wraps the dictionary as it is.
        public init(json: [String: JSONValue]) { self.json = json }

        /// Creates a return policy.
        public init(returnPolicyURL: String, returnDeadline: Date? = nil) {
            self.init(json: [:])
            self.returnPolicyURL = returnPolicyURL
            self.returnDeadline = returnDeadline
        }

        /// The policy's page.
        public var returnPolicyURL: String {
            get { self["returnPolicyURL", default: ""] }
            set { self["returnPolicyURL", default: ""] = newValue }
        }
        /// A summary of the policy.
        public var returnPolicyDescription: String? {
            get { self["returnPolicyDescription"] }
            set { self["returnPolicyDescription"] = newValue }
        }
        /// The last day of returns; until then the merchant may still update a completed order.
        public var returnDeadline: Date? {
            get { self["returnDeadline"] }
            set { self["returnDeadline"] = newValue }
        }
        /// Whether Wallet counts down to the deadline.
        public var displayCountdown: Bool? {
            get { self["displayCountdown"] }
            set { self["displayCountdown"] = newValue }
        }
        /// Where the customer starts a return.
        public var returnManagementURL: String? {
            get { self["returnManagementURL"] }
            set { self["returnManagementURL"] = newValue }
        }

        /// The keys of a return policy.
        public static let schema = DocumentSchema(
            "return info",
            [
                .init("returnPolicyURL", .url(secure: false), required: true),
                .init("returnPolicyDescription", .string),
                .init("returnDeadline", .dateTime),
                .init("displayCountdown", .boolean),
                .init("returnManagementURL", .url(secure: false)),
            ])
    }
}
