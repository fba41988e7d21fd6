#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as the system's resolver gives it, and whether it is on the public internet: what the
/// server checks before it connects to a host a client chose (a webhook endpoint), so that no spelling of an
/// internal address and no host name that resolves to one gets a request from inside the network.
package struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// Where an address leads.
    package enum Scope: Sendable, Hashable {
        /// The public internet.
        case global
        /// This machine (`127.0.0.0/8`, `::1`, and those mapped or embedded in IPv6).
        case loopback
        /// Anything else that is not public: private, shared, link-local, unique-local, unspecified, multicast,
        /// reserved and documentation ranges, and IPv6 forms that embed one of those.
        case `internal`
    }

    /// The address's 4 or 16 bytes, in network order.
    let bytes: [UInt8]

    /// The address with these 4 or 16 bytes.
    init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address `text` spells as a number, in any form the system's resolver reads as one (`127.1`,
    /// `2130706433` and `0x7f.1` are all 127.0.0.1; brackets around IPv6 are dropped); `nil` for a host name.
    package init?(numeric text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        guard let address = try? Self.resolve(String(text), numericOnly: true).first else { return nil }
        self = address
    }

    /// Every address `host` resolves to (a blocking call to the system's resolver: run it off the event loops).
    ///
    /// - Throws: ``ResolutionFailure`` when the name does not resolve.
    package static func resolve(_ host: String) throws -> [IPAddress] {
        try resolve(host, numericOnly: false)
    }

    private static func resolve(_ host: String, numericOnly: Bool) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        if numericOnly { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { throw ResolutionFailure() }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr, let found = IPAddress(socketAddress: address),
                !addresses.contains(found)
            {
                addresses.append(found)
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw ResolutionFailure() }
        return addresses
    }

    private init?(socketAddress: UnsafeMutablePointer<sockaddr>) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self.init(bytes: withUnsafeBytes(of: address) { Array($0) })
        case AF_INET6:
            let address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(bytes: withUnsafeBytes(of: address) { Array($0) })
        default:
            return nil
        }
    }

    /// A host name that does not resolve.
    package struct ResolutionFailure: Error {}

    /// The address in its usual text form (`192.0.2.1`, `2001:db8::1`), as a connection target.
    package var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "::" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What per-address limits count the address under: an IPv4 address (also when mapped into IPv6) as itself, an
    /// IPv6 address as its /64 (`2001:db8:1:2::/64`).
    package var limiterKey: String {
        if bytes.count == 4 { return description }
        if let mapped { return mapped.map(String.init).joined(separator: ".") }
        guard let prefix = IPAddress(bytes: Array(bytes[0..<8]) + Array(repeating: 0, count: 8)) else {
            return description
        }
        return prefix.description + "/64"
    }

    /// Where the address leads (IANA's special-purpose address registries).
    package var scope: Scope {
        bytes.count == 4 ? Self.scope(ipv4: bytes) : scopeOfIPv6
    }

    private static func scope(ipv4 b: [UInt8]) -> Scope {
        switch (b[0], b[1], b[2]) {
        case (127, _, _): return .loopback
        case (0, _, _), (10, _, _), (100, 64...127, _), (169, 254, _), (172, 16...31, _), (192, 168, _),
            (192, 0, 0), (192, 0, 2), (198, 18...19, _), (198, 51, 100), (203, 0, 113), (224...255, _, _):
            return .internal
        default: return .global
        }
    }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) carries, if it is one.
    private var mapped: [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff else {
            return nil
        }
        return Array(bytes[12..<16])
    }

    private var scopeOfIPv6: Scope {
        let b = bytes
        if let mapped { return Self.scope(ipv4: mapped) }
        if b[0..<15].allSatisfy({ $0 == 0 }) { return b[15] == 1 ? .loopback : .internal }  // ::1, ::
        if b[0..<12].allSatisfy({ $0 == 0 }) { return .internal }  // IPv4-compatible (deprecated)
        if b[0] == 0, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b { return Self.scope(ipv4: Array(b[12..<16])) }  // NAT64
        if b[0] == 0x20, b[1] == 0x02 { return Self.scope(ipv4: Array(b[2..<6])) }  // 6to4
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x00, b[3] == 0x00 { return .internal }  // Teredo
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return .internal }  // documentation
        if b[0] & 0xfe == 0xfc || b[0] == 0xff { return .internal }  // unique-local, multicast
        if b[0] == 0xfe, b[1] & 0xc0 == 0x80 || b[1] & 0xc0 == 0xc0 { return .internal }  // link-local, site-local
        if b[0] == 0x01, b[1...7].allSatisfy({ $0 == 0 }) { return .internal }  // discard-only
        // Only 2000::/3 is allocated for global unicast.
        return b[0] & 0xe0 == 0x20 ? .global : .internal
    }
}
