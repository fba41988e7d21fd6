import WalletServices
/// A request path as the request log shows it: what a path carries that must never reach a log is taken out.
enum LoggedPath {
    /// The most segments of a path no route matched that the log keeps.
    static let unmatchedSegments = 3

    /// What the log shows of `path`: the pattern of the route the router matched (`/wallet/pass/{token}`), never
    /// the values its parameters hold (tokens, tag values, serial numbers, device identifiers); for a path no route
    /// matched, at most its first ``unmatchedSegments`` segments, empty ones folded as the router folds them, with a
    /// landing page's or share link's token replaced by `<redacted>`.
    static func logged(_ path: String, route: String?) -> String {
        if let route, route != "NotFound" { return route }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let kept = segments.prefix(unmatchedSegments).joined(separator: "/")
        let folded = "/" + kept + (segments.count > unmatchedSegments ? "/…" : "")
        return redacted(folded)
    }

    /// `path` with a landing page's or share link's token (`/wallet/add/<token>…`, `/wallet/pass/<token>`) replaced
    /// by `<redacted>`, and a Wallet device's library identifier (`/passkit/v1/devices/<device>/…`) by its
    /// `DeviceIdentifierDigest`; any other path unchanged.
    static func redacted(_ path: String) -> String {
        for tokenPath in [WebLinkService.landingPath, PassDistribution.sharePath] {
            if let rest = remainder(of: path, after: tokenPath) {
                return tokenPath + "<redacted>" + tail(of: rest)
            }
        }
        let devices = PassWebServiceController.mountPath + "/v1/devices/"
        if let rest = remainder(of: path, after: devices) {
            let device = rest.prefix { $0 != "/" }
            return devices + DeviceIdentifierDigest.logValue(String(device)) + tail(of: rest)
        }
        return path
    }

    /// What follows `prefix` in `path`, matched in any case (a token sent to a wrongly cased path is still a token).
    private static func remainder(of path: String, after prefix: String) -> Substring? {
        guard path.prefix(prefix.count).lowercased() == prefix else { return nil }
        return path.dropFirst(prefix.count)
    }

    /// `rest` from its first `/` on: the path after the segment that was replaced.
    private static func tail(of rest: Substring) -> Substring {
        rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
    }
}
