extension PassChecks {
    /// The web service keys of a pass or an order: `webServiceURL` and `authenticationToken` go together, and the
    /// token is long enough.
    static func checkWebServicePair(_ json: [String: JSONValue], in context: inout PassLintContext) {
        let hasURL = json["webServiceURL"] != nil
        let hasToken = json["authenticationToken"] != nil
        if hasURL != hasToken {
            context.error(
                "web-service.pair", hasURL ? "authenticationToken" : "webServiceURL",
                "webServiceURL and authenticationToken go together")
        }
        if case .string(let token)? = json["authenticationToken"], token.count < Pass.minimumAuthenticationTokenLength {
            context.error(
                "web-service.token", "authenticationToken",
                "is \(token.count) characters; Wallet needs at least \(Pass.minimumAuthenticationTokenLength)")
        }
    }

    /// The checks of the update web service and the associated app.
    static func checkWebService(_ pass: Pass, in context: inout PassLintContext) {
        checkWebServicePair(pass.json, in: &context)
        if pass.json["webServiceURL"] != nil {
            for key in ["passTypeIdentifier", "serialNumber"] {
                guard case .string(let text)? = pass.json[key], !text.isEmpty,
                    let problem = WebServiceIdentifier.problem(text)
                else { continue }
                context.error("web-service.identifier", key, "\(problem), so Wallet cannot ask for updates")
            }
        }
        if pass.json["appLaunchURL"] != nil, pass.json["associatedStoreIdentifiers"] == nil {
            context.warning(
                "app.launch-url", "appLaunchURL", "is only passed to an app listed in associatedStoreIdentifiers")
        }
    }
}
