import CofferTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Testing
import WalletServer
import WalletServices
import WalletStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("The server's abuse controls, from its configuration: idle connections, expired sessions, rate limits")
struct AbuseControlTests {
    /// Runs the whole server (``WalletServerApplication/buildApplication(configuration:)``) over a fresh data
    /// directory, live on a free port, with `body` given the port and the server's storage opened beside it.
    func withServer(
        _ configure: (inout WalletServerConfiguration) -> Void,
        _ body: @Sendable (any TestClientProtocol, Int, WalletServerStorage) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        var configuration = WalletServerConfiguration(
            port: 0, dataDirectory: directory.appending("data"), createsDevelopmentIdentity: false)
        configure(&configuration)
        let frozen = configuration
        let application = try await WalletServerApplication.buildApplication(
            configuration: frozen, logger: Logger(label: "test"))
        try await application.test(.live) { client in
            let storage = try await WalletServerStorage.open(configuration: frozen)
            do {
                try await body(client, try #require(client.port), storage)
            } catch {
                try? await storage.shutdown()
                throw error
            }
            try await storage.shutdown()
        }
    }

    @Test("a connection that sends nothing is closed by the server once the idle timeout passes")
    func idleConnectionClosed() async throws {
        try await withServer({ $0.idleTimeout = 0.5 }) { _, port, _ in
            let outcome = try await RawConnection.waitForClose(port: port, sending: nil, giveUpAfter: 10)
            #expect(outcome.closed, "the server kept a silent connection open for 10 s")
            #expect(outcome.elapsed >= 0.4)
            #expect(outcome.elapsed < 5)
        }
    }

    @Test("a connection that stops in the middle of its request headers is closed once the idle timeout passes")
    func halfRequestClosed() async throws {
        try await withServer({ $0.idleTimeout = 0.5 }) { _, port, _ in
            let partial = "POST /api/v2/in_app_provisioning/issuer_data HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"
            let outcome = try await RawConnection.waitForClose(port: port, sending: partial, giveUpAfter: 10)
            #expect(outcome.closed, "the server waited 10 s for the rest of the headers")
            #expect(outcome.elapsed < 5)
        }
    }

    @Test("the running server deletes expired sessions in the background, and leaves live ones")
    func purgeRunsInTheServer() async throws {
        try await withServer({ $0.sessionPurgeInterval = 0.05 }) { _, _, storage in
            let repository = storage.repository
            let pass = try await repository.makePass().pass
            try await repository.makeSessions(of: pass, expired: 1, now: Date())
            let deadline = ContinuousClock.now + .seconds(10)
            var remaining = 2
            while remaining > 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                remaining = try await storage.database.sql.select().column("*").from("provisioning_sessions").all()
                    .count
            }
            #expect(remaining == 1, "the expired session was not deleted within 10 s")
            #expect(try await repository.consumeSession(id: "live", now: Date()) != nil)
        }
    }

    @Test("the configured issuance limit applies to the running server: over it, 429 with Retry-After")
    func configuredRateLimit() async throws {
        try await withServer({ $0.issuanceRateLimit = RateLimit(perMinute: 1, burst: 1) }) {
            client, _, storage in
            let acme = try await storage.repository.createClient(name: "Acme")
            let token = try await storage.repository.createAPIUser(clientID: acme.id, name: "app").token
            var statuses: [Int] = []
            var retryAfter: String?
            for _ in 0..<2 {
                let (status, retry) = try await client.execute(
                    uri: "/api/v2/in_app_provisioning/issuer_data", method: .post,
                    headers: ProvisioningAPI.headers(token: token), body: ByteBuffer(string: #"{"tag_id":"NONE"}"#)
                ) { response in (response.status.code, response.headers[.retryAfter]) }
                statuses.append(status)
                retryAfter = retry
            }
            #expect(statuses == [404, 429])
            // A minute's wait, less the time between the two requests (seconds on a loaded machine).
            #expect(retryAfter.flatMap(Int.init).map { (30...60).contains($0) } == true, "\(retryAfter ?? "none")")
        }
    }
}

/// A plain TCP connection to the server on loopback, used to see what the server does with a client that goes
/// quiet.
enum RawConnection {
    struct Outcome {
        /// Whether the server closed the connection (rather than the wait running out).
        let closed: Bool
        /// Seconds from connecting until the close, or until giving up.
        let elapsed: Double
    }

    /// Connects, sends `text` if any, then waits up to `giveUpAfter` seconds for the server to close the
    /// connection, on a thread of its own (the wait blocks).
    static func waitForClose(port: Int, sending text: String?, giveUpAfter seconds: Int) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingWait(port: port, sending: text, seconds: seconds) })
            }
        }
    }

    private static func blockingWait(port: Int, sending text: String?, seconds: Int) throws -> Outcome {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { _ = close(descriptor) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw POSIXError(.init(rawValue: errno) ?? .ECONNREFUSED) }
        let started = ContinuousClock.now
        if let text {
            let bytes = Array(text.utf8)
            guard send(descriptor, bytes, bytes.count, 0) == bytes.count else {
                throw POSIXError(.init(rawValue: errno) ?? .EIO)
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            let elapsed = started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if count > 0 { continue }  // an answer (none is expected); keep waiting for the close
            // 0: the server closed it; a reset is a close too; a timeout is not.
            if count == 0 || errno == ECONNRESET { return Outcome(closed: true, elapsed: seconds) }
            if errno == EINTR { continue }
            return Outcome(closed: false, elapsed: seconds)
        }
    }
}
