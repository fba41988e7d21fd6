import Foundation
import Secrets

/// A ``SecretsDataStoring`` that records every access to the store it wraps in a ``SecretsAudit``: each save,
/// read, delete and listing becomes one ``SecretsAuditEvent``, whether it succeeds or throws.
///
/// Results and errors are exactly those of the wrapped store. A ``SecretsStore`` made with an audit wraps its
/// store in one of these; synchronous code (a command-line tool, a server's start-up) can use it directly.
public struct AuditedSecretsStore: SecretsStoreWrapper {
    /// The store every access ends in.
    public let base: any SecretsDataStoring
    /// Where the events go.
    public let audit: SecretsAudit
    /// The service the events name.
    public let service: String
    /// The backend the events name.
    public let backend: String

    /// Wraps `base`.
    ///
    /// - Parameters:
    ///   - service: the service events name; by default an ``AggregateSecretsStore``'s configured service.
    ///   - backend: the backend events name; by default the ``SecretsBackend/backendName`` of an
    ///     ``AggregateSecretsStore``'s backends, joined with `+`, else the store's type.
    public init(_ base: any SecretsDataStoring, audit: SecretsAudit, service: String? = nil, backend: String? = nil) {
        self.base = base
        self.audit = audit
        let aggregate = base as? AggregateSecretsStore
        self.service = service ?? aggregate?.configuration.service ?? SecretsConfiguration().service
        self.backend =
            backend ?? aggregate?.backends.map(\.backendName).joined(separator: "+")
            ?? String(describing: type(of: base))
    }

    /// Saves `secret` at `C.id`, and records a `save`.
    public func save<C: SecretCoder>(_ secret: C) throws {
        try recording(.save, account: C.id.path, outcome: { _ in .saved }) { try base.save(secret) }
    }

    /// Reads the secret at `id`, and records a `read`: `found` or `missing`.
    public func read<C: SecretCoder>(_ id: ServiceID<C>) throws -> C? {
        try recording(.read, account: id.path, outcome: { $0 == nil ? .missing : .found }) { try base.read(id) }
    }

    /// Deletes the secret at `id`, and records a `delete`: `found` or `missing`.
    public func delete<C: SecretCoder>(_ id: ServiceID<C>) throws {
        try deleteData(account: id.path)
    }

    /// The paths of every stored secret, and records a `list`.
    public func listAccounts() throws -> [String] {
        try recording(.list, account: nil, outcome: { _ in .found }) { try base.listAccounts() }
    }

    /// Saves `data` at `account`, and records a `save`.
    public func saveData(_ data: Data, account: String) throws {
        try recording(.save, account: account, outcome: { _ in .saved }) { try base.saveData(data, account: account) }
    }

    /// Reads the bytes at `account`, and records a `read`: `found` or `missing`.
    public func readData(account: String) throws -> Data? {
        try recording(.read, account: account, outcome: { $0 == nil ? .missing : .found }) {
            try base.readData(account: account)
        }
    }

    /// Deletes the item at `account`, and records a `delete`: `found` or `missing`.
    @discardableResult
    public func deleteData(account: String) throws -> Bool {
        try recording(.delete, account: account, outcome: { $0 ? .found : .missing }) {
            try base.deleteData(account: account)
        }
    }

    /// Runs a whole-store operation (a migration or a key rotation) and records it: `found` when it completes.
    public func recording<Result>(
        _ operation: SecretsAuditEvent.Operation, _ body: () throws -> Result
    ) throws(SecretsError) -> Result {
        try recording(operation, account: nil, outcome: { _ in .found }, body)
    }

    private func recording<Result>(
        _ operation: SecretsAuditEvent.Operation, account: String?, outcome: (Result) -> SecretsAuditEvent.Outcome,
        _ body: () throws -> Result
    ) throws(SecretsError) -> Result {
        try audit.recording(operation, service: service, account: account, backend: backend, outcome: outcome) {
            () throws(SecretsError) -> Result in try SecretsError.catching(body)
        }
    }
}
