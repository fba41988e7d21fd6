import ArgumentParser
import Foundation
import Secrets
import WalletDocuments
import WalletOrders
import WalletPasses

/// How `coffer pass` commands get a signing identity: a PEM certificate with `--key`, a `.p12`, or an identity
/// kept in Coffer's encrypted store (`--identity`, see `coffer pass import-identity`).
struct IdentityOptions: ParsableArguments {
    @Option(help: "The Pass Type ID (or Order Type ID) certificate: PEM/DER (with --key) or a .p12 bundle.")
    var certificate: String?

    @Option(help: "The path of an identity in Coffer's encrypted store (unlocked with $COFFER_PASSPHRASE).")
    var identity: String?

    @Option(help: "The store directory for --identity (default: $COFFER_STORE_DIR or the XDG data directory).")
    var store: String?

    @Option(help: "The private key (PEM or DER; PKCS#8 or PKCS#1, encrypted or not) for a PEM/DER certificate.")
    var key: String?

    @Option(help: "Apple's WWDR intermediate certificate (PEM or DER); optional when the .p12 includes it.")
    var wwdr: String?

    @Option(help: "The .p12 or encrypted key passphrase (visible in process lists; prefer the file or variable).")
    var passphrase: String?

    @Option(help: "Read the .p12 or key passphrase from this file's first line (default: $COFFER_P12_PASSPHRASE).")
    var passphraseFile: String?

    /// Loads the identity the options describe.
    func load() throws -> SigningIdentity {
        if let identity {
            guard certificate == nil, key == nil else {
                throw CommandFailure("give either --identity or --certificate, not both", status: .usage)
            }
            let store = try StoreOptions.parse(store.map { ["--store", $0] } ?? []).openStore(create: false)
            return try CommandFailure.mapping { try SigningIdentity(from: store, at: identity) }
        }
        guard let certificate else {
            throw CommandFailure("give --certificate (PEM with --key, or .p12) or --identity", status: .usage)
        }
        let certificateData = try Self.read(certificate, what: "certificate")
        let wwdrData = try wwdr.map { try Self.read($0, what: "WWDR certificate") }
        let isPKCS12 = certificate.lowercased().hasSuffix(".p12") || certificate.lowercased().hasSuffix(".pfx")
        return try CommandFailure.mapping {
            if isPKCS12 {
                guard key == nil else {
                    throw CommandFailure("a .p12 holds its own key: leave out --key", status: .usage)
                }
                guard let passphrase = try secret() else {
                    throw CommandFailure(
                        "a .p12 needs its passphrase: --passphrase-file, $COFFER_P12_PASSPHRASE or --passphrase",
                        status: .usage)
                }
                return try SigningIdentity(pkcs12: certificateData, passphrase: passphrase, wwdr: wwdrData)
            }
            guard let key else {
                throw CommandFailure("a PEM or DER certificate needs --key (or give a .p12)", status: .usage)
            }
            guard let wwdrData else {
                throw CommandFailure("--wwdr is required with a PEM or DER certificate", status: .usage)
            }
            return try SigningIdentity(
                certificate: certificateData, privateKey: try Self.read(key, what: "private key"),
                passphrase: try secret(), wwdr: wwdrData)
        }
    }

    /// The passphrase from `--passphrase-file`, `$COFFER_P12_PASSPHRASE` or `--passphrase`, if any.
    private func secret() throws -> Passphrase? {
        if let passphraseFile {
            return try StoreOptions.passphrase(
                file: passphraseFile, environmentVariable: "COFFER_P12_PASSPHRASE", prompt: "", confirming: false)
        }
        if let value = ProcessInfo.processInfo.environment["COFFER_P12_PASSPHRASE"], !value.isEmpty {
            return Passphrase(value)
        }
        return passphrase.map { Passphrase($0) }
    }

    /// Reads a file named on the command line, or fails with a message naming it.
    static func read(_ path: String, what: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: StoreOptions.absoluteURL(path).path) else {
            throw CommandFailure("cannot read the \(what) file \(path)", status: .failure)
        }
        return data
    }
}
