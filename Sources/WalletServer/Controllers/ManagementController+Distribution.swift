import Foundation
import HTTPTypes
import Hummingbird
import WalletServices

extension ManagementController {
    /// The body of `POST /api/v2/passes/{tag_id}/share_links`; every key may be absent (an empty body is `{}`), none
    /// may be `null`.
    struct ShareLinkRequest: Decodable {
        let expiresIn: Int?
        let singleUse: Bool?

        enum CodingKeys: String, CodingKey {
            case expiresIn = "expires_in"
            case singleUse = "single_use"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            expiresIn = try container.decodeUnlessAbsent(Int.self, forKey: .expiresIn)
            singleUse = try container.decodeUnlessAbsent(Bool.self, forKey: .singleUse)
        }
    }

    /// A share link as the API shows it: its URL only in the answer that made it.
    struct ShareLinkBody: Encodable {
        let id: UUID
        let url: String?
        let singleUse: Bool
        let createdAt: String
        let expiresAt: String
        let usedAt: String?

        enum CodingKeys: String, CodingKey {
            case id, url
            case singleUse = "single_use"
            case createdAt = "created_at"
            case expiresAt = "expires_at"
            case usedAt = "used_at"
        }

        init(_ link: ShareLink, url: String? = nil) {
            id = link.id
            self.url = url
            singleUse = link.singleUse
            createdAt = WebFlowController.timestamp(link.createdAt)
            expiresAt = WebFlowController.timestamp(link.expiresAt)
            usedAt = link.usedAt.map(WebFlowController.timestamp)
        }
    }

    /// The body of `GET /api/v2/passes/{tag_id}/share_links`.
    struct ShareLinkList: Encodable {
        let shareLinks: [ShareLinkBody]

        enum CodingKeys: String, CodingKey {
            case shareLinks = "share_links"
        }
    }

    /// `GET /api/v2/passes/{tag_id}/pkpass`: the pass, signed, as Wallet takes it.
    @Sendable func archive(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        let archive = try await Self.answering {
            try await distribution.archive(clientID: clientID, attribute: attribute, value: value)
        }
        return Self.pkpassResponse(archive)
    }

    @Sendable func createShareLink(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        let bytes = try await JSONBody.bytes(of: request, limit: 4096)
        let body: ShareLinkRequest
        do {
            body = try JSONBody.decoder.decode(ShareLinkRequest.self, from: bytes.isEmpty ? Data("{}".utf8) : bytes)
        } catch {
            throw APIError.badRequest(
                "the body must be a JSON object with an optional 'expires_in' (whole seconds) and 'single_use' (boolean)"
            )
        }
        let created = try await Self.answering {
            try await distribution.createShareLink(
                clientID: clientID, attribute: attribute, value: value, lifetime: body.expiresIn,
                singleUse: body.singleUse ?? false)
        }
        var response = try JSONBody.response(ShareLinkBody(created.link, url: created.url), status: .created)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func shareLinks(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context)
        let links = try await Self.answering {
            try await distribution.shareLinks(clientID: clientID, attribute: attribute, value: value)
        }
        return try JSONBody.response(ShareLinkList(shareLinks: links.map { ShareLinkBody($0) }))
    }

    @Sendable func revokeShareLink(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context, costs: true)
        guard let id = context.parameters.get("link_id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("no share link with this identifier")
        }
        let rotate: Bool
        switch request.uri.queryParameters.get("rotate_token") {
        case nil, "false": rotate = false
        case "true": rotate = true
        default: throw APIError.badRequest("'rotate_token' must be true or false")
        }
        try await Self.answering {
            try await distribution.revokeShareLink(
                id: id, clientID: clientID, attribute: attribute, value: value, rotatingToken: rotate)
        }
        return Response(status: .noContent)
    }

    /// A `.pkpass` answer: Wallet's content type, a file name, and no cache keeps it.
    static func pkpassResponse(_ archive: PassDistribution.Archive) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "application/vnd.apple.pkpass",
                .contentDisposition: "attachment; filename=\"\(archive.fileName)\"", .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: archive.pkpass)))
    }
}
