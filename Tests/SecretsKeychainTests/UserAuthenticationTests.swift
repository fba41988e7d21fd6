import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("Items that need the user prompt as the app decides: once per context, never in the background")
struct UserAuthenticationTests {
    let keychain = makeKeychain()
    let clock = ManualClock()
    var backend: AppleKeychainBackend { AppleKeychainBackend(emulator: keychain) }

    static let biometric = AccessPolicy(accessibility: .whenUnlockedThisDeviceOnly, accessControl: .biometryAny)
    static let currentBiometry = AccessPolicy(
        accessibility: .whenUnlockedThisDeviceOnly, accessControl: .biometryCurrentSet)

    func query(
        _ account: String, policy: AccessPolicy = biometric, authentication: AuthenticationContext? = nil
    ) -> SecretQuery<Data> {
        SecretQuery(service: "vault", account: account, accessPolicy: policy, authentication: authentication)
    }

    /// Saves `accounts` with `policy` (adding an item never prompts).
    func seed(_ accounts: String..., policy: AccessPolicy = biometric) throws {
        for account in accounts { try backend.save(Data(account.utf8), for: query(account, policy: policy)) }
        #expect(keychain.prompts.isEmpty, "adding an item prompts for nothing")
    }

    func context(reuse: Duration? = nil, _ interaction: AuthenticationContext.Interaction = .allowed)
        -> AuthenticationContext
    {
        AuthenticationContext(reason: "Unlock your vault", reuseDuration: reuse, interaction: interaction, clock: clock)
    }

    @Test("reads made with one context prompt once, with its reason; without a context every read prompts")
    func onePromptPerContext() throws {
        try seed("token", "key")
        let unlock = context()
        #expect(try backend.read(query("token", authentication: unlock)) == Data("token".utf8))
        #expect(try backend.read(query("key", authentication: unlock)) == Data("key".utf8))
        #expect(keychain.prompts.map(\.reason) == ["Unlock your vault"])
        #expect(keychain.prompts.map(\.account) == ["token"])

        _ = try backend.read(query("token"))
        _ = try backend.read(query("key"))
        #expect(keychain.prompts.count == 3, "the system's default: a prompt per read")
    }

    @Test("a save that updates an item needing the user goes through the context too")
    func savesUseTheContext() throws {
        try seed("token")
        let unlock = context()
        try backend.save(Data("new".utf8), for: query("token", authentication: unlock))
        #expect(try backend.read(query("token", authentication: unlock)) == Data("new".utf8))
        #expect(keychain.prompts.count == 1)
    }

    @Test("once the reuse window has passed since the prompt, the next read prompts again")
    func reuseWindow() throws {
        try seed("token")
        let unlock = context(reuse: .seconds(30))
        _ = try backend.read(query("token", authentication: unlock))
        clock.advance(by: .seconds(29))
        _ = try backend.read(query("token", authentication: unlock))
        #expect(keychain.prompts.count == 1)
        clock.advance(by: .seconds(1))
        _ = try backend.read(query("token", authentication: unlock))
        #expect(keychain.prompts.count == 2)
        clock.advance(by: .seconds(29))
        _ = try backend.read(query("token", authentication: unlock))
        #expect(keychain.prompts.count == 2, "the window starts again at the new prompt")
    }

    @Test("a zero reuse window prompts for every read; invalidate() makes the next read prompt")
    func invalidation() throws {
        try seed("token")
        let every = context(reuse: .zero)
        _ = try backend.read(query("token", authentication: every))
        _ = try backend.read(query("token", authentication: every))
        #expect(keychain.prompts.count == 2)

        let unlock = context()
        _ = try backend.read(query("token", authentication: unlock))
        _ = try backend.read(query("token", authentication: unlock))
        #expect(keychain.prompts.count == 3)
        unlock.invalidate()
        _ = try backend.read(query("token", authentication: unlock))
        #expect(keychain.prompts.count == 4)
    }

