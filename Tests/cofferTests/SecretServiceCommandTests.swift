import CofferTestSupport
import Foundation
import Testing

/// Environments in which `coffer` cannot use a Secret Service.
enum UnusableSecretService {
    /// No session bus to reach (and no X display to start one on).
    static let noSessionBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/coffer-bus", "DISPLAY": ""]
    /// libsecret cannot be loaded, as on a machine that never installed it.
    static let noLibSecret = ["COFFER_LIBSECRET": "/nonexistent/libsecret-1.so.0"]
}

@Suite("coffer secrets --backend secret-service, against real keyrings")
struct SecretServiceCommandTests {
    let service = "coffer-cli-\(UUID().uuidString.lowercased())"

    /// The keyring backend under this test's own service.
    var keyringEnvironment: [String: String] { ["COFFER_BACKEND": "secret-service", "COFFER_SERVICE": service] }

    func coffer(_ arguments: String..., environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try coffer(arguments, environment: environment)
    }

    func coffer(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Outcome {
        try CofferCLI.run(arguments, environment: keyringEnvironment.merging(environment) { $1 })
    }

    @Test(
        "set, get, list, delete in the session's keyring; secret-tool reads what coffer wrote; a miss exits 1",
        .enabled(if: SecretServiceEnvironment.isEnabled, "needs a Secret Service (COFFER_TEST_SECRET_SERVICE=1)"))
    func roundTrip() throws {
        #expect(try coffer("secrets", "set", "ai/openai", "--value", "sk-cli").status == 0)
        #expect(try coffer("secrets", "get", "ai/openai").output == "sk-cli")
        #expect(try coffer("secrets", "list").output == "ai/openai\n")
        let lookup = try SecretServiceEnvironment.secretTool("lookup", "service", service, "account", "ai/openai")
        #expect(lookup.output == "sk-cli")
        let missing = try coffer("secrets", "get", "ai/none")
        #expect(missing.status == 1)
        #expect(try coffer("secrets", "delete", "ai/openai").status == 0)
        #expect(try coffer("secrets", "get", "ai/openai").status == 1)
    }

    @Test(
        "migrate --from file --to secret-service: progress, summary, items in secret-tool; a rerun is a no-op",
        .enabled(if: SecretServiceEnvironment.isEnabled, "needs a Secret Service (COFFER_TEST_SECRET_SERVICE=1)"))
    func migrateFromFile() throws {
        let directory = try TemporaryDirectory()
        let file = CofferCLI.fileStore(directory.appending("store")).merging(["COFFER_BACKEND": "file"]) { $1 }
        let values = (0..<120).map { "item/\($0)" }
        for path in values {
            #expect(try coffer("secrets", "set", path, "--value", "v-\(path)", environment: file).status == 0)
        }
        let migrated = try coffer("secrets", "migrate", "--from", "file", "--to", "secret-service", environment: file)
        #expect(migrated.status == 0, "\(migrated.errorOutput)")
        #expect(migrated.output == "migrated 120, already there 0, conflicts 0\n")
        #expect(migrated.errorOutput.contains("100/120\n120/120\n"))
        let lookup = try SecretServiceEnvironment.secretTool("lookup", "service", service, "account", "item/42")
        #expect(lookup.output == "v-item/42")

        let again = try coffer(
            "secrets", "migrate", "--from", "file", "--to", "secret-service", "--delete-source", environment: file)
        #expect(again.output == "migrated 0, already there 120, conflicts 0\n")
        #expect(try coffer("secrets", "list", environment: file).output.isEmpty)
        #expect(try coffer("secrets", "list").output.split(separator: "\n").count == 120)

        #expect(try coffer("secrets", "set", "item/7", "--value", "changed", environment: file).status == 0)
        let conflict = try coffer("secrets", "migrate", "--from", "file", "--to", "secret-service", environment: file)
        #expect(conflict.status == 4)
        #expect(conflict.errorOutput.contains("item/7"))
        #expect(try coffer("secrets", "get", "item/7").output == "v-item/7", "the keyring's copy is left alone")
        _ = try SecretServiceEnvironment.secretTool("clear", "service", service)
    }

    @Test("--backend overrides $COFFER_BACKEND, and a bad $COFFER_BACKEND is a usage error")
    func choosingBackends() throws {
        let memory = try coffer("secrets", "get", "a/b", "--backend", "memory")
        #expect(memory.status == 1, "\(memory.errorOutput)")
        let bad = try coffer("secrets", "list", environment: ["COFFER_BACKEND": "floppy"])
        #expect(bad.status == 2)
        #expect(bad.errorOutput.contains("auto, file, secret-service, memory"))
        let rotate = try coffer("secrets", "rotate-key")
        #expect(rotate.status == 2)
        #expect(rotate.errorOutput.contains("encrypted file store"))
    }

    @Test(
        "--backend auto: the keyring when one answers, and says so",
        .enabled(if: SecretServiceEnvironment.isEnabled, "needs a Secret Service"))
    func autoWithKeyring() throws {
        let set = try coffer("secrets", "set", "auto/item", "--value", "v", "--backend", "auto")
        #expect(set.status == 0, "\(set.errorOutput)")
        #expect(set.errorOutput.contains("using the secret-service store"))
        #expect(try coffer("secrets", "get", "auto/item").output == "v")
        #expect(try coffer("secrets", "delete", "auto/item").status == 0)
    }

    @Test(
        "--backend auto without a usable Secret Service: the encrypted file store (passphrase), saying why",
        arguments: [
            (UnusableSecretService.noSessionBus, "using the encrypted-file store: "),
            (UnusableSecretService.noLibSecret, "using the encrypted-file store: libsecret could not be loaded"),
        ])
    func autoWithoutKeyring(_ unusable: [String: String], _ note: String) throws {
        let directory = try TemporaryDirectory()
        let environment = unusable.merging(CofferCLI.fileStore(directory.appending("store"), passphrase: "pass")) { $1 }
            .merging(["COFFER_BACKEND": "auto"]) { $1 }
        let set = try coffer("secrets", "set", "auto/item", "--value", "v", environment: environment)
        #expect(set.status == 0, "\(set.errorOutput)")
        #expect(set.errorOutput.contains(note))
        #expect(try coffer("secrets", "get", "auto/item", environment: environment).output == "v")
        let file = environment.merging(["COFFER_BACKEND": "file"]) { $1 }
        #expect(try coffer("secrets", "get", "auto/item", environment: file).output == "v")
    }

    @Test("without libsecret installed: --backend secret-service exits 5 naming the package to install")
    func secretServiceWithoutLibSecret() throws {
        for arguments in [["secrets", "get", "a/b"], ["secrets", "set", "a/b", "--value", "v"], ["secrets", "list"]] {
            let outcome = try coffer(arguments, environment: UnusableSecretService.noLibSecret)
            #expect(outcome.status == 5, "\(arguments): \(outcome.errorOutput)")
            #expect(outcome.errorOutput.contains("libsecret could not be loaded"))
            #expect(outcome.errorOutput.contains("apt-get install libsecret-1-0"))
        }
    }

    @Test(
        "with no session bus, every command exits 5 at once and says the Secret Service is unavailable",
        .timeLimit(.minutes(1)))
    func noSessionBus() throws {
        for arguments in [["secrets", "get", "a/b"], ["secrets", "set", "a/b", "--value", "v"], ["secrets", "list"]] {
            let outcome = try coffer(arguments, environment: UnusableSecretService.noSessionBus)
            #expect(outcome.status == 5, "\(arguments): \(outcome.errorOutput)")
            #expect(outcome.errorOutput.contains("unavailable"))
        }
    }

    @Test(
        "a Secret Service without a default collection: exit 5, saying there is none and how to make one",
        .enabled(if: SecretServiceEnvironment.isEnabled, "needs dbus-daemon and gnome-keyring"), .timeLimit(.minutes(1))
    )
    func noDefaultCollection() throws {
        let outcome = try runInPrivateKeyring(
            unlocked: false,
            """
            "$coffer" secrets get app/token 2>&1; echo "get=$?"
            "$coffer" secrets set app/token --value v 2>&1; echo "set=$?"
            """)
        #expect(outcome.output.contains("get=5"), "\(outcome.output)")
        #expect(outcome.output.contains("set=5"), "\(outcome.output)")
        #expect(outcome.output.contains("has no default collection"), "\(outcome.output)")
    }

    /// Runs `body` (a shell script; `$coffer` is the built coffer, `$work` a scratch directory) against a
    /// gnome-keyring of its own on a D-Bus session bus of its own, so that the session's keyring is untouched.
    /// `unlocked` starts it with a login keyring (the default collection); without, it has none. The script starts
    /// the bus itself: `dbus-run-session` started from the test process does not notice its child's exit.
    func runInPrivateKeyring(unlocked: Bool, _ body: String) throws -> ChildProcess.Outcome {
        let directory = try TemporaryDirectory()
        let script = directory.appending("keyring.sh")
        let start =
            unlocked
            ? "printf '%s' test-password | gnome-keyring-daemon --foreground --unlock --components=secrets"
            : "gnome-keyring-daemon --foreground --components=secrets </dev/null"
        try """
        coffer=$1
        work=$2
        mkdir -m 700 "$work/data" "$work/run"
        dbus-daemon --session --nofork --print-address=3 3>"$work/bus" >/dev/null 2>&1 &
        bus=$!
        while [ ! -s "$work/bus" ]; do sleep 0.05; done
        DBUS_SESSION_BUS_ADDRESS=$(cat "$work/bus")
        export DBUS_SESSION_BUS_ADDRESS
        export XDG_DATA_HOME="$work/data" XDG_RUNTIME_DIR="$work/run"
        \(start) >/dev/null 2>&1 &
        keyring=$!
        trap 'kill $keyring $bus 2>/dev/null' EXIT
        gdbus wait --session --timeout 10 org.freedesktop.secrets
        \(body)
        """.write(to: script, atomically: true, encoding: .utf8)
        return try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            [script.path, try ChildProcess.executable(named: "coffer").path, directory.url.path],
            environment: keyringEnvironment)
    }

