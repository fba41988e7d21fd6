import Foundation

extension PassEvent: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, kind, device, summary, details
        case occurredAt = "occurred_at"
    }

    /// The event as the API and `coffer admin pass trace --json` show it: `id` (a string, the cursor of the page that
    /// ends here), `occurred_at` (RFC 3339), `kind`, `device` (present, `null` when none), `summary` and `details`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(id), forKey: .id)
        try container.encode(PassTrace.time(occurredAt), forKey: .occurredAt)
        try container.encode(kind, forKey: .kind)
        try container.encode(device, forKey: .device)
        try container.encode(summary, forKey: .summary)
        try container.encode(details, forKey: .details)
    }
}
