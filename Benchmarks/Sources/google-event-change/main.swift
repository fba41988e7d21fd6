// Issue 55's Google Wallet figures: N event tickets of one event (10,000 by default) on a pass type with a Google
// issuer, written to a GoogleWalletStandIn (WalletServerTesting) that enforces a per-account rate, through the real
// path: the pass updater's transactions queue the writes, the dispatcher's Google lane claims them, paces each
// service account's calls (rate_buckets) and records what Google took. Two changes are measured:
//   1. event-wide: every ticket's kick-off moves (`semantics.eventStartDate`): what the class holds, so Google gets
//      one class write and no object write;
//   2. per pass: every ticket's seat changes: one object write each, paced at the configured rate; the figure is the
//      rate reached over the configured one, with the stand-in's 429s (none expected).
//
// Usage: google-event-change [passes] [per-pass rate]   (prints "name value" lines)
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
struct GoogleEventChange {
    static func main() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .error
            return handler
        }
        let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
        try await measure(passes: arguments.first ?? 10_000, rate: arguments.dropFirst().first ?? 100)
    }

    nonisolated static func measure(passes: Int, rate: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-google-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var logger = Logger(label: "google-event-change")
        logger.logLevel = .error
        let storage = try await WalletServerStorage.open(
            configuration: WalletServerConfiguration(dataDirectory: directory, createsDevelopmentIdentity: false),
            logger: logger)
        let standIn = try await GoogleWalletStandIn(requestsPerSecond: 5_000)
        do {
            try await measure(passes: passes, rate: rate, storage: storage, standIn: standIn, logger: logger)
        } catch {
            await standIn.shutdown()
            try? await storage.shutdown()
            throw error
        }
        await standIn.shutdown()
        try await storage.shutdown()
    }

    nonisolated static func measure(
        passes: Int, rate: Int, storage: WalletServerStorage, standIn: GoogleWalletStandIn, logger: Logger
    ) async throws {
        let issuerID = "3388000000012345678"
        let administration = WalletAdministration(storage: storage, logger: logger)
        let identity = try DevelopmentIdentity.generate(passTypeIdentifier: "pass.dev.coffer.final")
        let (passType, _) = try await administration.importPassType(identity.signingIdentity)
        _ = try await administration.setGoogleIssuer(
            passTypeID: passType.id, issuerID: issuerID,
            serviceAccount: try standIn.makeServiceAccount(issuerID: issuerID))
        let client = try await administration.createClient(name: "Stadium")
        try await administration.sharePassType(passTypeID: passType.id, clientID: client.id)
        let user = try await administration.createUser(clientID: client.id)
        let template = PassTemplate(package: try ticket())

        let setupStart = ContinuousClock.now
        var passIDs: [UUID] = []
        for index in 0..<passes {
            let reference = "FINAL-\(index)"
            let tag = try await administration.createTag(clientID: client.id, userID: user.id, referenceID: reference)
            passIDs.append(
                try await administration.createPass(
                    tagID: tag.id, passTypeID: passType.id, template: template, serialNumber: reference
                ).id)
        }
        say("passes \(passes)")
        say("setup_seconds \(format(seconds(ContinuousClock.now - setupStart)))")

        // The first writes, at a rate that keeps the set-up short.
        let first = try await drain(storage: storage, standIn: standIn, rate: 5_000, logger: logger)
        say("first_writes_seconds \(format(first.seconds))")

        // 1. The kick-off moves for every ticket.
        let trace = PassEventRecorder(storage: storage, logger: logger)
        let updater = PassUpdater(storage: storage, logger: logger, trace: trace)
        try await apply(to: passIDs, updater) { _ in
            PassChange(semantics: ["eventStartDate": .string("2026-06-05T21:00:00+02:00")])
        }
        let event = try await drain(storage: storage, standIn: standIn, rate: rate, logger: logger)
        say("event_change_seconds \(format(event.seconds))")
        say("event_change_class_writes \(event.classWrites)")
        say("event_change_object_writes \(event.objectWrites)")
        say("event_change_429 \(event.refused)")

        // 2. Every ticket's seat changes.
        try await apply(to: passIDs, updater) { index in PassChange(fields: ["seat": .text("Seat \(index + 2)")]) }
        let seats = try await drain(storage: storage, standIn: standIn, rate: rate, logger: logger)
        let reached = seats.writeRate
        say("per_pass_seconds \(format(seats.seconds))")
        say("per_pass_object_writes \(seats.objectWrites)")
        say("per_pass_class_writes \(seats.classWrites)")
        say("per_pass_429 \(seats.refused)")
        say("per_pass_rate \(format(reached)) configured \(rate)")
        say("per_pass_ratio \(format(reached / Double(rate)))")
    }

    /// An event ticket of the final, its kick-off in the venue's local time.
    static func ticket() throws -> PassPackage {
        var semantics = PassSemantics()
        semantics.eventName = "Cup Final"
        semantics.json["eventStartDate"] = .string("2026-06-05T20:00:00+02:00")
        semantics.venueName = "Olympic Stadium"
        var pass = Pass(
            passTypeIdentifier: "pass.dev.coffer.final", teamIdentifier: "DEVTEAM000", serialNumber: "TEMPLATE",
            organizationName: "Stadium", description: "Cup Final ticket", style: .eventTicket,
            fields: PassFields(
                primaryFields: [.text("event", "Cup Final", label: "EVENT")],
                secondaryFields: [.text("seat", "Row 1", label: "SEAT")]))
        pass.semantics = semantics
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        return try PassPackage(pass: pass, files: ["icon.png": png])
    }

    /// Applies `change(index)` to each pass, four at a time.
    static func apply(
        to passIDs: [UUID], _ updater: PassUpdater, _ change: @escaping @Sendable (Int) -> PassChange
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, passID) in passIDs.enumerated() {
                if index >= 4 { try await group.next() }
                group.addTask { _ = try await updater.update(passID: passID, change(index)) }
            }
            try await group.waitForAll()
        }
    }

    /// What one drain of the outbox's Google writes came to.
    struct Drained {
        /// From the dispatcher's start until no write was left.
        var seconds: Double
        /// The writes Google took a second, from the first to the last.
        var writeRate: Double
        var classWrites: Int
        var objectWrites: Int
        var refused: Int
    }

    /// Runs a dispatcher whose Google client and the stand-in take `rate` calls a second until no Google write is
    /// left, and counts the stand-in's answers meanwhile.
    static func drain(storage: WalletServerStorage, standIn: GoogleWalletStandIn, rate: Int, logger: Logger)
        async throws -> Drained
    {
        // The stand-in counts calls over the last second: let the previous drain's leave it first.
        try await Task.sleep(for: .milliseconds(1100))
        standIn.requestsPerSecond = rate
        let before = standIn.received.count
        var google = GoogleWalletConfiguration.standIn(at: standIn.url, requestTimeout: 30)
        google.requestsPerSecond = rate
        let dispatcher = DeliveryDispatcher(
            storage: storage, apns: APNsConfiguration(), googleWallet: google,
            publicURL: URL(string: "https://wallet.example.com"),
            trace: PassEventRecorder(storage: storage, logger: logger),
            logger: logger)
        let start = ContinuousClock.now
        let running = Task { try await dispatcher.run() }
        // A busy pool may keep the count waiting: that is not the end.
        while (try? await storage.database.transaction({ db in
            try await db.raw("SELECT COUNT(*) AS n FROM push_outbox WHERE kind = 'google' AND failed_at IS NULL")
                .first(decodingColumn: "n", as: Int64.self) ?? 0
        })) != 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let elapsed = seconds(ContinuousClock.now - start)
        running.cancel()
        try? await running.value
        let received = Array(standIn.received.dropFirst(before))
        let api = received.filter { $0.path.hasPrefix("/walletobjects/") }
        let writes = api.filter { $0.method != "GET" && $0.status == 200 }
        let span = writes.count > 1 ? seconds(writes.last!.at - writes.first!.at) : 0
        return Drained(
            seconds: elapsed, writeRate: span > 0 ? Double(writes.count - 1) / span : 0,
            classWrites: writes.filter { $0.path.contains("Class") }.count,
            objectWrites: writes.filter { $0.path.contains("Object") }.count,
            refused: received.filter { $0.status == 429 }.count)
    }

    /// Prints `line` at once, whatever reads the output.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }
}
