import Foundation
import WalletPasses

/// What a change tells a pass's holder: a changed field's `changeMessage` with the field's new value in place of
/// `%@`, as Wallet shows it. Google Wallet gets it as a message on the pass.
package struct PassChangeNotice: Codable, Hashable, Sendable {
    /// The field's key.
    package var fieldKey: String
    /// The field's label, if it has one.
    package var label: String?
    /// The message, its value filled in.
    package var message: String

    /// The notice of `field`, if it has a change message.
    package init?(field: PassField) {
        guard let template = field.changeMessage, !template.isEmpty else { return nil }
        let value: String
        switch field.value {
        case .text(let text): value = text
        case .number(let number):
            let amount = number.formatted(.number.grouping(.never))
            value = field.currencyCode.map { "\(amount) \($0)" } ?? amount
        }
        fieldKey = field.key
        label = field.label
        message = String(template.replacingOccurrences(of: "%@", with: value).prefix(500))
    }

    private enum CodingKeys: String, CodingKey {
        case fieldKey = "field_key"
        case label, message
    }
}

/// A pass's content after a change, and what the change tells its holder.
package struct PassRewrite: Sendable {
    /// The new archived content.
    package var content: Data
    /// The notices, one per changed field with a change message.
    package var notices: [PassChangeNotice]

    /// The rewrite to `content`, telling `notices`.
    package init(content: Data, notices: [PassChangeNotice] = []) {
        self.content = content
        self.notices = notices
    }
}
