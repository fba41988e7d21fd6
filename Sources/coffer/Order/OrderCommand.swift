import ArgumentParser
import Foundation
import WalletPasses

/// `coffer order`: build, lint and verify Apple Wallet orders.
struct OrderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "order",
        abstract: "Build, lint and verify Apple Wallet orders (.order).",
        subcommands: [Build.self, Lint.self, Verify.self, DevIdentity.self]
    )
}

extension OrderCommand {
    /// `coffer order build`.
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "build",
            abstract: "Sign an order folder into a .order: SHA-256 manifest, detached signature, ZIP.",
            discussion: """
                The folder holds order.json, the images it names and optional xx.lproj folders with order.strings. \
                The checks of `coffer order lint` run first: errors stop the build, warnings are printed. The \
                certificate must be the Order Type ID certificate of the order's orderTypeIdentifier.
                """)

        @Argument(help: "The order folder (or an unsigned or signed .order, which is signed anew).") var source: String
        @OptionGroup var identity: IdentityOptions
        @Option(name: .shortAndLong, help: "Where to write the .order.") var output: String

        func run() throws {
            let signer = PassSigner(identity: try identity.load())
            let archive = try CommandFailure.mapping {
                let package = try OrderPackage(contentsOf: StoreOptions.absoluteURL(source))
                for warning in package.lint().warnings { Output.note("\(warning)") }
                return try signer.sign(package).archive
            }
            do {
                try archive.write(to: StoreOptions.absoluteURL(output), options: .withoutOverwriting)
            } catch {
                throw CommandFailure(
                    "cannot write \(output): it exists or the folder is not writable", status: .failure)
            }
            print("signed \(output) (\(archive.count) bytes)")
        }
    }

    /// `coffer order lint`.
    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Check an order as Wallet reads it: order.json against Apple's reference, and its files.",
            discussion: """
                Reads an order folder or a .order. Prints each finding with its path in order.json (or its file). \
                Exits 1 when there are errors (or warnings, with --strict).
                """)

        @Argument(help: "The order folder or .order.") var source: String
        @Flag(help: "Print the findings as a JSON array (code, severity, path, message, fix).") var json = false
        @Flag(help: "Exit 1 on warnings too.") var strict = false

        func run() throws {
            let report = try CommandFailure.mapping {
                try OrderPackage(contentsOf: StoreOptions.absoluteURL(source)).lint()
            }
            if json {
                try Output.printJSON(report.findings)
            } else {
                for finding in report.findings {
                    print("\(finding.severity.rawValue)[\(finding.code)] \(finding.path): \(finding.message)")
                    if let fix = finding.fix { print("    fix: \(fix)") }
                }
                let notes = report.findings.count - report.errors.count - report.warnings.count
                print(
                    "\(count(report.errors.count, "error")), \(count(report.warnings.count, "warning")), "
                        + count(notes, "note"))
            }
            let failing = report.errors.count + (strict ? report.warnings.count : 0)
            guard failing == 0 else {
                throw CommandFailure(
                    "\(source): \(count(report.errors.count, "error"))"
                        + (strict ? " and \(count(report.warnings.count, "warning"))" : ""),
                    status: .notFound)
            }
        }

        private func count(_ number: Int, _ noun: String) -> String {
            "\(number) \(noun)\(number == 1 ? "" : "s")"
        }
    }

    /// `coffer order verify`.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a .order: every SHA-256 in the manifest, no unlisted file, the signature against a root.",
            discussion: "Exits 3 when a check fails, naming the check.")

        @Argument(help: "The .order file.") var file: String
        @Option(help: "The trust root certificate (Apple Root CA, or root.pem of `coffer order dev-identity`).")
        var root: String

        func run() async throws {
            let rootCertificate = try CommandFailure.mapping {
                try SigningIdentity.certificate(from: try IdentityOptions.read(root, what: "root"), role: "the root")
            }
            let data = try IdentityOptions.read(file, what: ".order")
            do {
                let verified = try await PassVerifier(trustRoots: [rootCertificate]).verify(order: data)
                print("verified: \(verified.order.orderTypeIdentifier) order \(verified.order.orderIdentifier)")
                print("signed by: \(verified.signerSubject)")
            } catch let error as WalletPassesError {
                throw CommandFailure(error)
            }
        }
    }

    /// `coffer order dev-identity`.
    struct DevIdentity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dev-identity",
            abstract: "Create a development CA, WWDR-like intermediate and Order Type ID certificate (not Apple's).",
            discussion: """
                Writes root.pem, wwdr.pem, order-type.pem and order-type.p12 (the key, encrypted with the passphrase \
                from --passphrase-file, $COFFER_P12_PASSPHRASE or a prompt). Orders signed with it verify against \
                root.pem, not on devices.
                """)

        @Argument(help: "An empty or new directory.") var directory: String
        @Option(help: "The order type identifier.") var orderTypeIdentifier = "order.dev.coffer.example"
        @Option(help: "The team identifier.") var teamIdentifier = "DEVTEAM000"
        @Option(help: "The organization name.") var organization = "Coffer Development"
        @Option(help: "Read the .p12 passphrase from this file's first line.") var passphraseFile: String?

        func run() throws {
            let passphrase = try StoreOptions.passphrase(
                file: passphraseFile, environmentVariable: "COFFER_P12_PASSPHRASE",
                prompt: "Passphrase for order-type.p12: ", confirming: true)
            let url = StoreOptions.absoluteURL(directory)
            try CommandFailure.mapping {
                try DevelopmentIdentity.generate(
                    orderTypeIdentifier: orderTypeIdentifier, teamIdentifier: teamIdentifier,
                    organizationName: organization
                ).write(to: url, passphrase: passphrase)
            }
            print("wrote root.pem, wwdr.pem, order-type.pem and order-type.p12 to \(url.path) (NOT Apple certificates)")
            print("sign:   coffer order build <dir> --certificate \(url.path)/order-type.p12 -o shop.order")
            print("verify: coffer order verify shop.order --root \(url.path)/root.pem")
        }
    }
}
