import ArgumentParser
import Foundation
import Secrets
import SecretsAudit
import WalletDocuments

extension SecretsCommand {
    /// `coffer secrets import FILE.env --map NAME=account/path … | --prefix app/`.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Save each NAME=value of a .env file as a secret.",
            discussion: """
                --map NAME=account/path says where a name goes; --prefix app/ saves every other name at app/NAME. \
                The file may use `export `, single or double quotes (with \\n escapes in double quotes) and '#' \
                comments. A path that already holds another value is a conflict: reported by name, left alone \
                unless --overwrite is given, and the command exits 4. Names neither mapped nor under a prefix are \
                skipped and named. Values are never printed.
                """)

        @OptionGroup var options: StoreOptions
        @Argument(help: "The .env file to read.", completion: .file()) var file: String
        @Option(
            name: .customLong("map"),
            help: ArgumentHelp("Save NAME at account/path.", valueName: "NAME=path"),
            completion: .custom(AccountCompletion.completeMapping))
        var mappings: [String] = []
        @Option(help: "Save every name not given to --map at <prefix>NAME, for example app/.") var prefix: String?
        @Flag(help: "Replace secrets that hold another value.") var overwrite = false

        func validate() throws {
            guard !mappings.isEmpty || prefix != nil else {
                throw ValidationError("give --map NAME=account/path or --prefix to say where the values go")
            }
        }

        func run() throws {
            let mapped = try mappings.map { try SecretMapping(parsing: $0, source: "--map") }
            try SecretMapping.checkUnique(mapped)
            guard let data = FileManager.default.contents(atPath: StoreOptions.absoluteURL(file).path) else {
                throw CommandFailure("cannot read \(file)", status: .usage)
            }
            let entries: [DotEnv.Entry]
            do {
                entries = try DotEnv.parse(String(decoding: data, as: UTF8.self))
            } catch let error as DotEnv.SyntaxError {
                throw CommandFailure("\(file) \(error)", status: .usage)
            }
            var targets: [(name: String, path: String, value: String)] = []
            var skipped: [String] = []
            for entry in entries {
                if let path = mapped.first(where: { $0.name == entry.name })?.path ?? prefix.map({ $0 + entry.name }) {
                    do {
                        try SecretPath.validate(path: path)
                    } catch let error as SecretsError {
                        throw CommandFailure("\(entry.name): \(error.description)", status: .usage)
                    }
                    targets.removeAll { $0.name == entry.name }  // a later line wins, as in a shell
                    targets.append((entry.name, path, entry.value))
                } else {
                    skipped.append(entry.name)
                }
            }
            let store = try options.openStore(create: true)
            var imported = 0
            var unchanged = 0
            var conflicts: [String] = []
            for target in targets {
                let value = Data(target.value.utf8)
                let existing = try CommandFailure.mapping { try store.readData(account: target.path) }
                if existing == value {
                    unchanged += 1
                    continue
                }
                if existing != nil, !overwrite {
                    conflicts.append(target.name)
                    Output.note(
                        "\(target.name): '\(target.path)' already holds another value (--overwrite replaces it)")
                    continue
                }
                try CommandFailure.mapping { try store.saveData(value, account: target.path) }
                imported += 1
            }
            if !skipped.isEmpty {
                Output.note("skipped (not mapped): " + skipped.joined(separator: ", "))
            }
            print(
                "imported \(imported), unchanged \(unchanged), in conflict \(conflicts.count)"
                    + (skipped.isEmpty ? "" : ", skipped \(skipped.count)"))
            if !conflicts.isEmpty {
                throw CommandFailure(
                    "\(conflicts.count) in conflict: \(conflicts.joined(separator: ", ")); nothing of theirs was "
                        + "changed", status: .failure)
            }
        }
    }
}
