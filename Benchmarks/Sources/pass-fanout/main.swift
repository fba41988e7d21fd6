// The 10,000-device fan-out of Benchmarks/load-pass-fetch.sh: one change to a pass registered on N devices (10,000
// by default), from the management call until the last push reaches an APNs stand-in (HTTP/2 over TLS on loopback,
// WalletServerTesting), through the real path: the pass updater's transaction queues N pushes in the outbox, the
// dispatcher claims them under leases and sends them over mutual TLS with the pass type's certificate, and records
// each result and its trace event. The ceiling, measured in the same run: N pushes sent straight through the same
// APNs client to the same stand-in, with as many in flight, with no database.
//
// Usage: pass-fanout [devices]   (prints "fan-out <seconds>", "ceiling <seconds>" and their ratio)
import Foundation
import Logging
import SQLKit
import Secrets
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServerTesting
import WalletServices
import WalletStore

@main
struct PassFanout {
    static func main() async throws {
        // The secret store's audit logs every key it saves at `notice`: keep the output to the figures.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        try await measure(devices: CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000)
    }

    /// Sets up a pass on `devices` devices and prints the fan-out, off the main actor.
    nonisolated static func measure(devices: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-fanout-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "pass-fanout")
        logger.logLevel = .warning
        var quiet = logger
        quiet.logLevel = .error
        let storage = try await WalletServerStorage.open(
            configuration: WalletServerConfiguration(dataDirectory: directory, createsDevelopmentIdentity: false),
            logger: quiet)
        do {
            try await measure(devices: devices, storage: storage, logger: logger)
        } catch {
            try? await storage.shutdown()
            throw error
        }
        try await storage.shutdown()
    }

    /// Sets up the pass in `storage` on `devices` devices and prints the fan-out beside its ceiling.
    nonisolated static func measure(devices: Int, storage: WalletServerStorage, logger: Logger) async throws {
        var quiet = logger
        quiet.logLevel = .error
        let administration = WalletAdministration(storage: storage, logger: quiet)
        let identity = try DevelopmentIdentity.generate(passTypeIdentifier: "pass.dev.coffer.fanout")

        let (passType, _) = try await administration.importPassType(identity.signingIdentity)
        let client = try await administration.createClient(name: "Fan-out")
        try await administration.sharePassType(passTypeID: passType.id, clientID: client.id)
        let user = try await administration.createUser(clientID: client.id)
        let tag = try await administration.createTag(clientID: client.id, userID: user.id, referenceID: "FANOUT-1")
        let pass = try await administration.createPass(
            tagID: tag.id, passTypeID: passType.id, serialNumber: "FANOUT-1")
        // The registrations, in one transaction (N registrations through the web service would each sync).
        try await storage.database.transaction { db in
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            for chunk in stride(from: 0, to: devices, by: 500) {
                var insert = db.insert(into: "pass_registrations")
                    .columns("device_library_identifier", "pass_id", "push_token", "created_at", "updated_at")
                for index in chunk..<min(chunk + 500, devices) {
                    let token = String(format: "%064x", index + 1)
                    insert = insert.values(
                        SQLBind("device-\(index)"), SQLBind(pass.id.uuidString), SQLBind(token), SQLBind(now),
                        SQLBind(now))
                }
                try await insert.run()
            }
        }

        try await APNsStandIn.with(clientCertificateAuthority: identity.root) { standIn in
            let configuration = APNsConfiguration(
                gateway: .custom(standIn.url), requestTimeout: 30, additionalTrustRoots: [standIn.trustRoot])

            // The ceiling: the same pushes through the same client, as many in flight, no database.
            let direct = APNsClient(configuration: configuration, logger: logger)
            let ceilingStart = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                func add() {
                    let token = String(format: "%064x", next + 1)
                    group.addTask {
                        _ = await direct.send(
                            pushToken: token, topic: passType.passTypeIdentifier, identity: identity.signingIdentity)
                    }
                    next += 1
                }
                while next < min(configuration.maximumInFlight, devices) { add() }
                while try await group.next() != nil { if next < devices { add() } }
            }
            let ceiling = ContinuousClock.now - ceilingStart
            try await direct.shutdown()
            let sentDirectly = standIn.received.count

            let trace = PassEventRecorder(storage: storage, logger: logger)
            let dispatcher = DeliveryDispatcher(storage: storage, apns: configuration, trace: trace, logger: logger)
            let updater = PassUpdater(storage: storage, logger: logger, trace: trace) { dispatcher.wake() }
            let running = Task { try await dispatcher.run() }
            let start = ContinuousClock.now
            try await updater.update(passID: pass.id, PassChange(fields: ["seat": .text("Row 7")]))
            while standIn.received.count < sentDirectly + devices {
                try await Task.sleep(for: .milliseconds(5))
            }
            let fanOut = ContinuousClock.now - start
            running.cancel()
            try? await running.value
            await trace.flush()
            let refused = standIn.received.filter { $0.status != 200 }.count
            print("devices \(devices)")
            print("fan-out \(seconds(fanOut))")
            print("ceiling \(seconds(ceiling))")
            print("ratio \(String(format: "%.2f", seconds(fanOut) / seconds(ceiling)))")
            print("refused \(refused)")
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
