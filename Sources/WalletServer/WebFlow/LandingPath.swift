/// Landing-page paths carry their link's token, which must never reach a log.
enum LandingPath {
    /// `path` with the token of a landing-page path (`/wallet/add/<token>…`) replaced by `<redacted>`; any other
    /// path unchanged.
    static func redacted(_ path: String) -> String {
        let prefix = WebLinkService.landingPath
        // Any case: a token sent to a wrongly cased path is still a token.
        guard path.prefix(prefix.count).lowercased() == prefix else { return path }
        let rest = path.dropFirst(prefix.count)
        let tail = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        return prefix + "<redacted>" + tail
    }
}
