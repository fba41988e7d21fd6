import Foundation

/// The real Secret Service of the session bus: `.ci/run` starts gnome-keyring under `dbus-run-session`, unlocked,
/// and sets `COFFER_TEST_SECRET_SERVICE=1`; without it the tests that need a keyring are skipped.
public enum SecretServiceEnvironment {
    /// Whether a Secret Service is there to test against.
    public static let isEnabled = ProcessInfo.processInfo.environment["COFFER_TEST_SECRET_SERVICE"] == "1"
    /// libsecret's command-line tool, the other side of the interoperability tests.
    public static let secretTool = URL(fileURLWithPath: "/usr/bin/secret-tool")

    /// A service name no other test uses.
    public static func uniqueService() -> String { "coffer-test-\(UUID().uuidString.lowercased())" }

    /// Runs `secret-tool` with `arguments`, feeding `input` to it.
    public static func secretTool(_ arguments: String..., input: Data = Data()) throws -> ChildProcess.Outcome {
        try ChildProcess.run(secretTool, arguments, input: input)
    }
}
