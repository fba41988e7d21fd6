import Foundation
import WalletDocuments

extension Pass {
    /// The texts of `pass.json` that Wallet looks up in the device language's `pass.strings`, each with its path:
    /// `description`, `organizationName`, `logoText`, `eventLogoText`, and each field's `label`, `value`,
    /// `attributedValue` and `changeMessage` (numbers and dates are not looked up).
    public var localizableTexts: [(path: String, text: String)] {
        var texts: [(path: String, text: String)] = []
        for key in ["description", "organizationName", "logoText", "eventLogoText"] {
            if case .string(let text)? = json[key] { texts.append((key, text)) }
        }
        var lists = [(fields, style.rawValue)]
        if let poster = posterGeneric { lists.append((poster, "posterGeneric")) }
        for (fields, parent) in lists {
            for (list, index, field) in fields.all {
                for key in ["label", "value", "attributedValue", "changeMessage"] {
                    guard case .string(let text)? = field.json[key] else { continue }
                    // A date in a value is formatted, not looked up.
                    if key == "value" || key == "attributedValue", W3CDate.date(from: text) != nil { continue }
                    texts.append(("\(parent).\(list)[\(index)].\(key)", text))
                }
            }
        }
        return texts
    }
}
