/// A request path as the request log shows it: what a path carries that must never reach a log is taken out.
enum LoggedPath {
    /// `path` with a landing page's or share link's token (`/wallet/add/<token>…`, `/wallet/pass/<token>`) replaced
    /// by `<redacted>`, and a Wallet device's library identifier (`/passkit/v1/devices/<device>/…`) by its
    /// ``DeviceIdentifierDigest``; any other path unchanged.
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
