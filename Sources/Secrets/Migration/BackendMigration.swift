import Foundation

/// Copies every item of a service from one backend to another, verifying each copy, for moving a store (say, from
/// the encrypted file store into the system keyring) in one step rather than item by item as they are read.
///
/// Each item is read from the source, written to the destination, read back and compared; only then, with
/// ``Options/deleteFromSource``, is it deleted from the source. An item the destination already holds with other
/// bytes is a conflict: it is left alone on both sides unless ``Options/overwrite`` is set. A failure stops the
/// migration with the items done so far migrated and the rest untouched, so running it again resumes it.
public struct BackendMigration: Sendable {
    /// What the migration may change.
    public struct Options: Hashable, Sendable {
        /// Whether a verified copy is deleted from the source.
        public var deleteFromSource: Bool
        /// Whether a destination item with other bytes is replaced (otherwise it is reported as a conflict).
        public var overwrite: Bool

        /// Creates options; by default the source is kept and nothing in the destination is replaced.
        public init(deleteFromSource: Bool = false, overwrite: Bool = false) {
            self.deleteFromSource = deleteFromSource
            self.overwrite = overwrite
        }
    }

    /// Where a migration stands, reported after each item.
    public struct Progress: Hashable, Sendable {
        /// Items handled so far.
        public var completed: Int
        /// Items to handle.
        public var total: Int
    }

    /// What a migration did.
    public struct Report: Hashable, Sendable {
        /// Accounts copied (and, with ``Options/deleteFromSource``, removed from the source).
        public var migrated: [String] = []
        /// Accounts the destination already held with the same bytes.
        public var alreadyPresent: [String] = []
        /// Accounts the destination holds with other bytes, left alone.
        public var conflicts: [String] = []
    }

    /// The backend items come from.
    public let source: any SecretsBackend
    /// The backend items go to.
    public let destination: any SecretsBackend
    /// The options.
    public let options: Options

    /// Creates a migration between two backends.
    public init(from source: any SecretsBackend, to destination: any SecretsBackend, options: Options = Options()) {
        self.source = source
        self.destination = destination
        self.options = options
    }

    /// Migrates every account of `service` in `accessGroup`, calling `progress` after each.
    ///
    /// - Throws: ``SecretsError`` from either backend (the migration stops there), or
    ///   ``SecretsError/corruptData(_:)`` when a copy does not read back identically (the source is kept).
    public func run(
        service: String, accessGroup: String? = nil, progress: (Progress) -> Void = { _ in }
    ) throws -> Report {
        let accounts = try source.listAccounts(service: service, accessGroup: accessGroup)
        var report = Report()
        for (index, account) in accounts.enumerated() {
            let query = SecretQuery<Data>(service: service, account: account, accessGroup: accessGroup)
            // An item deleted from the source since the listing has nothing left to move.
            if let data = try source.read(query) {
                try migrate(data, at: query, into: &report)
            }
            progress(Progress(completed: index + 1, total: accounts.count))
        }
        return report
    }

    private func migrate(_ data: Data, at query: SecretQuery<Data>, into report: inout Report) throws {
        switch try destination.read(query) {
        case data?:
            report.alreadyPresent.append(query.account)
        case .some where !options.overwrite:
            report.conflicts.append(query.account)
            return
        default:
            try destination.save(data, for: query)
            guard try destination.read(query) == data else {
                throw SecretsError.corruptData("the copy of \(query.account) in the destination")
            }
            report.migrated.append(query.account)
        }
        if options.deleteFromSource { try source.delete(query) }
    }
}
