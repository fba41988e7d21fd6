import Foundation
import Logging
import Secrets
import WalletPasses

/// Apple's Wallet Passes web service (protocol v1), independent of HTTP: device registration, the list of updated
/// passes, the latest version of a pass, device logs and personalization.
///
/// Every request about a pass carries its `authenticationToken` (`Authorization: ApplePass <token>`), checked
/// against the stored hash in constant time; an unknown pass and a wrong token are refused alike.
package struct PassWebService: Sendable {
    /// Why a request was refused.
    package enum Failure: Error, Hashable, Sendable {
        /// No pass with this identifier and a matching token (or no token at all).
        case unauthorized
        /// The pass cannot do this (it is not personalizable, or was personalized already).
        case notFound(String)
        /// The request is malformed.
        case invalidRequest(String)
        /// The pass has as many registered devices as it may have.
        case tooManyDevices(limit: Int)
        /// The order was signed as often as its budget allows for now (``OrderWebService/signingLimit``).
        case rateLimited(retryAfter: Duration)
    }

    /// What a fetch of the latest pass answers.
    package enum LatestPass: Sendable {
        /// The pass has not changed since the device's `If-Modified-Since`.
        case notModified(lastModified: Date)
        /// The signed pass and its `Last-Modified`.
        case pass(Data, lastModified: Date)
    }

    /// The personalization details Wallet may ask a user for (`requiredPersonalizationInfo`'s keys).
    package static let personalizationKeys: Set<String> = [
        "emailAddress", "familyName", "fullName", "givenName", "ISOCountryCode", "phoneNumber", "postalCode",
    ]
    /// The most messages one `POST /v1/log` stores, the most UTF-8 bytes of a message kept (longer ones are cut), and
    /// how many messages the server keeps in all.
    package static let logLimits = (messagesPerRequest: 100, messageBytes: 1024, kept: 10_000)
    /// How many devices may register for one pass, unless the server is told otherwise.
    package static let defaultMaximumDevicesPerPass = 20
    /// How long a registration's device may go unseen (no registration, no push APNs accepted) before a new device
    /// of a pass at its cap takes its place: three days. Made-up devices, whose push tokens APNs never accepts,
    /// cannot hold a pass's cap for longer.
    package static let staleRegistrationAge: TimeInterval = 3 * 86_400

    let repository: any PassWebServiceStore & PassTraceStore
    let renderer: PassRenderer
    let clock: any CofferClock
    let logger: Logger
    /// Where what devices do goes in their passes' traces.
    let trace: PassEventRecorder
    /// What fetches of unchanged passes are answered from, where the repository can tell a change without a read.
    let cache: PassFetchCache?
    /// How many devices may register for one pass; a registration beyond it is refused and nothing is stored.
    package let maximumDevicesPerPass: Int

    /// Creates the service over the provisioning service's renderer; what devices do goes in their passes' traces
    /// through `trace`.
    package init(
        repository: any PassWebServiceStore & PassTraceStore, renderer: PassRenderer,
        clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.passkit"),
        maximumDevicesPerPass: Int = Self.defaultMaximumDevicesPerPass,
        trace: PassEventRecorder
    ) {
        self.repository = repository
        self.renderer = renderer
        self.clock = clock
        self.logger = logger
        self.maximumDevicesPerPass = maximumDevicesPerPass
        self.trace = trace
        self.cache = repository.changeWatch.map { PassFetchCache(watch: $0) }
    }

    /// Registers a device for a pass's updates, with a push token for this pass alone; returns whether the
    /// registration is new.
    ///
    /// - Throws: ``Failure/tooManyDevices(limit:)`` when the pass has ``maximumDevicesPerPass`` other devices, each
    ///   seen within ``staleRegistrationAge``.
    package func register(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String, pushToken: String,
        authorization: String?
    ) async throws -> Bool {
        try Self.checkDevice(deviceLibraryIdentifier)
        let pass = try await authenticate(passTypeIdentifier, serialNumber, authorization)
        guard Hex.isValid(pushToken, maximumLength: 512), !pushToken.isEmpty else {
            throw Failure.invalidRequest("pushToken must be hexadecimal, 1 to 512 characters")
        }
        let now = clock.now
        let outcome = try await repository.register(
            deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken.lowercased(), passID: pass.passID,
            now: now, maximumDevices: maximumDevicesPerPass,
            evictingUnseenSince: now.addingTimeInterval(-Self.staleRegistrationAge))
        let metadata: Logger.Metadata = [
            "pass": "\(pass.passID)", "device": "\(DeviceIdentifierDigest.logValue(deviceLibraryIdentifier))",
        ]
        func traced(_ outcome: String, firstDevice: Bool = false) async {
            var details: [String: JSONValue] = ["outcome": .string(outcome)]
            if firstDevice { details["first_device"] = .bool(true) }
            await trace.record(
                trace.event(.registered, passID: pass.passID, device: deviceLibraryIdentifier, details: details))
        }
        switch outcome {
        case .created(let registered, let evicted):
            logger.info("registered a device for a pass", metadata: metadata)
            if let evicted {
                logger.notice(
                    "the pass had as many devices as it may: the one unseen longest made room",
                    metadata: metadata.merging(["evicted": "\(DeviceIdentifierDigest.logValue(evicted))"]) { $1 })
                await trace.record(
                    trace.event(
                        .unregistered, passID: pass.passID, device: evicted,
                        details: ["was_registered": .bool(true), "cause": .string("evicted_unseen")]))
            }
            await traced("created", firstDevice: registered == 1)
            return true
        case .renewed:
            logger.info("a device registered again for a pass", metadata: metadata)
            await traced("renewed")
            return false
        case .refused(let registered):
            logger.notice(
                "refused a device registration: the pass has as many devices as it may",
                metadata: metadata.merging(["registered_devices": "\(registered)"]) { $1 })
            await traced("refused: \(registered) devices, the most a pass may have")
            throw Failure.tooManyDevices(limit: maximumDevicesPerPass)
        }
    }

    /// Ends a device's registration for a pass.
    package func unregister(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, serialNumber: String, authorization: String?
    ) async throws {
        try Self.checkDevice(deviceLibraryIdentifier)
        let pass = try await authenticate(passTypeIdentifier, serialNumber, authorization)
        let remaining = try await repository.unregister(
            deviceLibraryIdentifier: deviceLibraryIdentifier, passID: pass.passID)
        let removed = remaining != nil
        var details: [String: JSONValue] = ["was_registered": .bool(removed)]
        if remaining == 0 { details["last_device"] = .bool(true) }
        await trace.record(
            trace.event(.unregistered, passID: pass.passID, device: deviceLibraryIdentifier, details: details))
        logger.info(
            removed
                ? "unregistered a device from a pass" : "a device unregistered from a pass it was not registered for",
            metadata: [
                "pass": "\(pass.passID)", "device": "\(DeviceIdentifierDigest.logValue(deviceLibraryIdentifier))",
            ])
    }

    /// The serial numbers of the device's passes of the type changed after `passesUpdatedSince` (an update tag
    /// this service gave; absent, empty or unreadable means all), with the tag to ask from next time; `nil` when
    /// there are none.
    package func updatedSerialNumbers(
        deviceLibraryIdentifier: String, passTypeIdentifier: String, passesUpdatedSince: String?
    ) async throws -> (serialNumbers: [String], lastUpdated: String)? {
        try Self.checkDevice(deviceLibraryIdentifier)
        try Self.checkIdentifier(passTypeIdentifier, name: "passTypeIdentifier")
        // The tag is opaque to devices: anything that is not one of ours lists every pass.
        let since = passesUpdatedSince.flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let passes = try await repository.updatedPasses(
            deviceLibraryIdentifier: deviceLibraryIdentifier, passTypeIdentifier: passTypeIdentifier, since: since)
        trace.note(
            passes.map { pass in
                trace.event(
                    .listed, passID: pass.passID, device: deviceLibraryIdentifier,
                    details: ["update_tag": .number(Double(pass.updateTag))])
            })
        guard let newest = passes.map(\.updateTag).max() else { return nil }
        return (passes.map(\.serialNumber), String(max(newest, since ?? 0)))
    }

    /// The latest version of a pass, or `notModified` when it has not changed since `ifModifiedSince` (whole
    /// seconds, as HTTP dates are).
    package func latestPass(
        passTypeIdentifier: String, serialNumber: String, authorization: String?, ifModifiedSince: Date?
    ) async throws -> LatestPass {
        try Self.checkPassPath(passTypeIdentifier, serialNumber)
        // A wrong token is refused after the same read as for a pass not in memory: how fast it is refused tells
        // nothing of the pass's recent fetches.
        let (cached, position) =
            await cache?.entry(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber) {
                PassAuthenticationTokens.authorizes(authorization, storedHash: $0.authenticationTokenHash)
            } ?? (nil, nil)
        if let cached {
            if let answer = answer(cached, ifModifiedSince: ifModifiedSince) { return answer }
        } else if ifModifiedSince != nil {
            // The small read first: most conditional fetches end in a 304.
            let pass = try await authenticate(passTypeIdentifier, serialNumber, authorization)
            let entry = PassFetchCache.Entry(
                passID: pass.passID, authenticationTokenHash: pass.authenticationTokenHash, modifiedAt: pass.modifiedAt)
            cache?.keep(entry, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, readAt: position)
            if let answer = answer(entry, ifModifiedSince: ifModifiedSince) { return answer }
        }
        // One read for the pass's authentication, `Last-Modified` and kept archive together.
        guard
            let kept = try await repository.keptPassArchive(
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber),
            PassAuthenticationTokens.authorizes(authorization, storedHash: kept.version.authenticationTokenHash)
        else { throw Failure.unauthorized }
        let archive = try await renderer.signedArchive(kept, signingTime: clock.now)
        let entry = PassFetchCache.Entry(
            passID: kept.version.passID, authenticationTokenHash: kept.version.authenticationTokenHash,
            modifiedAt: kept.version.modifiedAt, archive: archive)
        cache?.keep(entry, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, readAt: position)
        return served(entry, archive: archive)
    }

    /// The answer to a fetch of `entry` without another read: `Not Modified` when it is no newer than
    /// `ifModifiedSince`, else its archive if it has one.
    private func answer(_ entry: PassFetchCache.Entry, ifModifiedSince: Date?) -> LatestPass? {
        let lastModified = Self.lastModified(entry.modifiedAt)
        if let ifModifiedSince, lastModified <= ifModifiedSince {
            trace.note([trace.event(.fetched, passID: entry.passID, details: ["status": .number(304)])])
            return .notModified(lastModified: lastModified)
        }
        return entry.archive.map { served(entry, archive: $0) }
    }

    /// The pass's archive as the answer to a fetch, recorded in its trace.
    private func served(_ entry: PassFetchCache.Entry, archive: Data) -> LatestPass {
        trace.note([trace.event(.fetched, passID: entry.passID, details: ["status": .number(200)])])
        // Each request's own line (route, status) is at `info` already.
        logger.debug("served the latest version of a pass", metadata: ["pass": "\(entry.passID)"])
        return .pass(archive, lastModified: Self.lastModified(entry.modifiedAt))
    }

    /// The `Last-Modified` of what was modified at `modifiedAt`: HTTP dates hold whole seconds.
    private static func lastModified(_ modifiedAt: Date) -> Date {
        Date(timeIntervalSince1970: modifiedAt.timeIntervalSince1970.rounded(.down))
    }

    /// Stores and logs what a device reported (at most ``logLimits`` messages), each with its control characters
    /// escaped and cut to ``logLimits``' bytes: a message can forge no log line and hide nothing past its limit.
    package func log(_ messages: [String]) async throws {
        guard messages.count <= Self.logLimits.messagesPerRequest else {
            throw Failure.invalidRequest("at most \(Self.logLimits.messagesPerRequest) log messages at once")
        }
        let kept = messages.map { DeviceLogMessage.sanitized($0, maximumBytes: Self.logLimits.messageBytes) }
        for message in kept { logger.notice("a device reported", metadata: ["message": "\(message)"]) }
        try await repository.recordDeviceLogs(kept, now: clock.now, keeping: Self.logLimits.kept)
        await traceLogLines(kept)
    }

    /// Puts each message that names a pass in that pass's trace, marked unverified, with the cause it reports (one
    /// lookup per pass; ``PassEventRecorder/recordDeviceLogs(_:)`` bounds and de-duplicates them).
    private func traceLogLines(_ messages: [String]) async {
        var passIDs: [String: UUID?] = [:]
        var events: [NewPassEvent] = []
        for message in messages {
            guard let reference = DeviceLogReading.passReference(in: message) else { continue }
            let key = reference.passTypeIdentifier + "\u{0}" + reference.serialNumber
            if passIDs[key] == nil {
                passIDs[key] =
                    try? await repository.webServicePass(
                        passTypeIdentifier: reference.passTypeIdentifier, serialNumber: reference.serialNumber)?
                    .passID
            }
            guard let passID = passIDs[key] ?? nil else { continue }
            // Anyone may post a log naming any pass: the trace keeps it as an unverified report.
            var details: [String: JSONValue] = ["message": .string(message), "unverified": .bool(true)]
            if let cause = DeviceLogReading.cause(of: message) { details["cause"] = .string(cause) }
            events.append(trace.event(.deviceLog, passID: passID, details: details))
        }
        await trace.recordDeviceLogs(events)
    }

    /// Personalizes a rewards pass: stores the details the user entered, and returns the detached CMS signature of
    /// `personalizationToken` by the pass type's identity. The device then fetches the personalized pass.
    ///
    /// Wallet sends no `authenticationToken` with this request; when one is sent it must be right. A pass is
    /// personalized once, and only a token of `PersonalizationToken`'s shape is ever signed.
    package func personalize(
        passTypeIdentifier: String, serialNumber: String, personalizationToken: String,
        details: [String: String], authorization: String?
    ) async throws -> Data {
        try Self.checkIdentifier(passTypeIdentifier, name: "passTypeIdentifier")
        try Self.checkIdentifier(serialNumber, name: "serialNumber")
        let token: PersonalizationToken
        do {
            token = try PersonalizationToken(personalizationToken)
        } catch {
            throw Failure.invalidRequest("\(error)")
        }
        for (key, value) in details {
            guard Self.personalizationKeys.contains(key) else {
                throw Failure.invalidRequest("requiredPersonalizationInfo has an unknown key '\(key)'")
            }
            guard value.count <= 256 else {
                throw Failure.invalidRequest("requiredPersonalizationInfo.\(key) is longer than 256 characters")
            }
        }
        guard
            let pass = try await repository.webServicePass(
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        else { throw Failure.notFound("no personalizable pass with this serial number") }
        if authorization != nil,
            !PassAuthenticationTokens.authorizes(authorization, storedHash: pass.authenticationTokenHash)
        {
            throw Failure.unauthorized
        }
        guard let target = try await repository.provisioningTarget(passID: pass.passID),
            try PassPackage(archive: target.pass.passContent).files[PassRenderer.personalizationFile] != nil
        else { throw Failure.notFound("no personalizable pass with this serial number") }
        let fields = try JSONEncoder().encode(details)
        guard try await repository.recordPersonalization(passID: pass.passID, fields: fields, now: clock.now) else {
            throw Failure.notFound("the pass was personalized already")
        }
        let identity = try await renderer.identities.identity(for: target.passType)
        logger.info("personalized a pass", metadata: ["pass": "\(pass.passID)"])
        await trace.record(
            trace.event(
                .personalized, passID: pass.passID,
                details: ["fields": .array(details.keys.sorted().map { .string($0) })],
                webhookDetails: ["details": .object(details.mapValues { .string($0) })]))
        return try PassSigner(identity: identity).signature(for: token, signingTime: clock.now)
    }

    /// The pass, when `authorization` carries its token.
    private func authenticate(_ passTypeIdentifier: String, _ serialNumber: String, _ authorization: String?)
        async throws -> WebServicePass
    {
        try Self.checkPassPath(passTypeIdentifier, serialNumber)
        guard
            let pass = try await repository.webServicePass(
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber),
            PassAuthenticationTokens.authorizes(authorization, storedHash: pass.authenticationTokenHash)
        else { throw Failure.unauthorized }
        return pass
    }

    /// Checks a pass's path parameters.
    private static func checkPassPath(_ passTypeIdentifier: String, _ serialNumber: String) throws {
        try checkIdentifier(passTypeIdentifier, name: "passTypeIdentifier")
        try checkIdentifier(serialNumber, name: "serialNumber")
    }

    static func checkDevice(_ identifier: String) throws {
        try checkIdentifier(identifier, name: "deviceLibraryIdentifier")
    }

    /// An identifier from the path, as ``WebServiceIdentifier`` has it.
    static func checkIdentifier(_ value: String, name: String) throws {
        if let problem = WebServiceIdentifier.problem(value) { throw Failure.invalidRequest("\(name) \(problem)") }
    }
}
