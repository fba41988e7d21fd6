/// The rules for the identifiers that name secrets: service names, access groups and account paths.
///
/// Account paths (``ServiceID/path``) form a namespace such as `ai/openai` or `brokers/schwab/credentials`:
/// one to ``maximumPathLength`` bytes of non-empty `/`-separated segments made of ASCII letters, digits, `.`,
/// `_`, `-` and `@`, with no `.` or `..` segment. Service names and access groups are free text of at most
/// ``maximumNameLength`` bytes without control characters. Backends never turn an identifier into a file-system
/// path directly, so these rules are a second line of defence and a guarantee of portability between backends.
public enum SecretPath {
    /// The longest account path accepted, in UTF-8 bytes.
    public static let maximumPathLength = 256
    /// The longest service name or access group accepted, in UTF-8 bytes.
    public static let maximumNameLength = 256

    /// Checks an account path, throwing ``SecretsError/invalidIdentifier(_:reason:)`` when it breaks a rule.
    public static func validate(path: String) throws {
        let byteCount = path.utf8.count
        guard byteCount > 0 else { throw SecretsError.invalidIdentifier(path, reason: "the path is empty") }
        guard byteCount <= maximumPathLength else {
            throw SecretsError.invalidIdentifier(path, reason: "the path is longer than \(maximumPathLength) bytes")
        }
        for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty {
                throw SecretsError.invalidIdentifier(
                    path, reason: "a path segment is empty (leading, trailing or doubled '/')")
            }
            if segment == "." || segment == ".." {
                throw SecretsError.invalidIdentifier(path, reason: "'.' and '..' are not allowed as path segments")
            }
            if let bad = segment.unicodeScalars.first(where: { !isAllowedInPath($0) }) {
                throw SecretsError.invalidIdentifier(
                    path,
                    reason: "character U+\(String(bad.value, radix: 16, uppercase: true)) is not allowed; "
                        + "use letters, digits, '.', '_', '-', '@' and '/'")
            }
        }
    }

    /// Checks a service name or access group.
    public static func validate(name: String, role: String) throws {
        guard !name.isEmpty else { throw SecretsError.invalidIdentifier(name, reason: "the \(role) is empty") }
        guard name.utf8.count <= maximumNameLength else {
            throw SecretsError.invalidIdentifier(
                name, reason: "the \(role) is longer than \(maximumNameLength) bytes")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw SecretsError.invalidIdentifier(name, reason: "the \(role) contains a control character")
        }
    }

    private static func isAllowedInPath(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", "@": return true
        default: return false
        }
    }
}
