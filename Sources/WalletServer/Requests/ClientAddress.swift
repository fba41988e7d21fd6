import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Secrets
import WalletServices

/// Who sent a request, for per-address limits and for what `/ready` tells: the peer's IP address, or, when the peer
/// is a trusted proxy, the nearest address in `X-Forwarded-For` that is not one.
///
/// Only a trusted proxy's `X-Forwarded-For` is read: any other client could name any address in it. A connection
/// without an IP address (a Unix socket, an in-process client) counts as this machine.
package struct ClientAddress: Sendable {
    /// What stands for a peer without an IP address.
    static let local = "local"

    /// The peers whose `X-Forwarded-For` is believed.
    package let trustedProxies: Set<String>
    private let logger: Logger
    /// Whether a trusted proxy's request without `X-Forwarded-For` was reported (once per process and resolver).
    private let reportedMissingHeader = Locked(false)

    /// Creates a resolver that believes `X-Forwarded-For` only from `trustedProxies` (IP addresses); the first request
    /// a trusted proxy sends without it is reported to `logger`.
    package init(
        trustedProxies: Set<String> = WalletServerConfiguration.defaultTrustedProxies,
        logger: Logger = Logger(label: "coffer.server")
    ) {
        self.trustedProxies = trustedProxies
        self.logger = logger
    }

    /// The address the request came from (at most 64 characters).
    package func address(of request: Request, context: WalletRequestContext) -> String {
        var address = context.remoteAddress.map { $0.ipAddress ?? Self.local } ?? Self.local
        guard isTrusted(address) else { return address }
        let forwarded = request.headers[values: Self.xForwardedFor].joined(separator: ",").split(separator: ",")
        if forwarded.isEmpty, address != Self.local { reportMissingHeader(from: address) }
        for hop in forwarded.reversed() {
            address = String(hop.trimmingCharacters(in: .whitespaces).prefix(64))
            guard isTrusted(address) else { break }
        }
        return address.isEmpty ? Self.local : address
    }

    /// The budget the request is counted in for per-address limits: its address, or for IPv6 the address's /64 (one
    /// subscriber's whole allocation, whose interface identifiers cost nothing to vary).
    package func limiterKey(of request: Request, context: WalletRequestContext) -> String {
        let address = address(of: request, context: context)
        guard address.contains(":"), let parsed = IPAddress(numeric: address) else { return address }
        return parsed.limiterKey
    }

    /// Whether the request came from this machine (a loopback peer, or one whose proxy says so).
    package func isLocal(_ request: Request, context: WalletRequestContext) -> Bool {
        let address = address(of: request, context: context)
        return address == Self.local || NetworkHost.isLoopback(address)
    }

    /// Says once that a trusted proxy sent a request without `X-Forwarded-For`: behind a proxy that never sets it,
    /// every caller is that proxy (one budget for all of them, `/ready`'s reasons shown to all of them).
    private func reportMissingHeader(from proxy: String) {
        guard
            reportedMissingHeader.withLock({ reported in
                defer { reported = true }; return !reported
            })
        else { return }
        logger.warning(
            """
            a request came from a trusted proxy without X-Forwarded-For: if a proxy forwards callers this way, every             caller counts as the proxy (one rate-limit budget for all, /ready's reasons shown to all); set             X-Forwarded-For at the proxy, or stop trusting it (--trusted-proxy)
            """,
            metadata: ["proxy": "\(proxy)"])
    }

    private func isTrusted(_ address: String) -> Bool {
        address == Self.local || trustedProxies.contains(address)
    }

    private static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
