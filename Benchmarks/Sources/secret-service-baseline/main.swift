// Measures, in one process and over one D-Bus connection, a warm Coffer read from the Secret Service against
// libsecret's own lookup of the same item (the D-Bus round trips are the floor), and Coffer's write:
//   libsecret-lookup-per-second     secret_service_lookup_sync of a 64 B item
//   coffer-read-per-second          SecretServiceBackend.read of that item (lock check on a miss only)
//   coffer-write-per-second         SecretServiceBackend.save of a 64 B value (lock check + store)
// Run it inside a session with a keyring: `bash Benchmarks/compare-secret-service.sh`.
import BenchmarkSupport
import Foundation
import Secrets
@_spi(Benchmarking) import SecretsSecretService

let backend = SecretServiceBackend()
let query = SecretQuery<Data>(service: "coffer-bench-\(UUID().uuidString.lowercased())", account: "bench/small")
let value = Data(repeating: 7, count: 64)
try backend.save(value, for: query)
defer { _ = try? backend.delete(query) }
// Warm the connection and the session before measuring.
for _ in 0..<20 { _ = try backend.read(query) }

var bytes = 0  // printed, so that no read can be optimized away
let lookups = try measure(seconds: 3) { bytes &+= try backend.libsecretLookup(query)?.count ?? 0 }
print("libsecret-lookup-per-second \(Int(lookups))")
let reads = try measure(seconds: 3) { bytes &+= try backend.read(query)?.count ?? 0 }
print("coffer-read-per-second \(Int(reads))")
let writes = try measure(seconds: 3) { try backend.save(value, for: query) }
print("coffer-write-per-second \(Int(writes))")
print("checksum \(bytes)")
