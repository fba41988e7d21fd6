import ArgumentParser
import Foundation
import LocalData
import Secrets

extension DataCommand {
    /// `coffer data migrate --from <store> --to <store>`.
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Move every value of an app's LocalData file store into another (say, plain to encrypted).",
            discussion: """
                Each value is copied, read back, and only then removed from the source (--keep-source keeps \
                it), so a run that is interrupted, even by kill -9, loses nothing and can simply be run again. A \
                value the destination holds with other bytes is left alone and reported (exit 4) unless \
                --overwrite is given. The source's passphrase comes from --from-passphrase-file or \
                $COFFER_FROM_PASSPHRASE, the destination's from --to-passphrase-file or $COFFER_PASSPHRASE.
                """)

        @Option(help: "The app's identifier: the service its values are stored under.") var service: String
        @Option(help: "The store to move values out of.") var from: String
        @Option(help: "The store to move values into (created if missing).") var to: String
        @Option(help: "The source's passphrase file (pbkdf2 stores).") var fromPassphraseFile: String?
        @Option(help: "The source's 32-byte key file (hkdf stores).") var fromKeyFile: String?
        @Option(help: "The destination's passphrase file (pbkdf2 stores).") var toPassphraseFile: String?
        @Option(help: "The destination's 32-byte key file (hkdf stores).") var toKeyFile: String?
        @Option(help: "PBKDF2 iterations for a new pbkdf2 destination.")
        var iterations = EncryptedFileBackend.recommendedIterations
        @Flag(help: "Copy without removing the source's values.") var keepSource = false
        @Flag(help: "Replace destination values that hold other bytes.") var overwrite = false

        func run() throws {
            let source = try DataStoreDirectory(from)
            let destination = try DataStoreDirectory(to)
            guard source.url != destination.url else {
                throw CommandFailure("--from and --to name the same store", status: .usage)
            }
            let migration = BackendMigration(
                from: try source.open(
                    create: false, keyFile: fromKeyFile,
                    passphrase: {
                        try StoreOptions.passphrase(
                            file: fromPassphraseFile, environmentVariable: "COFFER_FROM_PASSPHRASE",
                            prompt: "Passphrase of the source: ", confirming: false)
                    }, service: service, iterations: iterations),
                to: try destination.open(
                    create: true, keyFile: toKeyFile,
                    passphrase: {
                        try StoreOptions.passphrase(
                            file: toPassphraseFile, environmentVariable: "COFFER_PASSPHRASE",
                            prompt: "Passphrase of the destination: ",
                            confirming: !FileManager.default.fileExists(atPath: destination.url.path))
                    }, service: service, iterations: iterations),
                options: .init(deleteFromSource: !keepSource, overwrite: overwrite))
            let report = try CommandFailure.mapping {
                try migration.run(service: service, accessGroup: nil) { Output.progress($0.completed, of: $0.total) }
            }
            try Output.summarize(report, verb: "moved", destination: "the destination")
        }
    }

    /// `coffer data rotate <store>`.
    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Re-encrypt every value of an encrypted LocalData store under a fresh data key.",
            discussion: """
                Crash-safe: an interrupted rotation leaves every value readable, and running it again finishes \
                it. Prints progress to standard error for stores of 100 values or more.
                """)

        @Argument(help: "The encrypted store (…/LocalData/encrypted/<cipher>-<derivation>-<source>).")
        var store: String
        @Option(help: "The app's identifier (for the key LocalData keeps in the platform key store).")
        var service: String?
        @Option(help: "The passphrase file (pbkdf2 stores; default $COFFER_PASSPHRASE).") var passphraseFile: String?
        @Option(help: "The 32-byte key file (hkdf stores).") var keyFile: String?
        @Option(help: "Switch the values to this cipher: aes-256-gcm or chacha20-poly1305.")
        var cipher: EncryptionAlgorithm?

        func run() throws {
            let directory = try DataStoreDirectory(store)
            guard case .encrypted(_, let usesPassphrase, _) = directory.kind else {
                throw CommandFailure(
                    "\(directory.url.path) is a plain store: there is no key to rotate", status: .usage)
            }
            if !usesPassphrase, keyFile == nil, service == nil {
                throw CommandFailure(
                    "give --key-file, or --service to use the key in the platform store", status: .usage)
            }
            let backend = try directory.open(
                create: false, keyFile: keyFile,
                passphrase: {
                    try StoreOptions.passphrase(
                        file: passphraseFile, environmentVariable: "COFFER_PASSPHRASE", prompt: "Passphrase: ",
                        confirming: false)
                }, service: service ?? "", iterations: EncryptedFileBackend.recommendedIterations)
            guard let encrypted = backend as? EncryptedFileBackend else {
                throw CommandFailure("\(directory.url.path) is not an encrypted store", status: .usage)
            }
            let result = try CommandFailure.mapping {
                try encrypted.rotateKey(algorithm: cipher) { Output.progress($0.completed, of: $0.total) }
            }
            Output.summarize(result, "value", under: "a new data key")
        }
    }
}
