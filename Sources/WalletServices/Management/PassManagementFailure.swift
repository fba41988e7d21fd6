import Foundation
import WalletDocuments
import WalletOrders
import WalletPasses

/// Why the management API refused a request, as cases a caller can switch on; each message says what to change.
package enum PassManagementFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The tag, the pass or the pass type does not exist for this client.
    case notFound(String)
    /// The request is malformed or names something the pass cannot have (an unknown field).
    case invalidRequest(String)
    /// A tag with one of the given identifiers exists already.
    case conflict(String)
    /// The idempotency key was used before with a different request body.
    case idempotencyKeyReused
    /// The client may not do this: issue under a pass type an administrator has not shared with it.
    case forbidden(String)
    /// A well-formed request this server cannot carry out as it is set up (rotating a token where passes have none).
    case unsupportedHere(String)
    /// The pass would have errors Wallet rejects (`PassLint`); each finding names its key.
    case invalidPass([LintFinding])
    /// The order would have errors Wallet rejects (`OrderLint`); each finding names its key or file.
    case invalidOrder([LintFinding])
    /// The client has as much under way as it may (bulk changes unfinished); it may ask again once some is done.
    case limitReached(String)

    /// A sentence for people; never a token.
    package var description: String {
        switch self {
        case .notFound(let what): return "\(what) does not exist for this client"
        case .invalidRequest(let reason): return reason
        case .conflict(let what): return "\(what) already exists for this client"
        case .idempotencyKeyReused:
            return "this Idempotency-Key was used with a different request in the last 24 hours: use a new key"
        case .forbidden(let reason), .unsupportedHere(let reason), .limitReached(let reason): return reason
        case .invalidPass(let findings):
            return "the pass would not be valid: "
                + findings.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        case .invalidOrder(let findings):
            return "the order would not be valid: "
                + findings.map { "\($0.path): \($0.message)" }.joined(separator: "; ")
        }
    }
}
