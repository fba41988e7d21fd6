import Foundation

/// Generic checks of a stored value's shape: empty bytes, and, for JSON, empty credential fields and empty
/// envelopes. They never report a value, only where it is.
enum SecretShape {
    /// Field names that hold credentials, compared case-insensitively as suffixes (`accessToken`, `api_key`).
    static let credentialNames = ["token", "secret", "key", "password", "passphrase", "credential", "pin"]

    static func inspect(_ data: Data, account: String) -> [PreflightFinding] {
        if data.isEmpty {
            return [PreflightFinding(level: .error, kind: .emptyValue, account: account, message: "the value is empty")]
        }
        guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return []
        }
        var findings: [PreflightFinding] = []
        walk(json, path: [], account: account, into: &findings)
        return findings
    }

    private static func walk(_ node: Any, path: [String], account: String, into findings: inout [PreflightFinding]) {
        let location = path.isEmpty ? "the value" : "'\(path.joined(separator: "."))'"
        switch node {
        case let object as [String: Any]:
            if object.isEmpty {
                findings.append(
                    PreflightFinding(
                        level: path.isEmpty ? .error : .warn, kind: .emptyEnvelope, account: account,
                        message: "\(location) is an empty object"))
            }
            for key in object.keys.sorted() {
                walk(object[key]!, path: path + [key], account: account, into: &findings)
            }
        case let array as [Any]:
            if array.isEmpty {
                findings.append(
                    PreflightFinding(
                        level: path.isEmpty ? .error : .warn, kind: .emptyEnvelope, account: account,
                        message: "\(location) is an empty list"))
            }
            for (index, element) in array.enumerated() {
                walk(element, path: path + ["\(index)"], account: account, into: &findings)
            }
        case let string as String where string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty:
            let isCredential = path.last.map(isCredentialName) ?? true
            findings.append(
                PreflightFinding(
                    level: isCredential ? .error : .warn, kind: isCredential ? .emptyToken : .emptyField,
                    account: account, message: "\(location) is empty"))
        default:
            break
        }
    }

    static func isCredentialName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return credentialNames.contains { lowered.hasSuffix($0) }
    }
}
