import CofferTestSupport
import Secrets
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
        #expect(selection.protectedData == nil, "a Linux keyring does not unlock by itself: nothing to wait for")
    }

    @Test("the shared store over the platform's: reads never wait for an unlock off Apple devices")
    func sharedStore() throws {
        let store = try SecretsStack.makeSharedStore()
        #expect(store.protectedData == nil)
        #expect(store.aggregateStore?.backends.first?.backendName == "secret-service")
    }
}
