import ArgumentParser
import Foundation
@_spi(Testing) import Secrets
import SecretsAudit
import SecretsPlatform
import SecretsSecretService

/// The options every `coffer secrets` command shares: which store, which service, and what unlocks it.
struct StoreOptions: ParsableArguments {
    @Option(
        help: """
            Where secrets live: file (the encrypted file store), secret-service (the Linux keyring), auto (the \
            platform's default: the keyring when one answers, else the file store) or memory (default: \
            $COFFER_BACKEND, else file).
            """)
    var backend: BackendChoice?

    @Option(help: "The store directory (default: $COFFER_STORE_DIR, else $XDG_DATA_HOME/coffer/secrets).")
    var store: String?

    @Option(help: "The service name items are kept under (default: $COFFER_SERVICE, else 'coffer').")
    var service: String?

    @Option(help: "The access group (default: $COFFER_ACCESS_GROUP).")
    var accessGroup: String?

    @Option(help: "Read the passphrase from this file (its first line) instead of $COFFER_PASSPHRASE or a prompt.")
    var passphraseFile: String?

    @Option(help: "Unlock the store with a key file of 32 or more random bytes instead of a passphrase.")
    var keyFile: String?

    @Option(
        help: """
            Record every access in this tamper-evident audit file (default: $COFFER_AUDIT_FILE); its key is kept \
            in the store. See `coffer secrets audit`.
            """)
    var auditFile: String?

    /// The configuration from the environment with this command's overrides.
    func configuration() -> SecretsConfiguration {
        var configuration = SecretsConfiguration(environment: ProcessInfo.processInfo.environment)
        if let store { configuration.storeDirectory = Self.absoluteURL(store) }
        if let service { configuration.service = service }
        if let accessGroup { configuration.accessGroup = accessGroup }
        return configuration
    }

    /// Opens the chosen backend's store, audited into `--audit-file` when one is named; for the file store,
    /// `create` allows making a new one (asking for the passphrase twice at a terminal).
    func openStore(create: Bool, cipher: EncryptionAlgorithm? = nil) throws -> AuditedSecretsStore {
        try CommandAudit.audited(try openUnauditedStore(create: create, cipher: cipher), option: auditFile)
    }

    /// `backend` as this command's store (service, access group), audited into `--audit-file` when one is named.
    func audited(_ backend: any SecretsBackend) throws -> AuditedSecretsStore {
        try CommandAudit.audited(store(over: backend), option: auditFile)
    }

    /// Opens the chosen backend's store without an audit: for reading the audit's own key.
    func openUnauditedStore(create: Bool = false, cipher: EncryptionAlgorithm? = nil) throws -> AggregateSecretsStore {
        store(over: try openBackend(try BackendChoice.resolve(backend), create: create, cipher: cipher))
    }

    /// `backend` with this command's service and access group.
    private func store(over backend: any SecretsBackend) -> AggregateSecretsStore {
        AggregateSecretsStore(backend: backend, configuration: configuration())
    }

    /// Opens the encrypted file store, for the commands that work on it alone (`rotate-key`,
    /// `change-passphrase`).
    func openFileStore() throws -> EncryptedFileBackend {
        let choice = try BackendChoice.resolve(backend)
        guard choice == .file else {
            throw CommandFailure(
                "this command works on the encrypted file store, not on \(choice.rawValue)", status: .usage)
        }
        return try openFileBackend(create: false)
    }

    /// Opens `choice`'s backend; for the file store, `create` allows making a new one.
    func openBackend(_ choice: BackendChoice, create: Bool, cipher: EncryptionAlgorithm? = nil) throws
        -> any SecretsBackend
    {
        switch choice {
        case .auto:
            let selection = try CommandFailure.mapping {
                try SecretsStack.select(configuration: configuration()) {
                    try keySource(confirming: !FileManager.default.fileExists(atPath: storeHeaderPath))
                }
            }
            Output.note("using the \(selection.kind) store: \(selection.reason)")
            return selection.backend
        case .file: return try openFileBackend(create: create, cipher: cipher)
        case .secretService: return SecretServiceBackend()
        case .memory: return InMemoryBackend()
        }
    }

    private var storeHeaderPath: String {
        configuration().storeDirectory.appendingPathComponent("store.json").path
    }

