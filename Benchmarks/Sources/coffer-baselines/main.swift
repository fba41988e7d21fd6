// Measures, in one process, what `compare-baselines.sh` compares against outside baselines:
//   seal-1MiB-bytes-per-second     EncryptedFileBackend's item sealing of a 1 MiB value (no I/O)
//   coffer-durable-write-per-second  EncryptedFileBackend.save of a 64 B value (temp, fsync, rename, dir fsync)
//   coffer-read-64B-per-second       EncryptedFileBackend.read of that value
//   bare-durable-write-per-second    the same file dance with raw system calls and no encryption
//   pass-signatures-per-second       detached CMS signatures over a manifest (one RSA-2048 signature each)
//   pass-signatures-per-second-<engine>  the same on each RSA engine (openssl, swift-crypto)
//   pkpass-builds-per-second         validate + manifest + signature + zip of a typical pass
//   pkpass-template-builds-per-second  the same from a PreparedPassTemplate of its images (hashed and zipped once)
// Usage: coffer-baselines <scratch-directory>
@_spi(Benchmarking) import Secrets
import Crypto
import CryptoExtras
import Foundation
import BenchmarkSupport
import WalletDocuments
import WalletPasses

let scratch = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : NSTemporaryDirectory())
    .appendingPathComponent("coffer-baselines-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

let backend = try EncryptedFileBackend(directory: scratch.appendingPathComponent("store"), key: .passphrase("bench"))
let mebibyte = Data((0..<(1024 * 1024)).map { UInt8(truncatingIfNeeded: $0) })
var checksum: UInt8 = 0  // printed, so that no seal can be optimized away
let sealsPerSecond = try measure(seconds: 3) {
    checksum ^= try backend.sealForBenchmarking(mebibyte, account: "bench/mib").last!
}
print("seal-1MiB-bytes-per-second \(Int(sealsPerSecond * Double(mebibyte.count)))")
let key = SymmetricKey(size: .bits256)
let rawPerSecond = try measure(seconds: 3) { checksum ^= try AES.GCM.seal(mebibyte, using: key).combined!.last! }
print("swift-crypto-aes-gcm-1MiB-bytes-per-second \(Int(rawPerSecond * Double(mebibyte.count)))")

let small = Data(repeating: 7, count: 64)
let query = SecretQuery<Data>(service: "bench", account: "bench/small")
let cofferWrites = try measure(seconds: 3) { try backend.save(small, for: query) }
print("coffer-durable-write-per-second \(Int(cofferWrites))")

let reads = try measure(seconds: 2) { checksum ^= try backend.read(query)!.last! }
print("coffer-read-64B-per-second \(Int(reads))")

let bareDirectory = scratch.appendingPathComponent("bare")
try FileManager.default.createDirectory(at: bareDirectory, withIntermediateDirectories: true)
let target = bareDirectory.appendingPathComponent("item").path
var counter = 0
let bareWrites = measure(seconds: 3) {
    counter += 1
    let temporary = bareDirectory.appendingPathComponent(".tmp-\(counter)").path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    small.withUnsafeBytes { _ = write(descriptor, $0.baseAddress!, $0.count) }
    fsync(descriptor)
    close(descriptor)
    rename(temporary, target)
    let directoryDescriptor = open(bareDirectory.path, O_RDONLY | O_DIRECTORY)
    fsync(directoryDescriptor)
    close(directoryDescriptor)
}
print("bare-durable-write-per-second \(Int(bareWrites))")

// Wallet: one RSA-2048 signature per pass is the ceiling; compare with `openssl speed rsa2048` sign/s.
let identity = try DevelopmentIdentity.generate()
let signer = DocumentSigner(identity: identity.signingIdentity)
let package = try TypicalPass.package(identity: identity)
let manifest = try package.manifest()
print("pass-signature-engine \(identity.signingIdentity.signingEngine)")
let signatures = try measure(seconds: 3) { checksum ^= try signer.signature(for: manifest).last! }
print("pass-signatures-per-second \(Int(signatures))")
// The whole detached CMS signature on each RSA engine (the default one is measured again, in the same order).
for engine in RSASigningEngine.allCases where engine.isAvailable {
    let engineSigner = DocumentSigner(identity: try identity.signingIdentity.using(engine))
    let rate = try measure(seconds: 3) { checksum ^= try engineSigner.signature(for: manifest).last! }
    print("pass-signatures-per-second-\(engine) \(Int(rate))")
}
let builds = try measure(seconds: 3) { checksum ^= try signer.sign(package).pkpass().last! }
print("pkpass-builds-per-second \(Int(builds))")
print("pkpass-template-builds-per-second \(Int(try templateBuildsPerSecond(package: package, signer: signer)))")
// Where the time goes: the bare RSA signature (swift-crypto's BoringSSL), the manifest, the signed pass, the zip.
let rsaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
let digest = SHA256.hash(data: manifest)
let rawSigns = try measure(seconds: 2) {
    checksum ^= try rsaKey.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation.last!
}
print("swift-crypto-rsa2048-signs-per-second \(Int(rawSigns))")
let manifests = try measure(seconds: 1) { checksum ^= try package.manifest().last! }
print("manifests-per-second \(Int(manifests))")
let signedPass = try signer.sign(package)
let signs = try measure(seconds: 2) { checksum ^= try signer.sign(package).signature.last! }
print("signed-packages-per-second \(Int(signs))")
let zips = try measure(seconds: 2) { checksum ^= try signedPass.pkpass().last! }
print("pkpass-zips-per-second \(Int(zips))")
print("checksum \(checksum)")
