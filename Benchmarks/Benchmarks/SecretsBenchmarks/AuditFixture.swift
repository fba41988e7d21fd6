import AuditBenchmarkSupport
import Foundation
import Secrets

/// The store one audit benchmark reads: made in the benchmark's setup (so that benchmarks filtered out start no
/// audit writer thread and open no file) and closed, its audit file verified, in its teardown.
final class AuditFixture: @unchecked Sendable {
    // Safety: `opened` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var opened: AuditSubject?
    private let backend: AuditBackendKind
    private let configuration: AuditSinkConfiguration
    private let directory: URL

    init(backend: AuditBackendKind, configuration: AuditSinkConfiguration, directory: URL) {
        self.backend = backend
        self.configuration = configuration
        self.directory = directory
    }

    /// Makes the store and its sinks, in a directory of their own.
    func open() throws {
        let directory = directory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let subject = try AuditSubject(
            backend: backend, configuration: configuration, base: try backend.makeStore(in: directory),
            directory: directory)
        lock.withLock { opened = subject }
    }

    /// The store made by ``open()``.
    func subject() throws -> AuditSubject {
        guard let subject = lock.withLock({ opened }) else {
            throw AuditBenchmarkError.unexpectedValue("an audit benchmark run before its setup")
        }
        return subject
    }

    /// Flushes and closes the sinks, and fails when the audit file does not verify intact.
    func close() throws {
        guard let subject = lock.withLock({ opened }) else { return }
        lock.withLock { opened = nil }
        let checks = try subject.closeAndCheck(reads: 0)
        if let problem = checks.compactMap(\.problem).first {
            throw AuditBenchmarkError.unexpectedValue("the audit file (\(problem))")
        }
    }
}
