import Foundation
import HTTPTypes
import Hummingbird
import WalletServices

extension ManagementController {
    /// The body of `POST /api/v2/passes/{tag_id}/google_save_link`'s answer.
    struct GoogleSaveLinkBody: Encodable {
        let url: String
        let skinny: Bool
        let objectID: String
        let objectWritten: Bool

        enum CodingKeys: String, CodingKey {
            case url, skinny
            case objectID = "object_id"
            case objectWritten = "object_written"
        }
    }

    /// `POST /api/v2/passes/{tag_id}/google_save_link`: an "Add to Google Wallet" link of the pass, when its pass
    /// type has a Google issuer.
    @Sendable func createGoogleSaveLink(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        guard let googleLinks else {
            throw Self.apiError(.unsupportedHere("this server issues no Google Wallet passes"))
        }
        let link = try await Self.answering {
            try await googleLinks.link(clientID: clientID, attribute: attribute, value: value)
        }
        var response = try JSONBody.response(
            GoogleSaveLinkBody(
                url: link.url, skinny: link.isSkinny, objectID: link.objectID, objectWritten: link.objectWritten),
            status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
