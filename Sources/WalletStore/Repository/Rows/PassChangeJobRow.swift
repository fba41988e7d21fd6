import Foundation
import WalletPasses
import WalletServices

/// A row of `pass_change_jobs`: a bulk change, what it applies and its counts.
struct PassChangeJobRow: TableRow {
    /// The table the rows are in.
    static let table = "pass_change_jobs"

    /// The columns of `pass_change_jobs`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case clientID = "client_id"
        case kind
        case passTypeID = "pass_type_id"
        case matchFields = "match_fields"
        case change
        case total, matched, changed, skipped, failed, pushes
        case createdAt = "created_at"
        case workedAt = "worked_at"
        case finishedAt = "finished_at"
    }

    /// The job's identifier.
    var id: String
    /// The client whose passes it changes.
    var clientID: String
    /// `match` or `list` (``PassChangeJob/Kind``).
    var kind: String
    /// A match's pass type, if it names one.
    var passTypeID: String?
    /// A match's field values, as JSON.
    var matchFields: String?
    /// A match's change: a `PATCH` body.
    var change: String?
    /// Its items.
    var total: Int64
    /// The items whose pass was found and matched.
    var matched: Int64
    /// The passes changed.
    var changed: Int64
    /// The passes that did not match.
    var skipped: Int64
    /// The items that failed.
    var failed: Int64
    /// The pushes queued.
    var pushes: Int64
    /// When it was made, in milliseconds.
    var createdAt: Int64
    /// When a runner last took its items, in milliseconds: the job worked on longest ago goes next.
    var workedAt: Int64
    /// When its last item was done, in milliseconds.
    var finishedAt: Int64?

    /// The row of a new `job`, made at `now`, with no item counted yet.
    init(_ job: NewPassChangeJob, now: Date) throws {
        id = job.id.uuidString
        clientID = job.clientID.uuidString
        switch job.work {
        case .match(let match, let change):
            kind = PassChangeJob.Kind.match.rawValue
            passTypeID = match.passTypeID?.uuidString
            matchFields = String(decoding: try JSONEncoder().encode(match.fields), as: UTF8.self)
            self.change = String(decoding: change, as: UTF8.self)
        case .list:
            kind = PassChangeJob.Kind.list.rawValue
        }
        (total, matched, changed, skipped, failed, pushes) = (0, 0, 0, 0, 0, 0)
        createdAt = SQLWalletRepository.ms(now)
        workedAt = createdAt
        finishedAt = nil
    }

    /// The job's match, for a match job.
    func match() throws -> PassChangeMatch? {
        guard kind == PassChangeJob.Kind.match.rawValue else { return nil }
        do {
            return PassChangeMatch(
                passTypeID: try passTypeID.map { try Self.uuid($0, .passTypeID) },
                fields: try JSONDecoder().decode([String: PassField.Value].self, from: Data((matchFields ?? "{}").utf8))
            )
        } catch let error as WalletServerError {
            throw error
        } catch {
            throw WalletServerError.corruptRecord("job \(id)'s match")
        }
    }

    /// The job as the API shows it, without its failures.
    func model() throws -> PassChangeJob {
        guard let kind = PassChangeJob.Kind(rawValue: kind) else {
            throw WalletServerError.corruptRecord("job \(id)'s kind '\(self.kind)'")
        }
        return PassChangeJob(
            id: try Self.uuid(id, .id), kind: kind, state: finishedAt == nil ? .running : .finished,
            total: Int(total), matched: Int(matched), changed: Int(changed), skipped: Int(skipped),
            failed: Int(failed), pushes: Int(pushes), createdAt: SQLWalletRepository.date(createdAt),
            finishedAt: finishedAt.map(SQLWalletRepository.date))
    }
}
