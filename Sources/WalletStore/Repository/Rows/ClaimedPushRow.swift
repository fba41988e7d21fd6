import Foundation
import SQLKit
import WalletServices

/// What claiming a push reads: its outbox row's identity and attempts, its registration's push token and its pass
/// type, and nothing more.
struct ClaimedPushRow: Decodable {
    enum CodingKeys: String, CodingKey {
        case id
        case passID = "pass_id"
        case deviceLibraryIdentifier = "device_library_identifier"
        case attempts
        case pushToken = "push_token"
        case passTypeID = "pass_type_id"
        case passTypeIdentifier = "pass_type_identifier"
    }

    var id: String
    var passID: String?
    var deviceLibraryIdentifier: String
    var attempts: Int64
    var pushToken: String
    var passTypeID: String
    var passTypeIdentifier: String

    /// The due, unleased pushes of passes or of orders, oldest due first, serialized once (a fan-out claims again
    /// and again): bind now twice (due by, lease ended by), then the limit.
    static func due(_ subject: TraceSubject, on sql: any SQLDatabase) -> SerializedSelect {
        var query = sql.select()
            .column(DeliveryOutboxRow.column(.id), as: CodingKeys.id.stringValue)
            .column(DeliveryOutboxRow.column(.passID), as: CodingKeys.passID.stringValue)
            .column(
                DeliveryOutboxRow.column(.deviceLibraryIdentifier), as: CodingKeys.deviceLibraryIdentifier.stringValue
            )
            .column(DeliveryOutboxRow.column(.attempts), as: CodingKeys.attempts.stringValue)
            .column(PassTypeRow.column(.id), as: CodingKeys.passTypeID.stringValue)
            .column(PassTypeRow.column(.passTypeIdentifier), as: CodingKeys.passTypeIdentifier.stringValue)
            .from(DeliveryOutboxRow.table)
        switch subject {
        case .pass:
            query = joiningRegistration(
                query, table: PassRegistrationRow.table,
                device: PassRegistrationRow.column(.deviceLibraryIdentifier),
                owner: PassRegistrationRow.column(.passID), pushToken: PassRegistrationRow.column(.pushToken)
            )
            .joiningPasses(on: DeliveryOutboxRow.column(.passID))
            .joiningPassTypes()
        case .order:
            query = joiningRegistration(
                query, table: OrderRegistrationRow.table,
                device: OrderRegistrationRow.column(.deviceLibraryIdentifier),
                owner: OrderRegistrationRow.column(.orderID), pushToken: OrderRegistrationRow.column(.pushToken)
            )
            .join(OrderRow.table, on: OrderRow.column(.id), .equal, DeliveryOutboxRow.column(.passID))
            .join(PassTypeRow.table, on: PassTypeRow.column(.id), .equal, OrderRow.column(.orderTypeID))
            .where(DeliveryOutboxRow.column(.kind), .equal, SQLLiteral.string(DeliveryOutboxRow.orderPushKind))
        }
        return SerializedSelect(
            query.where(DeliveryOutboxRow.column(.nextAttemptAt), .lessThanOrEqual, SQLBind(Int64(0)))
                .where(SQLWalletRepository.unleased(at: 0))
                .orderBy(DeliveryOutboxRow.column(.nextAttemptAt)),
            boundLimit: true)
    }

    /// `query` joined to the registration each push is for (in `table`, whose `owner` column names the pass or the
    /// order), selecting its push token.
    private static func joiningRegistration(
        _ query: SQLSelectBuilder, table: String, device: SQLColumn, owner: SQLColumn, pushToken: SQLColumn
    ) -> SQLSelectBuilder {
        query.column(pushToken, as: CodingKeys.pushToken.stringValue)
            .join(
                table,
                equating: [
                    (device, DeliveryOutboxRow.column(.deviceLibraryIdentifier)),
                    (owner, DeliveryOutboxRow.column(.passID)),
                ])
    }
}
