// Measures, in one process, what LocalData's router adds over the stores it routes to (`compare-localdata.sh`
// prints the ratios):
//   router-file-read-per-second / backend-file-read-per-second      a 64 B String key in the file domain vs
//                                                                    FileBackend.read of the same bytes
//   router-file-write-per-second / backend-file-write-per-second    the same for durable writes
//   router-sealed-defaults-read-per-second / defaults-read-per-second  an encrypted (AES-GCM, HKDF) key in an
//                                                                    app group's defaults vs UserDefaults.data
// Router reads are measured from the main actor (as an app calls them: a hop to the pool and back per call) and
// from a task off it (as server code does).
// Usage: localdata-baseline <scratch-directory>
import BenchmarkSupport
import Crypto
import Foundation
import LocalData
import Secrets

let scratch = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : NSTemporaryDirectory())
    .appendingPathComponent("localdata-baseline-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
let suite = "dev.coffer.bench.\(UUID().uuidString.prefix(8))"
defer {
    try? FileManager.default.removeItem(at: scratch)
    UserDefaults.standard.removePersistentDomain(forName: suite)
}

let router = StorageRouter(
    configuration: StorageConfiguration(
        applicationIdentifier: "dev.coffer.bench",
        keychainBackend: { InMemoryBackend() },
        keyMaterialProviders: [.default: FixedKeyMaterialProvider(.key(SymmetricKey(size: .bits256)))],
        syncTransport: nil))
let text = String(repeating: "x", count: 62)  // 64 bytes as JSON
let fileKey = StorageKeys.Key<String>(
    "bench/file", domain: .fileSystem(directory: .custom(scratch)), owner: "Bench", description: "A 64 B value.")
let sealedKey = StorageKeys.Key<String>(
    "bench/sealed", domain: .appGroupUserDefaults(identifier: suite),
    security: .encrypted(algorithm: .aes256GCM, keyDerivation: .hkdf), owner: "Bench", description: "A sealed value.")
var checksum = 0

/// Router reads of `key` per second, measured in a task off the main actor.
@MainActor
func readsOffMainActor(of key: StorageKeys.Key<String>) async throws -> Double {
    let (rate, sum) = try await Task.detached {
        var sum = 0
        return (try await measure(seconds: 3) { sum &+= try await router.get(key)!.count }, sum)
    }.value
    checksum &+= sum
    return rate
}

let backend = try FileBackend(directory: scratch.appendingPathComponent("direct"))
let query = SecretQuery<Data>(service: "dev.coffer.bench", account: "bench/file")
let bytes = Data("\"\(text)\"".utf8)

try await router.set(text, for: fileKey)
try backend.save(bytes, for: query)
let routerReads = try await measure(seconds: 3) { checksum &+= try await router.get(fileKey)!.count }
print("router-file-read-per-second \(Int(routerReads))")
// The same from a task off the main actor, as server code calls it: no hop to and from the main thread per call.
print("router-file-read-off-main-per-second \(Int(try await readsOffMainActor(of: fileKey)))")
print("backend-file-read-per-second \(Int(try measure(seconds: 3) { checksum &+= try backend.read(query)!.count }))")
print("router-file-write-per-second \(Int(try await measure(seconds: 3) { try await router.set(text, for: fileKey) }))")
print("backend-file-write-per-second \(Int(try measure(seconds: 3) { try backend.save(bytes, for: query) }))")

let defaults = UserDefaults(suiteName: suite)!
defaults.set(bytes, forKey: "bench/plain")
try await router.set(text, for: sealedKey)
print("router-sealed-defaults-read-per-second \(Int(try await readsOffMainActor(of: sealedKey)))")
print(
    "defaults-read-per-second \(Int(measure(seconds: 3) { checksum &+= defaults.data(forKey: "bench/plain")!.count }))")
print("checksum \(checksum)")
