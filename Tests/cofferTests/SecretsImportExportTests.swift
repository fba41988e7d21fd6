import CofferTestSupport
import Foundation
import Testing

@Suite("coffer secrets import, export and shell completion")
struct SecretsImportExportTests {
    let directory: TemporaryDirectory
    var storeURL: URL { directory.appending("store") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    var environment: [String: String] { CofferCLI.fileStore(storeURL) }

    @discardableResult
    func coffer(_ arguments: String...) throws -> ChildProcess.Outcome {
        try CofferCLI.run(arguments, environment: environment)
    }

    /// The values a POSIX shell gets from sourcing `file`, for `names`.
    func sourced(_ file: URL, _ names: [String]) throws -> [String] {
        let script =
            "set -a; . '\(file.path)'; for n in \(names.joined(separator: " ")); do eval \"printf '%s\\0' \\\"\\$$n\\\"\"; done"
        let outcome = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        return outcome.output.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// A .env file with the awkward cases: quotes, '#', '=', newlines, `export`, comments.
    static let dotEnv = #"""
        # the app's settings
        export OPENAI_API_KEY=sk-abc123 # a trailing comment
        DATABASE_URL="postgres://u:p=w@h/db?x=1#frag"

        GREETING="line one\nline two \"quoted\" and 'single'"
        LITERAL='no $expansion, no \n escape, a # inside'
        MULTI="first
        second"
        EMPTY=
        """#

    static let expected = [
        "OPENAI_API_KEY": "sk-abc123", "DATABASE_URL": "postgres://u:p=w@h/db?x=1#frag",
        "GREETING": "line one\nline two \"quoted\" and 'single'",
        "LITERAL": #"no $expansion, no \n escape, a # inside"#,
        "MULTI": "first\nsecond", "EMPTY": "",
    ]

    @Test("import then export round-trips values with quotes, '#', '=' and newlines, through coffer and a shell")
    func roundTrip() throws {
        let file = directory.appending("app.env")
        try Data(Self.dotEnv.utf8).write(to: file)
        let imported = try coffer("secrets", "import", file.path, "--prefix", "app/")
        #expect(imported.status == 0, "\(imported.errorOutput)")
        #expect(imported.output == "imported 6, unchanged 0, in conflict 0\n")
        #expect(try coffer("secrets", "get", "app/MULTI").output == "first\nsecond")

        let exported = try coffer("secrets", "export", "--prefix", "app/")
        #expect(exported.status == 0, "\(exported.errorOutput)")
        #expect(exported.errorOutput.isEmpty)
        let exportFile = directory.appending("exported.env")
        try exported.standardOutput.write(to: exportFile)
        let names = Self.expected.keys.sorted()
        #expect(try sourced(exportFile, names) == names.map { Self.expected[$0]! })

        let json = try coffer("secrets", "export", "--format", "json", "--prefix", "app/")
        #expect(try JSONDecoder().decode([String: String].self, from: json.standardOutput) == Self.expected)

        let again = try coffer("secrets", "import", exportFile.path, "--prefix", "app/")
        #expect(again.status == 0)
        #expect(again.output == "imported 0, unchanged 6, in conflict 0\n")
    }

    @Test("--map places names; unmapped names are skipped and named; export names paths or NAME=path")
    func mapping() throws {
        let file = directory.appending("app.env")
        try Data("A=one\nB=two\nC=three\n".utf8).write(to: file)
        let outcome = try coffer("secrets", "import", file.path, "--map", "A=ai/a", "--map", "B=db/b")
        #expect(outcome.status == 0)
        #expect(outcome.output == "imported 2, unchanged 0, in conflict 0, skipped 1\n")
        #expect(outcome.errorOutput.contains("skipped (not mapped): C"))
        #expect(try coffer("secrets", "list").output == "ai/a\ndb/b\n")
        let exported = try coffer("secrets", "export", "ai/a", "NAME_B=db/b")
        #expect(exported.output == "AI_A='one'\nNAME_B='two'\n")
    }

    @Test("a path holding another value is a conflict: named, not overwritten, exit 4; --overwrite replaces it")
    func conflicts() throws {
        try coffer("secrets", "set", "app/TOKEN", "--value", "old-value-1")
        let file = directory.appending("app.env")
        try Data("TOKEN=new-value-2\nOTHER=x\n".utf8).write(to: file)
        let outcome = try coffer("secrets", "import", file.path, "--prefix", "app/")
        #expect(outcome.status == 4)
        #expect(outcome.output == "imported 1, unchanged 0, in conflict 1\n")
        #expect(outcome.errorOutput.contains("TOKEN"))
        #expect(!(outcome.output + outcome.errorOutput).contains("value-"))
        #expect(try coffer("secrets", "get", "app/TOKEN").output == "old-value-1")
        let overwrite = try coffer("secrets", "import", file.path, "--prefix", "app/", "--overwrite")
        #expect(overwrite.status == 0)
        #expect(overwrite.output == "imported 1, unchanged 1, in conflict 0\n")
        #expect(try coffer("secrets", "get", "app/TOKEN").output == "new-value-2")
    }

    @Test(
        "a malformed .env exits 2 naming the line, never the value, and saves nothing",
        arguments: [
            ("A=ok\nB=\"unterminated hunter2\n", "line 2"), ("A=ok\n\nnot-an-assignment hunter2\n", "line 3"),
            ("9X=hunter2\n", "line 1"), ("A='hunter2' trailing\n", "line 1"),
        ])
    func malformed(_ text: String, _ line: String) throws {
        let file = directory.appending("bad.env")
        try Data(text.utf8).write(to: file)
        let outcome = try coffer("secrets", "import", file.path, "--prefix", "app/")
        #expect(outcome.status == 2)
        #expect(outcome.errorOutput.contains(line), "\(outcome.errorOutput)")
        #expect(!outcome.errorOutput.contains("hunter2"))
        #expect(!FileManager.default.fileExists(atPath: storeURL.path))
    }

    @Test("import and export refuse a missing destination or selection (2) and a missing secret (1)")
    func badArguments() throws {
        let file = directory.appending("app.env")
        try Data("A=1\n".utf8).write(to: file)
        #expect(try coffer("secrets", "import", file.path).status == 2)
        #expect(try coffer("secrets", "import", directory.appending("none.env").path, "--prefix", "a/").status == 2)
        #expect(try coffer("secrets", "import", file.path, "--map", "A=../x").status == 2)
        try coffer("secrets", "set", "a/b", "--value", "v")
        #expect(try coffer("secrets", "export").status == 2)
        #expect(try coffer("secrets", "export", "--format", "yaml", "a/b").status == 2)
        #expect(try coffer("secrets", "export", "a/missing").status == 1)
    }

    @Test(
        "export warns on standard error when standard output is a terminal, and not otherwise",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a pty"))
    func terminalWarning() throws {
        try coffer("secrets", "set", "a/b", "--value", "v")
        let piped = try coffer("secrets", "export", "a/b")
        #expect(piped.output == "A_B='v'\n")
        #expect(!piped.errorOutput.contains("terminal"))
        let command = "'\(try ChildProcess.executable(named: "coffer").path)' secrets export a/b 2>&1"
        let onTerminal = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], environment: environment)
        #expect(onTerminal.status == 0, "\(onTerminal.errorOutput)")
        #expect(onTerminal.output.contains("warning: printing secrets to a terminal"))
        #expect(onTerminal.output.contains("A_B='v'"))
    }

    @Test("completion scripts generate for bash, zsh and fish", arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        let outcome = try coffer("--generate-completion-script", shell)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("secrets"))
        #expect(outcome.output.contains("---completion secrets get"))
    }

    @Test("account paths complete from the store (paths, never values); a locked store offers nothing")
    func accountCompletion() throws {
        try coffer("secrets", "set", "ai/openai", "--value", "value-one")
        try coffer("secrets", "set", "app/token", "--value", "value-two")
        let get = try coffer(
            "---completion", "secrets", "get", "--", "positional@0", "3", "2", "coffer", "secrets", "get", "ap")
        #expect(get.status == 0)
        #expect(get.output == "app/token\n")
        let run = try coffer(
            "---completion", "secrets", "run", "--", "--env", "4", "2", "coffer", "secrets", "run", "--env", "K=")
        #expect(run.output == "K=ai/openai\nK=app/token\n")
        #expect(!(get.output + run.output).contains("value-"))
        let locked = try ChildProcess.run(
            try ChildProcess.executable(named: "coffer"),
            ["---completion", "secrets", "get", "--", "positional@0", "3", "0", "coffer", "secrets", "get", ""],
            environment: ["COFFER_STORE_DIR": storeURL.path])
        #expect(locked.output.isEmpty)
    }

    @Test("the root --help lists the exit statuses, 5 (store unavailable) included, and the completion scripts")
    func rootHelp() throws {
        let outcome = try coffer("--help")
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("5 the store is unavailable or locked"))
        #expect(outcome.output.contains("--generate-completion-script"))
    }
}
