import Foundation
import Hummingbird
import WalletServices

extension ManagementController {
    /// The body of `GET /api/v2/passes/{tag_id}/events`.
    struct EventPage: Encodable {
        let events: [PassEvent]
        let nextCursor: String?
        let diagnosis: [PassTrace.Finding]

        enum CodingKeys: String, CodingKey {
            case events, diagnosis
            case nextCursor = "next_cursor"
        }

        /// `next_cursor` is always present, `null` on the last page.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(events, forKey: .events)
            try container.encode(nextCursor, forKey: .nextCursor)
            try container.encode(diagnosis, forKey: .diagnosis)
        }
    }

    /// The `limit` of a page of a trace: 1–`PassTrace.maximumPageSize`, 100 when absent.
    static func eventPageLimit(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return 100 }
        guard let limit = Int(text), (1...PassTrace.maximumPageSize).contains(limit) else {
            throw APIError.badRequest("'limit' must be a whole number 1–\(PassTrace.maximumPageSize)")
        }
        return limit
    }

    /// `GET /api/v2/passes/{tag_id}/events?limit=100&cursor=…`: a page of the pass's trace, oldest first, with the
    /// diagnosis of its newest events.
    @Sendable func events(request: Request, context: WalletRequestContext) async throws -> Response {
        let (clientID, attribute, value) = try await target(request, context: context)
        let query = request.uri.queryParameters
        let limit = try Self.eventPageLimit(request)
        let page = try await Self.answering { () -> EventPage in
            let target = try await management.repository.managedPass(
                clientID: clientID, attribute: attribute, value: value)
            let (events, next) = try await trace.events(
                passID: target.passID, cursor: query.get("cursor"), limit: limit)
            let diagnosis = try await trace.diagnosis(passID: target.passID)
            return EventPage(events: events, nextCursor: next, diagnosis: diagnosis)
        }
        return try JSONBody.response(page)
    }
}
