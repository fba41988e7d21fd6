import Foundation
import Secrets

/// Copies the items another keychain library wrote (a ``KeychainLayout``: KeychainAccess, Valet, SimpleKeychain,
/// SAMKeychain, keychain-swift) into a Coffer store, so that an app can switch libraries without signing its users
/// out.
///
/// Each item is read, saved in the store under its key (or the account `account(_:)` makes of it), and read back:
/// only a copy that reads back the same counts as moved, and only then, when asked, is the library's item deleted:
/// that one item, by the persistent reference the Keychain gave for it, never a query that could match another.
/// A store that already holds the same bytes at the account counts as moved too, so an import can run again after
/// an interruption; other bytes there are left alone unless `overwriting`. What could not be moved is in the
/// report with its reason; the library's items stay in place unless `removingOriginals`.
///
/// ```swift
/// let importer = KeychainImporter(destination: store)
/// let report = try importer.importItems(from: KeychainAccessLayout(service: "com.example.app"))
/// logger.info("\(report)")  // "KeychainAccess 4.2.2 (…): 3 moved, 0 not moved"
/// ```
///
/// Items that need the user (Valet's Secure Enclave flavors, KeychainAccess with an authentication policy) are read
/// through `authentication`: one prompt for all of them with a context that allows it.
public struct KeychainImporter: Sendable {
    /// The Keychain the library's items are in.
    private let client: any SecItemClient
    /// The store they are copied into.
    public let destination: any SecretsDataStoring

    /// Creates an importer from `client`'s keychain into `destination`.
    package init(client: any SecItemClient, destination: any SecretsDataStoring) {
        self.client = client
        self.destination = destination
    }

    #if canImport(Security)
        /// Creates an importer from the device's Keychain into `destination`.
        public init(destination: any SecretsDataStoring) {
            self.init(client: LiveSecItemClient(), destination: destination)
        }
    #endif

    /// Creates an importer from an emulated Keychain into `destination`, for tests and for platforms without one.
    public init(emulator: SecItemEmulator, destination: any SecretsDataStoring) {
        self.init(client: emulator, destination: destination)
    }

    /// Copies every item of `layout` into the store and reports what moved.
    ///
    /// - Parameters:
    ///   - layout: the library's layout, made from its configuration in the app.
    ///   - account: the account in the store for a library key (the key itself by default).
    ///   - removingOriginals: whether to delete each library item once its copy is verified.
    ///   - overwriting: whether to replace other bytes the store holds at an account.
    ///   - authentication: how reads of items that need the user may prompt.
    /// - Throws: ``Secrets/SecretsError`` when the library's items cannot be listed (a locked device, a missing
    ///   entitlement); a failure with one item is in the report instead.
    public func importItems(
        from layout: some KeychainLayout, account: (String) -> String = { $0 }, removingOriginals: Bool = false,
        overwriting: Bool = false, authentication: AuthenticationContext? = nil
    ) throws(SecretsError) -> KeychainImportReport {
        var report = KeychainImportReport(library: layout.library)
        var copied: [(item: KeychainItem, key: String, target: String, data: Data)] = []
        for (item, key) in try found(layout) {
            let target = account(key)
            do {
                try SecretPath.validate(path: target)
            } catch {
                report.notMoved.append(.init(key: key, reason: .invalidAccount(target)))
                continue
            }
            switch copy(item, to: target, overwriting: overwriting, authentication: authentication) {
            case .copied(let data): copied.append((item, key, target, data))
            case .notCopied(let reason): report.notMoved.append(.init(key: key, reason: reason))
            }
        }
        // An item counts as moved only if its copy is still in the store once every item is copied: two items with
        // one key (a synced and a local one) leave only the later one's bytes, and the earlier item stays put.
        for entry in copied {
            guard (try? destination.readData(account: entry.target)) == entry.data else {
                report.notMoved.append(.init(key: entry.key, reason: .replacedBySameKey))
                continue
            }
            let removed = removingOriginals && remove(entry.item)
            report.moved.append(.init(key: entry.key, account: entry.target, originalRemoved: removed))
        }
        return report
    }

    /// Deletes exactly `item`, by the persistent reference the listing returned; without one, deletes nothing.
    private func remove(_ item: KeychainItem) -> Bool {
        item.persistentReference != nil && client.delete(exact(item)) == .success
    }

    /// The layout's items with their keys, in a stable order.
    private func found(_ layout: some KeychainLayout) throws(SecretsError) -> [(KeychainItem, String)] {
        let itemSearch = layout.itemSearch
        var search = itemSearch.query
        search.matchLimit = .all
        search.returnAttributes = true
        search.returnPersistentReference = true
        switch client.copyMatching(search) {
        case .success(let items):
            return items.compactMap { item in itemSearch.key(item).map { (item, $0) } }
        case .failure(let error) where error.status == .itemNotFound:
            return []
        case .failure(let error):
            throw self.error(error.status, "list the items of", service: search.service ?? "", account: "*")
        }
    }

    /// Reads `item`, stores it at `target` and reads it back: the bytes copied when the copy is verified, else why
    /// not.
    private func copy(
        _ item: KeychainItem, to target: String, overwriting: Bool, authentication: AuthenticationContext?
    ) -> Copy {
        var read = exact(item)
        read.matchLimit = .one
        read.returnData = true
        read.authentication = authentication
        let data: Data
        switch client.copyMatching(read) {
        case .success(let items) where items.first?.data != nil:
            data = items[0].data!
        case .success:
            return .notCopied(.unreadable(.corruptData("the item \(SecretsError.quoted(item.account))")))
        case .failure(let error):
            return .notCopied(
                .unreadable(self.error(error.status, "read", service: item.service, account: item.account)))
        }
        do throws(SecretsError) {
            let stored = try SecretsError.catching { try destination.readData(account: target) }
            if let stored, stored != data, !overwriting { return .notCopied(.exists) }
            if stored != data { try SecretsError.catching { try destination.saveData(data, account: target) } }
        } catch {
            return .notCopied(.notStored(error))
        }
        let verified = try? destination.readData(account: target)
        return verified == data ? .copied(data) : .notCopied(.verificationFailed)
    }

    /// What became of one item's copy.
    private enum Copy {
        /// The store holds these bytes of it, read back.
        case copied(Data)
        /// It was not copied, and why.
        case notCopied(KeychainImportReport.NotMoved.Reason)
    }

    /// The query that names exactly `item`: its attributes and the persistent reference the listing returned.
    private func exact(_ item: KeychainItem) -> KeychainQuery {
        KeychainQuery(
            service: item.itemClass == .genericPassword ? item.service : nil, account: item.account,
            accessGroup: item.accessGroup, synchronizable: item.synchronizable ? .synchronizable : .notSynchronizable,
            itemClass: item.itemClass, internet: item.internet, persistentReference: item.persistentReference)
    }

    /// The ``Secrets/SecretsError`` for a status met on the library's item, as the Keychain backend maps it.
    private func error(_ status: KeychainStatus, _ operation: String, service: String, account: String)
        -> SecretsError
    {
        AppleKeychainBackend(client: client).error(
            for: status, operation: operation, query: SecretQuery<Data>(service: service, account: account))
            ?? .unavailable("the Keychain failed to \(operation) \(service)/\(account): \(status)")
    }
}
