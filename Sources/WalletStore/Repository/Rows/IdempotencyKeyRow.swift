import Foundation
import WalletServices

/// A row of `idempotency_keys`: a management request's idempotency key, with the answer it got once it has one.
struct IdempotencyKeyRow: TableRow {
    /// The table the rows are in.
    static let table = "idempotency_keys"

    /// The columns of `idempotency_keys`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case clientID = "client_id"
        case idempotencyKey = "idempotency_key"
        case requestHash = "request_hash"
        case responseStatus = "response_status"
        case responseBody = "response_body"
        case createdAt = "created_at"
    }

    /// The columns of the table's primary key: a key is a client's own.
    static let primaryKey: [CodingKeys] = [.clientID, .idempotencyKey]

    /// The client that sent the key.
    var clientID: String
    /// The key.
    var idempotencyKey: String
    /// The SHA-256 of the request that claimed the key.
    var requestHash: Data
    /// The status of the stored answer; `nil` until the request is answered.
    var responseStatus: Int64?
    /// The body of the stored answer; `nil` until the request is answered.
    var responseBody: Data?
    /// When the key was claimed, in milliseconds.
    var createdAt: Int64

    /// The row of a key `claim` of the client `clientID` makes at `createdAt`, not answered yet.
    init(claim: IdempotencyClaim, clientID: UUID, createdAt: Date) {
        self.clientID = clientID.uuidString
        idempotencyKey = claim.key.value
        requestHash = claim.requestHash
        responseStatus = nil
        responseBody = nil
        self.createdAt = SQLWalletRepository.ms(createdAt)
    }
}
