import ArgumentParser
import Foundation
import Secrets
import WalletPasses

/// `coffer pass`: build, sign and verify Apple Wallet passes.
struct PassCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pass",
        abstract: "Build, sign and verify Apple Wallet passes and issuer data.",
        subcommands: [
            Build.self, Lint.self, Google.self, Verify.self, IssuerData.self, DevIdentity.self, ImportIdentity.self,
        ]
    )
}

extension PassCommand {
    /// `coffer pass build`.
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Sign a pass folder or Pass Designer template into a .pkpass (what Apple's signpass does).",
            discussion: """
                The folder holds pass.json, icon.png and other images, and optional xx.lproj folders; a \
                .pkpasstemplate (a folder or a ZIP of one) is read the same way. The checks of `coffer pass lint` run \
                first: errors stop the build, warnings are printed.
                """)

        @Argument(help: "The pass folder or .pkpasstemplate.") var directory: String
        @OptionGroup var identity: IdentityOptions
        @Option(name: .shortAndLong, help: "Where to write the .pkpass.") var output: String

        func run() throws {
            let signer = PassSigner(identity: try identity.load())
            let pkpass = try CommandFailure.mapping {
                let package = try PassPackage(contentsOf: StoreOptions.absoluteURL(directory))
                for warning in package.lint().warnings { Output.note("\(warning)") }
                return try signer.sign(package).pkpass()
            }
            do {
                try pkpass.write(to: StoreOptions.absoluteURL(output), options: .withoutOverwriting)
            } catch {
                throw CommandFailure(
                    "cannot write \(output): it exists or the folder is not writable", status: .failure)
            }
            print("signed \(output) (\(pkpass.count) bytes)")
        }
    }

    /// `coffer pass verify`.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a .pkpass: every manifest hash, no unlisted file, and the signature against a root.",
            discussion: "Exits 3 when a check fails, naming the check.")

        @Argument(help: "The .pkpass file.") var file: String
        @Option(help: "The trust root certificate (Apple Root CA, or root.pem of `coffer pass dev-identity`).")
        var root: String

        func run() async throws {
            let rootCertificate = try CommandFailure.mapping {
                try SigningIdentity.certificate(from: try IdentityOptions.read(root, what: "root"), role: "the root")
            }
            let data = try IdentityOptions.read(file, what: ".pkpass")
            do {
                let verified = try await PassVerifier(trustRoots: [rootCertificate]).verify(pkpass: data)
                print("verified: \(verified.pass.passTypeIdentifier) serial \(verified.pass.serialNumber)")
                print("signed by: \(verified.signerSubject)")
            } catch let error as WalletPassesError {
                throw CommandFailure(error)
            }
        }
    }

    /// `coffer pass issuer-data`.
    struct IssuerData: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "issuer-data",
            abstract: "Sign account-binding data and print {\"issuer_data\", \"signature\"} for the iOS API.")

        @OptionGroup var identity: IdentityOptions
        @Option(help: "The session identifier the callback will carry.") var session: String
        @Option(help: "The callback URL the device posts the binding to.") var callback: String
        @Option(help: "The relying party identifier (default: the callback URL's host).") var relyingParty: String?
        @Option(help: "The account's stable hash.") var accountHash: String
        @Option(help: "The issuer name the user sees (default: the certificate's organization).")
        var displayableName: String?

        func run() throws {
            let identity = try identity.load()
            guard let passType = identity.passTypeIdentifier, let team = identity.teamIdentifier else {
                throw CommandFailure("the certificate names no pass type (UID) or team (OU)", status: .failure)
            }
            guard let callbackURL = URL(string: callback),
                callbackURL.scheme == "https" || callbackURL.scheme == "http",
                let host = callbackURL.host
            else { throw CommandFailure("--callback must be an http(s) URL", status: .usage) }
            let binding = IssuerBindingData(
                relyingPartyIdentifier: relyingParty ?? host, accountHash: accountHash, sessionIdentifier: session,
                callbackURL: callback, passTypeIdentifier: passType, teamIdentifier: team,
                displayableName: displayableName ?? identity.organizationName ?? passType)
            let signed = try CommandFailure.mapping { try PassSigner(identity: identity).sign(binding) }
            try Output.printJSON(signed)
        }
    }

    /// `coffer pass import-identity`.
    struct ImportIdentity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-identity",
            abstract: "Keep a signing identity (certificate, key, WWDR) in Coffer's encrypted store.",
            discussion: """
                Afterwards `--identity <path>` replaces --certificate/--key/--wwdr, and the key file can be deleted. \
                The store is unlocked with $COFFER_PASSPHRASE (or a prompt) and created if needed.
                """)

        @Argument(help: "Where to keep it in the store, for example wallet/pass-types/ticket.") var path: String
        @OptionGroup var source: IdentityOptions

        func run() throws {
            guard source.identity == nil else {
                throw CommandFailure("import from --certificate, not --identity", status: .usage)
            }
            try CommandFailure.mapping { try SecretPath.validate(path: path) }
            let identity = try source.load()
            let store = try StoreOptions.parse(source.store.map { ["--store", $0] } ?? []).openStore(create: true)
            try CommandFailure.mapping { try identity.save(to: store, at: path) }
            print("stored \(identity.passTypeIdentifier ?? "the identity") at '\(path)'")
        }
    }

    /// `coffer pass dev-identity`.
    struct DevIdentity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dev-identity",
            abstract: "Create a development CA, WWDR-like intermediate and Pass Type ID certificate (not Apple's).",
            discussion: """
                Writes root.pem, wwdr.pem, pass-type.pem and pass-type.p12 (the key, encrypted with the passphrase \
                from --passphrase-file, $COFFER_P12_PASSPHRASE or a prompt). Passes signed with it verify against \
                root.pem, not on devices.
                """)

        @Argument(help: "An empty or new directory.") var directory: String
        @Option(help: "The pass type identifier.") var passTypeIdentifier = "pass.dev.coffer.example"
        @Option(help: "The team identifier.") var teamIdentifier = "DEVTEAM000"
        @Option(help: "The organization name.") var organization = "Coffer Development"
        @Option(help: "Read the .p12 passphrase from this file's first line.") var passphraseFile: String?

        func run() throws {
            let passphrase = try StoreOptions.passphrase(
                file: passphraseFile, environmentVariable: "COFFER_P12_PASSPHRASE",
                prompt: "Passphrase for pass-type.p12: ",
                confirming: true)
            let url = StoreOptions.absoluteURL(directory)
            try CommandFailure.mapping {
                try DevelopmentIdentity.generate(
                    passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier,
                    organizationName: organization
                ).write(to: url, passphrase: passphrase)
            }
            print("wrote root.pem, wwdr.pem, pass-type.pem and pass-type.p12 to \(url.path) (NOT Apple certificates)")
            print("sign:   coffer pass build <dir> --certificate \(url.path)/pass-type.p12 -o pass.pkpass")
            print("verify: coffer pass verify pass.pkpass --root \(url.path)/root.pem")
        }
    }
}
