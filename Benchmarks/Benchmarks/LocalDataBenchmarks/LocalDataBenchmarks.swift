import Benchmark
import Crypto
import Foundation
import LocalData
import Secrets

/// StorageRouter reads and writes of a 64 B String in the file, encrypted file and (sealed) defaults domains, and
/// a 4 KiB Codable value as JSON and as a property list.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 10_000)

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "localdata-bench-\(UUID().uuidString)")
    let suite = "dev.coffer.bench.\(UUID().uuidString.prefix(8))"
    let router = StorageRouter(
        configuration: StorageConfiguration(
            applicationIdentifier: "dev.coffer.bench", keychainBackend: { InMemoryBackend() },
            keyMaterialProviders: [.default: FixedKeyMaterialProvider(.key(SymmetricKey(size: .bits256)))],
            syncTransport: nil))
    let text = String(repeating: "x", count: 62)
    let domains: [(name: String, domain: StorageDomain, security: SecurityPolicy)] = [
        ("file", .fileSystem(directory: .custom(directory)), .none),
        ("encrypted file", .encryptedFileSystem(directory: .custom(directory)), .none),
        (
            "sealed defaults", .appGroupUserDefaults(identifier: suite),
            .encrypted(algorithm: .aes256GCM, keyDerivation: .hkdf)
        ),
    ]
    for (name, domain, security) in domains {
        let key = StorageKeys.Key<String>(
            "bench/\(name.replacingOccurrences(of: " ", with: "-"))", domain: domain, security: security,
            owner: "Bench", description: "A 64 B value.")
        Benchmark("StorageRouter read 64 B, \(name)") { benchmark in
            try await router.set(text, for: key)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await router.get(key)) }
        }
        Benchmark("StorageRouter write 64 B, \(name)") { benchmark in
            for _ in benchmark.scaledIterations { try await router.set(text, for: key) }
        }
    }

    struct Document: Codable, Sendable {
        var title: String
        var lines: [String]
    }
    let document = Document(title: "notes", lines: (0..<64).map { "line \($0) " + String(repeating: "y", count: 50) })
    for serializer in [Serializer<Document>.json, .propertyList] {
        let key = StorageKeys.Key<Document>(
            "bench/document-\(serializer.name)", domain: .fileSystem(directory: .custom(directory)),
            serializer: serializer, owner: "Bench", description: "A 4 KiB document.")
        Benchmark("StorageRouter read 4 KiB document, \(serializer.name)") { benchmark in
            try await router.set(document, for: key)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try await router.get(key)) }
        }
    }

    Benchmark.teardown = {
        try? FileManager.default.removeItem(at: directory)
        UserDefaults.standard.removePersistentDomain(forName: suite)
    }
}
