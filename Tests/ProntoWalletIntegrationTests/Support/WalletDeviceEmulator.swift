import Foundation
import ProntoWalletSDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Stands in for Apple Wallet behind the SDK's presenter protocol, doing what the device does with issuer data:
/// it base64-decodes the two arguments it is given (as `PKAddPassesViewController(issuerData:signature:)` does),
/// reads the binding data's callback URL and session, calls the server back with a binding and a key hash, and
/// keeps the signed pass the server answers with.
@MainActor
final class WalletDeviceEmulator: PassPresenter {
    struct DeviceError: Error, CustomStringConvertible {
        let description: String
    }

    let canAddPasses = true
    private(set) var signedIssuerData: Data?
    private(set) var signature: Data?
    private(set) var pkpass: Data?

    func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult {
        guard let binding = Data(base64Encoded: issuerData.passKitIssuerData),
            let signature = Data(base64Encoded: issuerData.passKitSignature)
        else { throw DeviceError(description: "PassKit's arguments are not base64 text") }
        signedIssuerData = binding
        self.signature = signature
        guard let fields = try JSONSerialization.jsonObject(with: binding) as? [String: Any],
            let callback = fields["callbackURL"] as? String, let session = fields["sessionIdentifier"] as? String,
            var components = URLComponents(string: callback)
        else { throw DeviceError(description: "the binding data has no callback URL or session") }
        components.queryItems = [URLQueryItem(name: "sessionIdentifier", value: session)]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"issuerBindingData":"0a0b0c0d","keyHash":"c0ffee"}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        guard http?.statusCode == 200, http?.value(forHTTPHeaderField: "Content-Type") == "application/vnd.apple.pkpass"
        else { throw DeviceError(description: "the callback answered \(http?.statusCode ?? 0)") }
        pkpass = body
        return .added
    }
}
