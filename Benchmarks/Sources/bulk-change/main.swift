// The devices of Benchmarks/load-bulk-change.sh: an APNs stand-in (WalletServerTesting, HTTP/2 over TLS on loopback)
// for the `coffer serve` replicas to push to, and one simulated device per pass that, on its push, asks a replica for
// its changed serial numbers and fetches the new pass, as Wallet does (the replicas taken in turn). It registers each
// device in the database, fetches each pass once to learn its authentication token (what a device holds), then makes
// the bulk change and prints the seconds from the call until the last device holds the new pass.
//
// Usage: bulk-change --database URL --replicas http://127.0.0.1:A[,http://127.0.0.1:B] --token API_TOKEN
//            --tags seed.json --apns-key key.p8 --apns-key-id ID --apns-team-id TEAM --root-out root.pem
//        It prints "stand-in https://localhost:PORT" once listening, and waits for the replicas' /health.
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import SQLKit
import Secrets
import WalletPasses
import WalletServerTesting
import WalletStore

/// A simulated device: its library identifier, the pass it holds and that pass's token.
struct Device: Sendable {
    var identifier: String
    var passTypeIdentifier: String
    var serialNumber: String
    var token: String
    var lastUpdated: String?
}

@main
struct BulkChange {
    static func main() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let options = try Options(CommandLine.arguments.dropFirst())
        try await run(options)
    }

    struct Options {
        var database = ""
        var replicas: [String] = []
        var token = ""
        var tags = ""
        var apnsKey = ""
        var apnsKeyID = ""
        var apnsTeamID = ""
        var rootOut = ""
        var concurrency = 32

        init(_ arguments: ArraySlice<String>) throws {
            var iterator = arguments.makeIterator()
            while let name = iterator.next() {
                guard let value = iterator.next() else { throw Failure("\(name) needs a value") }
                switch name {
                case "--database": database = value
                case "--replicas": replicas = value.split(separator: ",").map(String.init)
                case "--token": token = value
                case "--tags": tags = value
                case "--apns-key": apnsKey = value
                case "--apns-key-id": apnsKeyID = value
                case "--apns-team-id": apnsTeamID = value
                case "--root-out": rootOut = value
                case "--concurrency": concurrency = Int(value) ?? concurrency
                default: throw Failure("unknown option \(name)")
                }
            }
            guard !database.isEmpty, !replicas.isEmpty, !token.isEmpty, !tags.isEmpty, !apnsKey.isEmpty,
                !rootOut.isEmpty
            else { throw Failure("give --database, --replicas, --token, --tags, --apns-key and --root-out") }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// What the devices share: who is waiting for its push, and when the last one got its pass.
    final class Progress: Sendable {
        private let state = NIOLockedValueBox((done: 0, pushes: 0, last: ContinuousClock.now, failures: [String]()))
        let total: Int
        init(total: Int) { self.total = total }

        func pushed() { state.withLockedValue { $0.pushes += 1 } }
        func finished() {
            state.withLockedValue {
                $0.done += 1; $0.last = ContinuousClock.now
            }
        }
        func failed(_ reason: String) { state.withLockedValue { $0.failures.append(reason) } }
        var snapshot: (done: Int, pushes: Int, last: ContinuousClock.Instant, failures: [String]) {
            state.withLockedValue { $0 }
        }
    }

    static func run(_ options: Options) async throws {
        let keyPEM = try String(contentsOfFile: options.apnsKey, encoding: .utf8)
        let key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        let pushes = AsyncStream.makeStream(of: String.self)
        let standIn = try await APNsStandIn(
            tokenKey: key.publicKey, keyID: options.apnsKeyID, teamID: options.apnsTeamID,
            delivered: { received in
                pushes.continuation.yield(String(received.path.dropFirst("/3/device/".count)))
            })
        let root = Data(try standIn.trustRoot.toDERBytes()).base64EncodedString(options: [.lineLength64Characters])
        try "-----BEGIN CERTIFICATE-----\n\(root)\n-----END CERTIFICATE-----\n".write(
            toFile: options.rootOut, atomically: true, encoding: .utf8)
        FileHandle.standardOutput.write(Data("stand-in \(standIn.url.absoluteString)\n".utf8))

        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = options.concurrency
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            try await measure(options, client: client, pushes: pushes.stream)
        } catch {
            try? await client.shutdown()
            try? await standIn.shutdown()
            throw error
        }
        try await client.shutdown()
        try await standIn.shutdown()
    }

    static func measure(_ options: Options, client: HTTPClient, pushes: AsyncStream<String>) async throws {
        for replica in options.replicas { try await waitForHealth(replica, client: client) }
        let tagIDs = try tags(options.tags)
        let authorization = "Basic " + Data("\(options.token):".utf8).base64EncodedString()

        // Each pass once, as its device got it: the token the device holds.
        let started = ContinuousClock.now
        var tokens: [String: (String, String)] = [:]
        try await withThrowingTaskGroup(of: (String, String, String).self) { group in
            var next = tagIDs.makeIterator()
            func add() {
                guard let tag = next.next() else { return }
                group.addTask {
                    let body = try await get(
                        "\(options.replicas[0])/api/v2/passes/\(tag)/pkpass", authorization: authorization,
                        client: client)
                    let pass = try PassPackage.pass(inArchive: body)
                    guard let token = pass.authenticationToken else { throw Failure("the pass has no token") }
                    return (pass.serialNumber, pass.passTypeIdentifier, token)
                }
            }
            for _ in 0..<options.concurrency { add() }
            while let (serial, type, token) = try await group.next() {
                tokens[serial] = (type, token)
                add()
            }
        }
        FileHandle.standardError.write(
            Data("fetched \(tokens.count) passes in \(started.duration(to: .now))\n".utf8))

        // One device per pass, registered in the database (the web service lets an address register 30 a minute).
        let database = try WalletDatabase.open(url: options.database)
        var devices: [String: Device] = [:]
        do {
            let rows = try await database.transaction { db in
                try await db.raw(
                    """
                    INSERT INTO pass_registrations (device_library_identifier, pass_id, push_token, created_at, \
                    updated_at, last_seen_at) SELECT 'device-' || id, id, lower(replace(id, '-', '')), 0, 0, 0 \
                    FROM apple_passes WHERE id NOT IN (SELECT pass_id FROM pass_registrations)
                    """
                ).run()
                return try await db.raw(
                    """
                    SELECT r.device_library_identifier, r.push_token, p.serial_number FROM pass_registrations r \
                    JOIN apple_passes p ON p.id = r.pass_id
                    """
                ).all()
            }
            for row in rows {
                let serial = try row.decode(column: "serial_number", as: String.self)
                guard let (type, token) = tokens[serial] else { continue }
                devices[try row.decode(column: "push_token", as: String.self)] = Device(
                    identifier: try row.decode(column: "device_library_identifier", as: String.self),
                    passTypeIdentifier: type, serialNumber: serial, token: token)
            }
        } catch {
            try? await database.shutdown()
            throw error
        }
        try await database.shutdown()
        let progress = Progress(total: devices.count)

        // The change, and each device on its push.
        let call = ContinuousClock.now
        var request = HTTPClientRequest(url: "\(options.replicas[0])/api/v2/passes/changes")
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"match":{},"change":{"fields":{"seat":"Moved to row 9"}}}"#))
        let answer = try await client.execute(request, timeout: .seconds(60))
        let answerBody = try await answer.body.collect(upTo: 1 << 20)
        guard answer.status.code == 202 else {
            throw Failure("the bulk change answered \(answer.status.code): \(String(buffer: answerBody))")
        }
        let accepted = call.duration(to: .now)
        let devicesByToken = devices
        await withTaskGroup(of: Void.self) { group in
            var inFlight = 0
            var index = 0
            for await pushToken in pushes {
                progress.pushed()
                guard let device = devicesByToken[pushToken] else { continue }
                let replica = options.replicas[index % options.replicas.count]
                index += 1
                if inFlight >= options.concurrency {
                    await group.next()
                    inFlight -= 1
                }
                inFlight += 1
                group.addTask {
                    do {
                        try await fetch(device, from: replica, client: client)
                        progress.finished()
                    } catch {
                        progress.failed("\(device.identifier): \(error)")
                    }
                }
                let snapshot = progress.snapshot
                if snapshot.done + snapshot.failures.count + inFlight >= progress.total, index >= progress.total {
                    break
                }
            }
            await group.waitForAll()
        }
        let snapshot = progress.snapshot
        let seconds = call.duration(to: snapshot.last)
        print("accepted \(accepted)")
        print("devices \(snapshot.done) of \(progress.total), pushes \(snapshot.pushes)")
        if !snapshot.failures.isEmpty {
            print("failures \(snapshot.failures.count): \(snapshot.failures.prefix(3))")
        }
        print(
            "change to last device \(Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18)"
        )
    }

    /// Lists the device's changed passes, then fetches the one it holds, as Wallet does after a push.
    static func fetch(_ device: Device, from replica: String, client: HTTPClient) async throws {
        let listed = try await get(
            "\(replica)/passkit/v1/devices/\(device.identifier)/registrations/\(device.passTypeIdentifier)",
            authorization: nil, client: client)
        guard let object = try JSONSerialization.jsonObject(with: listed) as? [String: Any],
            let serials = object["serialNumbers"] as? [String], serials.contains(device.serialNumber)
        else { throw Failure("the device's pass is not listed as changed") }
        let body = try await get(
            "\(replica)/passkit/v1/passes/\(device.passTypeIdentifier)/\(device.serialNumber)",
            authorization: "ApplePass \(device.token)", client: client)
        let pass = try PassPackage.pass(inArchive: body)
        guard pass.fields.value(forKey: "seat") == .text("Moved to row 9") else {
            throw Failure("the fetched pass does not hold the change")
        }
    }

    /// The body of a GET that must answer 200.
    static func get(_ url: String, authorization: String?, client: HTTPClient) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 16 << 20)
        guard response.status.code == 200 else {
            throw Failure("GET \(url) answered \(response.status.code): \(String(buffer: body).prefix(200))")
        }
        return Data(buffer: body)
    }

    static func waitForHealth(_ replica: String, client: HTTPClient) async throws {
        for _ in 0..<600 {
            if (try? await get("\(replica)/health", authorization: nil, client: client)) != nil { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure("\(replica) did not answer /health")
    }

    /// The tag identifiers of `coffer admin seed-demo --json`'s output.
    static func tags(_ path: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        guard let tags = (object as? [String: Any])?["tag_ids"] as? [String] else {
            throw Failure("\(path) has no tag_ids")
        }
        return tags
    }
}
