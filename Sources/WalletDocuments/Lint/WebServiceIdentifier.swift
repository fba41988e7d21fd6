/// The rule for an identifier Wallet puts in a web service's path: a pass type or order type identifier, a serial
/// number, an order identifier, a device library identifier.
///
/// Apple documents no escaping of these identifiers in the paths Wallet builds, so an identifier must read the same
/// whether Wallet escapes it or not: 1 to 256 printable ASCII characters, none of `/`, `?`, `#` and `%`, which would
/// change the path's meaning ([Wallet Orders web service](https://developer.apple.com/documentation/walletorders)).
package enum WebServiceIdentifier {
    /// The longest identifier, in characters.
    package static let maximumLength = 256

    /// Why `value` cannot go in a web service path, or `nil` when it can.
    package static func problem(_ value: String) -> String? {
        guard !value.isEmpty else { return "is empty" }
        if let refused = value.unicodeScalars.first(where: { !isAllowed($0) }) {
            return "contains '\(refused.escaped(asASCII: true))'; a web service path takes printable ASCII other "
                + "than '/', '?', '#' and '%' (letters, digits, '-', '_' and '.' are safe everywhere)"
        }
        // Every character is now one byte.
        return value.utf8.count > maximumLength ? "is longer than \(maximumLength) characters" : nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        (0x21...0x7E).contains(scalar.value) && !"/?#%".unicodeScalars.contains(scalar)
    }
}
