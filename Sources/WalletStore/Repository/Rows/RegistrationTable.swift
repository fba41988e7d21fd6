import SQLKit
import WalletServices

/// Where one kind of document's device registrations are kept: passes' in `pass_registrations` beside
/// `apple_passes`, orders' in `order_registrations` beside `orders`, with the same columns but the document's.
struct RegistrationTable: Sendable {
    /// The registrations' table.
    let table: String
    /// Its column naming the document.
    let documentColumn: String
    /// The documents' table, whose row a registration holds for its transaction.
    let documents: String
    /// The outbox `kind` of the document's pushes, when its pushes are told apart by it (orders').
    let pushKind: String?

    /// The table of `subject`'s registrations.
    static func of(_ subject: TraceSubject) -> RegistrationTable {
        switch subject {
        case .pass:
            RegistrationTable(
                table: PassRegistrationRow.table, documentColumn: PassRegistrationRow.CodingKeys.passID.stringValue,
                documents: PassRow.table, pushKind: nil)
        case .order:
            RegistrationTable(
                table: OrderRegistrationRow.table,
                documentColumn: OrderRegistrationRow.CodingKeys.orderID.stringValue, documents: OrderRow.table,
                pushKind: DeliveryOutboxRow.orderPushKind)
        }
    }

    /// `column` of the registrations' table.
    func column(_ name: String) -> SQLColumn { SQLColumn(name, table: table) }

    /// When a registration's device was last seen: `last_seen_at`, or its last renewal for a row from before it.
    var lastSeen: SQLFunction { SQLFunction("COALESCE", args: column("last_seen_at"), column("updated_at")) }
}
