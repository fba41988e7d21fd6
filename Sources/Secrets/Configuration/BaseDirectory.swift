import Foundation

/// The user's base directories as the XDG Base Directory specification defines them on Linux: the variable's value
/// when it is an absolute path, else its default under the home directory.
package enum BaseDirectory: Sendable {
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    case data
    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    case cache

    /// The directory, read from `environment`.
    package func url(environment: [String: String]) -> URL {
        let (variable, fallback) =
            switch self {
            case .data: ("XDG_DATA_HOME", ".local/share")
            case .cache: ("XDG_CACHE_HOME", ".cache")
            }
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        // `NSHomeDirectory()` rather than `homeDirectoryForCurrentUser`, which iOS, watchOS and tvOS lack.
        let home = EnvironmentValue.named("HOME", in: environment) ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
    }
}
