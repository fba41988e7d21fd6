import ArgumentParser
import Foundation
import Logging
import WalletServer
import WalletServices
import WalletStore

/// How `coffer` writes its logs.
enum LogFormat: String, CaseIterable, ExpressibleByArgument {
    /// One line per event with `key=value` metadata.
    case text
    /// One JSON object per line.
    case json

    /// Where log lines go.
    enum Destination {
        case standardOutput
        case standardError
    }

    /// Routes every logger of the process to this format at `level`.
    func bootstrap(level: Logger.Level, to destination: Destination) {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler
            switch (self, destination) {
            case (.text, .standardOutput): handler = StreamLogHandler.standardOutput(label: label)
            case (.text, .standardError): handler = StreamLogHandler.standardError(label: label)
            case (.json, .standardOutput): handler = JSONLogHandler(label: label)
            case (.json, .standardError): handler = JSONLogHandler.standardError(label: label)
            }
            handler.logLevel = level
            return handler
        }
    }

    /// Parses an environment variable's value, `text` when unset.
    static func parse(_ value: String?, from variable: String) throws -> LogFormat {
        guard let value, !value.isEmpty else { return .text }
        guard let format = LogFormat(rawValue: value.lowercased()) else {
            throw CommandFailure("\(variable) must be text or json", status: .usage)
        }
        return format
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {
    /// Parses an environment variable's value, `info` when unset.
    static func parse(_ value: String?, from variable: String) throws -> Logger.Level {
        guard let value, !value.isEmpty else { return .info }
        guard let level = Logger.Level(rawValue: value.lowercased()) else {
            throw CommandFailure(
                "\(variable) must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))",
                status: .usage)
        }
        return level
    }
}
