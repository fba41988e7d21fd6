extension PassChecks {
    /// The checks of the update web service and the associated app.
    static func checkWebService(_ pass: Pass, in context: inout PassLintContext) {
        let hasURL = pass.json["webServiceURL"] != nil
        let hasToken = pass.json["authenticationToken"] != nil
        if hasURL != hasToken {
            context.error(
                "web-service.pair", hasURL ? "authenticationToken" : "webServiceURL",
                "webServiceURL and authenticationToken go together")
        }
        if let token = pass.authenticationToken, token.count < Pass.minimumAuthenticationTokenLength {
            context.error(
                "web-service.token", "authenticationToken",
                "is \(token.count) characters; Wallet needs at least \(Pass.minimumAuthenticationTokenLength)")
        }
        if pass.json["appLaunchURL"] != nil, pass.json["associatedStoreIdentifiers"] == nil {
            context.warning(
                "app.launch-url", "appLaunchURL", "is only passed to an app listed in associatedStoreIdentifiers")
        }
    }
}
