import ArgumentParser
import Foundation
import LocalData
import Secrets

/// `coffer data`: LocalData's catalogs and file stores from the shell.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data",
        abstract: "Print an app's storage key catalog, and migrate or re-key its LocalData file stores.",
        discussion: """
            A LocalData file store is a directory named …/LocalData/files (plain) or \
            …/LocalData/encrypted/<cipher>-<derivation>-<source> (encrypted), inside the app's documents, caches, \
            custom or app-group directory. An encrypted store's name says what unlocks it: a pbkdf2 store takes a \
            passphrase (--passphrase-file or $COFFER_PASSPHRASE), an hkdf store a 32-byte key (--key-file, or by \
            default the key LocalData keeps in the platform key store under --service).
            """,
        subcommands: [Catalog.self, Migrate.self, Rotate.self]
    )
}

extension StorageCatalogReport.Format: ExpressibleByArgument {}

extension DataCommand {
    /// `coffer data catalog --catalog <json>` (`audit`, its earlier name, still works).
    struct Catalog: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "catalog",
            abstract: "Print every key of a catalog: domain, protection, serializer, owner, availability, sync.",
            discussion: """
                The catalog is a JSON file (an array of key descriptors, or the JSON form of a catalog report, \
                which apps write with StorageCatalogReport.rendered(as: .json)), or a directory of such files, one \
                per module, checked together. Problems (duplicate names, missing descriptions, inconsistent \
                metadata) go to standard error and the exit status is 1.
                """,
            aliases: ["audit"])

        @Option(help: "The catalog: a JSON file or a directory of them.") var catalog: String
        @Option(help: "text, json or markdown.") var format: StorageCatalogReport.Format = .text

        func run() throws {
            let catalog = try Self.load(StoreOptions.absoluteURL(catalog))
            print(catalog.catalogReport.rendered(as: format), terminator: "")
            let problems = catalog.validationErrors
            guard problems.isEmpty else {
                for problem in problems { Output.note(problem.description) }
                throw CommandFailure("the catalog has \(problems.count) problem(s)", status: .notFound)
            }
        }

        /// The catalog in a file, or all the catalogs in a directory's JSON files.
        static func load(_ url: URL) throws -> DescriptorCatalog {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw CommandFailure("there is no catalog at \(url.path)", status: .usage)
            }
            let files =
                isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                    .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path } : [url]
            var keys: [StorageKeyDescriptor] = []
            for file in files {
                let data = try Data(contentsOf: file)
                do {
                    keys += try DescriptorCatalog(json: data).keys
                } catch {
                    throw CommandFailure("\(file.lastPathComponent): \(error)", status: .usage)
                }
            }
            return DescriptorCatalog(keys)
        }
    }
}
