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
        let writer = Thread {
            try? standardInput.fileHandleForWriting.write(contentsOf: input)
            try? standardInput.fileHandleForWriting.close()
        }
        writer.start()
        let errors = Locked()
        let errorReader = Thread { errors.set(standardError.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errors.isSet { usleep(1000) }
        return Outcome(status: process.terminationStatus, standardOutput: output, standardError: errors.value)
    }

    /// ``run(_:_:environment:input:)`` on a dispatch thread, for async tests: waiting for the child does not hold
    /// one of the few threads Swift concurrency runs tasks on (the child may need them, say to answer it from an
    /// in-process server).
    public static func runDetached(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Data = Data()
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try run(executable, arguments, environment: environment, input: input) })
            }
        }
    }

    /// The environment children start from: this process's, minus anything that would change Coffer's behaviour.
    static var baseEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("COFFER_") && !$0.key.hasPrefix("KEYCHAIN_") && $0.key != "DATABASE_URL"
        }
    }

    private final class Locked: @unchecked Sendable {
        // Safety: every access to `stored` goes through `lock`.
        private let lock = NSLock()
        private var stored: Data?

        func set(_ data: Data) { lock.withLock { stored = data } }
        var isSet: Bool { lock.withLock { stored != nil } }
        var value: Data { lock.withLock { stored ?? Data() } }
    }
}
