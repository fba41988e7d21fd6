import Benchmark
import BenchmarkSupport
import Foundation
import WalletDocuments
import WalletPasses

/// The parts of a typical pass's `.pkpass` besides the signature: the manifest (a SHA-1 of every file), the archive
/// (stored entries and their CRC-32), and a whole build from a ``PreparedPassTemplate`` whose images were hashed and
/// laid out once. `compare-baselines.sh` relates the same rates to `openssl speed rsa2048`.
func packagingBenchmarks() {
    Benchmark(".pkpass build from a prepared template (validate pass.json, manifest, sign, assemble)") { benchmark in
        let identity = try DevelopmentIdentity.generate()
        let signer = DocumentSigner(identity: identity.signingIdentity)
        let package = try TypicalPass.package(identity: identity)
        let template = try PreparedPassTemplate(package: package)
        let passJSON = package.files["pass.json"]!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try template.pkpass(passJSON: passJSON, signer: signer)) }
    }

    Benchmark("manifest.json of a typical pass (SHA-1 of every file)") { benchmark in
        let package = try TypicalPass.package(identity: try DevelopmentIdentity.generate())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try package.manifest()) }
    }

    Benchmark(".pkpass archive of a signed typical pass (stored entries, CRC-32)") { benchmark in
        let identity = try DevelopmentIdentity.generate()
        let signed = try DocumentSigner(identity: identity.signingIdentity).sign(
            try TypicalPass.package(identity: identity))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try signed.pkpass()) }
    }
}

/// What reading and checking `pass.json` costs beside the signature: the lint every signing runs, and a decode and
/// encode of the model, on the example event ticket and on the example poster event ticket (semantic tags, NFC,
/// upcoming events, links).
func lintBenchmarks() {
    for (name, folder) in [("an event ticket", "EventTicket"), ("a poster event ticket", "PosterEventTicket")] {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Examples/Passes/\(folder).pass/pass.json")

        Benchmark("lint of \(name)'s pass.json (schema walk and every check)") { benchmark in
            let json = try Data(contentsOf: example)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(PassLint.report(passJSON: json, files: nil)) }
        }

        Benchmark("decode and encode of \(name)'s pass.json (the typed model, every key kept)") { benchmark in
            let json = try Data(contentsOf: example)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(try Pass(json: json).encoded()) }
        }
    }
}
