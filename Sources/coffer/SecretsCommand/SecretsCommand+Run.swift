import ArgumentParser
import Foundation
import Secrets
import SecretsAudit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SecretsCommand {
    /// `coffer secrets run --env NAME=account/path … -- command args…`: a `.env` file that never touches the disk.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run a command with secrets in its environment.",
            discussion: """
                Each --env NAME=account/path (or line of --env-file, with '#' comments and blank lines) puts the \
                secret at account/path in the command's environment as NAME; the values are never on its argument \
                list and coffer prints none. The command inherits standard input, output and error; SIGINT, \
                SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2 sent to coffer reach it, and coffer exits with its \
                status (128 + the signal's number when a signal ended it; 127 when the command is not found, 126 when it \
                cannot be run). A missing secret exits 1 and a locked \
                or unreachable store 5, both before anything starts. The command gets coffer's environment less \
                every COFFER_* variable (the store's passphrase and key file among them) unless a mapping names it; \
                with --clean-env, only PATH, HOME, USER, LANG, TERM, TZ and the mappings.
                """)

        @OptionGroup var options: StoreOptions
        @Option(
            name: .customLong("env"),
            help: ArgumentHelp("Put the secret at account/path in the environment as NAME.", valueName: "NAME=path"),
            completion: .custom(AccountCompletion.completeMapping))
        var mappings: [String] = []
        @Option(help: "Read NAME=account/path lines from this file.") var envFile: String?
        @Flag(help: "Give the command only PATH, HOME, USER, LANG, TERM, TZ and the mapped secrets.")
        var cleanEnv = false
        @Argument(parsing: .postTerminator, help: "The command and its arguments, after `--`.")
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else { throw ValidationError("give the command to run after `--`") }
            guard !mappings.isEmpty || envFile != nil else {
                throw ValidationError("give at least one --env NAME=account/path or an --env-file")
            }
        }

        func run() throws {
            var variables = try mappings.map { try SecretMapping(parsing: $0, source: "--env") }
            if let envFile { variables += try SecretMapping.read(file: envFile) }
            try SecretMapping.checkUnique(variables)
            let store = try options.openStore(create: false)
            var environment = Self.inheritedEnvironment(ProcessInfo.processInfo.environment, clean: cleanEnv)
            for variable in variables {
                guard let data = try CommandFailure.mapping({ try store.readData(account: variable.path) }) else {
                    throw CommandFailure(
                        "no secret at '\(variable.path)' in service '\(store.service)' (for "
                            + "\(variable.name)); nothing was started", status: .notFound)
                }
                guard let value = String(data: data, encoding: .utf8), !value.utf8.contains(0) else {
                    throw CommandFailure(
                        "the secret at '\(variable.path)' (for \(variable.name)) is not text without NUL bytes, so "
                            + "it cannot go into an environment variable", status: .failure)
                }
                environment[variable.name] = value
            }
            throw ExitCode(try ChildLauncher.run(command, environment: environment))
        }

        /// The variables `--clean-env` keeps.
        static let cleanEnvironmentNames: Swift.Set = ["PATH", "HOME", "USER", "LANG", "TERM", "TZ"]

        /// What the command inherits of coffer's own environment, before the mappings are added: never a
        /// `COFFER_*` variable (the store's passphrase, key file and audit settings), and with `clean` only
        /// ``cleanEnvironmentNames``.
        static func inheritedEnvironment(_ environment: [String: String], clean: Bool) -> [String: String] {
            environment.filter { name, _ in
                clean ? cleanEnvironmentNames.contains(name) : !name.hasPrefix("COFFER_")
            }
        }
    }
}

/// One `NAME=account/path` of `secrets run --env` or `--env-file`.
struct SecretMapping: Equatable {
    /// The environment variable's name.
    let name: String
    /// The secret's path in the store.
    let path: String

