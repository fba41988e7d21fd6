import WalletDocuments

extension JSONValue {
    /// The string, if this is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, if this is one.
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
