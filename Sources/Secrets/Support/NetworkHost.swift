import Foundation

/// Facts about a host name in a URL, for the modules that decide whether plain http is acceptable (only to this
/// machine): the wallet server's public URL and database, and token endpoints.
package enum NetworkHost {
    /// Whether `host` names this machine: `localhost` (or a name under it), an address in `127.0.0.0/8`, or `::1`.
    package static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
