/// The identifiers Google takes for classes, objects, text modules and messages: letters, digits, `.`, `_` and `-`
/// ([reference](https://developers.google.com/wallet/reference/rest/v1/genericobject)).
enum GoogleIdentifier {
    /// `text` with every character Google refuses replaced by `_` (and `.` too unless `allowingDots`).
    static func sanitized(_ text: String, allowingDots: Bool = true) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                let allowed =
                    (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                    || scalar == "_" || scalar == "-" || (allowingDots && scalar == ".")
                return allowed ? Character(scalar) : "_"
            })
    }
}
