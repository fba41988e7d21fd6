import Foundation
import Logging
import Secrets
import WalletDocuments
import WalletPasses

extension DeliveryDispatcher {
    /// Sends one Google Wallet write and records its result: a written or needless write leaves the outbox; one
    /// Google may take later (no answer, 429, 5xx, or a refusal of the service account, which an operator can fix)
    /// is sent again after the backoff (at least Google's `Retry-After`) until ``googleWriteLifetime`` after it was
    /// queued; one Google refused for its content, or too old, is kept as failed. Each result but a needless write
    /// goes in the pass's trace; logs name the pass, never Google's message (which may quote it).
    func send(_ write: PendingGoogleWrite) async {
        guard let google else { return }
        let result = await google.write(write)
        guard !Task.isCancelled else { return }
        var metadata: Logger.Metadata = ["pass_id": "\(write.passID)", "attempts": "\(write.attempts)"]
        do {
            switch result {
            case .written(let object, let details):
                try await google.outbox.completeGoogleWrite(write, wrote: object)
                logger.debug("Google Wallet object written", metadata: metadata)
                await traced(.googleWritten, write, details)
            case .skipped(let reason):
                try await google.outbox.completeGoogleWrite(write, wrote: nil)
                logger.debug(
                    "Google Wallet write not needed", metadata: metadata.merging(["reason": "\(reason)"]) { $1 })
            case .failed(let outcome):
                var details: [String: JSONValue] = ["attempt": .number(Double(write.attempts + 1))]
                let (reason, retryAfter, fixable): (String, Double?, Bool)
                switch outcome {
                case .done: return
                case .retry(let after, let why):
                    (reason, retryAfter, fixable) = (why, after, true)
                case .refused(let status, let why, let detail):
                    (reason, retryAfter, fixable) = (why, nil, status == 0 || status == 401 || status == 403)
                    details["status"] = .number(Double(status))
                    if let detail { details["detail"] = .string(detail) }
                    if fixable {
                        logger.error(
                            """
                            Google refused the pass type's service account, or its key cannot be read; check it with \
                            `coffer admin pass-type google show`
                            """,
                            metadata: metadata.merging(["status": "\(status)", "reason": "\(reason)"]) { $1 })
                    }
                }
                details["reason"] = .string(reason)
                metadata["reason"] = "\(reason)"
                let now = clock.now
                if !fixable || now.timeIntervalSince(write.createdAt) >= Self.googleWriteLifetime {
                    try await google.outbox.failGoogleWrite(write, now: now, error: reason)
                    logger.warning("a Google Wallet write is given up; it is kept as failed", metadata: metadata)
                    details["abandoned"] = .bool(true)
                } else {
                    let delay = max(retryAfter ?? 0, backoff(attempts: write.attempts))
                    try await google.outbox.retryGoogleWrite(
                        write, at: now.addingTimeInterval(delay), error: reason)
                    logger.notice(
                        "a Google Wallet write failed; it is sent again later",
                        metadata: metadata.merging(["retry_in": "\(Int(delay.rounded())) s"]) { $1 })
                    details["retry_in_seconds"] = .number(delay.rounded())
                }
                await traced(.googleFailed, write, details)
            }
        } catch {
            logger.warning(
                "recording a Google Wallet write's result failed; it is sent again when its lease runs out",
                metadata: metadata.merging(["error": "\(LoggedError.description(of: error))"]) { $1 })
        }
    }

    /// Records what became of `write` in its pass's trace.
    private func traced(_ kind: PassEvent.Kind, _ write: PendingGoogleWrite, _ details: [String: JSONValue]) async {
        guard let trace else { return }
        await trace.record(trace.event(kind, passID: write.passID, details: details))
    }
}
