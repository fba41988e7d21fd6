import WalletDocuments

extension PassChecks {
    /// The checks of featured actions: unique identifiers, a link for each.
    static func checkFeaturedActions(_ pass: Pass, in context: inout LintContext) {
        var seen: Set<String> = []
        for (index, action) in (pass.featuredActions ?? []).enumerated() {
            let path = "featuredActions[\(index)]"
            if action.json["identifier"] != nil, !seen.insert(action.identifier).inserted {
                context.error(
                    "featured-action.identifier", "\(path).identifier",
                    "'\(action.identifier)' is used by another action; identifiers must be unique")
            }
            if action.json["url"] == nil {
                context.error("featured-action.url", "\(path).url", "is required: the link the action opens")
            }
        }
    }
}
