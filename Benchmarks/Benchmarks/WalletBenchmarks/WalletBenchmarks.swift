import Benchmark
import Foundation
import BenchmarkSupport
import WalletDocuments
import WalletPasses

/// Pass signatures and `.pkpass` builds for a typical pass (pass.json, icon, logo and strip at @1x/@2x/@3x).
/// The signature is measured on the default RSA engine and on each engine that loads (OpenSSL's libcrypto,
/// swift-crypto); `compare-baselines.sh` relates the same rates to `openssl speed rsa2048`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 10_000)

    Benchmark("Pass signature (detached CMS, RSA-2048)") { benchmark in
        let identity = try DevelopmentIdentity.generate()
        let signer = DocumentSigner(identity: identity.signingIdentity)
        let manifest = try TypicalPass.package(identity: identity).manifest()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try signer.signature(for: manifest)) }
    }

    for engine in RSASigningEngine.allCases where engine.isAvailable {
        Benchmark("Pass signature (detached CMS, RSA-2048, \(engine) engine)") { benchmark in
            let identity = try DevelopmentIdentity.generate()
            let signer = DocumentSigner(identity: try identity.signingIdentity.using(engine))
            let manifest = try TypicalPass.package(identity: identity).manifest()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try signer.signature(for: manifest)) }
        }
    }

    Benchmark(".pkpass build (validate, manifest, sign, zip)") { benchmark in
        let identity = try DevelopmentIdentity.generate()
        let signer = DocumentSigner(identity: identity.signingIdentity)
        let package = try TypicalPass.package(identity: identity)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try signer.sign(package).pkpass()) }
    }

    packagingBenchmarks()
    lintBenchmarks()
}
