import Foundation

/// How Coffer reads an environment variable: surrounding spaces trimmed, and an empty value the same as none.
package enum EnvironmentValue {
    /// The value of `name` in `environment`, trimmed, or `nil` when it is unset or blank.
    package static func named(_ name: String, in environment: [String: String]) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}
