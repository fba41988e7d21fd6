import CofferTestSupport
import Foundation
import Testing

@Suite("coffer secrets --audit-file records each access; audit show lists them, audit verify finds tampering")
struct SecretsAuditCommandTests {
    let directory: TemporaryDirectory
    var auditURL: URL { directory.appending("audit.jsonl") }

    static let secret = "sk-live-audit-0123456789-never-in-the-file"

    init() throws {
        directory = try TemporaryDirectory()
    }

    var environment: [String: String] {
        CofferCLI.fileStore(directory.appending("store")).merging(["COFFER_AUDIT_FILE": auditURL.path]) { $1 }
    }

    @discardableResult
    func coffer(_ arguments: [String], environment extra: [String: String] = [:], input: Data = Data()) throws
        -> ChildProcess.Outcome
    {
        try CofferCLI.run(arguments, environment: environment.merging(extra) { $1 }, input: input)
    }

    /// Saves the secret, reads it, misses one, lists, and runs a command with it: five accesses.
    func makeAccesses() throws {
        #expect(try coffer(["secrets", "set", "ai/openai", "--stdin"], input: Data(Self.secret.utf8)).status == 0)
        #expect(try coffer(["secrets", "get", "ai/openai"]).output == Self.secret)
        #expect(try coffer(["secrets", "get", "ai/missing"]).status == 1)
        #expect(try coffer(["secrets", "list"]).status == 0)
        let run = try coffer(
            ["secrets", "run", "--env", "KEY=ai/openai", "--", "sh", "-c", "test -n \"$KEY\""],
            environment: ["COFFER_AUDIT_CALLER": "deploy.sh"])
        #expect(run.status == 0, "\(run.errorOutput)")
    }

    func lines() throws -> [String] {
        try String(contentsOf: auditURL, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test(
        "an emptied audit file fails verify (exit 3) and blocks writes until it is moved aside and reset"
    )
    func emptiedFile() throws {
        try makeAccesses()
        try Data().write(to: auditURL)
        let verified = try coffer(["secrets", "audit", "verify"])
        #expect(verified.status == 3, "\(verified.output)")
        #expect(verified.output.contains("records 1–5 were removed"), "\(verified.output)")
        let refused = try coffer(["secrets", "get", "ai/openai"])
        #expect(refused.status == 3)
        #expect(refused.errorOutput.contains("is not continued"), "\(refused.errorOutput)")
        #expect(try Data(contentsOf: auditURL).isEmpty)
        try FileManager.default.removeItem(at: auditURL)
        #expect(try coffer(["secrets", "audit", "verify"]).status == 3, "a deleted file fails too")
        let reset = try coffer(["secrets", "audit", "reset"])
        #expect(reset.status == 0, "\(reset.errorOutput)")
        #expect(try coffer(["secrets", "get", "ai/openai"]).output == Self.secret)
        #expect(try coffer(["secrets", "audit", "verify"]).status == 0)
    }

    @Test("each command's accesses are listed with operation, path, outcome and caller, and never a value")
    func show() throws {
        try makeAccesses()
        let shown = try coffer(["secrets", "audit", "show"])
        #expect(shown.status == 0, "\(shown.errorOutput)")
        let rows = shown.output.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
        #expect(rows.map { $0[2] } == ["save", "read", "read", "list", "read"])
        #expect(rows.map { $0[3] } == ["ai/openai", "ai/openai", "ai/missing", "-", "ai/openai"])
        #expect(rows.map { $0[4] } == ["saved", "found", "missing", "found", "found"])
        #expect(shown.output.contains("coffer secrets get") && shown.output.contains("deploy.sh"))

        let file = try Data(contentsOf: auditURL)
        #expect(file.range(of: Data(Self.secret.utf8)) == nil)
        #expect(!shown.output.contains(Self.secret))
        let attributes = try FileManager.default.attributesOfItem(atPath: auditURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("show filters by path (and below), outcome and time, and prints JSON Lines")
    func showFilters() throws {
        try makeAccesses()
        let json = try coffer(["secrets", "audit", "show", "--json", "--account", "ai"])
        let objects = try json.output.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(objects.count == 4)
        #expect(objects.allSatisfy { ($0["account"] as? String)?.hasPrefix("ai/") == true && $0["seq"] is Int })
        #expect(objects.first?["duration_us"] is Int && objects.first?["time"] is String)

        let missing = try coffer(["secrets", "audit", "show", "--json", "--outcome", "missing"])
        #expect(missing.output.split(separator: "\n").count == 1)
        #expect(try coffer(["secrets", "audit", "show", "--since", "1h"]).output.split(separator: "\n").count == 6)
        #expect(try coffer(["secrets", "audit", "show", "--since", "2999-01-01"]).output.isEmpty)
        let bad = try coffer(["secrets", "audit", "show", "--since", "yesterday"])
        #expect(bad.status == 2 && bad.errorOutput.contains("is not a time"))
    }

    @Test("verify says intact for an untouched file and exits 0")
    func verifyIntact() throws {
        try makeAccesses()
        let verified = try coffer(["secrets", "audit", "verify"])
        #expect(verified.status == 0, "\(verified.errorOutput)")
        #expect(verified.output.hasPrefix("intact: 5 records"))
        #expect(try lines().count == 5, "verify must not add records of its own")
    }

    @Test("verify exits 3 and names the line of an edited, a removed and a reordered record")
    func verifyTampered() throws {
        try makeAccesses()
        var lines = try lines()
        lines[2] = lines[2].replacingOccurrences(of: "\"missing\"", with: "\"found\"")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: auditURL)
        var verified = try coffer(["secrets", "audit", "verify"])
        #expect(verified.status == 3)
        #expect(verified.output.contains("line 3 (record 3) was edited"))
        #expect(verified.errorOutput.contains("tampered with: 1 problem found"))

        lines = try self.lines()
        lines.remove(at: 2)
        lines.swapAt(0, 1)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: auditURL)
        verified = try coffer(["secrets", "audit", "verify", "--json"])
        #expect(verified.status == 3)
        let report = try #require(try JSONSerialization.jsonObject(with: verified.standardOutput) as? [String: Any])
        let kinds = (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.sorted() == ["removed", "reordered"])
        #expect(report["intact"] as? Bool == false)
    }

    @Test("verify finds lines cut from the end through the checkpoint kept in the store")
    func verifyTruncated() throws {
        try makeAccesses()
        let lines = try lines()
        try Data((lines.prefix(3).joined(separator: "\n") + "\n").utf8).write(to: auditURL)
        let verified = try coffer(["secrets", "audit", "verify"])
        #expect(verified.status == 3)
        #expect(verified.output.contains("records 4–5 were removed from the end"))
    }

    @Test("eight processes reading at once extend one chain, and each access is recorded once")
    func concurrentProcesses() async throws {
        #expect(try coffer(["secrets", "set", "ai/openai", "--stdin"], input: Data(Self.secret.utf8)).status == 0)
        let executable = try ChildProcess.executable(named: "coffer")
        let environment = environment
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await ChildProcess.runDetached(
                        executable, ["secrets", "get", "ai/openai"], environment: environment
                    ).status
                }
            }
            for try await status in group { #expect(status == 0) }
        }
        let verified = try coffer(["secrets", "audit", "verify"])
        #expect(verified.status == 0, "\(verified.output)")
        #expect(verified.output.hasPrefix("intact: 9 records"))
    }

