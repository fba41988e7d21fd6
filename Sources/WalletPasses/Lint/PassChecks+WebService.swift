import WalletDocuments

extension PassChecks {
    /// The checks of the update web service and the associated app.
    static func checkWebService(_ pass: Pass, in context: inout LintContext) {
        DocumentChecks.checkWebServicePair(pass.json, in: &context)
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
