import ArgumentParser
import Foundation
import WalletServer
import WalletServices

extension AdminCommand.PassTypeCommands {
    /// `coffer admin pass-type request`.
    struct Request: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request",
            abstract: "Make the key of a new Pass Type ID certificate in the secret store, and the CSR for Apple.",
            discussion: """
                The RSA-2048 private key is made and kept in the server's secret store; it is never written \
                anywhere else. Upload the CSR in Apple's developer portal (Certificates, Identifiers & Profiles, \
                your Pass Type ID, Create Certificate), download the certificate, and give it to \
                `coffer admin pass-type certificate`.
                """)
        @Option(name: .customLong("pass-type-id"), help: "The pass type identifier (pass.com.example.ticket).")
        var passTypeIdentifier: String
        @Option(name: .customLong("team-id"), help: "The team identifier (the portal's ten-character Team ID).")
        var teamIdentifier: String
        @Option(help: "Write the CSR to this file (default: standard output).") var output: String?
        @Flag(help: "Replace a request still waiting for its certificate (its key is then gone).") var replace = false
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let csr = try await AdminCommand.withAdministration(server) {
                try $0.requestCertificate(
                    passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, replacing: replace)
            }
            guard let output else { return Output.write(Data(csr.utf8), endingLine: false) }
            let url = StoreOptions.absoluteURL(output)
            do {
                try Data(csr.utf8).write(to: url, options: .withoutOverwriting)
            } catch {
                throw CommandFailure("cannot write the CSR to \(output) (does it exist already?)", status: .failure)
            }
            Output.note("wrote the CSR for \(passTypeIdentifier) to \(output): upload it in Apple's developer portal")
        }
    }

    /// `coffer admin pass-type certificate`.
    struct AttachCertificate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "certificate",
            abstract: "Attach the certificate Apple issued for a request, and sign with it.",
            discussion: """
                The certificate must be Apple's answer to this pass type's request (`coffer admin pass-type \
                request`): for its key, pass type and team, with Apple's pass-signing usage, valid now, and issued \
                by the WWDR intermediate given (G4 for Pass Type ID certificates, from \
                https://www.apple.com/certificateauthority/). The pass type is then imported as \
                `pass-type import` does: a pass type that exists signs with it at once or, with --next, when it is \
                activated.
                """)
        @Argument(help: "The pass type identifier the request was made for.") var passTypeIdentifier: String
        @Argument(help: "The certificate Apple's portal gave (.cer, DER or PEM).") var certificate: String
        @Option(help: "The Apple WWDR intermediate that issued it (AppleWWDRCAG4.cer).") var wwdr: String
        @OptionGroup var record: PassTypeRecordOptions
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let certificateData = try IdentityOptions.read(certificate, what: "certificate")
            let wwdrData = try IdentityOptions.read(wwdr, what: "WWDR certificate")
            try await record.importing(into: server) { administration in
                let attached = try await administration.completeCertificateRequest(
                    passTypeIdentifier: passTypeIdentifier, certificate: certificateData, wwdr: wwdrData,
                    organizationName: record.organization, bindingLearnMoreURL: record.learnMoreURL,
                    staged: record.next, activatingAt: try record.activationTime())
                return (attached.passType, attached.created, "issued by \(attached.issuer)")
            }
        }
    }
}

extension AdminCommand.PassTypeCommands {
    /// `coffer admin pass-type activate`.
    struct Activate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activate",
            abstract: "Switch a pass type to its staged identity now, or say when it takes over.",
            discussion: """
                Every running server signs passes and authenticates certificate-based pushes with the staged \
                identity from then on, without a restart; passes are signed again when devices next fetch them. \
                The identity it replaces stays in the secret store until its certificate expires.
                """)
        @Argument(help: "The pass type: its identifier (UUID) or pass type identifier (pass.com.example.ticket).")
        var passType: String
        @Option(help: "When to switch (2026-12-01T09:00:00Z, or a day); default now.") var at: String?
        @Flag(help: "Print the whole record as JSON.") var json = false
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let time = try at.map { text in
                guard let time = CommandTime.absolute(text) else {
                    throw CommandFailure(
                        "--at '\(text)' is not a time: give 2026-12-01 or 2026-12-01T09:00:00Z", status: .usage)
                }
                return time
            }
            let activated = try await AdminCommand.withAdministration(server) { administration in
                let named = try await administration.passType(named: passType)
                return try await administration.activateNextIdentity(passTypeID: named.id, at: time)
            }
            if json { try Output.printJSON(activated, snakeCaseKeys: true) } else { print(activated.id.uuidString) }
            if let activatesAt = activated.nextActivatesAt {
                Output.note(
                    "\(activated.passTypeIdentifier) switches to its next identity at \(activatesAt.formatted(.iso8601))"
                )
            } else {
                Output.note("\(activated.passTypeIdentifier) signs with its next identity now, on every server")
            }
        }
    }
}

/// What `pass-type import` and `pass-type certificate` take beside the identity: how users see the pass type, and
/// which clients may issue under it.
struct PassTypeRecordOptions: ParsableArguments {
    @Option(help: "The organization name users see (default: the certificate's organization).")
    var organization: String?
    @Option(
        help: """
            An https page about account binding that bound passes of this type link to \
            (issuerBindingData.learnMoreURL).
            """)
    var learnMoreURL: String?
    @Option(help: "Share the pass type with this client (its identifier); repeat for several.")
    var client: [String] = []
    @Flag(
        help: """
            Stage the identity beside the current one (a renewal), to sign from --activate-at, from \
            `pass-type activate`, or at the latest when the current certificate expires.
            """)
    var next = false
    @Option(help: "When a staged identity takes over (2026-12-01T09:00:00Z, or a day); only with --next.")
    var activateAt: String?
    @Flag(help: "Print the whole record as JSON.") var json = false

    /// `--activate-at` as a time, `nil` when not given.
    func activationTime() throws -> Date? {
        guard let activateAt else { return nil }
        guard next else { throw CommandFailure("--activate-at goes with --next", status: .usage) }
        guard let time = CommandTime.absolute(activateAt) else {
            throw CommandFailure(
                "--activate-at '\(activateAt)' is not a time: give 2026-12-01 or 2026-12-01T09:00:00Z", status: .usage)
        }
        return time
    }

    /// Runs `importing`, shares the pass type with each `--client`, and prints its identifier (or the record) with
    /// a note of what happened, ending in `detail` when there is one.
    func importing(
        into server: ServerOptions,
        _ importing: @escaping (WalletAdministration) async throws -> (PassType, created: Bool, detail: String?)
    ) async throws {
        let clients = try client.map { try AdminCommand.identifier($0, of: "client") }
        let (passType, created, detail) = try await AdminCommand.withAdministration(server) { administration in
            let imported = try await importing(administration)
            for client in clients {
                try await administration.sharePassType(passTypeID: imported.0.id, clientID: client)
            }
            return imported
        }
        if json { try Output.printJSON(passType, snakeCaseKeys: true) } else { print(passType.id.uuidString) }
        let what =
            created ? "imported" : next ? "staged the next identity of" : "signs with the new identity now:"
        var note = "\(what) \(passType.passTypeIdentifier) (team \(passType.teamIdentifier))"
        if next, let activatesAt = passType.nextActivatesAt {
            note += ", taking over at \(activatesAt.formatted(.iso8601)) (or on `coffer admin pass-type activate`)"
        }
        Output.note(note + (detail.map { ", \($0)" } ?? ""))
    }
}
