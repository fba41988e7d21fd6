/// Hexadecimal text as Wallet exchanges it (issuer binding data, key hashes): ASCII digits and the letters a–f in
/// either case, two per byte.
///
/// `Character.isHexDigit` is not enough: it also accepts the fullwidth digits and letters (U+FF10…), which no
/// device sends and no hex decoder reads. Lengths are counted in UTF-8 bytes, as they travel.
public enum HexText {
    /// Whether `text` is non-empty ASCII hexadecimal of an even length and at most `maximumLength` bytes.
    public static func isValid(_ text: String, maximumLength: Int = .max) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= maximumLength && bytes.count.isMultiple(of: 2)
            && bytes.allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