    /// A keyring of its own, locked halfway: the session's keyring stays unlocked for the other tests.
    @Test(
        "a locked keyring: reads, misses, writes, deletes and lists exit 5, saying so; nothing is lost",
        .enabled(if: SecretServiceEnvironment.isEnabled, "needs dbus-daemon and gnome-keyring"), .timeLimit(.minutes(1))
    )
    func lockedKeyring() throws {
        let outcome = try runInPrivateKeyring(
            unlocked: true,
            """
            "$coffer" secrets set app/token --value before-lock; echo "set=$?"
            gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets \\
                --method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/aliases/default']" >/dev/null
            for command in "get app/token" "get app/missing" "set app/token --value after-lock" "delete app/token" "list"; do
                "$coffer" secrets $command 2>"$work/err"; echo "$command=$? $(cat "$work/err")"
            done
            secret-tool search --all service "$COFFER_SERVICE" account app/token 2>/dev/null | grep -c '^label'
            """)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "set=0", "\(outcome.output)\(outcome.errorOutput)")
        for command in [
            "get app/token", "get app/missing", "set app/token --value after-lock", "delete app/token", "list",
        ] {
            let line = lines.first { $0.hasPrefix("\(command)=") }
            #expect(line?.hasPrefix("\(command)=5 ") == true, "\(line ?? "no line for \(command)")")
            #expect(line?.contains("locked") == true, "\(line ?? "")")
        }
        #expect(lines.last == "1", "the item is still there: \(outcome.output)")
    }
}
