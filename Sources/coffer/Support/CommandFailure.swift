import Secrets
import SecretsAudit
import WalletDocuments
import WalletServer
import WalletServices
import WalletStore

/// The exit statuses `coffer` documents.
enum ExitStatus: Int32 {
    /// The item asked for does not exist, or preflight found errors.
    case notFound = 1
    /// The command line is wrong.
    case usage = 2
    /// The passphrase or key is wrong, or data failed authentication.
    case authentication = 3
    /// Anything else.
    case failure = 4
    /// The store is locked or cannot be reached (no Secret Service, a locked keyring, a missing key file).
    case storeUnavailable = 5
}

/// A failure that ends the command with a message and an exit status.
struct CommandFailure: Error {
    let message: String
    let status: ExitStatus

    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// Maps a store error to its exit status; its message never contains a secret.
    init(_ error: SecretsError) {
        switch error {
        case .wrongPassphrase, .wrongKey, .authenticationFailed, .authenticationDenied, .authenticationCancelled,
            .biometryChanged:
            self.init(error.description, status: .authentication)
        case .invalidIdentifier:
            self.init(error.description, status: .usage)
        case .locked, .unavailable, .authenticationRequired:
            self.init(error.description, status: .storeUnavailable)
        default:
            self.init(error.description, status: .failure)
        }
    }

    /// Maps a pass error to its exit status: failed checks and wrong keys are 3, the rest 4.
    init(_ error: WalletDocumentError) {
        switch error {
        case .verificationFailed, .unreadableKey, .keyDoesNotMatchCertificate, .identityMismatch:
            self.init(error.description, status: .authentication)
        default:
            self.init(error.description, status: .failure)
        }
    }

    /// Maps a management API refusal to its exit status: what is not there is 1, what the request got wrong 2, the
    /// rest 4.
    init(_ failure: PassManagementFailure) {
        switch failure {
        case .notFound: self.init(failure.description, status: .notFound)
        case .invalidRequest, .idempotencyKeyReused, .invalidPass, .invalidOrder:
            self.init(failure.description, status: .usage)
        case .conflict, .forbidden, .unsupportedHere, .limitReached:
            self.init(failure.description, status: .failure)
        }
    }

    /// Maps a server error to its exit status: missing records are 1, bad input 2, the rest 4.
    init(_ error: WalletServerError) {
        switch error {
        case .notFound:
            self.init(error.description, status: .notFound)
        case .invalidArgument, .invalidConfiguration, .invalidDatabaseURL:
            self.init(error.description, status: .usage)
        default:
            self.init(error.description, status: .failure)
        }
    }

    /// Runs `body`, turning Coffer's own errors into a ``CommandFailure``.
    static func mapping<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw converting(error)
        }
    }

    /// Runs async `body`, turning Coffer's own errors into a ``CommandFailure``.
    static func mapping<Result>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw converting(error)
        }
    }

    /// `error` as a ``CommandFailure`` when it is one of Coffer's, else unchanged.
    static func converting(_ error: any Error) -> any Error {
        switch error {
        case let error as SecretsError: return CommandFailure(error)
        case let error as SecretsAuditError: return CommandFailure(error)
        case let error as WalletDocumentError: return CommandFailure(error)
        case let error as WalletServerError: return CommandFailure(error)
        case let failure as PassManagementFailure: return CommandFailure(failure)
        default: return error
        }
    }
}
