import ArgumentParser
import Foundation
import Secrets
import SecretsAudit

/// `coffer secrets`: the encrypted file store from the shell.
struct SecretsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Save, read and manage secrets in an encrypted local store or the system keyring.",
        discussion: """
            --backend chooses the store: file (default), secret-service (the Linux keyring) or memory. The file \
            store's passphrase comes from --passphrase-file, $COFFER_PASSPHRASE or a terminal prompt; --key-file \
            unlocks it with a key file instead. Paths are '/'-separated names such as ai/openai.
            """,
        subcommands: [
            Set.self, Get.self, List.self, Delete.self, Preflight.self, RotateKey.self, Rekey.self,
            ChangePassphrase.self, Migrate.self, Run.self, Import.self, Export.self, Audit.self,
        ]
    )
}

extension SecretsCommand {
    /// `coffer secrets set <path>`.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Save a secret (creating the store on first use).",
            discussion:
                "The value is stored byte for byte: `printf %s \"$TOKEN\" | coffer secrets set api/token --stdin`.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The secret's path, for example ai/openai.", completion: .custom(AccountCompletion.complete))
        var path: String
        @Option(help: "The value (visible in shell history and process lists; prefer --stdin).") var value: String?
        @Flag(help: "Read the value from standard input, byte for byte.") var stdin = false
        @Option(help: "The cipher of a new store: aes-256-gcm (default) or chacha20-poly1305.")
        var cipher: EncryptionAlgorithm?

        func validate() throws {
            guard (value != nil) != stdin else { throw ValidationError("give exactly one of --value and --stdin") }
        }

        func run() throws {
            try CommandFailure.mapping { try SecretPath.validate(path: path) }
            let data = value.map { Data($0.utf8) } ?? FileHandle.standardInput.readDataToEndOfFile()
            let store = try options.openStore(create: true, cipher: cipher)
            try CommandFailure.mapping { try store.saveData(data, account: path) }
        }
    }

    /// `coffer secrets get <path>`.
    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print a secret's value.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The secret's path.", completion: .custom(AccountCompletion.complete)) var path: String
        @Flag(help: "Print {\"path\": …, \"value\": …} (or \"base64\" for non-UTF-8 values).") var json = false

        func run() throws {
            try CommandFailure.mapping { try SecretPath.validate(path: path) }
            let store = try options.openStore(create: false)
            guard let data = try CommandFailure.mapping({ try store.readData(account: path) }) else {
                throw CommandFailure(
                    "no secret at '\(path)' in service '\(store.service)'", status: .notFound)
            }
            if json {
                var object: [String: String] = ["path": path]
                if let text = String(data: data, encoding: .utf8) {
                    object["value"] = text
                } else {
                    object["base64"] = data.base64EncodedString()
                }
                try Output.printJSON(object)
            } else {
                Output.write(data, endingLine: isatty(STDOUT_FILENO) == 1)
            }
        }
    }

    /// `coffer secrets list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the paths of stored secrets.")

        @OptionGroup var options: StoreOptions
        @Flag(help: "Print a JSON array.") var json = false

        func run() throws {
            let store = try options.openStore(create: false)
            let accounts = try CommandFailure.mapping { try store.listAccounts() }
            if json {
                try Output.printJSON(accounts)
            } else {
                for account in accounts { print(account) }
            }
        }
    }

    /// `coffer secrets delete <path>`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a secret.")

        @OptionGroup var options: StoreOptions
        @Argument(help: "The secret's path.", completion: .custom(AccountCompletion.complete)) var path: String

        func run() throws {
            try CommandFailure.mapping { try SecretPath.validate(path: path) }
            let store = try options.openStore(create: false)
            guard try CommandFailure.mapping({ try store.deleteData(account: path) }) else {
                throw CommandFailure(
                    "no secret at '\(path)' in service '\(store.service)'", status: .notFound)
            }
        }
    }

    /// `coffer secrets preflight`.
    struct Preflight: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "preflight",
            abstract: "Check the store: damaged items, empty values, empty tokens and empty envelopes.",
            discussion: "Exits 1 when any finding is an error.")

        @OptionGroup var options: StoreOptions
        @Flag(help: "Print the findings as a JSON array.") var json = false

        func run() throws {
            let store = try options.openStore(create: false)
            let findings = SecretsPreflight.run(on: store)
            if json {
                try Output.printJSON(
                    findings.map { finding in
                        ["level": "\(finding.level)", "kind": finding.kind.rawValue, "message": finding.message]
                            .merging(finding.account.map { ["account": $0] } ?? [:]) { $1 }
                    })
            } else {
                for finding in findings { print(finding) }
            }
            if findings.contains(where: { $0.level == .error }) {
                throw ExitCode(ExitStatus.notFound.rawValue)
            }
        }
    }

    /// `coffer secrets rotate-key`.
    struct RotateKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-key",
            abstract: "Re-encrypt every secret under a new data key (crash-safe; run again to finish after a crash).")

        @OptionGroup var options: StoreOptions
        @Option(help: "Also switch the cipher: aes-256-gcm or chacha20-poly1305.") var cipher: EncryptionAlgorithm?

        func run() throws {
            let backend = try options.openFileStore()
            let result = try CommandFailure.mapping {
                try options.audited(backend).recording(.rotate) {
                    try backend.rotateKey(algorithm: cipher) { Output.progress($0.completed, of: $0.total) }
                }
            }
            Output.summarize(result, "secret", under: "a new data key (\(backend.algorithm.rawValue))")
        }
    }

    /// `coffer secrets rekey`.
    struct Rekey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rekey",
            abstract: "Move the store under a new master key: what revokes a passphrase or key file that leaked.",
            discussion: """
                Every secret is re-encrypted under new keys and the new master key is protected by the new \
                passphrase (--new-passphrase-file, $COFFER_NEW_PASSPHRASE or a prompt; it may be the same one) or \
                --new-key-file. An old copy of the store's header and an old passphrase open nothing afterwards, \
                which change-passphrase cannot promise. Crash-safe: run it again to finish after a crash.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var newKey: NewKeyOptions

        func run() throws {
            let backend = try options.openFileStore()
            let source = try newKey.source()
            let result = try CommandFailure.mapping {
                try options.audited(backend).recording(.rotate) {
                    try backend.rekey(to: source) { Output.progress($0.completed, of: $0.total) }
                }
            }
            Output.summarize(result, "secret", under: "a new master key, protected by the new \(newKey.noun)")
        }
    }

    /// `coffer secrets change-passphrase`.
    struct ChangePassphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-passphrase",
            abstract: "Protect the store with a new passphrase or key file (the secrets are not re-encrypted).",
            discussion: """
                The new passphrase comes from --new-passphrase-file, $COFFER_NEW_PASSPHRASE or a prompt; \
                --new-key-file switches to a key file.
                """)

        @OptionGroup var options: StoreOptions
        @OptionGroup var newKey: NewKeyOptions

        func run() throws {
            let backend = try options.openFileStore()
            let source = try newKey.source()
            try CommandFailure.mapping {
                try options.audited(backend).recording(.rotate) { try backend.changeKey(to: source) }
            }
            print("the store is now protected by the new \(newKey.noun)")
        }
    }
}

/// The new passphrase or key file of `change-passphrase` and `rekey`.
struct NewKeyOptions: ParsableArguments {
    @Option(help: "Read the new passphrase from this file (its first line).") var newPassphraseFile: String?
    @Option(help: "Protect the store with this key file instead of a passphrase.") var newKeyFile: String?

    /// What the new key is, for messages.
    var noun: String { newKeyFile == nil ? "passphrase" : "key file" }

    /// The new key: the key file, or the passphrase from the file, `$COFFER_NEW_PASSPHRASE` or a prompt.
    func source() throws -> KeySource {
        if let newKeyFile { return .keyFile(StoreOptions.absoluteURL(newKeyFile)) }
        return .passphrase(
            try StoreOptions.passphrase(
                file: newPassphraseFile, environmentVariable: "COFFER_NEW_PASSPHRASE", prompt: "New passphrase: ",
                confirming: true))
    }
}

extension EncryptionAlgorithm: ExpressibleByArgument {}
