import CofferTestSupport
import SecretsPlatform
import Testing

@Suite(
    "SecretsStack picks the platform's store and says why",
    .enabled(if: SecretServiceEnvironment.isEnabled, "needs a Secret Service (COFFER_TEST_SECRET_SERVICE=1)"))
struct SecretsStackTests {
    @Test("the platform default on Linux with a keyring is the Secret Service, and it says why")
    func platformDefault() throws {
        let selection = try SecretsStack.select()
        #expect(selection.kind == .secretService)
        #expect(selection.reason.contains("Secret Service"))
    }
}
