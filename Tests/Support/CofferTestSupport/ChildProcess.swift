import Foundation

/// Runs the package's own executables from tests, the way a user runs them.
public enum ChildProcess {
    /// What a finished process left behind.
    public struct Outcome: Sendable {
        /// The exit status (or the signal number when it was killed).
        public let status: Int32
        /// Everything written to standard output.
        public let standardOutput: Data
        /// Everything written to standard error.
        public let standardError: Data

        /// Standard output as text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as text.
        public var errorOutput: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// The built product called `name`, next to the test bundle.
    public static func executable(named name: String) throws -> URL {
        var candidates: [URL] = []
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            candidates.append(directory.appendingPathComponent(name))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return found
    }

    /// Starts `executable` without waiting for it; the caller reads its output and ends it.
    public static func start(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (process: Process, standardOutput: FileHandle) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = baseEnvironment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output.fileHandleForReading)
    }

    /// Runs `executable` to completion with `input` on standard input.
    ///
    /// This blocks the calling thread until the child has exited. From an `async` test, use
    /// ``runDetached(_:_:environment:input:)`` (or wrap a helper that calls this in ``detached(_:)``): a test task
    /// waiting here holds one of the few threads every task, in-process server and URLSession callback in the test
    /// process runs on.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Data = Data()
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = baseEnvironment.merging(environment) { $1 }
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        Thread {
            try? standardInput.fileHandleForWriting.write(contentsOf: input)
            try? standardInput.fileHandleForWriting.close()
        }.start()
        let errors = Collected()
        Thread { errors.finish(with: standardError.fileHandleForReading.readDataToEndOfFile()) }.start()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, standardOutput: output, standardError: errors.wait())
    }

    /// ``run(_:_:environment:input:)`` for async tests: the child is waited for on a thread of its own, so that
    /// waiting does not hold one of the threads Swift concurrency runs tasks on (the child may need them, say to be
    /// answered by an in-process server).
    public static func runDetached(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Data = Data()
    ) async throws -> Outcome {
        try await detached { try run(executable, arguments, environment: environment, input: input) }
    }

    /// Runs `body`, which blocks (it waits for a child process: ``run(_:_:environment:input:)``, the ``OpenSSL``
    /// helpers), on a new thread, and returns its result to the awaiting task.
    ///
    /// Swift concurrency runs every task of the test process on a few threads: on Linux, libdispatch's default-QoS
    /// root queue, as wide as the machine has CPUs (two here), the same threads `DispatchQueue.global()` hands out.
    /// Hummingbird's request handlers, URLSession's callbacks and every other test run there too. A task that
    /// blocks one of them for the seconds a child takes on a loaded machine slows all of those, enough for an
    /// in-process server to answer after its client's timeout. A dedicated `Thread` is outside that pool.
    public static func detached<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = "coffer-test-blocking"
            thread.start()
        }
    }

    /// The environment children start from: this process's, minus anything that would change Coffer's behaviour.
    static var baseEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("COFFER_") && !$0.key.hasPrefix("KEYCHAIN_") && $0.key != "DATABASE_URL"
        }
    }

    /// What a reader thread collected, handed to the thread that waits for it.
    private final class Collected: @unchecked Sendable {
        // Safety: `stored` is written once, before `done` is signalled, and read only after waiting for it.
        private let done = DispatchSemaphore(value: 0)
        private var stored = Data()

        func finish(with data: Data) {
            stored = data
            done.signal()
        }

        func wait() -> Data {
            done.wait()
            return stored
        }
    }
}
