import Foundation

/// A long-running child process (a server) whose standard output and error are collected as it runs.
public final class BackgroundProcess {
    /// Why waiting for output gave up.
    public struct Timeout: Error, CustomStringConvertible {
        /// What was awaited, and what the process had written by then.
        public let description: String
    }

    private let process: Process
    private let collected = Collected()

    /// Starts `executable` with `arguments`; standard output and error are merged.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ChildProcess.baseEnvironment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        let collected = collected
        Thread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                collected.append(chunk)
            }
            collected.finish()
        }.start()
    }

    /// Everything the process has written so far.
    public var output: String { collected.text }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Waits until the output matches `pattern` (a regular expression) and returns its first capture group (or the
    /// whole match), polling every 50 ms up to `timeout`.
    ///
    /// The default bound only keeps a wedged process from hanging the run: it returns as soon as the line appears.
    /// While the whole suite runs in parallel on two cores, this poll has been seen to wake a minute late, behind
    /// tests that hold the test process's threads.
    public func waitForOutput(matching pattern: String, timeout: Duration = .seconds(300)) async throws -> String {
        let expression = try NSRegularExpression(pattern: pattern)
        let deadline = ContinuousClock.now + timeout
        while true {
            // The output is read before the deadline is: a poll that wakes late (the test's thread was busy) still
            // sees a line that came in time.
            let text = output
            if let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) {
                let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
                return String(text[Range(range, in: text)!])
            }
            if ContinuousClock.now >= deadline || (collected.isFinished && !process.isRunning) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Timeout(description: "no output matching \(pattern); the process wrote:\n\(output)")
    }

    /// Sends `signal` and waits for the process to end; returns its exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(30)) async throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                throw Timeout(description: "the process did not end after signal \(signal):\n\(output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private final class Collected: @unchecked Sendable {
        // Safety: `data` and `finished` are only touched while holding `lock`.
        private let lock = NSLock()
        private var data = Data()
        private var finished = false

        func append(_ chunk: Data) { lock.withLock { data.append(chunk) } }
        func finish() { lock.withLock { finished = true } }
        var isFinished: Bool { lock.withLock { finished } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }
}