    private func openFileBackend(create: Bool, cipher: EncryptionAlgorithm? = nil) throws -> EncryptedFileBackend {
        let configuration = configuration()
        for diagnostic in configuration.diagnostics {
            FileHandle.standardError.write(Data("coffer: warning: \(diagnostic)\n".utf8))
        }
        let directory = configuration.storeDirectory
        let exists = FileManager.default.fileExists(atPath: storeHeaderPath)
        guard exists || create else {
            throw CommandFailure(
                "there is no store at \(directory.path); create one with `coffer secrets set <path> --stdin`",
                status: .failure)
        }
        let key = try keySource(confirming: !exists)
        let options = EncryptedFileBackend.Options.command(
            createIfMissing: create, algorithm: cipher ?? configuration.encryptionAlgorithm)
        let backend = try CommandFailure.mapping {
            try EncryptedFileBackend(directory: directory, key: key, options: options)
        }
        if !exists {
            FileHandle.standardError.write(Data("coffer: created a new encrypted store at \(directory.path)\n".utf8))
        }
        return backend
    }

    /// What unlocks the store: `--key-file`, `--passphrase-file`, `$COFFER_PASSPHRASE`, or a terminal prompt.
    func keySource(confirming: Bool) throws -> KeySource {
        if let keyFile {
            return .keyFile(Self.absoluteURL(keyFile))
        }
        return .passphrase(
            try Self.passphrase(
                file: passphraseFile, environmentVariable: "COFFER_PASSPHRASE", prompt: "Passphrase: ",
                confirming: confirming))
    }

    /// Reads a passphrase from a file, an environment variable or the terminal, in that order.
    static func passphrase(
        file: String?, environmentVariable: String, prompt: String, confirming: Bool
    ) throws -> Passphrase {
        if let file {
            guard let data = FileManager.default.contents(atPath: absoluteURL(file).path) else {
                throw CommandFailure("cannot read the passphrase file \(file)", status: .failure)
            }
            let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            var firstLine = Data(lines.first ?? Data())
            if firstLine.last == UInt8(ascii: "\r") { firstLine.removeLast() }
            return try nonEmpty(Passphrase(bytes: firstLine), from: "the passphrase file \(file)")
        }
        if let value = ProcessInfo.processInfo.environment[environmentVariable] {
            return try nonEmpty(Passphrase(value), from: "$\(environmentVariable)")
        }
        guard let typed = TerminalPrompt.readSecret(prompt: prompt) else {
            throw CommandFailure(
                "no passphrase: set \(environmentVariable), pass a passphrase file, or run in a terminal",
                status: .usage)
        }
        if confirming {
            guard TerminalPrompt.readSecret(prompt: "Repeat it: ") == typed else {
                throw CommandFailure("the passphrases do not match", status: .usage)
            }
        }
        return try nonEmpty(Passphrase(typed), from: "the prompt")
    }

    private static func nonEmpty(_ passphrase: Passphrase, from source: String) throws -> Passphrase {
        guard !passphrase.isEmpty else {
            throw CommandFailure("the passphrase from \(source) is empty", status: .usage)
        }
        return passphrase
    }

    static func absoluteURL(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
    }
}

extension EncryptedFileBackend.Options {
    /// The options of a store the command line opens.
    ///
    /// In a debug build only (what `swift test` runs), `$COFFER_INSECURE_TEST_PBKDF2_ITERATIONS` sets a PBKDF2 count
    /// below the minimum so that each command of Coffer's own tests unlocks in microseconds; a release build has no
    /// such switch, so nothing in a shipped `coffer`'s environment can weaken a new store.
    static func command(
        createIfMissing: Bool, algorithm: EncryptionAlgorithm,
        iterations: Int = EncryptedFileBackend.recommendedIterations
    ) -> Self {
        var options = Self(createIfMissing: createIfMissing, algorithm: algorithm, iterations: iterations)
        #if DEBUG
            let environment = ProcessInfo.processInfo.environment
            if let weak = environment["COFFER_INSECURE_TEST_PBKDF2_ITERATIONS"].flatMap(Int.init) {
                options.iterations = weak
                options.allowsWeakIterationsForTesting = true
            }
        #endif
        return options
    }
}
