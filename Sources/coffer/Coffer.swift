import ArgumentParser
import Foundation

/// The `coffer` command: typed, encrypted credentials, Wallet passes and the provisioning server, from the shell.
@main
struct Coffer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer",
        abstract: "Keep credentials typed, encrypted and portable.",
        discussion: """
            Exit status: 0 success; 1 the item is missing (or preflight found errors); 2 usage error; \
            3 wrong passphrase, wrong key or tampered data; 4 any other failure; 5 the store is unavailable or \
            locked (no Secret Service, a locked keyring, a missing key file). `coffer secrets run` exits with its \
            command's status instead. Shell completions: `coffer --generate-completion-script bash|zsh|fish`.
            """,
        version: "0.1.0",
        subcommands: [
            SecretsCommand.self, DataCommand.self, PassCommand.self, OrderCommand.self, ServeCommand.self,
            AdminCommand.self,
        ]
    )

    /// Parses the arguments and runs the command, mapping every failure to a message on standard error and a
    /// documented exit status.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(0)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("coffer: \(failure.message)\n".utf8))
            exit(failure.status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                _ = CommandAudit.closeAll(exitStatus: 0)
                exit(withError: error)  // --help and --version print and exit 0
            }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(code == .validationFailure ? ExitStatus.usage.rawValue : ExitStatus.failure.rawValue)
        }
    }

    /// Ends the process with `status`, once every audit file it wrote is complete (which may turn a success into a
    /// failure: an access that could not be recorded is not a success).
    private static func exit(_ status: Int32) -> Never {
        Foundation.exit(CommandAudit.closeAll(exitStatus: status))
    }
}
