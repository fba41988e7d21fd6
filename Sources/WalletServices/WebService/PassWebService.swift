import Foundation
import Logging
import Secrets
import WalletDocuments
import WalletPasses

/// Apple's Wallet Passes web service (protocol v1), independent of HTTP: device registration, the list of updated
/// passes (``DeviceRegistrations``), the latest version of a pass, device logs and personalization.
///
/// Every request about a pass carries its `authenticationToken` (`Authorization: ApplePass <token>`), checked
/// against the stored hash in constant time; an unknown pass and a wrong token are refused alike.
package struct PassWebService: Sendable {
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

    let repository: any PassWebServiceStore & PassTraceStore
    let renderer: PassRenderer
    let clock: any CofferClock
    let logger: Logger
    /// Where what devices do goes in their passes' traces.
    let trace: PassEventRecorder
    /// What fetches of unchanged passes are answered from, where the repository can tell a change without a read.
    let cache: PassFetchCache?
    /// The passes' device registrations, shared in form with the orders' web service.
    package let registrations: DeviceRegistrations

    /// Creates the service over the provisioning service's renderer; what devices do goes in their passes' traces
    /// through `trace`.
    package init(
        repository: any PassWebServiceStore & PassTraceStore, renderer: PassRenderer,
        clock: any CofferClock = SystemClock(),
        logger: Logger = Logger(label: "coffer.passkit"),
        maximumDevices: Int = DeviceRegistrations.defaultMaximumDevices,
        trace: PassEventRecorder
    ) {
        self.repository = repository
        self.renderer = renderer
        self.clock = clock
        self.logger = logger
        self.registrations = DeviceRegistrations(
            .pass, store: repository, trace: trace, maximumDevices: maximumDevices, clock: clock, logger: logger)
        self.trace = trace
        self.cache = repository.changeWatch.map { PassFetchCache(watch: $0) }
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
            let pass = try await registrations.authenticate(passTypeIdentifier, serialNumber, authorization)
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
        else { throw WebServiceFailure.unauthorized }
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
            throw WebServiceFailure.invalidRequest("at most \(Self.logLimits.messagesPerRequest) log messages at once")
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
        try Self.checkPassPath(passTypeIdentifier, serialNumber)
        let token: PersonalizationToken
        do {
            token = try PersonalizationToken(personalizationToken)
        } catch {
            throw WebServiceFailure.invalidRequest("\(error)")
        }
        for (key, value) in details {
            guard Self.personalizationKeys.contains(key) else {
                throw WebServiceFailure.invalidRequest("requiredPersonalizationInfo has an unknown key '\(key)'")
            }
            guard value.count <= 256 else {
                throw WebServiceFailure.invalidRequest(
                    "requiredPersonalizationInfo.\(key) is longer than 256 characters")
            }
        }
        guard
            let pass = try await repository.webServicePass(
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        else { throw WebServiceFailure.notFound("no personalizable pass with this serial number") }
        if authorization != nil,
            !PassAuthenticationTokens.authorizes(authorization, storedHash: pass.authenticationTokenHash)
        {
            throw WebServiceFailure.unauthorized
        }
        guard let target = try await repository.provisioningTarget(passID: pass.passID),
            try PassPackage(archive: target.pass.passContent).files[PassRenderer.personalizationFile] != nil
        else { throw WebServiceFailure.notFound("no personalizable pass with this serial number") }
        let fields = try JSONEncoder().encode(details)
        guard try await repository.recordPersonalization(passID: pass.passID, fields: fields, now: clock.now) else {
            throw WebServiceFailure.notFound("the pass was personalized already")
        }
        let identity = try await renderer.identities.identity(for: target.passType)
        logger.info("personalized a pass", metadata: ["pass": "\(pass.passID)"])
        await trace.record(
            trace.event(
                .personalized, passID: pass.passID,
                details: ["fields": .array(details.keys.sorted().map { .string($0) })],
                webhookDetails: ["details": .object(details.mapValues { .string($0) })]))
        return try DocumentSigner(identity: identity).signature(for: token, signingTime: clock.now)
    }

    /// Checks a pass's path parameters.
    private static func checkPassPath(_ passTypeIdentifier: String, _ serialNumber: String) throws {
        try DeviceRegistrations.checkIdentifier(passTypeIdentifier, name: "passTypeIdentifier")
        try DeviceRegistrations.checkIdentifier(serialNumber, name: "serialNumber")
    }
}
