@testable import CredentialStoreExample
import Foundation
import Secrets
import Testing

@Suite("Secrets never print")
struct RedactionTests {
    static let secret = "sk-live-THIS-MUST-NOT-PRINT"

    @Test("description, debugDescription, interpolation and dump of a secret show <redacted>")
    func secretTypesAreRedacted() {
        let value = OpenAISecret(apiKey: Self.secret, organization: "org-visible?")
        var dumped = ""
        dump(value, to: &dumped)
        for text in [value.description, value.debugDescription, "\(value)", String(reflecting: value), dumped] {
            #expect(!text.contains(Self.secret), "\(text)")
            #expect(!text.contains("org-visible"))
        }
        #expect(value.description == "<redacted>")
        #expect(dumped.contains("<redacted>"))
    }

    @Test("a passphrase prints as <redacted>")
    func passphraseIsRedacted() {
        let passphrase = Passphrase(Self.secret)
        var dumped = ""
        dump(passphrase, to: &dumped)
        for text in ["\(passphrase)", String(reflecting: passphrase), dumped, "\(KeySource.passphrase(passphrase))"] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
    }

    @Test("a decoding error names the field, not the value")
    func decodingErrorsDoNotLeakValues() throws {
        let store = AggregateSecretsStore(backend: InMemoryBackend())
        try store.saveData(Data(#"{"apiKey": 42, "leak": "\#(Self.secret)"}"#.utf8), account: "ai/openai")
        #expect {
            _ = try store.read(OpenAISecret.id)
        } throws: { error in
            let text = "\(error)"
            return text.contains("apiKey") && !text.contains(Self.secret) && !text.contains("42")
        }
    }
}
