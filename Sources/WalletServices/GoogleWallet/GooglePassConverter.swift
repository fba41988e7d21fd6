import Foundation
import WalletDocuments
import WalletGoogle
import WalletPasses

/// How the server makes a Google Wallet class and object of a stored pass: its images served under the server's
/// public URL and named by their content (so that passes alike share one class), and its class's saves and
/// deletions posted to the server's callback route. Both need a public https URL; without one the pass goes without
/// images and callbacks.
package struct GooglePassConverter: Sendable {
    /// Where the images are served: `GET /google/images/<SHA-256>.png`.
    package static let imagesPath = "/google/images"
    /// Where Google posts callbacks: `POST /google/callbacks/<issuer id>`.
    package static let callbacksPath = "/google/callbacks"

    /// The server's public URL, without a trailing `/`, if it is https.
    let publicBaseURL: @Sendable () -> String?

    /// A converter for the server at `publicBaseURL` (read at each conversion).
    package init(publicBaseURL: @escaping @Sendable () -> String?) {
        self.publicBaseURL = publicBaseURL
    }

    /// The conversion of `package` for the Google issuer of `passType`, as the object of `generation` (how many
    /// times the pass's object was replaced), its classes the client `clientID`'s own; its images are those Google
    /// is to fetch here.
    ///
    /// - Throws: `WalletDocumentError` when the package's `pass.json` cannot be read.
    package func convert(_ package: PassPackage, passType: PassType, generation: Int, clientID: UUID?) throws
        -> GooglePassConversion
    {
        let issuerID = passType.googleIssuerID ?? ""
        let base = publicBaseURL().flatMap { $0.lowercased().hasPrefix("https://") ? $0 : nil }
        return GooglePassConversion(
            try package.pass, files: package.files,
            options: .init(
                issuerID: issuerID, imageBaseURL: base.map { $0 + Self.imagesPath }, namesImagesByDigest: true,
                callbackURL: base.map { $0 + Self.callbacksPath + "/" + issuerID },
                mayUseMerchantLocations: passType.googleMayUseMerchantLocations, objectGeneration: generation,
                classScope: clientID?.uuidString.lowercased()))
    }
}
