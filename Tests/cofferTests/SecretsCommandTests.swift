import CofferTestSupport
import Foundation
import Testing

@Suite("coffer secrets, run as a user runs it")
struct SecretsCommandTests {
    let directory: TemporaryDirectory
    var storeURL: URL { directory.appending("store") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Runs `coffer` against the test store with `passphrase` in `COFFER_PASSPHRASE` (unless `nil`).
    @discardableResult
    func coffer(
        _ arguments: String..., passphrase: String? = "test passphrase", input: Data = Data(),
        environment: [String: String] = [:]
    ) throws -> ChildProcess.Outcome {
        try CofferCLI.run(
            arguments, environment: CofferCLI.fileStore(storeURL, passphrase: passphrase).merging(environment) { $1 },
            input: input)
    }

    @Test("set then get returns the value; list shows the paths")
    func roundTrip() throws {
        let set = try coffer("secrets", "set", "ai/openai", "--value", "sk-test-123")
        #expect(set.status == 0)
        #expect(set.errorOutput.contains("created a new encrypted store"))
        #expect(try coffer("secrets", "get", "ai/openai").output == "sk-test-123")
        try coffer("secrets", "set", "database/notion", "--value", "secret_n")
        #expect(try coffer("secrets", "list").output == "ai/openai\ndatabase/notion\n")
        let json = try coffer("secrets", "list", "--json")
        #expect(try JSONDecoder().decode([String].self, from: json.standardOutput) == ["ai/openai", "database/notion"])
    }

    @Test("--stdin stores bytes exactly, binary included, and --json shows non-UTF-8 values as base64")
    func binaryStandardInput() throws {
        let bytes = Data([0, 1, 0xFF, 0xFE, 0x0A, 0xC3, 0x28])
        #expect(try coffer("secrets", "set", "keys/binary", "--stdin", input: bytes).status == 0)
        #expect(try coffer("secrets", "get", "keys/binary").standardOutput == bytes)
        let json = try JSONDecoder().decode(
            [String: String].self, from: try coffer("secrets", "get", "keys/binary", "--json").standardOutput)
        #expect(json["base64"] == bytes.base64EncodedString())
        #expect(json["value"] == nil)
    }

    @Test("a missing item exits 1 with a message; so does deleting one")
    func missingItem() throws {
        try coffer("secrets", "set", "a/b", "--value", "v")
        let get = try coffer("secrets", "get", "a/missing")
        #expect(get.status == 1)
        #expect(get.errorOutput.contains("no secret at 'a/missing'"))
        #expect(try coffer("secrets", "delete", "a/missing").status == 1)
        #expect(try coffer("secrets", "delete", "a/b").status == 0)
        #expect(try coffer("secrets", "get", "a/b").status == 1)
    }

    @Test(
        "usage errors exit 2",
        arguments: [
            ["secrets", "set", "a/b"], ["secrets", "set", "a/b", "--value", "v", "--stdin"], ["secrets", "frobnicate"],
            ["secrets", "get"], ["secrets", "set", "../escape", "--value", "v"], ["secrets", "get", "/etc/passwd"],
            ["secrets", "set", "a/b", "--value", "v", "--cipher", "rot13"],
        ])
    func usageErrors(_ arguments: [String]) throws {
        let outcome = try CofferCLI.run(
            arguments, environment: ["COFFER_STORE_DIR": storeURL.path, "COFFER_PASSPHRASE": "p"])
        #expect(outcome.status == 2, "\(outcome.errorOutput)")
        #expect(!outcome.errorOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: storeURL.appendingPathComponent("items/escape").path))
    }

    @Test("a wrong passphrase exits 3, says what to check, and prints no secret")
    func wrongPassphrase() throws {
        try coffer("secrets", "set", "a/b", "--value", "TOP-SECRET-VALUE")
        let outcome = try coffer("secrets", "get", "a/b", passphrase: "wrong")
        #expect(outcome.status == 3)
        #expect(outcome.errorOutput.contains("passphrase does not unlock"))
        #expect(!(outcome.output + outcome.errorOutput).contains("TOP-SECRET-VALUE"))
    }

    @Test("without a passphrase and without a terminal, the command says how to give one")
    func noPassphrase() throws {
        let outcome = try coffer("secrets", "set", "a/b", "--value", "v", passphrase: nil)
        #expect(outcome.status == 2)
        #expect(outcome.errorOutput.contains("COFFER_PASSPHRASE"))
    }

    @Test("reading from a store that does not exist exits 4 and says how to create one")
    func noStore() throws {
        let outcome = try coffer("secrets", "list")
        #expect(outcome.status == 4)
        #expect(outcome.errorOutput.contains("coffer secrets set"))
        #expect(!FileManager.default.fileExists(atPath: storeURL.path))
    }

    @Test("--passphrase-file uses the file's first line; --key-file unlocks a key-file store")
    func passphraseAndKeyFiles() throws {
        let passphraseFile = directory.appending("passphrase")
        try Data("from file\r\nignored\n".utf8).write(to: passphraseFile)
        try coffer("secrets", "set", "a/b", "--value", "v", "--passphrase-file", passphraseFile.path, passphrase: nil)
        #expect(try coffer("secrets", "get", "a/b", passphrase: "from file").output == "v")

        let keyFile = directory.appending("key")
        try Data((0..<32).map { UInt8($0) }).write(to: keyFile)
        let keyStore = directory.appending("key-store").path
        let set = try coffer(
            "secrets", "set", "k/v", "--value", "w", "--key-file", keyFile.path, "--store", keyStore, passphrase: nil)
        #expect(set.status == 0)
        #expect(try coffer("secrets", "get", "k/v", "--key-file", keyFile.path, "--store", keyStore).output == "w")
    }

    @Test("preflight reports empty values and exits 1 when it finds an error")
    func preflight() throws {
        try coffer("secrets", "set", "good/token", "--value", #"{"token":"abc"}"#)
        #expect(try coffer("secrets", "preflight").status == 0)
        try coffer("secrets", "set", "bad/token", "--value", #"{"token":""}"#)
        let outcome = try coffer("secrets", "preflight", "--json")
        #expect(outcome.status == 1)
        let findings = try JSONDecoder().decode([[String: String]].self, from: outcome.standardOutput)
        #expect(
            findings.contains { $0["kind"] == "empty-token" && $0["account"] == "bad/token" && $0["level"] == "error" })
    }

    @Test("rotate-key keeps every secret readable; change-passphrase switches the passphrase")
    func keyManagement() throws {
        try coffer("secrets", "set", "a/one", "--value", "1")
        try coffer("secrets", "set", "a/two", "--value", "2")
        let rotate = try coffer("secrets", "rotate-key", "--cipher", "chacha20-poly1305")
        #expect(rotate.status == 0)
        #expect(rotate.output.contains("re-encrypted 2 secrets"))
        #expect(try coffer("secrets", "get", "a/two").output == "2")
        let change = try coffer("secrets", "change-passphrase", environment: ["COFFER_NEW_PASSPHRASE": "new one"])
        #expect(change.status == 0)
        #expect(try coffer("secrets", "get", "a/one").status == 3)
        #expect(try coffer("secrets", "get", "a/one", passphrase: "new one").output == "1")
    }

    @Test("rekey moves the store under a new master key: the old header and passphrase open nothing afterwards")
    func rekey() throws {
        try coffer("secrets", "set", "a/one", "--value", "1")
        let header = storeURL.appendingPathComponent("store.json")
        let oldHeader = try Data(contentsOf: header)
        let rekey = try coffer("secrets", "rekey", environment: ["COFFER_NEW_PASSPHRASE": "fresh"])
        #expect(rekey.status == 0, "\(rekey.errorOutput)")
        #expect(rekey.output == "re-encrypted 1 secret under a new master key, protected by the new passphrase\n")
        #expect(try coffer("secrets", "get", "a/one", passphrase: "fresh").output == "1")
        try oldHeader.write(to: header)
        #expect(try coffer("secrets", "get", "a/one").status != 0)
    }

    @Test("a file that rotate-key cannot read is moved to quarantine and named, and the rotation finishes")
    func rotationQuarantine() throws {
        try coffer("secrets", "set", "a/one", "--value", "1")
        let items = storeURL.appendingPathComponent("items")
        try Data("junk".utf8).write(to: items.appendingPathComponent(String(repeating: "f", count: 64) + ".item"))
        let rotate = try coffer("secrets", "rotate-key")
        #expect(rotate.status == 0)
        #expect(rotate.output.contains("re-encrypted 1 secret under a new data key"))
        #expect(
            rotate.errorOutput.contains(
                "moved the unreadable file \(String(repeating: "f", count: 64)).item to quarantine/"))
        #expect(try coffer("secrets", "preflight").status == 0)
    }

    @Test("a tampered item exits 3 for that item while the others still read")
    func tamperedItem() throws {
        try coffer("secrets", "set", "a/victim", "--value", "v")
        let items = storeURL.appendingPathComponent("items")
        let victim = try FileManager.default.contentsOfDirectory(atPath: items.path)[0]
        try coffer("secrets", "set", "a/bystander", "--value", "b")
        var bytes = try Data(contentsOf: items.appendingPathComponent(victim))
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: items.appendingPathComponent(victim))
        #expect(try coffer("secrets", "get", "a/victim").status == 3)
        #expect(try coffer("secrets", "get", "a/bystander").output == "b")
        #expect(try coffer("secrets", "preflight").status == 1)
    }

    @Test("--help exits 0 and documents the exit statuses")
    func help() throws {
        let outcome = try coffer("--help")
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("Exit status"))
    }
}
