import Foundation
import HTTPTypes
import Hummingbird
import Secrets

/// Who sent a request, for per-address limits and for what `/ready` tells: the peer's IP address, or, when the peer
/// is a trusted proxy, the nearest address in `X-Forwarded-For` that is not one.
///
/// Only a trusted proxy's `X-Forwarded-For` is read: any other client could name any address in it. A connection
/// without an IP address (a Unix socket, an in-process client) counts as this machine.
public struct ClientAddress: Sendable {
    /// The proxies trusted by default: this machine (a TLS proxy beside the server).
    public static let defaultTrustedProxies: Set<String> = ["127.0.0.1", "::1"]
    /// What stands for a peer without an IP address.
    static let local = "local"

    /// The peers whose `X-Forwarded-For` is believed.
    public let trustedProxies: Set<String>

    /// Creates a resolver that believes `X-Forwarded-For` only from `trustedProxies` (IP addresses).
    public init(trustedProxies: Set<String> = Self.defaultTrustedProxies) {
        self.trustedProxies = trustedProxies
    }

    /// The address the request came from (at most 64 characters).
    public func address(of request: Request, context: WalletRequestContext) -> String {
        var address = context.remoteAddress.map { $0.ipAddress ?? Self.local } ?? Self.local
        guard isTrusted(address) else { return address }
        let forwarded = request.headers[values: Self.xForwardedFor].joined(separator: ",").split(separator: ",")
        for hop in forwarded.reversed() {
            address = String(hop.trimmingCharacters(in: .whitespaces).prefix(64))
            guard isTrusted(address) else { break }
        }
        return address.isEmpty ? Self.local : address
    }

    /// The budget the request is counted in for per-address limits: its address, or for IPv6 the address's /64 (one
    /// subscriber's whole allocation, whose interface identifiers cost nothing to vary).
    public func limiterKey(of request: Request, context: WalletRequestContext) -> String {
        let address = address(of: request, context: context)
        guard address.contains(":"), let parsed = IPAddress(numeric: address) else { return address }
        return parsed.limiterKey
    }

    /// Whether the request came from this machine (a loopback peer, or one whose proxy says so).
    public func isLocal(_ request: Request, context: WalletRequestContext) -> Bool {
        let address = address(of: request, context: context)
        return address == Self.local || NetworkHost.isLoopback(address)
    }

    private func isTrusted(_ address: String) -> Bool {
        address == Self.local || trustedProxies.contains(address)
    }

    private static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