    @Test("a context that may not prompt answers authenticationRequired and shows nothing; other items still read")
    func background() throws {
        try seed("token")
        try seed("settings", policy: .backgroundThisDeviceOnly)
        let background = AuthenticationContext.background()
        expectSecretsError("authenticationRequired") {
            _ = try backend.read(query("token", authentication: background))
        }
        expectSecretsError("authenticationRequired") {
            try backend.save(Data("x".utf8), for: query("token", authentication: background))
        }
        #expect(keychain.prompts.isEmpty)
        let settings = query("settings", policy: .backgroundThisDeviceOnly, authentication: background)
        #expect(try backend.read(settings) == Data("settings".utf8))
        #expect(try backend.read(query("token", authentication: context())) == Data("token".utf8), "nothing lost")
    }

    @Test("on a locked device the same refusal is locked, not authenticationRequired")
    func lockedDevice() throws {
        try seed("token")
        keychain.setLocked(true)
        expectSecretsError("locked") { _ = try backend.read(query("token", authentication: .background())) }
        keychain.setLocked(false)
        #expect(try backend.read(query("token", authentication: context())) == Data("token".utf8))
    }

    @Test("a cancelled prompt is authenticationCancelled and a failed one authenticationDenied; nothing is lost")
    func cancelAndDeny() throws {
        try seed("token")
        let unlock = context()
        keychain.respondToPrompts(.cancel, .deny)
        expectSecretsError("authenticationCancelled") { _ = try backend.read(query("token", authentication: unlock)) }
        expectSecretsError("authenticationDenied") { _ = try backend.read(query("token", authentication: unlock)) }
        #expect(try backend.read(query("token", authentication: unlock)) == Data("token".utf8))
        #expect(keychain.prompts.count == 3)
    }

    @Test("after the enrolled biometry changes, an item bound to it is biometryChanged; one for any biometry reads")
    func biometryChanged() throws {
        try seed("bound", policy: Self.currentBiometry)
        try seed("any")
        keychain.changeBiometryEnrollment()
        let unlock = context()
        expectSecretsError("biometryChanged") {
            _ = try backend.read(query("bound", policy: Self.currentBiometry, authentication: unlock))
        }
        #expect(try backend.read(query("any", authentication: unlock)) == Data("any".utf8))
        #expect(try backend.listAccounts(service: "vault", accessGroup: nil) == ["any", "bound"])
        #expect(try backend.delete(query("bound", policy: Self.currentBiometry)), "it can still be deleted")
    }

    @Test("the context is carried from SecretsStore.read onto the thread that reads; the store's is the default")
    func throughTheStore() async throws {
        let storeContext = context()
        let configuration = SecretsConfiguration(
            service: "vault", accessPolicy: Self.biometric, authentication: storeContext)
        let store = SecretsStore(backend: backend, configuration: configuration)
        try await store.save(Data("t".utf8), account: "token")
        #expect(try await store.read(account: "token") == Data("t".utf8))
        #expect(try await store.read(account: "token") == Data("t".utf8))
        #expect(keychain.prompts.count == 1, "the store's context prompted once")

        await #expect(throws: SecretsError.authenticationRequired(item: "the Keychain item vault/token")) {
            try await store.read(account: "token", authentication: .background())
        }
        let own = AuthenticationContext(reason: "Show the token", clock: clock)
        _ = try await store.read(account: "token", authentication: own)
        #expect(keychain.prompts.last?.reason == "Show the token")
    }

    @Test("a context's description shows its settings, never its reason")
    func description() {
        let unlock = AuthenticationContext(reason: "Unlock the account of jane@example.com", reuseDuration: .seconds(5))
        #expect(!unlock.description.contains("jane"))
        #expect(unlock.description.contains("5"))
        #expect(unlock == unlock && unlock != context(), "contexts are equal only to themselves")
    }
}
