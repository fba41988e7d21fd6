import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("The locked device: reads that wait for the unlock, policies named by use, and a preflight that warns")
struct LockedDeviceTests {
    let keychain = makeKeychain()
    let clock = ManualClock()
    var backend: AppleKeychainBackend { AppleKeychainBackend(emulator: keychain) }

    func store(_ policy: AccessPolicy = .foregroundOnly, monitor: Bool = true) -> SecretsStore {
        let backend = backend
        return SecretsStore(
            backend: backend, configuration: SecretsConfiguration(service: "app", accessPolicy: policy),
            protectedData: monitor ? KeychainUnlockMonitor(backend: backend, clock: clock) : nil)
    }

    /// Waits (for real, briefly) until the read under test sleeps on the manual clock.
    func untilWaiting() async throws {
        for _ in 0..<2000 where clock.pendingSleeps == 0 { try await Task.sleep(for: .milliseconds(1)) }
        try #require(clock.pendingSleeps == 1)
    }

    @Test("a read that finds the device locked waits for the unlock, then reads")
    func waitsForUnlock() async throws {
        let store = store()
        try await store.save(Data("t".utf8), account: "token")
        keychain.setLocked(true)
        let read = Task { try await store.read(account: "token", waitingForUnlock: .seconds(20)) }
        try await untilWaiting()
        clock.advance(by: .seconds(5))
        try await untilWaiting()
        keychain.setLocked(false)
        clock.advance(by: .milliseconds(500))
        #expect(try await read.value == Data("t".utf8))
    }

    @Test("past the timeout it is locked; without a timeout or a monitor it is locked at once")
    func timesOut() async throws {
        let store = store()
        try await store.save(Data("t".utf8), account: "token")
        keychain.setLocked(true)
        let read = Task { try await store.read(account: "token", waitingForUnlock: .seconds(2)) }
        for _ in 0..<4 {
            try await untilWaiting()
            clock.advance(by: .milliseconds(500))
        }
        let locked = SecretsError.locked(
            "the Keychain (read app/token: the device is locked or the item needs the user)")
        await #expect(throws: locked) { try await read.value }
        await #expect(throws: locked) { try await store.read(account: "token") }
        await #expect(throws: locked) {
            try await self.store(monitor: false).read(account: "token", waitingForUnlock: .seconds(20))
        }
        #expect(clock.pendingSleeps == 0, "nothing waited")
    }

    @Test("backgroundWork reads while locked after the first unlock; foregroundOnly does not")
    func presets() async throws {
        let background = store(.backgroundWork)
        try await background.save(Data("b".utf8), account: "refresh")
        let foreground = AppleKeychainBackend(emulator: keychain)
        let query = SecretQuery<Data>(service: "front", account: "screen", accessPolicy: .foregroundOnly)
        try foreground.save(Data("f".utf8), for: query)
        keychain.reboot()
        await #expect(throws: SecretsError.self) { try await background.read(account: "refresh") }
        keychain.setLocked(false)
        keychain.setLocked(true)
        #expect(try await background.read(account: "refresh") == Data("b".utf8))
        #expect(throws: SecretsError.self) { try foreground.read(query) }
        #expect(AccessPolicy.backgroundWork.isReadableWhileLocked)
        #expect(!AccessPolicy.foregroundOnly.isReadableWhileLocked)
        #expect(!AccessPolicy.biometricThisDevice.isReadableWhileLocked)
    }

    @Test("neverLeavesThisDevice refuses to sync; biometricThisDevice is lost when the biometry changes")
    func deviceBound() throws {
        let backend = backend
        let syncing = SecretQuery<Data>(
            service: "app", account: "key", synchronizable: true, accessPolicy: .neverLeavesThisDevice)
        #expect(throws: SecretsError.self) { try backend.save(Data("k".utf8), for: syncing) }
        let bound = SecretQuery<Data>(service: "app", account: "key", accessPolicy: .biometricThisDevice)
        try backend.save(Data("k".utf8), for: bound)
        keychain.changeBiometryEnrollment()
        #expect(throws: SecretsError.biometryChanged(item: "the Keychain item app/key")) { try backend.read(bound) }
    }

    @Test("preflight warns of an item stored under another policy and says what it breaks")
    func preflightPolicyMismatch() throws {
        let backend = backend
        try backend.save(
            Data("{}".utf8), for: SecretQuery<Data>(service: "app", account: "token", accessPolicy: .foregroundOnly))
        try backend.save(
            Data("{}".utf8), for: SecretQuery<Data>(service: "app", account: "ok", accessPolicy: .backgroundWork))
        let store = AggregateSecretsStore(
            backend: backend, configuration: SecretsConfiguration(service: "app", accessPolicy: .backgroundWork))
        let mismatches = SecretsPreflight.run(on: store).filter { $0.kind == .policyMismatch }
        #expect(mismatches.map(\.account) == ["token"])
        #expect(mismatches.first?.level == .warn)
        #expect(mismatches.first?.message.contains("background reads while the device is locked fail") == true)
    }

    @Test("preflight never prompts: an item that needs the user is noted, not read")
    func preflightNeverPrompts() throws {
        let backend = backend
        let policy = AccessPolicy.biometricThisDevice
        try backend.save(
            Data("{}".utf8), for: SecretQuery<Data>(service: "vault", account: "key", accessPolicy: policy))
        let store = AggregateSecretsStore(
            backend: backend, configuration: SecretsConfiguration(service: "vault", accessPolicy: policy))
        let findings = SecretsPreflight.run(on: store)
        #expect(findings.contains { $0.kind == .needsUser && $0.account == "key" && $0.level == .info })
        #expect(!findings.contains { $0.level == .error })
        #expect(keychain.prompts.isEmpty)
    }
}
