import Foundation
import Logging
import Secrets
import WalletDocuments

/// Wallet's device registrations for one kind of document, as Apple's Passes and Orders web services share them: a
/// device registers with a push token for one pass or order (the document's `authenticationToken` in the
/// `Authorization` header, checked in constant time against the stored hash), up to a cap per document where the
/// device unseen longest makes room; it unregisters; it lists its documents changed since an update tag. Each step
/// goes in the document's trace.
package struct DeviceRegistrations: Sendable {
    /// How many devices may register for one pass or order, unless the server is told otherwise.
    package static let defaultMaximumDevices = 20
    /// How long a registration's device may go unseen (no registration, no push APNs accepted) before a new device
    /// of a document at its cap takes its place: three days. Made-up devices, whose push tokens APNs never accepts,
    /// cannot hold a document's cap for longer.
    package static let staleRegistrationAge: TimeInterval = 3 * 86_400
    /// The most orders one listing names: the oldest changes first, and the device asks from the last one's tag for
    /// the rest.
    package static let maximumListedOrders = 1000

    /// Whether these are passes' or orders' registrations.
    package let subject: TraceSubject
    let store: any DeviceRegistrationStore
    /// Where what devices do goes in their documents' traces.
    let trace: PassEventRecorder
    let clock: any CofferClock
    let logger: Logger
    /// How many devices may register for one document; a registration beyond it is refused and nothing is stored.
    package let maximumDevices: Int

    /// Creates the registrations of `subject`'s documents.
    package init(
        _ subject: TraceSubject, store: any DeviceRegistrationStore, trace: PassEventRecorder,
        maximumDevices: Int = Self.defaultMaximumDevices, clock: any CofferClock = SystemClock(), logger: Logger
    ) {
        self.subject = subject
        self.store = store
        self.trace = trace
        self.maximumDevices = maximumDevices
        self.clock = clock
        self.logger = logger
    }

    /// Registers a device for a document's updates, with a push token for this document alone; returns whether the
    /// registration is new.
    ///
    /// - Throws: ``WebServiceFailure/tooManyDevices(limit:)`` when the document has ``maximumDevices`` other devices,
    ///   each seen within ``staleRegistrationAge``.
    package func register(
        deviceLibraryIdentifier: String, typeIdentifier: String, identifier: String, pushToken: String,
        authorization: String?
    ) async throws -> Bool {
        try Self.checkDevice(deviceLibraryIdentifier)
        let document = try await authenticate(typeIdentifier, identifier, authorization)
        guard Hex.isValid(pushToken, maximumLength: 512), !pushToken.isEmpty else {
            throw WebServiceFailure.invalidRequest("pushToken must be hexadecimal, 1 to 512 characters")
        }
        let now = clock.now
        let outcome = try await store.register(
            subject, deviceLibraryIdentifier: deviceLibraryIdentifier, pushToken: pushToken.lowercased(),
            documentID: document.passID, now: now, maximumDevices: maximumDevices,
            evictingUnseenSince: now.addingTimeInterval(-Self.staleRegistrationAge))
        let metadata = metadata(document.passID, device: deviceLibraryIdentifier)
        func traced(_ outcome: String, firstDevice: Bool = false) async {
            var details: [String: JSONValue] = ["outcome": .string(outcome)]
            if firstDevice { details["first_device"] = .bool(true) }
            await trace.record(
                trace.event(
                    .registered, subject: subject, id: document.passID, device: deviceLibraryIdentifier,
                    details: details))
        }
        switch outcome {
        case .created(let registered, let evicted):
            logger.info("registered a device for \(noun)", metadata: metadata)
            if let evicted {
                logger.notice(
                    "\(noun) had as many devices as it may: the one unseen longest made room",
                    metadata: metadata.merging(["evicted": "\(DeviceIdentifierDigest.logValue(evicted))"]) { $1 })
                await trace.record(
                    trace.event(
                        .unregistered, subject: subject, id: document.passID, device: evicted,
                        details: ["was_registered": .bool(true), "cause": .string("evicted_unseen")]))
            }
            await traced("created", firstDevice: registered == 1)
            return true
        case .renewed:
            logger.info("a device registered again for \(noun)", metadata: metadata)
            await traced("renewed")
            return false
        case .refused(let registered):
            logger.notice(
                "refused a device registration: \(noun) has as many devices as it may",
                metadata: metadata.merging(["registered_devices": "\(registered)"]) { $1 })
            await traced("refused: \(registered) devices, the most a \(subject.name) may have")
            throw WebServiceFailure.tooManyDevices(limit: maximumDevices)
        }
    }

    /// Ends a device's registration for a document.
    package func unregister(
        deviceLibraryIdentifier: String, typeIdentifier: String, identifier: String, authorization: String?
    ) async throws {
        try Self.checkDevice(deviceLibraryIdentifier)
        let document = try await authenticate(typeIdentifier, identifier, authorization)
        let remaining = try await store.unregister(
            subject, deviceLibraryIdentifier: deviceLibraryIdentifier, documentID: document.passID)
        var details: [String: JSONValue] = ["was_registered": .bool(remaining != nil)]
        if remaining == 0 { details["last_device"] = .bool(true) }
        await trace.record(
            trace.event(
                .unregistered, subject: subject, id: document.passID, device: deviceLibraryIdentifier,
                details: details))
        logger.info(
            remaining != nil
                ? "unregistered a device from \(noun)" : "a device unregistered from \(noun) it was not registered for",
            metadata: metadata(document.passID, device: deviceLibraryIdentifier))
    }

    /// The identifiers (serial numbers, order identifiers) of the device's documents of the type changed after
    /// `since` (an update tag this service gave; absent, empty or unreadable means all), with the tag to ask from
    /// next time; `nil` when there are none.
    package func updated(deviceLibraryIdentifier: String, typeIdentifier: String, since: String?) async throws
        -> (identifiers: [String], tag: String)?
    {
        try Self.checkDevice(deviceLibraryIdentifier)
        try Self.checkIdentifier(typeIdentifier, name: subject.typeIdentifierName)
        // The tag is opaque to devices: anything that is not one of ours lists every document.
        let since = since.flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
        let documents = try await store.updatedDocuments(
            subject, deviceLibraryIdentifier: deviceLibraryIdentifier, typeIdentifier: typeIdentifier, since: since)
        trace.note(
            documents.map {
                trace.event(
                    .listed, subject: subject, id: $0.documentID, device: deviceLibraryIdentifier,
                    details: ["update_tag": .number(Double($0.updateTag))])
            })
        guard let newest = documents.map(\.updateTag).max() else { return nil }
        return (documents.map(\.identifier), String(max(newest, since ?? 0)))
    }

    /// The document, when its path parameters are well formed and `authorization` carries its token; an unknown
    /// document and a wrong token are refused alike.
    package func authenticate(_ typeIdentifier: String, _ identifier: String, _ authorization: String?)
        async throws -> WebServicePass
    {
        try Self.checkIdentifier(typeIdentifier, name: subject.typeIdentifierName)
        try Self.checkIdentifier(identifier, name: subject.identifierName)
        guard
            let document = try await store.webServiceDocument(
                subject, typeIdentifier: typeIdentifier, identifier: identifier),
            PassAuthenticationTokens.authorizes(
                authorization, storedHash: document.authenticationTokenHash, scheme: subject.authorizationScheme)
        else { throw WebServiceFailure.unauthorized }
        return document
    }

    /// Checks a device library identifier from the path.
    package static func checkDevice(_ identifier: String) throws {
        try checkIdentifier(identifier, name: "deviceLibraryIdentifier")
    }

    /// An identifier from the path, as ``WebServiceIdentifier`` has it.
    package static func checkIdentifier(_ value: String, name: String) throws {
        if let problem = WebServiceIdentifier.problem(value) {
            throw WebServiceFailure.invalidRequest("\(name) \(problem)")
        }
    }

    /// "a pass" or "an order", for log lines.
    private var noun: String { subject == .pass ? "a pass" : "an order" }

    private func metadata(_ id: UUID, device: String) -> Logger.Metadata {
        [subject.name: "\(id)", "device": "\(DeviceIdentifierDigest.logValue(device))"]
    }
}

extension TraceSubject {
    /// `pass` or `order`.
    package var name: String { self == .pass ? "pass" : "order" }
    /// What Apple's web service calls the document's type identifier.
    var typeIdentifierName: String { self == .pass ? "passTypeIdentifier" : "orderTypeIdentifier" }
    /// What Apple's web service calls the document's own identifier.
    var identifierName: String { self == .pass ? "serialNumber" : "orderIdentifier" }
    /// The scheme of the `Authorization` header that carries the document's token.
    var authorizationScheme: String { self == .pass ? "ApplePass" : "AppleOrder" }
}
