import CofferTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("coffer secrets run: a command with secrets in its environment, in place of a .env file")
struct SecretsRunCommandTests {
    let directory: TemporaryDirectory
    var storeURL: URL { directory.appending("store") }
    let secret = "sk-run-test-7f3a9c"

    init() throws {
        directory = try TemporaryDirectory()
        let set = try coffer("secrets", "set", "ai/openai", "--value", secret)
        #expect(set.status == 0, "\(set.errorOutput)")
    }

    var environment: [String: String] { CofferCLI.fileStore(storeURL) }

    @discardableResult
    func coffer(_ arguments: String..., environment extra: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try CofferCLI.run(arguments, environment: environment.merging(extra) { $1 })
    }

    @Test("the command sees the secret in its environment; coffer itself prints nothing of it")
    func environmentHoldsTheSecret() throws {
        let outcome = try coffer(
            "secrets", "run", "--env", "OPENAI_API_KEY=ai/openai", "--", "sh", "-c", "echo \"$OPENAI_API_KEY\"")
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output == secret + "\n")
        #expect(!outcome.errorOutput.contains(secret))
    }

    @Test("the secret is not on the command's argument list, neither in /proc/<pid>/cmdline nor in ps")
    func notOnTheCommandLine() throws {
        let outcome = try coffer(
            "secrets", "run", "--env", "OPENAI_API_KEY=ai/openai", "--", "sh", "-c",
            "tr '\\0' ' ' < /proc/$$/cmdline; echo; ps -o args= -p $$; test -n \"$OPENAI_API_KEY\" && echo set")
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output.contains("sh -c"))
        #expect(outcome.output.hasSuffix("set\n"))
        #expect(!outcome.output.contains(secret))
    }

    @Test(
        "coffer exits with the command's status, or 128 + the signal that ended it",
        arguments: [("exit 0", 0), ("exit 7", 7), ("exit 255", 255), ("kill -TERM $$", 143), ("kill -KILL $$", 137)]
            as [(String, Int32)])
    func exitStatusPassesThrough(_ script: String, _ status: Int32) throws {
        let outcome = try coffer("secrets", "run", "--env", "K=ai/openai", "--", "sh", "-c", script)
        #expect(outcome.status == status, "\(outcome.errorOutput)")
    }

    @Test("a command that does not exist exits 127, as in a shell")
    func missingCommand() throws {
        let outcome = try coffer("secrets", "run", "--env", "K=ai/openai", "--", "coffer-no-such-command")
        #expect(outcome.status == 127)
        #expect(outcome.errorOutput.contains("cannot start coffer-no-such-command"))
    }

    @Test(
        "a signal sent to coffer reaches the command, whose status coffer then exits with",
        .timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT, SIGHUP, SIGUSR1])
    func signalsPassThrough(_ signal: Int32) throws {
        // The loop ends by itself (exit 9) so that a signal that never arrives fails the test instead of hanging it.
        let script =
            "trap 'echo caught; exit 3' \(signal); echo ready; i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done; exit 9"
        let (process, output) = try ChildProcess.start(
            try ChildProcess.executable(named: "coffer"),
            ["secrets", "run", "--env", "K=ai/openai", "--", "sh", "-c", script], environment: environment)
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("ready") {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        #expect(String(decoding: seen, as: UTF8.self) == "ready\n")
        kill(process.processIdentifier, signal)
        seen += output.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: seen, as: UTF8.self) == "ready\ncaught\n")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 3)
    }

    @Test("the command inherits no COFFER_* variable (passphrase, store) unless a mapping names it")
    func noCofferVariablesReachTheCommand() throws {
        let outcome = try coffer(
            "secrets", "run", "--env", "OPENAI_API_KEY=ai/openai", "--env", "COFFER_TOKEN=ai/openai", "--", "env",
            environment: ["COFFER_KEY_FILE_UNUSED": "x", "COFFER_RUN_TEST_OTHER": "kept-out", "RUN_TEST_OTHER": "kept"])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let names = Set(outcome.output.split(separator: "\n").map { String($0.prefix { $0 != "=" }) })
        #expect(outcome.output.contains("OPENAI_API_KEY=\(secret)\n"))
        #expect(outcome.output.contains("COFFER_TOKEN=\(secret)\n"))
        #expect(outcome.output.contains("RUN_TEST_OTHER=kept\n"))
        #expect(names.filter { $0.hasPrefix("COFFER_") } == ["COFFER_TOKEN"], "\(names)")
        #expect(!outcome.output.contains("test passphrase"))
    }

    @Test("--clean-env gives the command only PATH, HOME, USER, LANG, TERM, TZ and the mappings")
    func cleanEnvironment() throws {
        let outcome = try coffer(
            "secrets", "run", "--clean-env", "--env", "OPENAI_API_KEY=ai/openai", "--", "/usr/bin/env",
            environment: ["RUN_TEST_OTHER": "dropped", "TZ": "UTC", "HOME": "/tmp"])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let names = Set(outcome.output.split(separator: "\n").map { String($0.prefix { $0 != "=" }) })
        #expect(names.contains("OPENAI_API_KEY") && names.contains("TZ") && names.contains("HOME"))
        #expect(names.isSubset(of: ["PATH", "HOME", "USER", "LANG", "TERM", "TZ", "OPENAI_API_KEY"]), "\(names)")
    }

    @Test("a SIGHUP that coffer was started ignoring (nohup) stays ignored in the command")
    func ignoredHangupStaysIgnored() throws {
        let coffer = try ChildProcess.executable(named: "coffer")
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "trap '' HUP; exec \"$0\" secrets run --env K=ai/openai -- sh -c 'kill -HUP $$; echo survived'",
                coffer.path,
            ], environment: environment)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output == "survived\n")
    }

    @Test("a missing secret exits 1 naming its path, and starts nothing")
    func missingSecretStartsNothing() throws {
        let marker = directory.appending("started")
        let outcome = try coffer(
            "secrets", "run", "--env", "K=ai/openai", "--env", "OTHER=ai/missing", "--", "sh", "-c",
            "touch '\(marker.path)'")
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.contains("no secret at 'ai/missing'"))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        #expect(!outcome.errorOutput.contains(secret))
    }

    @Test("a store that cannot be reached exits 5 and starts nothing")
    func unavailableStore() throws {
        let marker = directory.appending("started")
        let outcome = try coffer(
            "secrets", "run", "--backend", "secret-service", "--env", "K=ai/openai", "--", "sh", "-c",
            "touch '\(marker.path)'", environment: UnusableSecretService.noSessionBus)
        #expect(outcome.status == 5, "\(outcome.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test(
        "with --backend secret-service, run reads the secret from the keyring",
        .enabled(if: SecretServiceEnvironment.isEnabled, "needs a Secret Service (COFFER_TEST_SECRET_SERVICE=1)"))
    func secretService() throws {
        let keyring = [
            "COFFER_BACKEND": "secret-service", "COFFER_SERVICE": "coffer-run-\(UUID().uuidString.lowercased())",
        ]
        #expect(try coffer("secrets", "set", "ai/openai", "--value", "sk-keyring", environment: keyring).status == 0)
        defer { _ = try? coffer("secrets", "delete", "ai/openai", environment: keyring) }
        let outcome = try coffer(
            "secrets", "run", "--env", "OPENAI_API_KEY=ai/openai", "--", "sh", "-c", "echo \"$OPENAI_API_KEY\"",
            environment: keyring)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output == "sk-keyring\n")
        #expect(try coffer("secrets", "run", "--env", "K=ai/none", "--", "true", environment: keyring).status == 1)
    }

    @Test("--env-file maps many variables; '#' comments and blank lines are allowed")
    func environmentFile() throws {
        try coffer("secrets", "set", "db/url", "--value", "postgres://u:p@h/db")
        let map = directory.appending("map.txt")
        try Data("# the app's secrets\n\nOPENAI_API_KEY=ai/openai\n  DATABASE_URL = db/url \r\n".utf8).write(to: map)
        let outcome = try coffer(
            "secrets", "run", "--env-file", map.path, "--", "sh", "-c", "echo \"$OPENAI_API_KEY $DATABASE_URL\"")
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output == "\(secret) postgres://u:p@h/db\n")
    }

    @Test("a bad --env-file line exits 2 naming the line number")
    func badEnvironmentFile() throws {
        let map = directory.appending("map.txt")
        try Data("# ok\nA=ai/openai\nnot a mapping\n".utf8).write(to: map)
        let outcome = try coffer("secrets", "run", "--env-file", map.path, "--", "true")
        #expect(outcome.status == 2)
        #expect(outcome.errorOutput.contains("line 3"))
        try Data("A=ai/openai\n\n9LIVES=ai/openai\n".utf8).write(to: map)
        let badName = try coffer("secrets", "run", "--env-file", map.path, "--", "true")
        #expect(badName.status == 2)
        #expect(badName.errorOutput.contains("line 3"))
    }

    @Test(
        "usage errors exit 2 and start nothing",
        arguments: [
            ["--env", "1BAD=ai/openai", "--", "true"], ["--env", "BAD-NAME=ai/openai", "--", "true"],
            ["--env", "NOEQUALS", "--", "true"], ["--env", "K=../escape", "--", "true"],
            ["--env", "K=ai/openai"], ["--", "true"], ["--env", "K=ai/openai", "--env", "K=ai/openai", "--", "true"],
            ["--env-file", "/nonexistent/map.txt", "--", "true"],
        ])
    func usageErrors(_ arguments: [String]) throws {
        let outcome = try CofferCLI.run(["secrets", "run"] + arguments, environment: environment)
        #expect(outcome.status == 2, "\(arguments): \(outcome.errorOutput)")
        #expect(!outcome.errorOutput.isEmpty)
    }
}
