import Foundation
import HTTPTypes
import Hummingbird
import Secrets
import WalletServices

/// Bulk changes for clients' backends: `POST /api/v2/passes/changes` makes a job (202, idempotent with an
/// `Idempotency-Key`) from a JSON match, JSON lines or CSV, and `GET /api/v2/jobs/{job_id}` shows how far it got.
/// Authenticated like the rest of the management API and scoped to the API user's client: another client's job is
/// 404.
struct PassChangeJobsController: Sendable {
    /// Finds the API user of a request's token.
    let apiTokens: any APITokenStore
    let jobs: PassChangeJobs
    /// Counts each API user's requests that cost signatures or deliveries: a job counts once.
    let changeLimiter: RateLimiter<UUID>
    /// The clients whose bulk change this replica is reading: one at a time each, so that a client's burst of large
    /// bodies holds at most one body's memory.
    private let reading = Locked<Set<UUID>>([])

    /// The path a bulk change is posted to.
    static let changesPath = "/api/v2/passes/changes"
    /// The path of the jobs.
    static let jobsPath = "/api/v2/jobs"

    func addRoutes(to router: Router<WalletRequestContext>) {
        router.post(RouterPath(Self.changesPath), use: submit)
        router.get(RouterPath(Self.jobsPath + "/{job_id}"), use: job)
    }

    @Sendable func submit(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await BasicCredentials.client(
            of: request, in: apiTokens, costs: true, limiter: changeLimiter)
        let key = try ManagementController.idempotencyKey(of: request)
        let mediaType = Self.mediaType(of: request)
        guard Self.mediaTypes.contains(mediaType) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "send application/json (a match), application/x-ndjson or text/csv (a list)")
        }
        guard reading.withLock({ $0.insert(clientID).inserted }) else {
            throw APIError(
                .tooManyRequests, code: "limit_reached",
                message: "this client is sending another bulk change: wait for its answer")
        }
        defer { reading.withLock { _ = $0.remove(clientID) } }
        // Refused before its body is read (the job's transaction counts again), unless it may be a retry, which
        // answers its first answer whatever runs now.
        let unfinished = key == nil ? try await jobs.store.unfinishedPassChangeJobs(clientID: clientID) : 0
        guard unfinished < NewPassChangeJob.maximumUnfinished else {
            throw APIError(
                .tooManyRequests, code: "limit_reached",
                message: "this client has as many bulk changes under way as it may: wait for one to finish")
        }
        // A match is one change; only a list may be long.
        let body = try await JSONBody.bytes(
            of: request,
            limit: mediaType == "application/json"
                ? PassChangeJobRequest.maximumChangeSize : PassChangeJobRequest.maximumBodySize)
        let stored = try await ManagementController.answering {
            let job: PassChangeJobRequest
            switch mediaType {
            case "application/json": job = try PassChangeJobRequest(json: body)
            case "text/csv": job = try PassChangeJobRequest(csv: body)
            default: job = try PassChangeJobRequest(jsonLines: body)
            }
            return try await jobs.submit(job, clientID: clientID, idempotencyKey: key)
        }
        var response = ManagementController.response(stored)
        if let made = try? JSONBody.decoder.decode(JobReference.self, from: stored.body) {
            response.headers[.location] = "\(Self.jobsPath)/\(made.id.uuidString.lowercased())"
        }
        return response
    }

    @Sendable func job(request: Request, context: WalletRequestContext) async throws -> Response {
        let clientID = try await BasicCredentials.client(
            of: request, in: apiTokens, costs: false, limiter: changeLimiter)
        guard let id = context.parameters.get("job_id").flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("a job with this identifier does not exist for this client")
        }
        let job = try await ManagementController.answering { try await jobs.job(id: id, clientID: clientID) }
        return JSONBody.response(encoded: try job.encoded())
    }

    /// The media types a bulk change may be sent as.
    static let mediaTypes: Set<String> = ["application/json", "application/x-ndjson", "text/csv"]

    /// The media type of the request's body, lowercased, without its parameters.
    static func mediaType(of request: Request) -> String {
        let value = request.headers[.contentType] ?? ""
        return value.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }

    /// The identifier of a job in an answer.
    private struct JobReference: Decodable {
        let id: UUID
    }
}
