import ArgumentParser
import Foundation
import Secrets
import SecretsAudit

/// Completes account paths from the store, for shell completion scripts. It lists paths only, never values, and
/// never prompts: without a key file, a passphrase file or `$COFFER_PASSPHRASE` (for the file store) it offers
/// nothing.
enum AccountCompletion {
    /// The store's account paths that start with `prefix`; `words` is the command line so far, whose store options
    /// (`--store`, `--key-file`, `--backend`, …) choose the store.
    @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        accounts(words).filter { $0.hasPrefix(prefix) }
    }

    /// Completes the path half of `NAME=account/path`.
    @Sendable static func completeMapping(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let equals = prefix.firstIndex(of: "=") else { return [] }
        let name = prefix[...equals]
        let partial = prefix[prefix.index(after: equals)...]
        return accounts(words).filter { $0.hasPrefix(partial) }.map { name + $0 }
    }

    /// The accounts of the store that `words` names, or none when it cannot be opened without asking.
    static func accounts(_ words: [String]) -> [String] {
        var storeArguments: [String] = []
        let valued: Swift.Set = [
            "--backend", "--store", "--service", "--access-group", "--passphrase-file", "--key-file",
        ]
        var index = 0
        while index < words.count {
            if valued.contains(words[index]), index + 1 < words.count {
                storeArguments += [words[index], words[index + 1]]
                index += 1
            }
            index += 1
        }
        guard let options = try? StoreOptions.parse(storeArguments) else { return [] }
        let choice = (try? BackendChoice.resolve(options.backend)) ?? .file
        if choice == .file || choice == .auto, options.keyFile == nil, options.passphraseFile == nil,
            ProcessInfo.processInfo.environment["COFFER_PASSPHRASE"] == nil
        {
            return []
        }
        guard let store = try? options.openStore(create: false) else { return [] }
        return (try? store.listAccounts()) ?? []
    }
}
