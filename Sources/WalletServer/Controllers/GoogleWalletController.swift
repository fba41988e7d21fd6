import Foundation
import HTTPTypes
import Hummingbird
import WalletGoogle
import WalletServices

/// The routes Google Wallet calls: `GET /google/images/{name}` serves the images classes and objects refer to (named
/// by their content's SHA-256, so a name is unguessable and an image never changes), and
/// `POST /google/callbacks/{issuer_id}` takes Google's signed save and delete callbacks (``GoogleWalletCallbacks``).
/// Both are public; a callback counts only when Google's signature chain verifies for the issuer the path names.
struct GoogleWalletController: Sendable {
    let repository: any GoogleWalletOutbox
    /// `nil` where the server has no Google Wallet set-up to receive callbacks for.
    let callbacks: GoogleWalletCallbacks?

    func addRoutes(to router: Router<WalletRequestContext>) {
        router.get(RouterPath(GooglePassConverter.imagesPath + "/{name}"), use: image)
        router.post(RouterPath(GooglePassConverter.callbacksPath + "/{issuer_id}"), use: callback)
    }

    /// Whether `name` is an image's name: 64 lowercase hex digits and `.png`.
    static func isImageName(_ name: String) -> Bool {
        name.utf8.count == 68 && name.hasSuffix(".png")
            && name.utf8.prefix(64).allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    @Sendable func image(request: Request, context: WalletRequestContext) async throws -> Response {
        guard let name = context.parameters.get("name"), Self.isImageName(name),
            let png = try await repository.googleImage(named: name)
        else { throw APIError.notFound("no image with this name") }
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/png", .cacheControl: "public, max-age=31536000, immutable",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }

    @Sendable func callback(request: Request, context: WalletRequestContext) async throws -> Response {
        guard let callbacks, let issuerID = context.parameters.get("issuer_id") else {
            throw APIError.notFound("no Google Wallet issuer here")
        }
        let body = try await JSONBody.bytes(of: request, limit: GoogleWalletCallbacks.maximumBodySize)
        let outcome: GoogleWalletCallbacks.Outcome
        do {
            outcome = try await callbacks.receive(body, issuerID: issuerID)
        } catch let failure as GoogleWalletCallback.Failure {
            switch failure {
            case .malformed: throw APIError.badRequest(failure.description)
            case .badSignature, .expired: throw APIError(.forbidden, code: "forbidden", message: failure.description)
            }
        } catch WalletServerError.notFound(let what) {
            throw APIError.notFound("\(what) does not exist")
        }
        switch outcome {
        case .recorded(_, let event):
            return try JSONBody.response(["status": event == .saved ? "saved" : "removed"])
        case .replayed:
            throw APIError(.conflict, code: "conflict", message: "this callback's nonce was received before")
        case .unknownObject:
            throw APIError.notFound("no pass has this object; it may not be written yet")
        }
    }
}
