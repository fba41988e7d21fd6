import Foundation
import WalletServices

/// A row of `device_logs`: a message a device sent to the web service's log endpoint.
struct DeviceLogRow: TableRow {
    /// The table the rows are in.
    static let table = "device_logs"

    /// The columns of `device_logs`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case receivedAt = "received_at"
        case message
    }

    /// The message's identifier.
    var id: String
    /// When the message arrived, in milliseconds.
    var receivedAt: Int64
    /// The message.
    var message: String

    /// A new row for `message`, received at `receivedAt`.
    init(message: String, receivedAt: Date) {
        id = UUID().uuidString
        self.receivedAt = SQLWalletRepository.ms(receivedAt)
        self.message = message
    }
}
