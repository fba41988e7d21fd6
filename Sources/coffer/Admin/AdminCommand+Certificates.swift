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
                `pass-type import` does, replacing the identity of a pass type that exists.
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
                    organizationName: record.organization, bindingLearnMoreURL: record.learnMoreURL)
                return (attached.passType, attached.created, "issued by \(attached.issuer)")
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
    @Flag(help: "Print the whole record as JSON.") var json = false

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
        let what = created ? "imported" : "replaced the identity of"
        Output.note(
            "\(what) \(passType.passTypeIdentifier) (team \(passType.teamIdentifier))"
                + (detail.map { ", \($0)" } ?? ""))
    }
}
