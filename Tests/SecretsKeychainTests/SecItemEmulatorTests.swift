import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("The SecItem emulator keeps the Keychain's rules")
struct SecItemEmulatorTests {
    let keychain = SecItemEmulator(defaultAccessGroup: "TEAM.app", otherAccessGroups: ["TEAM.shared"])

    func item(
        _ account: String, group: String? = nil, synchronizable: KeychainQuery.Synchronizability? = nil
    ) -> KeychainQuery {
        KeychainQuery(
            service: "s", account: account, accessGroup: group, synchronizable: synchronizable, data: Data(account.utf8)
        )
    }

    @Test("same service, account, group and synchronizable flag is a duplicate; the other flag is not")
    func primaryKey() {
        #expect(keychain.add(item("a")) == .success)
        #expect(keychain.add(item("a")) == .duplicateItem)
        #expect(keychain.add(item("a", group: "TEAM.app")) == .duplicateItem, "no group is the default group")
        #expect(keychain.add(item("a", synchronizable: .synchronizable)) == .success)
        #expect(keychain.add(item("a", group: "TEAM.shared")) == .success)
        #expect(keychain.count == 3)
    }

    @Test("no synchronizable sees local items, any sees both; no access group sees every entitled group")
    func matching() throws {
        _ = keychain.add(item("local"))
        _ = keychain.add(item("synced", synchronizable: .synchronizable))
        _ = keychain.add(item("shared", group: "TEAM.shared"))
        func accounts(_ query: KeychainQuery) throws -> [String] {
            var query = query
            query.matchLimit = .all
            query.returnAttributes = true
            return try keychain.copyMatching(query).get().map(\.account).sorted()
        }
        #expect(try accounts(KeychainQuery(service: "s")) == ["local", "shared"])
        #expect(try accounts(KeychainQuery(service: "s", synchronizable: .any)) == ["local", "shared", "synced"])
        #expect(try accounts(KeychainQuery(service: "s", synchronizable: .synchronizable)) == ["synced"])
        #expect(try accounts(KeychainQuery(service: "s", accessGroup: "TEAM.shared")) == ["shared"])
    }

    @Test("no match is itemNotFound; data with match limit all is errSecParam; an unentitled group is refused")
    func statuses() {
        #expect(keychain.copyMatching(KeychainQuery(service: "s", account: "none")) == .failure(.init(.itemNotFound)))
        #expect(
            keychain.copyMatching(KeychainQuery(service: "s", matchLimit: .all, returnData: true))
                == .failure(.init(.param)))
        #expect(keychain.add(item("x", group: "OTHER.group")) == .missingEntitlement)
        #expect(keychain.delete(KeychainQuery(service: "s", account: "none")) == .itemNotFound)
        #expect(
            keychain.update(KeychainQuery(service: "s", account: "none"), with: KeychainQuery(data: Data()))
                == .itemNotFound)
    }

    @Test("a this-device-only or access-controlled item cannot sync")
    func syncRules() {
        var deviceOnly = item("d", synchronizable: .synchronizable)
        deviceOnly.accessibility = .whenUnlockedThisDeviceOnly
        #expect(keychain.add(deviceOnly) == .param)
        var controlled = item("c", synchronizable: .synchronizable)
        controlled.accessControl = .userPresence
        #expect(keychain.add(controlled) == .param)
    }
}