    /// Parses `NAME=account/path`; `source` names where it came from in errors (never a value).
    init(parsing text: String, source: String) throws {
        guard let equals = text.firstIndex(of: "=") else {
            throw CommandFailure("\(source): expected NAME=account/path", status: .usage)
        }
        name = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
        path = String(text[text.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        guard Self.isValidName(name) else {
            throw CommandFailure(
                "\(source): '\(name)' is not a variable name (letters, digits and '_', not starting with a digit)",
                status: .usage)
        }
        do {
            try SecretPath.validate(path: path)
        } catch let error as SecretsError {
            throw CommandFailure("\(source): \(error.description)", status: .usage)
        }
    }

    /// Whether `name` matches `[A-Za-z_][A-Za-z0-9_]*`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first == "_" || first.properties.isAlphabetic
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
        }
    }

    /// The mappings of an `--env-file`: `NAME=account/path` lines, `#` comments and blank lines.
    static func read(file: String) throws -> [SecretMapping] {
        guard let data = FileManager.default.contents(atPath: StoreOptions.absoluteURL(file).path) else {
            throw CommandFailure("cannot read the --env-file \(file)", status: .usage)
        }
        var mappings: [SecretMapping] = []
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        for (index, line) in text.split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let text = line.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if text.isEmpty || text.hasPrefix("#") { continue }
            mappings.append(try SecretMapping(parsing: text, source: "\(file) line \(index + 1)"))
        }
        return mappings
    }

    /// Refuses a variable mapped twice.
    static func checkUnique(_ mappings: [SecretMapping]) throws {
        var seen = Swift.Set<String>()
        for mapping in mappings where !seen.insert(mapping.name).inserted {
            throw CommandFailure("\(mapping.name) is mapped more than once", status: .usage)
        }
    }
}

/// Starts a command with `posix_spawnp`, passes signals through to it and waits for it.
enum ChildLauncher {
    /// The signals passed through to the child.
    static let forwardedSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2]

    /// Runs `arguments` (looked up on `$PATH`) with `environment`, inheriting standard input, output and error, and
    /// returns its exit status, or 128 + the signal that ended it.
    static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        // A signal coffer was started with ignored (`nohup` ignores SIGHUP) stays ignored, in the child too.
        let handled = forwardedSignals.filter { !isIgnored($0) }
        installForwarding(handled)
        // The signals wait, blocked, until the child's pid is known; unblocking delivers any that came meanwhile.
        // (A parent may also have started coffer with them blocked: the mask is inherited.)
        var forwarded = sigset_t()
        sigemptyset(&forwarded)
        for signal in handled { sigaddset(&forwarded, signal) }
        pthread_sigmask(SIG_BLOCK, &forwarded, nil)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in handled { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
        guard result == 0 else {
            pthread_sigmask(SIG_UNBLOCK, &forwarded, nil)
            // As env(1) and shells do: 127 when the command is not found, 126 when it cannot be run.
            Output.note("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
            return result == ENOENT ? 127 : 126
        }
        forwardingTarget = pid
        pthread_sigmask(SIG_UNBLOCK, &forwarded, nil)
        if pendingSignal != 0 { kill(pid, pendingSignal) }
        // Wait without reaping: until the child is reaped its pid cannot be reused, so a signal forwarded before
        // the target is cleared reaches the child (or its zombie), never another process.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 {
            guard errno == EINTR else {
                throw CommandFailure(
                    "cannot wait for \(arguments[0]): \(String(cString: strerror(errno)))", status: .failure)
            }
        }
        forwardingTarget = 0
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Whether `signal`'s disposition is "ignore" (as `nohup` leaves SIGHUP).
    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1  // SIG_IGN
    }

    /// Installs a handler for each of `signals` that sends it on to the child. A signal the kernel sent
    /// (a terminal's Ctrl-C reaches the child's process group by itself) is not sent a second time.
    private static func installForwarding(_ signals: [Int32]) {
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                let target = forwardingTarget
                if let info, info.pointee.si_code > 0 { return }
                guard target > 0 else {
                    pendingSignal = signal  // another thread took it before the child's pid was known
                    return
                }
                kill(target, signal)
            }
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}

/// The child that forwarded signals go to, 0 when none; written before and after the child runs, read by the
/// signal handler.
nonisolated(unsafe) private var forwardingTarget: pid_t = 0

/// A forwarded signal that arrived before the child's pid was known, 0 when none.
nonisolated(unsafe) private var pendingSignal: Int32 = 0
