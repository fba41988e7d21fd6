import CofferSupport
import ArgumentParser
import Foundation
import Secrets
import WalletDocuments
import WalletOrders
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

extension AdminCommand {
    /// `coffer admin pass-type`.
    struct PassTypeCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pass-type", abstract: "Import and list pass types and their signing identities.",
            subcommands: [
                Import.self, Request.self, AttachCertificate.self, Activate.self, List.self, GoogleIssuerCommands.self,
                Share.self, Unshare.self,
                Template.self,
                NFCKeyCommands.self,
            ])

        struct Import: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "import",
                abstract: "Keep a Pass Type ID identity (PEM or .p12) in the secret store and record its pass type.",
                discussion: """
                    The private key is stored encrypted in the server's secret store (with a PostgreSQL database, \
                    sealed in the database for every replica), never in the clear. Importing a renewed certificate \
                    for a known pass type replaces its identity, on every running server at once; with --next it \
                    waits beside the current one until it is activated. \
                    A client issues under a pass type only once it is shared with it (--client here, or \
                    `coffer admin pass-type share`).
                    """)
            @OptionGroup var identity: IdentityOptions
            @OptionGroup var record: PassTypeRecordOptions
            @Flag(help: "The identity is an Order Type ID's: its type signs orders, not passes.") var order = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let signingIdentity = try identity.load()
                try await record.importing(into: server) { administration in
                    let imported = try await administration.importPassType(
                        signingIdentity, kind: order ? .order : .pass, organizationName: record.organization,
                        bindingLearnMoreURL: record.learnMoreURL, staged: record.next,
                        activatingAt: try record.activationTime())
                    return (imported.passType, imported.created, nil)
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "List every pass type: when its certificate expires, its staged renewal, how it pushes.")
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            /// A pass type with its certificates' ends and its push authentication, as `--json` prints it.
            struct Listed: Encodable {
                let passType: PassType
                let certificateExpiresAt: Date?
                let nextCertificateExpiresAt: Date?
                let push: APNsConfiguration.PushAuthentication

                enum CodingKeys: String, CodingKey { case certificateExpiresAt, nextCertificateExpiresAt, push }

                func encode(to encoder: any Encoder) throws {
                    try passType.encode(to: encoder)
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(certificateExpiresAt, forKey: .certificateExpiresAt)
                    try container.encode(nextCertificateExpiresAt, forKey: .nextCertificateExpiresAt)
                    try container.encode(push, forKey: .push)
                }
            }

            func run() async throws {
                let configuration = try server.configuration()
                let (passTypes, ends) = try await withAdministration(server) {
                    (try await $0.passTypes(), try await $0.certificateEnds())
                }
                let listed = passTypes.map {
                    Listed(
                        passType: $0, certificateExpiresAt: ends[$0.passTypeIdentifier]?.current,
                        nextCertificateExpiresAt: ends[$0.passTypeIdentifier]?.next,
                        push: configuration.apns.pushAuthentication(teamIdentifier: $0.teamIdentifier))
                }
                if json { return try Output.printJSON(listed, snakeCaseKeys: true) }
                let now = Date()
                func ending(_ end: Date?) -> String {
                    end.map { CertificateExpiry(notValidAfter: $0, now: now).summary } ?? "unreadable: see GET /ready"
                }
                Output.printTable(
                    ["ID", "KIND", "PASS TYPE", "TEAM", "ORGANIZATION", "CERTIFICATE", "NEXT", "PUSH"],
                    listed.map { item in
                        let passType = item.passType
                        let next = passType.nextActivatesAt.map {
                            "from \(String($0.formatted(.iso8601).prefix(10))), \(ending(item.nextCertificateExpiresAt))"
                        }
                        return [
                            passType.id.uuidString, passType.kind.rawValue, passType.passTypeIdentifier,
                            passType.teamIdentifier,
                            passType.organizationName, ending(item.certificateExpiresAt), next ?? "-",
                            item.push.summary,
                        ]
                    })
            }
        }
    }

    /// The options that make a pass: which pass type, which template, which serial number.
    struct PassOptions: ParsableArguments {
        @Option(help: "The pass type's identifier (default: the only pass type).") var passType: String?
        @Option(help: "A pass folder (pass.json and images) to start from (default: a demo event ticket).")
        var template: String?
        @Option(help: "The serial number (default: the tag's first identifier; random for a personalizable template).")
        var serial: String?

        func create(for tagID: UUID, with administration: WalletAdministration) async throws -> StoredPass {
            let passTypeID = try passType.map { try identifier($0, of: "pass type") }
            let template = try template.map { path in
                try CommandFailure.mapping {
                    PassTemplate(package: try PassPackage(directory: StoreOptions.absoluteURL(path)))
                }
            }
            for warning in template?.warnings ?? [] {
                Output.note("\(warning)")
            }
            return try await administration.createPass(
                tagID: tagID, passTypeID: passTypeID, template: template, serialNumber: serial)
        }
    }

    /// `coffer admin tag`.
    struct TagCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tag", abstract: "Create and list tags (a ticket, a membership) and their passes.",
            subcommands: [Create.self, List.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Create a tag with its pass and print the tag's identifier.",
                discussion: "Give at least one of --reference-id, --pronto-tag-id and --subscription-id.")
            @Option(help: "The client's identifier.") var client: String
            @Option(help: "The user's identifier (default: a new user).") var user: String?
            @Option(help: "The client's reference (the default id_attribute).") var referenceID: String?
            @Option(help: "Pronto's tag identifier.") var prontoTagID: String?
            @Option(help: "A subscription identifier.") var subscriptionID: String?
            @Flag(help: "Make the tag without a pass.") var noPass = false
            @OptionGroup var pass: PassOptions
            @Flag(help: "Print the whole record as JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let userID = try user.map { try identifier($0, of: "user") }
                let tag = try await withAdministration(server) { administration in
                    let tag = try await administration.createTag(
                        clientID: clientID, userID: userID, referenceID: referenceID, prontoTagID: prontoTagID,
                        subscriptionID: subscriptionID)
                    if !noPass { _ = try await pass.create(for: tag.id, with: administration) }
                    return tag
                }
                if json { try Output.printJSON(tag, snakeCaseKeys: true) } else { print(tag.id.uuidString) }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List a client's tags.")
            @Option(help: "The client's identifier.") var client: String
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let tags = try await withAdministration(server) {
                    try await $0.tags(clientID: clientID)
                }
                if json { return try Output.printJSON(tags, snakeCaseKeys: true) }
                Output.printTable(
                    ["ID", "REFERENCE ID", "PRONTO TAG ID", "SUBSCRIPTION ID", "USER"],
                    tags.map {
                        [
                            $0.id.uuidString, $0.referenceID ?? "-", $0.prontoTagID ?? "-", $0.subscriptionID ?? "-",
                            $0.userID.uuidString,
                        ]
                    })
            }
        }
    }

    /// `coffer admin pass`.
    struct PassCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pass", abstract: "Create, list and change the Apple passes of tags.",
            subcommands: [Create.self, List.self, PassUpdate.self, PassTraceCommand.self])

        /// A pass as listed: its binding state, not its content.
        struct Summary: Encodable {
            let id: UUID
            let tagID: UUID
            let passTypeID: UUID
            let serialNumber: String
            let bound: Bool
            let updatedAt: Date

            init(_ pass: StoredPass) {
                (id, tagID, passTypeID, serialNumber) = (pass.id, pass.tagID, pass.passTypeID, pass.serialNumber)
                bound = pass.issuerBindingData != nil
                updatedAt = pass.updatedAt
            }
        }

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create",
                abstract: "Create the pass of a tag that has none and print its identifier.")
            @Option(help: "The tag's identifier.") var tag: String
            @OptionGroup var pass: PassOptions
            @Flag(help: "Print a summary as JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let tagID = try identifier(tag, of: "tag")
                let created = try await withAdministration(server) { try await pass.create(for: tagID, with: $0) }
                if json {
                    try Output.printJSON(Summary(created), snakeCaseKeys: true)
                } else {
                    print(created.id.uuidString)
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the passes of a client's tags.")
            @Option(help: "The client's identifier.") var client: String
            @Flag(help: "Print JSON.") var json = false
            @OptionGroup var server: ServerOptions

            func run() async throws {
                let clientID = try identifier(client, of: "client")
                let passes = try await withAdministration(server) { try await $0.passes(clientID: clientID) }
                if json { return try Output.printJSON(passes.map(Summary.init), snakeCaseKeys: true) }
                Output.printTable(
                    ["ID", "SERIAL", "TAG", "BOUND", "UPDATED"],
                    passes.map {
                        [
                            $0.id.uuidString, $0.serialNumber, $0.tagID.uuidString,
                            $0.issuerBindingData == nil ? "no" : "yes", Output.format($0.updatedAt),
                        ]
                    })
            }
        }
    }

    /// `coffer admin pass update`: what `PATCH /api/v2/passes/{tag_id}` does for one pass, and
    /// `POST /api/v2/passes/changes` for many, from the shell.
    struct PassUpdate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Change passes' fields, dates or voided flag; re-sign them and push them to their devices.",
            discussion: """
                The same services as the management API: with --tag, PATCH /api/v2/passes/{tag_id}; with --where, \
                --all, --csv or --jsonl, a bulk change (POST /api/v2/passes/changes), which this command works on \
                itself (beside any running server) with a progress bar on standard error. Each pass is rewritten, \
                its update tag moves forward, and every device registered for it is sent a push (by the running \
                server's push dispatcher, within 30 seconds). Only fields the pass's pass.json has can be set. A key \
                with a language (gate:de=Tor 5) sets that language's text, written to its pass.strings: give each \
                language the same way (gate:en=Gate 5). A CSV's first column names the tag (reference_id, \
                pronto_tag_id or subscription_id) and its others are field keys, or relevant_date, expiration_date \
                and voided; a JSON lines file has a PATCH body per line, with the tag's identifier among its keys. \
                Prints the pass's new state, or the finished job, as JSON; exits 4 when some passes failed.
                """)
        @Option(help: "The client's identifier.") var client: String
        @Option(help: "One pass: its tag, by the identifier --id-attribute names (default: its reference_id).")
        var tag: String?
        @Option(help: "Which identifier --tag is: reference_id, pronto_tag_id or subscription_id.")
        var idAttribute = TagIDAttribute.referenceID.rawValue
        @Option(
            name: .customLong("where"),
            help: "key=value: every pass of the client whose field has this text (repeat: all must hold).")
        var matches: [String] = []
        @Flag(help: "Every pass of the client (of --pass-type, when given).") var all = false
        @Option(help: "With --where or --all: only passes of this pass type (its identifier or UUID).")
        var passType: String?
        @Option(help: "A CSV file of changes, one pass per line.") var csv: String?
        @Option(help: "A JSON lines file of changes, one pass per line.") var jsonl: String?
        @Option(
            name: .customLong("field"),
            help: "key=value or key:language=value: a field's new text (repeat for several fields or languages).")
        var fields: [String] = []
        @Option(name: .customLong("label"), help: "key=text or key:language=text: a field's new label (repeatable).")
        var labels: [String] = []
        @Option(
            name: .customLong("change-message"),
            help: "key=text or key:language=text: a field's new change message, %@ for the value (repeatable).")
        var changeMessages: [String] = []
        @Option(name: .customLong("number-field"), help: "key=number: a field's new number (repeatable).")
        var numberFields: [String] = []
        @Option(help: "When the pass becomes relevant (ISO 8601, e.g. 2026-12-31T19:00:00Z).") var relevantAt: String?
        @Option(help: "When the pass expires (ISO 8601); a past time expires it now.") var expireAt: String?
        @Flag(help: "Void the pass.") var void = false
        @Flag(help: "Make a voided pass valid again.") var unvoid = false
        @OptionGroup var server: ServerOptions

        func validate() throws {
            let modes = [tag != nil, !matches.isEmpty || all, csv != nil, jsonl != nil].filter { $0 }.count
            guard modes == 1 else {
                throw ValidationError("give one of --tag, --where (or --all), --csv and --jsonl")
            }
            guard passType == nil || !matches.isEmpty || all else {
                throw ValidationError("--pass-type goes with --where or --all")
            }
        }

        func run() async throws {
            let clientID = try identifier(client, of: "client")
            guard let tag else { return try await runJob(clientID: clientID) }
            guard let attribute = TagIDAttribute(rawValue: idAttribute) else {
                throw CommandFailure(
                    "--id-attribute must be reference_id, pronto_tag_id or subscription_id", status: .usage)
            }
            let change = try makeChange()
            let state = try await withAdministration(server) { administration in
                try await CommandFailure.mapping {
                    try await administration.passManagement().update(
                        clientID: clientID, attribute: attribute, value: tag, change: change)
                }
            }
            Output.write(try state.encoded(), endingLine: true)
        }

        /// Makes the bulk change the options ask for and works on it until it is finished.
        private func runJob(clientID: UUID) async throws {
            let job = try await withAdministration(server) { administration in
                try await CommandFailure.mapping {
                    let jobs = administration.passChangeJobs()
                    let stored = try await jobs.submit(
                        try await request(administration), clientID: clientID, idempotencyKey: nil)
                    var job = try ManagedPassState.makeDecoder().decode(PassChangeJob.self, from: stored.body)
                    let progress = Output.ProgressBar(title: "bulk change")
                    while job.state == .running {
                        if try await jobs.runBatch(jobID: job.id) == nil {
                            // Another process holds the items left: wait for it.
                            try await Task.sleep(for: .milliseconds(250))
                        }
                        job = try await jobs.job(id: job.id, clientID: clientID)
                        progress.show(done: job.done, of: job.total, detail: "\(job.failed) failed")
                    }
                    progress.finish()
                    return job
                }
            }
            Output.write(try job.encoded(), endingLine: true)
            guard job.failed == 0 else {
                throw CommandFailure(
                    "\(job.failed) of \(job.total) passes were not changed: the job's failures say why",
                    status: .failure)
            }
        }

        /// The bulk change the options ask for.
        private func request(_ administration: WalletAdministration) async throws -> PassChangeJobRequest {
            if let file = csv ?? jsonl {
                let data = try Self.read(file, limit: PassChangeJobRequest.maximumBodySize)
                return csv != nil ? try PassChangeJobRequest(csv: data) : try PassChangeJobRequest(jsonLines: data)
            }
            var fields: [String: PassField.Value] = [:]
            for pair in matches {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw CommandFailure("--where takes key=value, not '\(pair)'", status: .usage)
                }
                fields[String(pair[..<equals])] = .text(String(pair[pair.index(after: equals)...]))
            }
            var passTypeID: UUID?
            if let passType { passTypeID = try await administration.passType(named: passType).id }
            return try PassChangeJobRequest(
                match: PassChangeMatch(passTypeID: passTypeID, fields: fields), change: try makeChange())
        }

        /// The file at `path`, at most `limit` bytes.
        private static func read(_ path: String, limit: Int) throws -> Data {
            let url = URL(fileURLWithPath: path)
            let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            guard size <= limit else {
                throw CommandFailure("\(path) is larger than \(limit / 1_048_576) MiB: split it", status: .usage)
            }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw CommandFailure("\(path) cannot be read", status: .usage)
            }
        }

        /// The change the options ask for.
        func makeChange() throws -> PassChange {
            guard !(void && unvoid) else { throw CommandFailure("give --void or --unvoid, not both", status: .usage) }
            var values: [String: PassField.Value] = [:]
            var texts: [String: [PassFieldText.Slot: PassFieldText]] = [:]
            for (option, pairs, slot) in [
                ("--field", fields, PassFieldText.Slot.value), ("--number-field", numberFields, .value),
                ("--label", labels, .label), ("--change-message", changeMessages, .changeMessage),
            ] {
                var plain: [String: String] = [:]
                var localized: [String: [String: String]] = [:]
                for pair in pairs {
                    guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                        throw CommandFailure("\(option) takes key=value, not '\(pair)'", status: .usage)
                    }
                    var key = String(pair[..<equals])
                    let text = String(pair[pair.index(after: equals)...])
                    if option == "--number-field" {
                        guard values[key] == nil, texts[key]?[.value] == nil else {
                            throw CommandFailure("the field '\(key)' is given twice", status: .usage)
                        }
                        guard let number = Double(text), number.isFinite else {
                            throw CommandFailure("--number-field \(key) needs a number, not '\(text)'", status: .usage)
                        }
                        values[key] = .number(number)
                        continue
                    }
                    if let colon = key.lastIndex(of: ":"),
                        LocalizedText.isLanguage(String(key[key.index(after: colon)...]))
                    {
                        let language = String(key[key.index(after: colon)...])
                        key = String(key[..<colon])
                        guard localized[key]?[language] == nil else {
                            throw CommandFailure("\(option) \(key):\(language) is given twice", status: .usage)
                        }
                        localized[key, default: [:]][language] = text
                    } else {
                        guard plain[key] == nil else {
                            throw CommandFailure("\(option) \(key) is given twice", status: .usage)
                        }
                        plain[key] = text
                    }
                }
                for key in Set(plain.keys).union(localized.keys) {
                    if let languages = localized[key] {
                        guard plain[key] == nil else {
                            throw CommandFailure(
                                "\(option) \(key) is given both with and without a language: give each language",
                                status: .usage)
                        }
                        texts[key, default: [:]][slot] = .localized(
                            try CommandFailure.mapping { try LocalizedText(languages) })
                    } else if slot == .value {
                        guard values[key] == nil else {
                            throw CommandFailure("the field '\(key)' is given twice", status: .usage)
                        }
                        values[key] = .text(plain[key]!)
                    } else {
                        texts[key, default: [:]][slot] = .plain(.text(plain[key]!))
                    }
                }
            }
            if let both = Set(values.keys).first(where: { texts[$0]?[.value] != nil }) {
                throw CommandFailure("the field '\(both)' is given twice", status: .usage)
            }
            let change = PassChange(
                fields: values, texts: texts,
                relevantDate: try relevantAt.map { try date($0, option: "--relevant-at") },
                expirationDate: try expireAt.map { try date($0, option: "--expire-at") },
                voided: void ? true : unvoid ? false : nil)
            guard !change.isEmpty else {
                throw CommandFailure(
                    "give at least one of --field, --number-field, --label, --change-message, --relevant-at, "
                        + "--expire-at, --void and --unvoid",
                    status: .usage)
            }
            return change
        }

        private func date(_ text: String, option: String) throws -> Date {
            guard let date = RFC3339.date(text) else {
                throw CommandFailure("\(option) needs an RFC 3339 date such as 2026-12-31T19:00:00Z", status: .usage)
            }
            return date
        }
    }

    /// `coffer admin seed-demo`.
    struct SeedDemo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "seed-demo",
            abstract: "Create a client, API user, user, tag and pass, and print client_id, api_token and tag_id.",
            discussion: """
                Uses the given identity (imported as a pass type), else the development one. Each run makes a new, \
                separate client.
                """)
        @OptionGroup var identity: IdentityOptions
        @Option(
            help: """
                How many tags (each with its pass) to make for the demo user, for load tests that need many open \
                sessions at once (1–100000). The JSON output lists them all as tag_ids.
                """)
        var tags = 1
        @Flag(help: "Share the development order type with the client too (made on first use), for /api/v2/orders.")
        var orders = false
        @Flag(help: "Print a JSON object.") var json = false
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let signingIdentity =
                identity.certificate == nil && identity.identity == nil ? nil : try identity.load()
            let seed = try await withAdministration(server) { administration in
                var passTypeID: UUID?
                if let signingIdentity {
                    passTypeID = try await administration.importPassType(signingIdentity).passType.id
                }
                return try await administration.seedDemo(passTypeID: passTypeID, tagCount: tags, withOrderType: orders)
            }
            if json { return try Output.printJSON(seed) }
            print("client_id: \(seed.clientID.uuidString)")
            print("api_token: \(seed.apiToken)")
            print("tag_id: \(seed.tagID)")
            if let orderTypeID = seed.orderTypeID { print("order_type_id: \(orderTypeID.uuidString)") }
            Output.note("the API token is shown only now and stored only as a hash")
        }
    }
}

