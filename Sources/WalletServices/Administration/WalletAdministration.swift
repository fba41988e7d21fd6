import Foundation
import Logging
import Secrets
import SecretsAudit
import WalletDocuments
import WalletOrders
import WalletPasses

/// The operator's side of the server: clients, API users, users, pass types, tags and passes, with the checks
/// that keep them consistent. `coffer admin` is a thin layer over it, and tests use it to set up data.
public struct WalletAdministration: Sendable {
    /// What ``seedDemo(passTypeID:)`` made.
    public struct DemoSeed: Codable, Hashable, Sendable {
        /// The new client.
        public let clientID: UUID
        /// The new API user's token, shown this once.
        public let apiToken: String
        /// The new user.
        public let userID: UUID
        /// The pass type the pass is signed for.
        public let passTypeID: UUID
        /// The tag's `reference_id`: what the issuer-data request names as `tag_id`.
        public let tagID: String
        /// The new pass.
        public let passID: UUID
        /// Every tag's `reference_id`, ``tagID`` first (more than one when asked, for load tests).
        public let tagIDs: [String]
        /// The development order type shared with the client, when asked for.
        public var orderTypeID: UUID? = nil

        private enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case apiToken = "api_token"
            case userID = "user_id"
            case passTypeID = "pass_type_id"
            case tagID = "tag_id"
            case passID = "pass_id"
            case tagIDs = "tag_ids"
            case orderTypeID = "order_type_id"
        }
    }

    /// The pass type identifier of the development identity.
    public static let developmentPassTypeIdentifier = "pass.dev.coffer.local"
    /// The team identifier of the development identity.
    public static let developmentTeamIdentifier = "DEVTEAM000"

    let repository: any WalletRepository
    let secrets: any SecretsDataStoring
    let identities: SigningIdentityCache
    let developmentRootURL: URL
    let logger: Logger

    /// Creates the administration over the records in `repository` and the signing keys in `secrets` (whose
    /// identities `identities` caches), writing the development root certificate to `developmentRootURL`.
    package init(
        repository: any WalletRepository, secrets: any SecretsDataStoring, identities: SigningIdentityCache,
        developmentRootURL: URL, logger: Logger = Logger(label: "coffer.admin")
    ) {
        self.repository = repository
        self.secrets = secrets
        self.identities = identities
        self.developmentRootURL = developmentRootURL
        self.logger = logger
    }

    // MARK: Clients, API users, users

    /// Creates a client named `name` (1–200 characters).
    public func createClient(name: String) async throws -> Client {
        try Self.checkName(name, what: "a client name")
        return try await repository.createClient(name: name)
    }

    /// Creates an API user for a client and returns it with its token, which is never shown again.
    public func createAPIUser(clientID: UUID, name: String) async throws -> (apiUser: APIUser, token: String) {
        try Self.checkName(name, what: "an API user name")
        return try await repository.createAPIUser(clientID: clientID, name: name)
    }

    /// Revokes an API user: its token stops authenticating at once here, and within 5 seconds in running servers
    /// (each keeps a token that authenticated for that long).
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when there is no active API user with `id`.
    public func revokeAPIUser(id: UUID) async throws {
        guard try await repository.revokeAPIUser(id: id) else {
            throw WalletServerError.notFound("an active API user \(id)")
        }
    }

    /// Creates a user for a client, with a fresh account hash.
    public func createUser(clientID: UUID, externalReference: String? = nil) async throws -> User {
        if let externalReference { try Self.checkName(externalReference, what: "an external reference") }
        return try await repository.createUser(clientID: clientID, externalReference: externalReference)
    }

    // MARK: Pass types

    /// Keeps `identity` in the secret store and records its pass type; importing a renewed certificate for a
    /// pass type that exists keeps the record (with the organization name and learn-more page given, when they
    /// are) and signs with the new identity at once or, with `stagedUntil`, stages it beside the current one.
    ///
    /// A replaced identity stays in the store until its certificate expires; a staged one replaces one staged
    /// before.
    ///
    /// - Parameters:
    ///   - organizationName: The name users see; defaults to the certificate's organization.
    ///   - bindingLearnMoreURL: An https page that bound passes of this type link to from their binding
    ///     (`issuerBindingData.learnMoreURL`).
    ///   - staged: Whether to stage the identity as the pass type's next one rather than sign with it now.
    ///   - activatingAt: When a staged identity takes over: by default, when the current certificate expires
    ///     (never before the new one's `notBefore`); ``activateNextIdentity(passTypeID:at:)`` can say sooner.
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` for a learn-more URL that is not https, or a staged
    ///   identity for a pass type that has none yet.
    /// - Returns: The pass type, and whether it was new.
    public func importPassType(
        _ identity: SigningIdentity, kind: PassType.Kind = .pass, organizationName: String? = nil,
        bindingLearnMoreURL: String? = nil, staged: Bool = false, activatingAt: Date? = nil
    ) async throws -> (passType: PassType, created: Bool) {
        if let bindingLearnMoreURL {
            guard Pass.isHTTPSURL(bindingLearnMoreURL) else {
                throw WalletServerError.invalidArgument(
                    "the binding learn-more URL '\(bindingLearnMoreURL)' must be an https URL with a host")
            }
        }
        guard let identifier = identity.passTypeIdentifier, let team = identity.teamIdentifier else {
            throw WalletDocumentError.unreadableKey("the certificate names no pass type identifier (UID) or team (OU)")
        }
        if kind == .order {
            try SigningIdentity.check(identity.certificate, orderTypeIdentifier: identifier)
        }
        let existing = try await repository.passTypes().first { $0.passTypeIdentifier == identifier }
        if let existing, existing.kind != kind {
            throw WalletServerError.conflict(
                "the \(existing.kind.rawValue) type \(identifier) (this certificate was imported as an \(kind.rawValue) type)"
            )
        }
        if let existing, existing.teamIdentifier != team {
            throw WalletServerError.conflict(
                "the pass type \(identifier) of team \(existing.teamIdentifier) (this certificate is team \(team))")
        }
        guard !staged || existing != nil else {
            throw WalletServerError.invalidArgument(
                "the pass type \(identifier) has no identity yet to stage a next one beside: import it without --next")
        }
        var passType: PassType
        if var existing {
            existing.organizationName = organizationName ?? existing.organizationName
            existing.bindingLearnMoreURL = bindingLearnMoreURL ?? existing.bindingLearnMoreURL
            passType = try await passTypeIdentities.store(
                identity, for: existing, activation: staged ? .staged(activatingAt: activatingAt) : .immediately,
                now: Date())
            logger.info(
                staged
                    ? "staged the next signing identity of a pass type"
                    : "replaced the signing identity of a pass type",
                metadata: ["pass_type": "\(identifier)"])
        } else {
            // The identity goes to a path of its own, and only then is the record made.
            let keyPath = try await passTypeIdentities.storeNew(identity, passTypeIdentifier: identifier)
            passType = PassType(
                passTypeIdentifier: identifier, teamIdentifier: team,
                organizationName: organizationName ?? identity.organizationName ?? identifier, signingKeyPath: keyPath,
                bindingLearnMoreURL: bindingLearnMoreURL, kind: kind)
            do {
                try await repository.createPassType(passType)
            } catch {
                _ = try? secrets.deleteData(account: keyPath)
                throw error
            }
            logger.info("imported a pass type", metadata: ["pass_type": "\(identifier)", "team": "\(team)"])
        }
        // Account-bound passes are NFC passes, and Wallet accepts only encrypted ones: every pass type gets a key.
        if passType.kind == .pass, passType.nfcPublicKey == nil {
            passType.nfcPublicKey = try await createNFCKey(passTypeID: passType.id).publicKey
        }
        return (passType, existing == nil)
    }

    /// Lets a client issue passes under a pass type (the management API and issuer data refuse every pass type not
    /// shared with the caller's client). Sharing it twice changes nothing.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type or client.
    public func sharePassType(passTypeID: UUID, clientID: UUID) async throws {
        let passType = try await existingPassType(passTypeID)
        guard try await repository.client(id: clientID) != nil else {
            throw WalletServerError.notFound("client \(clientID)")
        }
        try await repository.grantPassType(passTypeID: passTypeID, clientID: clientID, now: Date())
        logger.notice(
            "shared a pass type with a client",
            metadata: ["pass_type": "\(passType.passTypeIdentifier)", "client": "\(clientID)"])
    }

    /// Stops a client from issuing under a pass type; its passes already issued stay as they are, but get no new
    /// issuer data.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when the pass type was not shared with the client.
    public func unsharePassType(passTypeID: UUID, clientID: UUID) async throws {
        let passType = try await existingPassType(passTypeID)
        guard try await repository.revokePassType(passTypeID: passTypeID, clientID: clientID) else {
            throw WalletServerError.notFound("pass type \(passType.passTypeIdentifier) shared with client \(clientID)")
        }
        logger.notice(
            "stopped sharing a pass type with a client",
            metadata: ["pass_type": "\(passType.passTypeIdentifier)", "client": "\(clientID)"])
    }

    /// Switches the pass type to its staged identity at `date` (by default now; never before the staged
    /// certificate's `notBefore`): every server signs and pushes with it from then on, without a restart, and keeps
    /// the identity it replaces in the store until that one expires.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type or one with no staged identity.
    /// - Returns: The pass type as it is now.
    public func activateNextIdentity(passTypeID: UUID, at date: Date? = nil) async throws -> PassType {
        let passType = try await existingPassType(passTypeID)
        let activated = try await passTypeIdentities.activate(passType, at: date, now: Date())
        logger.notice(
            "set when a pass type's next identity takes over",
            metadata: [
                "pass_type": "\(passType.passTypeIdentifier)",
                "activates_at": "\(activated.nextActivatesAt.map(PassTrace.time) ?? "now")",
            ])
        return activated
    }

    /// The renewal over this administration's records and secret store.
    var passTypeIdentities: PassTypeIdentities {
        PassTypeIdentities(store: repository, secrets: secrets, cache: identities, logger: logger)
    }

    func existingPassType(_ id: UUID) async throws -> PassType {
        guard let passType = try await repository.passType(id: id) else {
            throw WalletServerError.notFound("pass type \(id)")
        }
        return passType
    }

    /// Checks that the client may issue under `passType`; the development pass type (not Apple's, trusted by no
    /// device) is shared with any client that uses it.
    private func requireShared(_ passType: PassType, with clientID: UUID) async throws {
        if passType.passTypeIdentifier == Self.developmentPassTypeIdentifier {
            try await repository.grantPassType(passTypeID: passType.id, clientID: clientID, now: Date())
            return
        }
        guard try await repository.isPassTypeGranted(passTypeID: passType.id, clientID: clientID) else {
            throw WalletServerError.invalidArgument(
                "client \(clientID) may not issue passes of \(passType.passTypeIdentifier): share it first with "
                    + "`coffer admin pass-type share --pass-type \(passType.id) --client \(clientID)`")
        }
    }

    /// The development pass type, made on first use: a certificate hierarchy that is **not Apple's** (passes
    /// signed with it verify against ``WalletServerConfiguration/developmentRootURL``, not on devices), its identity
    /// in the secret store, its root certificate written to the data directory. An identity that can no longer sign
    /// (one made by an earlier version, without the Pass Type ID extension) is made again.
    ///
    /// - Returns: The pass type, and whether this call made it.
    public func developmentPassType() async throws -> (passType: PassType, created: Bool) {
        try await developmentType(
            Self.developmentPassTypeIdentifier, kind: .pass, rootURL: developmentRootURL,
            rootAccount: "wallet/development/root.pem",
            generate: {
                try DevelopmentIdentity.generate(
                    passTypeIdentifier: Self.developmentPassTypeIdentifier,
                    teamIdentifier: Self.developmentTeamIdentifier, organizationName: "Coffer Development")
            },
            existing: { existing in
                // One made before pass types had NFC keys gets its key now.
                var existing = existing
                if existing.nfcPublicKey == nil {
                    existing.nfcPublicKey = try await createNFCKey(passTypeID: existing.id).publicKey
                }
                return existing
            },
            generated: "generated a development signing identity (NOT Apple's: passes verify against its root, not on "
                + "devices)")
    }

    /// The development pass or order type `identifier`, made on first use: one whose identity signs, with its root
    /// certificate at `rootURL`, is kept. The root is kept in the secret store at `rootAccount` too, so that a
    /// replica with a data directory of its own writes the same root rather than replace the identity; a replica
    /// that loses the race to make it takes the one that won.
    private func developmentType(
        _ identifier: String, kind: PassType.Kind, rootURL: URL, rootAccount: String,
        generate: () throws -> DevelopmentIdentity, existing kept: (PassType) async throws -> PassType,
        generated message: String
    ) async throws -> (passType: PassType, created: Bool) {
        // Waits, 100 ms at a time, for another replica that made it to keep its root.
        var waits = 0
        while true {
            let existing = try await repository.passTypes().first { $0.passTypeIdentifier == identifier }
            if let existing, secrets.canSign(at: existing) {
                if developmentRoot(at: rootURL, account: rootAccount) { return (try await kept(existing), false) }
                if waits > 0 && waits < 20 {
                    waits += 1
                    try await Task.sleep(for: .milliseconds(100))
                    continue
                }
            }
            let development = try generate()
            var passType: PassType
            do {
                if existing != nil {
                    passType = try await importPassType(development.signingIdentity, kind: kind).passType
                } else {
                    passType = try await createDevelopmentType(development.signingIdentity, kind: kind)
                }
            } catch {
                // Another replica made or replaced it meanwhile: that one is taken once its root is kept.
                let made = try await repository.passTypes().contains { $0.passTypeIdentifier == identifier }
                guard made, waits == 0 else { throw error }
                waits = 1
                continue
            }
            passType = try await kept(passType)
            let root = Data(try development.rootPEM.utf8)
            try secrets.saveData(root, account: rootAccount)
            try root.write(to: rootURL, options: .atomic)
            logger.notice(
                "\(message)",
                metadata: [
                    kind == .order ? "order_type" : "pass_type": "\(identifier)", "root_certificate": "\(rootURL.path)",
                ])
            return (passType, existing == nil)
        }
    }

    /// Makes the development type of `identity`, failing when one with its identifier exists (another replica made
    /// it first); its identity is kept at a path of its own first, and deleted when the record cannot be made.
    private func createDevelopmentType(_ identity: SigningIdentity, kind: PassType.Kind) async throws -> PassType {
        guard let identifier = identity.passTypeIdentifier, let team = identity.teamIdentifier else {
            throw WalletDocumentError.unreadableKey("the certificate names no pass type identifier (UID) or team (OU)")
        }
        let keyPath = try await passTypeIdentities.storeNew(identity, passTypeIdentifier: identifier)
        let passType = PassType(
            passTypeIdentifier: identifier, teamIdentifier: team,
            organizationName: identity.organizationName ?? identifier, signingKeyPath: keyPath, kind: kind)
        do {
            try await repository.createPassType(passType)
        } catch {
            _ = try? secrets.deleteData(account: keyPath)
            throw error
        }
        return passType
    }

    /// Whether the development root certificate is at `url`, written there from the secret store's `account` when
    /// only the store has it.
    private func developmentRoot(at url: URL, account: String) -> Bool {
        if FileManager.default.fileExists(atPath: url.path) { return true }
        guard let root = try? secrets.readData(account: account) else { return false }
        return (try? root.write(to: url, options: .atomic)) != nil
    }

    /// The order type identifier of the development order type.
    public static let developmentOrderTypeIdentifier = "order.dev.coffer.local"

    /// Where ``developmentOrderType()`` writes its root certificate: beside the development pass type's.
    public var developmentOrderRootURL: URL {
        developmentRootURL.deletingLastPathComponent().appendingPathComponent("development-order-root.pem")
    }

    /// The development order type, made on first use like ``developmentPassType()``: an Order Type ID hierarchy that
    /// is **not Apple's**, its root certificate written to ``developmentOrderRootURL``.
    ///
    /// - Returns: The order type, and whether this call made it.
    public func developmentOrderType() async throws -> (orderType: PassType, created: Bool) {
        let (orderType, created) = try await developmentType(
            Self.developmentOrderTypeIdentifier, kind: .order, rootURL: developmentOrderRootURL,
            rootAccount: "wallet/development/order-root.pem",
            generate: {
                try DevelopmentIdentity.generate(
                    orderTypeIdentifier: Self.developmentOrderTypeIdentifier,
                    teamIdentifier: Self.developmentTeamIdentifier, organizationName: "Coffer Development")
            },
            existing: { $0 },
            generated: "generated a development order type (NOT Apple's: orders verify against its root, not on "
                + "devices)")
        return (orderType, created)
    }

    /// The pass type to use when none is named: the only one there is.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when there is none, ``WalletServerError/invalidArgument(_:)``
    ///   when several leave the choice open.
    public func defaultPassType() async throws -> PassType {
        let passTypes = try await repository.passTypes().filter { $0.kind == .pass }
        guard passTypes.count <= 1 else {
            throw WalletServerError.invalidArgument("there are \(passTypes.count) pass types: name one")
        }
        guard let only = passTypes.first else {
            throw WalletServerError.notFound("a pass type (import one, or start the server once to make one)")
        }
        return only
    }

    /// Makes `template` the one new passes of the pass type start from (the management API's `POST /api/v2/passes`
    /// uses it), after checking that a pass made from it is valid; returns the warnings `PassLint` finds in such a
    /// pass (an `nfc` dictionary missing, which binding needs, an image Wallet ignores, …).
    ///
    /// A template with `personalization.json` makes rewards passes that Wallet asks the user to sign up with.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` for an unknown pass type, or
    ///   `WalletDocumentError/invalidPass(_:)` with the errors of a pass made from it.
    @discardableResult
    public func setTemplate(passTypeID: UUID, template: PassTemplate) async throws -> [LintFinding] {
        guard let passType = try await repository.passType(id: passTypeID), passType.kind == .pass else {
            throw WalletServerError.notFound("pass type \(passTypeID)")
        }
        let made = try template.package(for: passType, serialNumber: "TEMPLATE")
        try await repository.setPassTemplate(passTypeID: passTypeID, archive: try template.package.archived())
        logger.info("set the template of a pass type", metadata: ["pass_type": "\(passType.passTypeIdentifier)"])
        return PassTemplate.issuanceWarnings(made)
    }

    // MARK: Tags and passes

    /// Creates a tag for a client's user (a new user when `userID` is `nil`); at least one identifier is required,
    /// and each is unique within the client.
    public func createTag(
        clientID: UUID, userID: UUID? = nil, referenceID: String? = nil, prontoTagID: String? = nil,
        subscriptionID: String? = nil
    ) async throws -> ClientTag {
        let identifiers = [referenceID, prontoTagID, subscriptionID].compactMap { $0 }
        guard !identifiers.isEmpty else {
            throw WalletServerError.invalidArgument("a tag needs a reference_id, pronto_tag_id or subscription_id")
        }
        for identifier in identifiers { try Self.checkName(identifier, what: "a tag identifier", limit: 256) }
        guard try await repository.client(id: clientID) != nil else {
            throw WalletServerError.notFound("client \(clientID)")
        }
        let owner: UUID
        if let userID { owner = userID } else { owner = try await createUser(clientID: clientID).id }
        let tag = ClientTag(
            clientID: clientID, userID: owner, referenceID: referenceID, prontoTagID: prontoTagID,
            subscriptionID: subscriptionID)
        try await repository.createTag(tag)
        return tag
    }

    /// Creates the pass of a tag from `template`, signed later for `passTypeID` (the default pass type when `nil`).
    ///
    /// The serial number is `serialNumber`, else the tag's first identifier that a web service path carries as it
    /// is (its reference, Pronto tag or subscription), else the tag's UUID.
    public func createPass(
        tagID: UUID, passTypeID: UUID? = nil, template: PassTemplate? = nil, serialNumber: String? = nil
    ) async throws -> StoredPass {
        guard let tag = try await repository.tag(id: tagID) else { throw WalletServerError.notFound("tag \(tagID)") }
        guard try await repository.pass(tagID: tagID) == nil else {
            throw WalletServerError.conflict("a pass for tag \(tagID)")
        }
        let passType: PassType
        if let passTypeID {
            guard let named = try await repository.passType(id: passTypeID), named.kind == .pass else {
                throw WalletServerError.notFound("pass type \(passTypeID)")
            }
            passType = named
        } else {
            passType = try await defaultPassType()
        }
        try await requireShared(passType, with: tag.clientID)
        let template = try template ?? PassTemplate.demoTicket()
        // The tag's first own identifier that Wallet can carry in a web service path.
        let preferred = [tag.referenceID, tag.prontoTagID, tag.subscriptionID].lazy.compactMap { $0 }
            .first { WebServiceIdentifier.problem($0) == nil }
        let serial = try template.serialNumber(preferring: preferred ?? tag.id.uuidString, chosen: serialNumber)
        let package = try template.package(for: passType, serialNumber: serial)
        let pass = StoredPass(
            tagID: tag.id, passTypeID: passType.id, serialNumber: serial, passContent: try package.archived())
        try await repository.createPass(pass)
        return pass
    }

    /// Every pass of a client's tags.
    public func passes(clientID: UUID) async throws -> [StoredPass] {
        var passes: [StoredPass] = []
        for tag in try await repository.tags(clientID: clientID) {
            if let pass = try await repository.pass(tagID: tag.id) { passes.append(pass) }
        }
        return passes
    }

    // MARK: Demo

    /// Creates a new client with an API user, a user, a tag and its pass (of `passTypeID`, else the development
    /// pass type), so that the issuer-data API answers at once. Each call makes a separate client.
    ///
    /// With a `tagCount` above one, the user gets that many tags (`DEMO-XXXXXXXX`, then `-2`, `-3`, …), each with its
    /// pass, written in one transaction: what a load test that needs many open sessions at once starts from.
    public func seedDemo(passTypeID: UUID? = nil, tagCount: Int = 1, withOrderType: Bool = false) async throws
        -> DemoSeed
    {
        guard (1...Self.maximumDemoTags).contains(tagCount) else {
            throw WalletServerError.invalidArgument("the number of demo tags must be 1–\(Self.maximumDemoTags)")
        }
        let passType: PassType
        if let passTypeID {
            guard let named = try await repository.passType(id: passTypeID), named.kind == .pass else {
                throw WalletServerError.notFound("pass type \(passTypeID)")
            }
            passType = named
        } else {
            passType = try await developmentPassType().passType
        }
        let suffix = SecureRandom.hex(byteCount: 4).uppercased()
        let client = try await createClient(name: "Demo \(suffix)")
        try await repository.grantPassType(passTypeID: passType.id, clientID: client.id, now: Date())
        let (_, token) = try await createAPIUser(clientID: client.id, name: "demo")
        let user = try await createUser(clientID: client.id, externalReference: "demo-\(suffix.lowercased())")
        let template = try PassTemplate.demoTicket()
        var tags: [(tag: ClientTag, pass: StoredPass)] = []
        for index in 1...tagCount {
            let referenceID = index == 1 ? "DEMO-\(suffix)" : "DEMO-\(suffix)-\(index)"
            let tag = ClientTag(clientID: client.id, userID: user.id, referenceID: referenceID)
            let package = try template.package(for: passType, serialNumber: referenceID)
            let pass = StoredPass(
                tagID: tag.id, passTypeID: passType.id, serialNumber: referenceID, passContent: try package.archived())
            tags.append((tag, pass))
        }
        try await repository.createTags(tags)
        var orderTypeID: UUID?
        if withOrderType {
            let orderType = try await developmentOrderType().orderType
            try await repository.grantPassType(passTypeID: orderType.id, clientID: client.id, now: Date())
            orderTypeID = orderType.id
        }
        return DemoSeed(
            clientID: client.id, apiToken: token, userID: user.id, passTypeID: passType.id,
            tagID: tags[0].tag.referenceID!, passID: tags[0].pass.id, tagIDs: tags.map { $0.tag.referenceID! },
            orderTypeID: orderTypeID)
    }

    /// The most tags ``seedDemo(passTypeID:tagCount:)`` makes at once.
    public static let maximumDemoTags = 100_000

    private static func checkName(_ value: String, what: String, limit: Int = 200) throws {
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, value.count <= limit,
            !value.contains(where: { $0.isNewline || $0 == "\u{0}" })
        else {
            throw WalletServerError.invalidArgument("\(what) must be 1–\(limit) characters on one line")
        }
    }
}

extension SecretsDataStoring {
    /// Whether the identity `passType` names is stored and may sign its passes.
    fileprivate func canSign(at passType: PassType) -> Bool {
        guard let identity = try? SigningIdentity(from: self, at: passType.signingKeyPath) else { return false }
        return (try? SigningIdentityCache.check(identity, of: passType)) != nil
    }
}
