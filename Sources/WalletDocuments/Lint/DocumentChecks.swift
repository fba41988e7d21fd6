import Foundation

/// The checks a pass and an order share: texts, currency codes, the web service pair and the files' formats.
package enum DocumentChecks {
    /// The shortest `authenticationToken` Wallet accepts.
    package static let minimumAuthenticationTokenLength = 16

    /// Whether `text` is empty or only white space.
    package static func isBlank(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// Whether `text` is an ISO 4217 currency code, current or historic (`USD`, not `usd` or `USB`).
    package static func isCurrencyCode(_ text: String) -> Bool {
        currencyCodes.contains(text)
    }

    private static let currencyCodes = Set(Locale.Currency.isoCurrencies.map(\.identifier))

    /// Every string in `value`, nested ones included.
    package static func stringValues(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): [text]
        case .array(let values): values.flatMap(stringValues(in:))
        case .object(let object): object.values.flatMap(stringValues(in:))
        default: []
        }
    }

    /// The web service keys of a pass or an order: `webServiceURL` and `authenticationToken` go together, and the
    /// token is long enough.
    package static func checkWebServicePair(_ json: [String: JSONValue], in context: inout LintContext) {
        let hasURL = json["webServiceURL"] != nil
        let hasToken = json["authenticationToken"] != nil
        if hasURL != hasToken {
            context.error(
                "web-service.pair", hasURL ? "authenticationToken" : "webServiceURL",
                "webServiceURL and authenticationToken go together")
        }
        if case .string(let token)? = json["authenticationToken"], token.count < minimumAuthenticationTokenLength {
            context.error(
                "web-service.token", "authenticationToken",
                "is \(token.count) characters; Wallet needs at least \(minimumAuthenticationTokenLength)")
        }
    }

    /// What is wrong with one file of a document: a `.png` that is not a PNG image, a `.strings` table named
    /// `stringsFile` (`pass.strings`, `order.strings`) that Wallet cannot read.
    package static func checkFile(_ path: String, _ data: Data, stringsFile: String, in context: inout LintContext) {
        if path.hasSuffix(".png"), !data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            context.error("file.png", path, "is not a PNG image")
        }
        if path.hasSuffix("/" + stringsFile) {
            switch Result(catching: { () throws(StringsFile.ReadError) in try StringsFile(data: data) }) {
            case .success: break
            case .failure(.encoding(let reason)):
                context.error("strings.encoding", path, reason, fix: "save it as UTF-16 (or UTF-8)")
            case .failure(.syntax(let reason)): context.error("strings.syntax", path, reason)
            }
        }
    }
}
