import Foundation
import Secrets
import SecretsAudit

/// The access audit of one `coffer` process: with `--audit-file` (or `$COFFER_AUDIT_FILE`), every access a command
/// makes to a store is appended to that tamper-evident file, and the file is closed (written, `fsync`ed and
/// checkpointed) before the process exits.
enum CommandAudit {
    /// The environment variable naming the audit file when `--audit-file` is not given.
    static let fileVariable = "COFFER_AUDIT_FILE"
    /// The environment variable that labels the accesses (a script's name) instead of the command line.
    static let callerVariable = "COFFER_AUDIT_CALLER"

    private static let openSinks = Locked<[AuditFileSink]>([])

    /// The audit file named by `option`, else by `$COFFER_AUDIT_FILE`, or `nil`.
    static func fileURL(option: String?) -> URL? {
        guard let path = option ?? ProcessInfo.processInfo.environment[fileVariable], !path.isEmpty else {
            return nil
        }
        return StoreOptions.absoluteURL(path)
    }

    /// `store` audited into the file `option` names (its key kept in `store`), or with no sink when none is named.
    static func audited(_ store: AggregateSecretsStore, option: String?) throws -> AuditedSecretsStore {
        AuditedSecretsStore(store, audit: try audit(keyStore: store, option: option))
    }

    /// The audit for a command whose key store is `keyStore`.
    static func audit(keyStore: AggregateSecretsStore, option: String?) throws -> SecretsAudit {
        guard let url = fileURL(option: option) else { return SecretsAudit(sinks: []) }
        guard !keyStore.backends.contains(where: { $0 is InMemoryBackend }) else {
            throw CommandFailure(
                "the audit key cannot live in the memory store (the file could never be verified): "
                    + "use --backend file or secret-service with --audit-file", status: .usage)
        }
        let sink = try mapping { () throws(SecretsAuditError) in
            try AuditFileSink(url: url, keys: AuditKeyStore(store: keyStore))
        }
        openSinks.withLock { $0.append(sink) }
        return SecretsAudit(sinks: [sink], defaultCaller: caller)
    }

    /// Closes every audit file this process opened; a failure to write the last records is reported, and turns a
    /// successful command's exit status into 4: an access that could not be recorded is not a success.
    static func closeAll(exitStatus: Int32) -> Int32 {
        let sinks = openSinks.withLock { sinks in
            defer { sinks.removeAll() }
            return sinks
        }
        var status = exitStatus
        for sink in sinks {
            do {
                try sink.close()
            } catch {
                FileHandle.standardError.write(
                    Data("coffer: the audit file \(sink.url.path) is incomplete: \(error)\n".utf8))
                if status == 0 { status = ExitStatus.failure.rawValue }
            }
        }
        return status
    }

    /// The label of this process's accesses: `$COFFER_AUDIT_CALLER`, else the command's words (`coffer secrets get`).
    static var caller: String {
        if let label = ProcessInfo.processInfo.environment[callerVariable], !label.isEmpty { return label }
        let words = CommandLine.arguments.dropFirst().prefix { !$0.hasPrefix("-") }.prefix(2)
        return (["coffer"] + words).joined(separator: " ")
    }

    /// Runs `body`, turning a ``SecretsAuditError`` into a ``CommandFailure`` with its exit status.
    static func mapping<Result>(_ body: () throws(SecretsAuditError) -> Result) throws(CommandFailure) -> Result {
        do {
            return try body()
        } catch {
            throw CommandFailure(error)
        }
    }
}

extension CommandFailure {
    /// Maps an audit error to its exit status: a missing key or a file that lost records is 3 (like a wrong key), a
    /// refused path 2, an
    /// unreadable store as its own error, the rest 4.
    init(_ error: SecretsAuditError) {
        switch error {
        case .missingKey, .chainLost: self.init(error.description, status: .authentication)
        case .notARegularFile: self.init(error.description, status: .usage)
        case .key(let storeError): self.init(error.description, status: CommandFailure(storeError).status)
        case .io, .closed: self.init(error.description, status: .failure)
        }
    }
}
