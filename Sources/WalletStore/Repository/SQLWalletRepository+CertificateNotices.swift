import Foundation
import SQLKit
import WalletServices

extension SQLWalletRepository {
    /// Records the notice's threshold for its certificate end and, when no replica recorded it before, queues one
    /// delivery to every endpoint taking `pass_type.certificate_expiring` of each client the pass type is shared
    /// with, in the same transaction: each threshold goes out once.
    package func queueCertificateNotice(_ notice: CertificateNotice) async throws -> Bool {
        let passTypeID = notice.passType.id.uuidString
        let end = Self.ms(notice.certificateEnd)
        return try await run {
            try await database.transaction { db in
                let recorded = try await db.insert(into: "pass_type_certificate_notices")
                    .columns("pass_type_id", "certificate_end", "threshold_days", "queued_at")
                    .values(
                        SQLBind(passTypeID), SQLBind(end), SQLBind(Int64(notice.thresholdDays)),
                        SQLBind(Self.ms(notice.now))
                    )
                    .ignoringConflicts(with: ["pass_type_id", "certificate_end", "threshold_days"])
                    .returning("pass_type_id").all()
                guard !recorded.isEmpty else { return false }
                let endpoints = try await db.select().columns(of: WebhookEndpointRow.self)
                    .from(WebhookEndpointRow.table)
                    .join(
                        PassTypeClientRow.table, on: PassTypeClientRow.column(.clientID), .equal,
                        WebhookEndpointRow.column(.clientID)
                    )
                    .where(PassTypeClientRow.column(.passTypeID), .equal, SQLBind(passTypeID))
                    .all(decoding: WebhookEndpointRow.self)
                let type = WebhookEventType.passTypeCertificateExpiring
                let deliveries = try endpoints.map { try $0.model() }.filter { $0.eventTypes.contains(type) }.map {
                    endpoint in
                    let body = Self.webhookBody(type: type, occurredAt: notice.now, data: notice.data)
                    return DeliveryOutboxRow(
                        passID: nil, passTypeID: notice.passType.id, endpointID: endpoint.id, eventID: body.eventID,
                        eventType: type, payload: body.payload, sequence: Self.ms(notice.now), now: notice.now)
                }
                if !deliveries.isEmpty { try await db.insert(deliveries).run() }
                return true
            }
        }
    }

    /// Forgets the notices of certificates that ended before `cutoff`.
    package func deleteCertificateNotices(endingBefore cutoff: Date) async throws {
        try await run {
            try await sql.delete(from: "pass_type_certificate_notices")
                .where("certificate_end", .lessThan, Self.ms(cutoff)).run()
        }
    }
}