extension AdminCommand {
    /// `coffer admin pass trace`: what happened to a pass, and why it may not update.
    struct PassTraceCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trace",
            abstract: "Show what happened to a pass (registered, changed, pushed, fetched) and why it may not update.",
            discussion: """
                Names the pass by its serial number, a tag's reference, Pronto or subscription identifier, or the \
                pass's or tag's identifier, over every client. Prints the pass's trace as a timeline, oldest first, \
                then one line per known cause of a pass not updating: a change without a changeMessage, no device \
                registered, a push no device fetched, APNs refusing the pass type's credentials, what devices \
                logged. Exits 1 when nothing matches, 2 when several passes do (give the pass's identifier then).
                """)
        @Argument(help: "The pass's serial number, a tag identifier, or the pass's or tag's UUID.")
        var pass: String
        @Option(help: "Show at most this many of the newest events (1–\(PassTrace.maximumPageSize)).")
        var limit = 200
        @Flag(help: "Print the events and the diagnosis as JSON.") var json = false
        @OptionGroup var server: ServerOptions

        /// What `--json` prints.
        struct Report: Encodable {
            let passID: UUID
            let serialNumber: String
            let passTypeIdentifier: String
            let events: [PassEvent]
            let diagnosis: [PassTrace.Finding]

            enum CodingKeys: String, CodingKey {
                case events, diagnosis
                case passID = "pass_id"
                case serialNumber = "serial_number"
                case passTypeIdentifier = "pass_type_identifier"
            }
        }

        func run() async throws {
            guard (1...PassTrace.maximumPageSize).contains(limit) else {
                throw CommandFailure("--limit must be 1–\(PassTrace.maximumPageSize)", status: .usage)
            }
            let configuration = try server.configuration()
            let webServiceURL =
                configuration.effectivePublicURL.scheme?.lowercased() == "https"
                ? configuration.effectivePublicURL.appendingPathComponent("passkit").absoluteString : nil
            let report = try await withAdministration(server) { administration -> Report in
                let named = try await administration.passes(named: pass, limit: 10)
                guard let only = named.first else {
                    throw CommandFailure("no pass is named '\(pass)'", status: .notFound)
                }
                guard named.count == 1 else {
                    let list = named.map { "\($0.passID.uuidString) (\($0.passTypeIdentifier), \($0.serialNumber))" }
                    throw CommandFailure(
                        "'\(pass)' names several passes; give one's identifier: " + list.joined(separator: ", "),
                        status: .usage)
                }
                let trace = administration.passTrace(webServiceURL: webServiceURL)
                let events = try await administration.latestPassEvents(passID: only.passID, limit: limit)
                return Report(
                    passID: only.passID, serialNumber: only.serialNumber, passTypeIdentifier: only.passTypeIdentifier,
                    events: events.reversed(), diagnosis: try await trace.diagnosis(passID: only.passID))
            }
            if json { return try Output.printJSON(report) }
            print("pass \(report.passID.uuidString) (\(report.passTypeIdentifier), serial \(report.serialNumber))")
            if report.events.isEmpty { print("no events in its trace") }
            let width = PassEvent.Kind.allCases.map(\.rawValue.count).max() ?? 12
            for event in report.events {
                let kind = event.kind.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                print("\(PassTrace.time(event.occurredAt))  \(kind)  \(event.summary)")
            }
            print("")
            if report.diagnosis.isEmpty {
                print("diagnosis: no known cause of a pass not updating")
            } else {
                print("diagnosis:")
                for finding in report.diagnosis { print("- \(finding.code): \(finding.message)") }
            }
        }
    }
}
