import Foundation
import Logging

/// Items as files in `<root>/items/`, one file per item, named and framed by a codec.
///
/// Shared by ``FileBackend`` and ``EncryptedFileBackend``. Writes and deletes hold the store's lock; reads do not.
struct ItemFileStore<Codec: ItemCodec>: Sendable {
    static var itemsDirectory: String { "items" }
    static var itemSuffix: String { ".item" }

    let directory: StoreDirectory
    let codec: Codec
    let maximumValueSize: Int
    let logger: Logger

    func relativePath(_ fileName: String) -> String {
        Self.itemsDirectory + "/" + fileName
    }

    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        try query.validate()
        guard data.count <= maximumValueSize else {
            throw SecretsError.tooLarge(byteCount: data.count, limit: maximumValueSize)
        }
        let identity = ItemIdentity(query)
        try directory.withExclusiveLock {
            try codec.prepareForWrite()
            let file = try codec.encode(data, for: identity)
            let names = try codec.fileNames(for: identity)
            try directory.write(file, to: relativePath(names[0]))
            // While a re-key is unfinished, an older copy may still sit under the previous name.
            for stale in names.dropFirst() { _ = try directory.remove(relativePath(stale)) }
        }
    }

    /// Reads the item's file under each of its names. When none exists, the codec refreshes once (another
    /// process may have rotated or re-keyed the store, renaming files) and the names are tried again.
    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try query.validate()
        let identity = ItemIdentity(query)
        for attempt in 0..<2 {
            if attempt == 1, try !codec.refreshAfterMiss() { return nil }
            let names = try codec.fileNames(for: identity)
            // A re-key writes the new name before it removes the old one: a file missing under both names may
            // have moved between the two looks, so the current name is looked at again.
            for name in names.count > 1 ? names + [names[0]] : names {
                if let file = try readFile(name) { return try codec.decodeValue(file, for: identity, fileName: name) }
            }
        }
        return nil
    }

    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        try query.validate()
        let identity = ItemIdentity(query)
        return try directory.withExclusiveLock {
            try codec.prepareForWrite()
            var removed = false
            for name in try codec.fileNames(for: identity) {
                removed = try directory.remove(relativePath(name)) || removed
            }
            return removed
        }
    }

    /// The accounts of `service` in `accessGroup`. An item that cannot be read is skipped and logged, so that
    /// one damaged file does not hide every other item; ``damagedItems()`` reports them.
    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try identities().compactMap { entry in
            guard case .success(let identity) = entry.result else {
                logger.warning("skipping an unreadable item while listing", metadata: ["file": "\(entry.fileName)"])
                return nil
            }
            return identity.service == service && identity.accessGroup == accessGroup ? identity.account : nil
        }.uniqued().sorted()
    }

    /// The item files that cannot be read in full, with the reason for each.
    func damagedItems() throws -> [(fileName: String, error: SecretsError)] {
        try identities().compactMap { entry in
            do {
                let identity = try entry.result.get()
                guard let file = try readFile(entry.fileName) else { return nil }
                _ = try codec.decodeValue(file, for: identity, fileName: entry.fileName)
                return nil
            } catch let error as SecretsError {
                return (entry.fileName, error)
            } catch {
                return (entry.fileName, SecretsError.corruptData("item \(entry.fileName)"))
            }
        }
    }

    /// Every item file with the identity it records, or why that identity cannot be read.
    func identities() throws -> [(fileName: String, result: Result<ItemIdentity, SecretsError>)] {
        // do/catch rather than `Result { () throws(SecretsError) in … }`: that initializer is Swift 6's, and the
        // iOS typecheck's SDK (scripts/ios-typecheck.sh) has only the untyped one.
        var identities: [(fileName: String, result: Result<ItemIdentity, SecretsError>)] = []
        for name in try itemFileNames() {
            do throws(SecretsError) {
                identities.append((name, .success(try identity(ofFile: name))))
            } catch {
                identities.append((name, .failure(error)))
            }
        }
        return identities
    }

    /// The identity the item file `name` records.
    private func identity(ofFile name: String) throws(SecretsError) -> ItemIdentity {
        do {
            guard let prefix = try readFile(name, prefix: codec.identityPrefixLength) else {
                throw SecretsError.corruptData("item \(name) (it vanished while being listed)")
            }
            let identity = try codec.decodeIdentity(prefix, fileName: name)
            guard try codec.fileNames(for: identity).contains(name) else {
                throw SecretsError.corruptData("item \(name) (its file name does not match its contents)")
            }
            return identity
        } catch let error as SecretsError {
            throw error
        } catch {
            throw SecretsError.corruptData("item \(name)")
        }
    }

    /// The ways the store's directory is less private than Coffer makes it (another owner, group or world access).
    func accessProblems() -> [String] {
        directory.accessProblems(subdirectories: [Self.itemsDirectory])
    }

    /// Logs a warning for each of ``accessProblems()``: whoever can write the directory can delete, roll back or
    /// jam items.
    func warnAboutAccess() {
        for problem in accessProblems() {
            logger.warning("the store's directory is not private", metadata: ["problem": "\(problem)"])
        }
    }

    func itemFileNames() throws -> [String] {
        try directory.fileNames(in: Self.itemsDirectory, suffix: Self.itemSuffix)
    }

    func readFile(_ name: String, prefix: Int? = nil) throws -> Data? {
        try directory.read(
            relativePath(name), limit: codec.maximumFileSize(forValueSize: maximumValueSize), prefix: prefix)
    }

    /// Whether the item file `name` exists, without reading it.
    func fileExists(_ name: String) throws -> Bool {
        try directory.read(relativePath(name), limit: codec.maximumFileSize(forValueSize: maximumValueSize), prefix: 0)
            != nil
    }

    func writeFile(_ file: Data, named name: String) throws {
        try directory.write(file, to: relativePath(name))
    }
}

extension Array where Element: Hashable {
    /// The elements without repeats (a re-key in progress can list an item under two names).
    fileprivate func uniqued() -> [Element] { Array(Set(self)) }
}
