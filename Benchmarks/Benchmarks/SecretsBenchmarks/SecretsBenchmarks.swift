import Benchmark
import Crypto
import Foundation
import Keychain
import Secrets
import SecretsSecretService

/// Read and durable write of 64 B, 4 KiB and 1 MiB values, in memory and in the encrypted file store; and, when a
/// Secret Service answers on the session bus (run under `dbus-run-session -- sh .ci/secret-service.sh …`), read
/// and write of a 64 B value in the keyring.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 10_000)

    let sizes: [(name: String, bytes: Int)] = [("64 B", 64), ("4 KiB", 4096), ("1 MiB", 1024 * 1024)]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-bench-\(UUID().uuidString)")

    // Stores are opened once, outside the measured closures, with a raw key: unlocking (PBKDF2 for a
    // passphrase) happens once per process in real use and is not what these benchmarks measure.
    let key = SymmetricKey(size: .bits256)
    func openStore(_ name: String) throws -> EncryptedFileBackend {
        try EncryptedFileBackend(directory: directory.appendingPathComponent(name), key: .key(key))
    }

    for size in sizes {
        let value = Data((0..<size.bytes).map { UInt8(truncatingIfNeeded: $0) })
        let query = SecretQuery<Data>(service: "bench", account: "value/\(size.bytes)")

        Benchmark("InMemory write \(size.name)") { benchmark in
            let backend = InMemoryBackend()
            for _ in benchmark.scaledIterations { try backend.save(value, for: query) }
        }
        Benchmark("InMemory read \(size.name)") { benchmark in
            let backend = InMemoryBackend()
            try backend.save(value, for: query)
            for _ in benchmark.scaledIterations { blackHole(try backend.read(query)) }
        }
        Benchmark("EncryptedFile durable write \(size.name)") { benchmark in
            let backend = try openStore("write-\(size.bytes)")
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { try backend.save(value, for: query) }
        }
        Benchmark("EncryptedFile read \(size.name)") { benchmark in
            let backend = try openStore("read-\(size.bytes)")
            try backend.save(value, for: query)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try backend.read(query)) }
        }
    }

    // The Keychain facade's cache-aside read, with the encrypted file store behind it (whose own read is above).
    Benchmark("KeychainEngine cached read 64 B (encrypted file store behind)") { benchmark in
        let engine = KeychainEngine(backend: try openStore("keychain-engine"), service: "bench")
        try engine.write(Data(repeating: 7, count: 64), "value/64")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try engine.read("value/64")) }
    }

    auditBenchmarks(in: directory.appendingPathComponent("audit"))

    Benchmark.teardown = { try? FileManager.default.removeItem(at: directory) }

    if SecretServiceBackend.isReachable() {
        let keyring = SecretServiceBackend()
        let query = SecretQuery<Data>(service: "coffer-bench-\(UUID().uuidString.lowercased())", account: "value/64")
        let value = Data(repeating: 7, count: 64)
        Benchmark("SecretService write 64 B") { benchmark in
            for _ in benchmark.scaledIterations { try keyring.save(value, for: query) }
        }
        Benchmark("SecretService read 64 B") { benchmark in
            try keyring.save(value, for: query)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try keyring.read(query)) }
        }
        Benchmark.teardown = {
            try? FileManager.default.removeItem(at: directory)
            _ = try? keyring.delete(query)
        }
    }
}
