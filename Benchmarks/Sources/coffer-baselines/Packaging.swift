import BenchmarkSupport
import Foundation
import WalletDocuments
import WalletPasses

/// How many `.pkpass` archives of `package` per second a ``PreparedPassTemplate`` of its files makes (validate
/// pass.json, manifest, signature, assembly): printed as `pkpass-template-builds-per-second`, beside the signature's
/// own rate (`pass-signatures-per-second`), which bounds it.
func templateBuildsPerSecond(package: PassPackage, signer: DocumentSigner) throws -> Double {
    var checksum: UInt8 = 0
    let template = try PreparedPassTemplate(package: package)
    let passJSON = package.files["pass.json"]!
    let rate = try measure(seconds: 3) { checksum ^= try template.pkpass(passJSON: passJSON, signer: signer).last! }
    return checksum == 0 && rate < 0 ? 0 : rate  // checksum read, so that no build can be optimized away
}
