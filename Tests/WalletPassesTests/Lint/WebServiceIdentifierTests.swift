import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("WebServiceIdentifier: what Wallet can carry in a web service path, unescaped")
struct WebServiceIdentifierTests {
    @Test(
        "printable ASCII other than / ? # % is taken",
        arguments: [
            "ORDER-0001", "order.com.example.shop", "a_b.c~d", "x!$&'()*+,;=:@", String(repeating: "x", count: 256),
        ]
    )
    func taken(_ identifier: String) {
        #expect(WebServiceIdentifier.problem(identifier) == nil)
    }

    @Test(
        "an empty, long, non-ASCII or path-changing identifier is refused, naming the character",
        arguments: [
            ("", "is empty"), (String(repeating: "x", count: 257), "longer than 256"), ("commande-été", "\\u{00E9}"),
            (String(repeating: "é", count: 200), "\\u{00E9}"),
            ("a b", "' '"), ("a/b", "'/'"), ("a?b", "'?'"), ("a#b", "'#'"), ("50%", "'%'"), ("a\u{7F}", "\\u{7F}"),
        ])
    func refused(_ identifier: String, _ named: String) throws {
        let problem = try #require(WebServiceIdentifier.problem(identifier))
        #expect(problem.contains(named), "\(problem)")
    }
}
