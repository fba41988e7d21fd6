import CofferTestSupport
import Foundation

/// The built `coffer`, run the way a user runs it.
enum CofferCLI {
    /// The `coffer` executable next to the tests.
    static func executable() throws -> URL { try ChildProcess.executable(named: "coffer") }

    /// Runs `coffer` with `arguments`, `environment` (over the tests' own, minus Coffer's variables) and `input`,
    /// and waits for it to end.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], input: Data = Data()) throws
        -> ChildProcess.Outcome
    {
        try ChildProcess.run(try executable(), arguments, environment: environment, input: input)
    }

    /// The variables that point `coffer secrets` at the encrypted file store in `store`, unlocked by `passphrase`
    /// (none when nil), with the weak key derivation that only debug builds honour.
    static func fileStore(_ store: URL, passphrase: String? = "test passphrase") -> [String: String] {
        var variables = ["COFFER_STORE_DIR": store.path, "COFFER_INSECURE_TEST_PBKDF2_ITERATIONS": "1000"]
        if let passphrase { variables["COFFER_PASSPHRASE"] = passphrase }
        return variables
    }
}
