import CofferTestSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("Who sent a request: the peer, or what a trusted proxy's X-Forwarded-For says")
struct ClientAddressTests {
    /// The address `resolver` finds for a request from `peer` carrying `forwarded` as `X-Forwarded-For`.
    static func address(
        from peer: String, forwarded: String?, resolver: ClientAddress = ClientAddress()
    ) throws -> (address: String, isLocal: Bool) {
        let channel = EmbeddedChannel()
        channel.remoteAddress = try SocketAddress(ipAddress: peer, port: 40_000)
        let context = WalletRequestContext(source: .init(channel: channel, logger: Logger(label: "test")))
        var fields = HTTPFields()
        if let forwarded { fields[HTTPField.Name("X-Forwarded-For")!] = forwarded }
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "coffer", path: "/ready", headerFields: fields),
            body: RequestBody(buffer: ByteBuffer()))
        return (resolver.address(of: request, context: context), resolver.isLocal(request, context: context))
    }

    @Test(
        "a client that is not a trusted proxy is itself, whatever X-Forwarded-For it sends",
        arguments: [("198.51.100.7", "127.0.0.1"), ("198.51.100.7", "203.0.113.1, 127.0.0.1"), ("10.0.0.9", nil)])
    func untrustedPeer(_ peer: String, _ forwarded: String?) throws {
        let found = try Self.address(from: peer, forwarded: forwarded)
        #expect(found.address == peer)
        #expect(!found.isLocal, "a forged X-Forwarded-For: 127.0.0.1 does not make a remote caller local")
    }

    @Test("a trusted proxy's request without X-Forwarded-For is reported once: its callers all look local")
    func proxyWithoutHeader() throws {
        let lines = Recorder()
        let resolver = ClientAddress(
            trustedProxies: ["127.0.0.1"], logger: Logger(label: "proxy") { _ in RecordingLogHandler(recorder: lines) })
        for _ in 0..<3 { _ = try Self.address(from: "127.0.0.1", forwarded: nil, resolver: resolver) }
        _ = try Self.address(from: "127.0.0.1", forwarded: "203.0.113.1", resolver: resolver)
        #expect(lines.values.count == 1)
        #expect(lines.values.first?.contains("without X-Forwarded-For") == true)
    }

    @Test("behind a trusted proxy, the nearest address that is not a trusted proxy is the client")
    func trustedProxy() throws {
        #expect(try Self.address(from: "127.0.0.1", forwarded: "203.0.113.1").address == "203.0.113.1")
        #expect(try Self.address(from: "127.0.0.1", forwarded: "198.51.100.2, 203.0.113.1").address == "203.0.113.1")
        let chain = ClientAddress(trustedProxies: ["127.0.0.1", "10.0.0.2"])
        #expect(
            try Self.address(from: "127.0.0.1", forwarded: "203.0.113.1, 10.0.0.2", resolver: chain).address
                == "203.0.113.1")
        #expect(try Self.address(from: "127.0.0.1", forwarded: nil).isLocal)
        let nobody = ClientAddress(trustedProxies: [])
        #expect(try Self.address(from: "127.0.0.1", forwarded: "203.0.113.1", resolver: nobody).address == "127.0.0.1")
    }
}
