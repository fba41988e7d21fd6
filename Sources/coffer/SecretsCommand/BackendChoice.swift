import ArgumentParser
import Foundation
import Secrets
import SecretsSecretService

/// Where `coffer secrets` keeps secrets: `--backend`, else `$COFFER_BACKEND`, else the encrypted file store.
enum BackendChoice: String, CaseIterable, ExpressibleByArgument {
    /// The platform's default: the Keychain on Apple platforms; on Linux the Secret Service when one answers,
    /// else the encrypted file store.
    case auto
    /// The encrypted file store (the default).
    case file
    /// The Secret Service: the Linux desktop keyring (gnome-keyring, KeePassXC, KWallet).
    case secretService = "secret-service"
    /// Memory: nothing persists past the command; for trying commands out.
    case memory

    /// The environment variable read when `--backend` is not given.
    static let environmentVariable = "COFFER_BACKEND"

    /// `choice`, else the environment's, else ``file``.
    static func resolve(_ choice: BackendChoice?) throws -> BackendChoice {
        if let choice { return choice }
        guard let value = ProcessInfo.processInfo.environment[environmentVariable] else { return .file }
        guard let named = BackendChoice(rawValue: value) else {
            throw CommandFailure(
                "$\(environmentVariable) is '\(value)'; use one of "
                    + allCases.map(\.rawValue).joined(separator: ", "), status: .usage)
        }
        return named
    }
}