    @Test("a key rotation and a migration are recorded as whole-store operations")
    func wholeStore() throws {
        try makeAccesses()
        #expect(try coffer(["secrets", "rotate-key"]).status == 0)
        let shown = try coffer(["secrets", "audit", "show", "--json"])
        let last = try #require(shown.output.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["operation"] as? String == "rotate" && object["account"] == nil)
        #expect(try coffer(["secrets", "audit", "verify"]).status == 0, "the key survives rotation")
    }

    @Test("refused: an audit key in the memory store, a symbolic link as the file, and a store without the key")
    func refusals() throws {
        let memory = try coffer(["secrets", "list", "--backend", "memory"])
        #expect(memory.status == 2 && memory.errorOutput.contains("memory store"))

        try makeAccesses()
        let link = directory.appending("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory.appending("target"))
        let linked = try coffer(["secrets", "list", "--audit-file", link.path])
        #expect(linked.status == 2 && linked.errorOutput.contains("not a regular file"))

        let otherStore = ["COFFER_STORE_DIR": directory.appending("other").path]
        let unaudited = otherStore.merging(["COFFER_AUDIT_FILE": ""]) { $1 }
        #expect(try coffer(["secrets", "set", "x/y", "--value", "v"], environment: unaudited).status == 0)
        let lost = try coffer(["secrets", "get", "x/y"], environment: otherStore)
        #expect(lost.status == 3 && lost.errorOutput.contains("no audit key"))
        #expect(try lines().count == 5, "nothing was appended under a new key")
        let unverifiable = try coffer(["secrets", "audit", "verify"], environment: otherStore)
        #expect(unverifiable.status == 3)
    }

    @Test("without --audit-file or $COFFER_AUDIT_FILE nothing is recorded, and audit show says what to give")
    func off() throws {
        let plain = ["COFFER_AUDIT_FILE": ""]
        #expect(try coffer(["secrets", "set", "a/b", "--value", "v"], environment: plain).status == 0)
        #expect(!FileManager.default.fileExists(atPath: auditURL.path))
        let shown = try coffer(["secrets", "audit", "show"], environment: plain)
        #expect(shown.status == 2 && shown.errorOutput.contains("--audit-file"))
    }
}
