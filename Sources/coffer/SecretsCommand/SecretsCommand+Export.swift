import ArgumentParser
import Foundation
import Secrets
import SecretsAudit

extension SecretsCommand {
    /// `coffer secrets export --format env|json [paths…] [--prefix app/]`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print secrets as a .env file or a JSON object, to standard output only.",
            discussion: """
                Each argument is account/path (exported as the path in capitals with '_' for other characters, \
                ai/openai as AI_OPENAI) or NAME=account/path; --prefix app/ adds every secret under app/, named by \
                the rest of its path (app/OPENAI_API_KEY as OPENAI_API_KEY). The env format is quoted so that a \
                POSIX shell's `source` (and `coffer secrets import`) reads back the same values. Standard output \
                should be a file or a pipe: coffer warns on standard error when it is a terminal.
                """)

        /// The output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case env, json
        }

        @OptionGroup var options: StoreOptions
        @Option(help: "env (NAME='value' lines) or json (an object of names and values).") var format: Format = .env
        @Option(help: "Export every secret whose path starts with this, for example app/.") var prefix: String?
        @Argument(
            help: ArgumentHelp("The secrets to export.", valueName: "[NAME=]path"),
            completion: .custom(AccountCompletion.complete))
        var paths: [String] = []

        func validate() throws {
            guard !paths.isEmpty || prefix != nil else {
                throw ValidationError("name the secrets to export, or give --prefix")
            }
        }

        func run() throws {
            var variables = try paths.map { argument in
                argument.contains("=")
                    ? try SecretMapping(parsing: argument, source: "argument '\(argument)'")
                    : try SecretMapping(parsing: "\(Self.name(for: argument))=\(argument)", source: "argument")
            }
            let store = try options.openStore(create: false)
            if let prefix {
                for account in try CommandFailure.mapping({ try store.listAccounts() }) where account.hasPrefix(prefix)
                {
                    let rest = String(account.dropFirst(prefix.count))
                    variables.append(
                        try SecretMapping(
                            parsing: "\(Self.name(for: rest, keepingCase: true))=\(account)", source: "--prefix"))
                }
            }
            try SecretMapping.checkUnique(variables)
            var values: [(name: String, value: String)] = []
            for variable in variables {
                guard let data = try CommandFailure.mapping({ try store.readData(account: variable.path) }) else {
                    throw CommandFailure(
                        "no secret at '\(variable.path)' in service '\(store.service)'",
                        status: .notFound)
                }
                guard let value = String(data: data, encoding: .utf8), !value.utf8.contains(0) else {
                    throw CommandFailure(
                        "the secret at '\(variable.path)' is not text without NUL bytes; read it with "
                            + "`coffer secrets get --json`", status: .failure)
                }
                values.append((variable.name, value))
            }
            if isatty(STDOUT_FILENO) == 1 {
                Output.note("warning: printing secrets to a terminal; redirect standard output to a file or a pipe")
            }
            switch format {
            case .env:
                Output.write(
                    Data(values.map { DotEnv.line(name: $0.name, value: $0.value) + "\n" }.joined().utf8),
                    endingLine: false)
            case .json:
                try Output.printJSON(Dictionary(values, uniquingKeysWith: { $1 }))
            }
        }

        /// A variable name for `path`: characters other than letters, digits and `_` become `_`, in capitals
        /// unless `keepingCase`, with a leading `_` before a digit.
        static func name(for path: String, keepingCase: Bool = false) -> String {
            var name = String(
                (keepingCase ? path : path.uppercased()).unicodeScalars.map { scalar in
                    scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
                        ? Character(scalar) : "_"
                })
            if name.first?.isNumber ?? true { name = "_" + name }
            return name
        }
    }
}
