import CofferTestSupport
import Foundation
import Testing

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

    /// Runs curl with `arguments` (as the README does); returns the body and the HTTP status.
    static func curl(_ arguments: [String]) throws -> (body: Data, status: Int) {
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"), ["-sS", "-w", "\n%{http_code}"] + arguments)
        try #require(outcome.status == 0, "\(outcome.errorOutput)")
        var lines = outcome.standardOutput.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let status = Int(String(decoding: lines.removeLast(), as: UTF8.self)) ?? 0
        return (Data(lines.joined(separator: [UInt8(ascii: "\n")])), status)
    }
}

/// A data directory of its own for `coffer admin`, with a demo client, tag and pass when seeded.
struct AdminWorld {
    let directory: TemporaryDirectory
    let coffer: URL
    var dataDirectory: String { directory.appending("data").path }

    init() throws {
        directory = try TemporaryDirectory()
        coffer = try CofferCLI.executable()
    }

    /// Runs `coffer admin` with `arguments` over the world's data directory.
    func admin(_ arguments: String...) throws -> ChildProcess.Outcome {
        try ChildProcess.run(coffer, ["admin"] + arguments + ["--data-dir", dataDirectory])
    }

    /// A client with a demo tag (and its pass) made by seed-demo: the client, the tag's reference and an API token.
    func seed() throws -> (client: String, tag: String, token: String) {
        let seeded = try admin("seed-demo", "--json")
        try #require(seeded.status == 0, "\(seeded.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: seeded.standardOutput) as? [String: Any])
        return (
            try #require(object["client_id"] as? String), try #require(object["tag_id"] as? String),
            try #require(object["api_token"] as? String)
        )
    }
}
