import Foundation
import Logging
import Secrets
import WalletDocuments
import WalletPasses

/// The in-app provisioning flow, independent of HTTP: issuer data for a tag, then the device's callback that
/// binds the pass and returns it re-signed.
package struct ProvisioningService: Sendable {
    /// The longest `issuerBindingData` or `keyHash` the callback accepts, in hexadecimal characters (bytes).
    package static let maximumBindingHexLength = 8192

    /// What the issuer-data endpoint answers.
    package struct IssuerDataResponse: Codable, Hashable, Sendable {
        /// Base64 of the exact binding-data bytes that were signed.
        package let issuerData: String
        /// Base64 of the DER CMS signature over them.
        package let signature: String
        /// The tag's identifier.
        package let tagID: String
        /// The pass type identifier of the pass the issuer data adds: with ``serialNumber``, how an app finds the
        /// pass in Wallet (`PKPassLibrary`) once it is there.
        package let passTypeIdentifier: String
        /// The serial number of the pass the issuer data adds.
        package let serialNumber: String

        private enum CodingKeys: String, CodingKey {
            case issuerData = "issuer_data"
            case signature
            case tagID = "tag_id"
            case passTypeIdentifier = "pass_type_identifier"
            case serialNumber = "serial_number"
        }
    }

    /// Why a provisioning step was refused.
    package enum Failure: Error, Hashable, Sendable {
        /// The tag, its pass, or the session does not exist for this caller (or is used or expired).
        case notFound(String)
        /// The request is malformed.
        case invalidRequest(String)
        /// The caller's client may not do this (issue under a pass type not granted to it).
        case forbidden(String)
        /// The pass cannot be issued as things are (its pass type has no NFC key); the message says what to run.
        case notIssuable(String)
    }

    let repository: any ProvisioningStore & PassWebServiceStore & PassTraceStore
    package let identities: SigningIdentityCache
    /// The relying party identifier in `fidoProfile` (the issuer's host).
    package let relyingPartyIdentifier: String
    /// The URL devices post the binding to.
    package var callbackURL: String { callbackAddress() }
    private let callbackAddress: @Sendable () -> String
    /// How long a session is accepted after its issuer data was made.
    package let sessionLifetime: TimeInterval
    package let clock: any CofferClock
    let logger: Logger
    /// Where signing and database times and sessions issued and consumed are counted.
    let metrics: ServerMetrics
    /// Makes the bound pass the callback returns, as the web service serves it later.
    package let renderer: PassRenderer
    /// Where issuances and bindings go in their passes' traces; the web service and the distribution share it.
    package let trace: PassEventRecorder

    /// Creates the service.
    package init(
        repository: any ProvisioningStore & PassWebServiceStore & PassTraceStore, identities: SigningIdentityCache,
        relyingPartyIdentifier: String,
        callbackURL: String, sessionLifetime: TimeInterval = IssuerBindingData.maximumAge,
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.provisioning"),
        metrics: ServerMetrics = ServerMetrics(), webService: PassRenderer.WebService? = nil,
        trace: PassEventRecorder
    ) {
        self.init(
            repository: repository, identities: identities, relyingPartyIdentifier: relyingPartyIdentifier,
            callbackAddress: { callbackURL }, sessionLifetime: sessionLifetime, clock: clock, logger: logger,
            metrics: metrics, webService: webService, trace: trace)
    }

    /// Creates the service with a callback URL known only once the server listens (on a port the system chose),
    /// recording in `trace`.
    package init(
        repository: any ProvisioningStore & PassWebServiceStore & PassTraceStore, identities: SigningIdentityCache,
        relyingPartyIdentifier: String,
        callbackAddress: @escaping @Sendable () -> String, sessionLifetime: TimeInterval,
        clock: any CofferClock = SystemClock(), logger: Logger, metrics: ServerMetrics = ServerMetrics(),
        webService: PassRenderer.WebService? = nil, trace: PassEventRecorder
    ) {
        self.renderer = PassRenderer(
            store: repository, identities: identities, relyingPartyIdentifier: relyingPartyIdentifier,
            webService: webService)
        self.trace = trace
        self.repository = repository
        self.identities = identities
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.callbackAddress = callbackAddress
        self.sessionLifetime = sessionLifetime
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
    }

    /// Stores `issuance` durably, timed as a database call.
    private func record(_ issuance: Issuance) async throws {
        try await metrics.measureDatabase { try await repository.recordIssuance(issuance) }
    }

    /// Signs binding data for the pass of the client's tag whose `attribute` is `tagID`, records it on the pass,
    /// and opens a provisioning session, ending the pass's sessions still open: only the newest issuer data can
    /// complete a binding.
    package func issuerData(for apiUser: APIUser, tagID: String, attribute: TagIDAttribute) async throws
        -> IssuerDataResponse
    {
        guard !tagID.isEmpty, tagID.count <= 256 else {
            throw Failure.invalidRequest("tag_id must be 1–256 characters")
        }
        guard
            let target = try await metrics.measureDatabase({
                try await repository.issuanceTarget(clientID: apiUser.clientID, attribute: attribute, value: tagID)
            })
        else { throw Failure.notFound("no pass for this tag") }
        guard target.clientMayIssue else {
            logger.notice(
                "refused issuer data: the client may not issue under the pass's pass type",
                metadata: ["pass": "\(target.passID)", "client": "\(apiUser.clientID)"])
            throw Failure.forbidden(Self.notGranted(target.passType.passTypeIdentifier))
        }
        // An account-bound pass is an NFC pass, which Wallet accepts only with its pass type's NFC key.
        guard target.passType.nfcPublicKey != nil else {
            throw Failure.notIssuable(
                "pass type \(target.passType.passTypeIdentifier) has no NFC key, which account-bound passes need: an "
                    + "administrator makes one with `coffer admin pass-type nfc-key create`")
        }
        let (passType, user) = (target.passType, target.user)
        let identity = try await identities.identity(for: passType)
        let created = clock.now
        let session = ProvisioningSession(
            id: SessionIdentifier.make(), passID: target.passID, createdAt: created,
            expiresAt: created.addingTimeInterval(sessionLifetime))
        let binding = IssuerBindingData(
            relyingPartyIdentifier: relyingPartyIdentifier, accountHash: user.accountHash,
            sessionIdentifier: session.id,
            callbackURL: callbackURL, passTypeIdentifier: passType.passTypeIdentifier,
            teamIdentifier: passType.teamIdentifier, displayableName: passType.organizationName, creationDate: created)
        // The record keeps what is signed, but not the session identifier, which completes the binding.
        var recorded = binding
        recorded.sessionIdentifier = SessionIdentifier.storedForm(of: session.id)
        let issuance = Issuance(
            passID: target.passID, accountBindingData: try recorded.serialized(), issuedAt: created, session: session)
        // The durable write commits while the signature is made; nothing is answered before both are done.
        async let stored: Void = record(issuance)
        let signed = try metrics.measureSigning {
            try DocumentSigner(identity: identity).sign(binding, signingTime: created)
        }
        try await stored
        metrics.sessionIssued()
        logger.debug("issued binding data", metadata: ["pass": "\(target.passID)", "client": "\(apiUser.clientID)"])
        trace.note([trace.event(.issued, passID: target.passID, details: ["via": .string("issuer_data")])])
        return IssuerDataResponse(
            issuerData: signed.issuerData, signature: signed.signature, tagID: target.tagID.uuidString,
            passTypeIdentifier: passType.passTypeIdentifier, serialNumber: target.serialNumber)
    }

    /// What a client that may not issue under `passTypeIdentifier` is told.
    static func notGranted(_ passTypeIdentifier: String) -> String {
        "this client may not issue passes of \(passTypeIdentifier); an administrator can share it with "
            + "`coffer admin pass-type share`"
    }

    /// Completes a binding: consumes the session, stores the device's binding (giving the pass a new authentication
    /// token, dropping its registrations and spending its landing links), and returns the pass re-signed with
    /// `issuerBindingData` and `fidoProfile` (including the key hash).
    package func completeBinding(sessionIdentifier: String, issuerBindingData: String, keyHash: String) async throws
        -> Data
    {
        for (name, value) in [("issuerBindingData", issuerBindingData), ("keyHash", keyHash)] {
            guard Hex.isValid(value, maximumLength: Self.maximumBindingHexLength) else {
                throw Failure.invalidRequest(
                    "\(name) must be hexadecimal (ASCII, at most \(Self.maximumBindingHexLength) characters)")
            }
        }
        guard
            let session = try await metrics.measureDatabase({
                try await repository.consumeSession(id: sessionIdentifier, now: clock.now)
            })
        else { throw Failure.notFound("no open provisioning session with this identifier") }
        metrics.sessionConsumed()
        guard
            let target = try await metrics.measureDatabase({
                try await repository.provisioningTarget(passID: session.passID)
            })
        else {
            throw Failure.notFound("no open provisioning session with this identifier")
        }
        var bound = target
        bound.pass.issuerBindingData = issuerBindingData.lowercased()
        bound.pass.keyHash = keyHash.lowercased()
        bound.pass.updatedAt = clock.now
        // Every binding gives the pass a new authentication token: whoever held the pass before (a rebinding moves it
        // to a new holder) can no longer fetch it, and their registrations go.
        let newToken = renderer.webService?.tokens.newToken(passID: target.pass.id)
        let package = try await renderer.package(for: bound, authenticationToken: newToken?.token)
        let identity = try await identities.identity(for: target.passType)
        let signed = try metrics.measureSigning {
            try DocumentSigner(identity: identity).sign(package, signingTime: clock.now)
        }
        let pkpass = try signed.pkpass()
        let record = bound.pass
        try await metrics.measureDatabase {
            try await repository.recordBinding(record, authentication: newToken?.assignment)
        }
        logger.info("bound and re-signed a pass", metadata: ["pass": "\(record.id)"])
        // Stored before answering: the issuer's pass.bound webhook is queued with it.
        await trace.record(
            trace.event(
                .bound, passID: record.id,
                details: ["new_token": .bool(newToken != nil), "registrations_dropped": .bool(newToken != nil)]))
        return pkpass
    }
}
