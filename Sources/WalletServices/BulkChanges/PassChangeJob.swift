import Foundation

/// A bulk change of a client's passes as the API shows it: how far it got, and why the passes it could not change
/// failed.
package struct PassChangeJob: Codable, Hashable, Sendable {
    /// Where a job stands.
    package enum State: String, Codable, Hashable, Sendable {
        /// Items wait to be done.
        case running
        /// Every item is done: changed, skipped or failed.
        case finished
    }

    /// How the job names its passes.
    package enum Kind: String, Codable, Hashable, Sendable {
        /// One change of every pass that matches.
        case match
        /// A list of changes, each of one pass.
        case list
    }

    /// A pass the job could not change, and why.
    package struct Failure: Codable, Hashable, Sendable {
        /// The item's place in the job: the list's line (from 1), or the pass's place among those matched.
        package var item: Int
        /// The tag the line named (`reference_id: A-12`), or the pass's tag identifier.
        package var target: String
        /// Why it failed.
        package var reason: String

        /// Creates a failure.
        package init(item: Int, target: String, reason: String) {
            (self.item, self.target, self.reason) = (item, target, reason)
        }
    }

    /// The job's identifier.
    package var id: UUID
    /// How it names its passes.
    package var kind: Kind
    /// Whether it is done.
    package var state: State
    /// Its items: the passes the match found when the job was made, or the list's lines.
    package var total: Int
    /// The items done so far (changed, skipped or failed).
    package var done: Int { changed + skipped + failed }
    /// The items whose pass the job found and, for a match, whose fields matched.
    package var matched: Int
    /// The passes changed: re-signed at their next fetch, their devices pushed.
    package var changed: Int
    /// The passes the match found whose fields did not match.
    package var skipped: Int
    /// The items that failed: a tag not found, a change the pass cannot take.
    package var failed: Int
    /// The pushes queued to the changed passes' devices.
    package var pushes: Int
    /// When the job was made.
    package var createdAt: Date
    /// When its last item was done.
    package var finishedAt: Date?
    /// The first ``PassChangeJobs/listedFailures`` failures, in item order.
    package var failures: [Failure]

    /// Creates the view of a job.
    package init(
        id: UUID, kind: Kind, state: State, total: Int, matched: Int, changed: Int, skipped: Int, failed: Int,
        pushes: Int, createdAt: Date, finishedAt: Date?, failures: [Failure] = []
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.total = total
        self.matched = matched
        self.changed = changed
        self.skipped = skipped
        self.failed = failed
        self.pushes = pushes
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.failures = failures
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, state, total, done, matched, changed, skipped, failed, pushes, failures
        case createdAt = "created_at"
        case finishedAt = "finished_at"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(UUID.self, forKey: .id), kind: try container.decode(Kind.self, forKey: .kind),
            state: try container.decode(State.self, forKey: .state),
            total: try container.decode(Int.self, forKey: .total),
            matched: try container.decode(Int.self, forKey: .matched),
            changed: try container.decode(Int.self, forKey: .changed),
            skipped: try container.decode(Int.self, forKey: .skipped),
            failed: try container.decode(Int.self, forKey: .failed),
            pushes: try container.decode(Int.self, forKey: .pushes),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            finishedAt: try container.decodeIfPresent(Date.self, forKey: .finishedAt),
            failures: try container.decode([Failure].self, forKey: .failures))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(state, forKey: .state)
        try container.encode(total, forKey: .total)
        try container.encode(done, forKey: .done)
        try container.encode(matched, forKey: .matched)
        try container.encode(changed, forKey: .changed)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(failed, forKey: .failed)
        try container.encode(pushes, forKey: .pushes)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(finishedAt, forKey: .finishedAt)
        try container.encode(failures, forKey: .failures)
    }

    /// The job as the API answers it (the management API's JSON: dates as RFC 3339).
    package func encoded() throws -> Data { try ManagedPassState.encoder.encode(self) }
}
