import Foundation
import Secrets
import WalletDocuments

extension PassChecks {
    /// The checks of upcoming entries: unique identifiers, their images' downloads, their fields.
    static func checkUpcomingEntries(_ pass: Pass, in context: inout LintContext) {
        var seen: Set<String> = []
        for (index, entry) in (pass.upcomingPassInformation ?? []).enumerated() {
            let path = "upcomingPassInformation[\(index)]"
            if entry.json["identifier"] != nil, !seen.insert(entry.identifier).inserted {
                context.error(
                    "upcoming.identifier", "\(path).identifier",
                    "'\(entry.identifier)' is used by another entry; identifiers must be unique")
            }
            let fields = PassFields(
                json: [
                    "backFields": entry.json["backFields"], "additionalInfoFields": entry.json["additionalInfoFields"],
                ].compactMapValues { $0 })
            check(fields, style: .eventTicket, at: path, in: &context)
            for role in ["headerImage", "venueMap"] {
                guard let image: PassUpcomingEntry.Image = entry.images?[role] else { continue }
                for (urlIndex, url) in (image.urls ?? []).enumerated() {
                    let urlPath = "\(path).images.\(role).URLs[\(urlIndex)]"
                    if url.json["SHA256"] != nil,
                        !(url.sha256.utf8.count == 64 && Hex.isValid(url.sha256, maximumLength: 64))
                    {
                        context.error("upcoming.image-hash", "\(urlPath).SHA256", "must be the image's SHA-256 in hex")
                    }
                    if let size = url.size, size > PassUpcomingEntry.ImageURL.maximumSize {
                        context.error(
                            "upcoming.image-size", "\(urlPath).size",
                            "is \(size) bytes; Wallet downloads images of at most 2 MB")
                    }
                }
            }
        }
    }
}
