import CofferTestSupport
import Foundation
@_spi(Testing) import Secrets
import Testing

@Suite("An encrypted store's keys: re-key, authenticated header, rollback detection, PBKDF2 floor, format 1")
struct EncryptedStoreKeyLifecycleTests {
    let directory: TemporaryDirectory
    var storeURL: URL { directory.appending("store") }
    var headerURL: URL { storeURL.appendingPathComponent("store.json") }
    var itemsURL: URL { storeURL.appendingPathComponent("items") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func open(_ passphrase: Passphrase = "first passphrase", options: EncryptedFileBackend.Options? = nil) throws
        -> EncryptedFileBackend
    {
        try EncryptedFileBackend(
            directory: storeURL, key: .passphrase(passphrase), options: options ?? .weakKeyDerivationForTesting())
    }

    func query(_ account: String) -> SecretQuery<Data> { SecretQuery(service: "svc", account: account) }
    func value(_ account: String) -> Data { Data("value of \(account)".utf8) }

    func populate(_ backend: EncryptedFileBackend, _ accounts: [String]) throws {
        for account in accounts { try backend.save(value(account), for: query(account)) }
    }

    func itemNames() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: itemsURL.path))
    }

    func header() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: headerURL)) as? [String: Any] ?? [:]
    }

    func editHeader(_ edit: (inout [String: Any]) -> Void) throws {
        var object = try header()
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: headerURL)
    }

    // MARK: Re-key

    @Test("rekey moves every item under a new master key; an old header or the old passphrase opens none")
    func rekeyRevokesTheOldPassphrase() throws {
        let backend = try open()
        let accounts = (0..<8).map { "item/\($0)" }
        try populate(backend, accounts)
        let oldHeader = try Data(contentsOf: headerURL)
        let oldNames = try itemNames()

        let result = try backend.rekey(to: .passphrase("second passphrase"))

        #expect(result == RotationResult(resealed: 8, quarantined: []))
        #expect(try itemNames().isDisjoint(with: oldNames), "file names come from the new master key")
        #expect(throws: SecretsError.wrongPassphrase(store: storeURL.path)) { try open() }
        let reopened = try open("second passphrase")
        for account in accounts { #expect(try reopened.read(query(account)) == value(account)) }
        #expect(try reopened.listAccounts(service: "svc", accessGroup: nil) == accounts.sorted())

        // Someone who kept the old header and learns the old passphrase unlocks it, and reads nothing.
        try oldHeader.write(to: headerURL)
        let attacker = try open()
        for account in accounts { #expect((try? attacker.read(query(account))) == nil) }
    }

    @Test("a re-key stopped half-way leaves every item readable under the new key; running it again finishes it")
    func interruptedRekey() throws {
        struct Stop: Error {}
        let backend = try open()
        let accounts = (0..<10).map { "item/\($0)" }
        try populate(backend, accounts)
        let oldNames = try itemNames()
        #expect(throws: Stop.self) {
            try backend.rekey(to: .passphrase("second passphrase")) { if $0.completed == 4 { throw Stop() } }
        }
        #expect(throws: SecretsError.wrongPassphrase(store: storeURL.path)) { try open() }
        let reopened = try open("second passphrase")
        #expect(try reopened.isRotationIncomplete)
        for account in accounts { #expect(try reopened.read(query(account)) == value(account)) }
        #expect(try reopened.listAccounts(service: "svc", accessGroup: nil) == accounts.sorted())
        try reopened.save(Data("changed mid-way".utf8), for: query("item/9"))
        try reopened.save(Data("new mid-way".utf8), for: query("item/new"))
        let unmoved = try itemNames().intersection(oldNames).count
        #expect((5...6).contains(unmoved), "4 moved, and item 9 too if it was still under its old name")

        let finished = try reopened.rekey(to: .passphrase("second passphrase"))

        #expect(finished.resealed == unmoved)
        #expect(try reopened.isRotationIncomplete == false)
        #expect(try itemNames().count == 11, "no copy is left under an old name")
        let last = try open("second passphrase")
        #expect(try last.read(query("item/9")) == Data("changed mid-way".utf8))
        #expect(try last.read(query("item/new")) == Data("new mid-way".utf8))
        for account in accounts.dropLast() { #expect(try last.read(query(account)) == value(account)) }
    }

    @Test("an instance opened before another one re-keyed the store is told to open it again")
    func otherInstancesMustReopen() throws {
        let first = try open()
        let second = try open()
        try populate(first, ["a"])
        try first.rekey(to: .passphrase("second passphrase"))
        #expect {
            _ = try second.read(self.query("a"))
        } throws: { error in
            guard case SecretsError.unavailable(let reason) = error else { return false }
            return reason.contains("re-keyed")
        }
        #expect(throws: SecretsError.self) { try second.save(Data("x".utf8), for: self.query("b")) }
    }

    // MARK: Authenticated header

    @Test("an edited header fails authentication", arguments: HeaderEdit.allCases)
    func editedHeader(_ edit: HeaderEdit) throws {
        let backend = try open()
        try populate(backend, ["a"])
        let retired = try header()
        try backend.rotateKey()
        try editHeader { edit.apply(to: &$0, retired: retired) }
        #expect {
            _ = try open()
        } throws: { error in
            guard case SecretsError.corruptData(let what) = error else { return false }
            return what.contains("authentication") || what.contains("version 1")
        }
    }

    // MARK: Rollback

    @Test("an older store.json put back behind items written after it is reported as a rollback")
    func olderHeaderBehindNewerItems() throws {
        let backend = try open()
        try populate(backend, ["old"])
        let oldHeader = try Data(contentsOf: headerURL)
        try backend.changePassphrase(to: "second passphrase")
        try populate(backend, ["new"])

        try oldHeader.write(to: headerURL)

        let restored = try open()
        #expect(try restored.read(query("old")) == value("old"))
        #expect {
            _ = try restored.read(self.query("new"))
        } throws: { error in
            if case SecretsError.rolledBack = error { true } else { false }
        }
    }

    @Test("an open store refuses a header older than one it has already seen")
    func olderHeaderWhileOpen() throws {
        let backend = try open()
        try populate(backend, ["a"])
        let oldHeader = try Data(contentsOf: headerURL)
        try backend.rotateKey()
        try oldHeader.write(to: headerURL)
        #expect {
            try backend.save(Data("b".utf8), for: self.query("b"))
        } throws: { error in
            if case SecretsError.rolledBack = error { true } else { false }
        }
    }

    // MARK: PBKDF2

    @Test("a new store or passphrase needs 100,000 PBKDF2 iterations unless the test-only switch is on")
    func iterationFloor() throws {
        var weak = EncryptedFileBackend.Options(iterations: 99_999)
        #expect(throws: SecretsError.self) { try open(options: weak) }
        #expect(!FileManager.default.fileExists(atPath: headerURL.path))
        weak.allowsWeakIterationsForTesting = true
        let backend = try open(options: weak)
        #expect(try header()["masterKey"].flatMap { ($0 as? [String: Any])?["iterations"] as? Int } == 99_999)
        #expect(throws: SecretsError.self) { try open(options: .init(iterations: 10)).changePassphrase(to: "x") }
        #expect(throws: SecretsError.self) {
            try open(options: .init(iterations: 20_000_000)).changePassphrase(to: "x")
        }
        try backend.save(Data("kept".utf8), for: query("a"))
        #expect(try open().read(query("a")) == Data("kept".utf8))
    }

    @Test("a passphrase change never lowers the iteration count, and raises a weak one to the requested count")
    func rewrapNeverLowers() throws {
        func iterations() throws -> Int? {
            try header()["masterKey"].flatMap { ($0 as? [String: Any])?["iterations"] as? Int }
        }
        _ = try open(options: .init(iterations: 150_000))
        try open(options: .init(iterations: 100_000)).changePassphrase(to: "second passphrase")
        #expect(try iterations() == 150_000, "the store's count, above the 100,000 asked for")
        try open("second passphrase", options: .init(iterations: 250_000)).changePassphrase(to: "third passphrase")
        #expect(try iterations() == 250_000)
        try open("third passphrase", options: .init(iterations: 100_000)).rekey(to: .passphrase("fourth passphrase"))
        #expect(try iterations() == 250_000, "a re-key keeps the count too")
    }

    // MARK: Format 1

    @Test("a version 1 store opens, reads, and is rewritten with an authenticated version 2 header")
    func versionOneUpgrades() throws {
        let old = VersionOneStore(directory: storeURL, passphrase: "old store")
        try old.write(items: ["a": "first", "b": "second"])
        let v1Item = try Data(contentsOf: itemsURL.appendingPathComponent(old.fileName(ofAccount: "a")))

        let backend = try open("old store")

        #expect(try backend.read(query("a")) == Data("first".utf8))
        #expect(try backend.listAccounts(service: "svc", accessGroup: nil) == ["a", "b"])
        let upgraded = try header()
        #expect(upgraded["version"] as? Int == 2 && upgraded["mac"] != nil && upgraded["generation"] as? Int == 1)
        try backend.save(Data("third".utf8), for: query("c"))
        try backend.rotateKey()
        #expect(try open("old store").read(query("b")) == Data("second".utf8))
        #expect(try open("old store").read(query("c")) == Data("third".utf8))
        #expect(try Data(contentsOf: itemsURL.appendingPathComponent(old.fileName(ofAccount: "a"))) != v1Item)

        // The upgraded header, turned back into version 1 by hand, no longer unlocks: the master key's wrap
        // names the version.
        try editHeader { header in
            header["version"] = 1
            for field in ["mac", "generation", "masterKeyID"] { header[field] = nil }
        }
        #expect(throws: SecretsError.self) { try open("old store") }
    }
}

/// Edits of an authenticated header that must not go unnoticed.
enum HeaderEdit: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Switch the cipher of new items.
    case itemAlgorithm
    /// Make the data key retired by the last rotation current again.
    case retiredDataKeyMadeCurrent
    /// Drop the MAC and claim version 1.
    case downgraded
    /// Claim another generation.
    case generation

    var testDescription: String { rawValue }

    func apply(to header: inout [String: Any], retired: [String: Any]) {
        switch self {
        case .itemAlgorithm:
            header["itemAlgorithm"] = "chacha20-poly1305"
        case .retiredDataKeyMadeCurrent:
            let old = retired["dataKeys"] as? [Any] ?? []
            header["dataKeys"] = (header["dataKeys"] as? [Any] ?? []) + old
            header["currentDataKeyID"] = retired["currentDataKeyID"]
        case .downgraded:
            header["version"] = 1
            header["mac"] = nil
        case .generation:
            header["generation"] = (header["generation"] as? Int ?? 0) + 10
        }
    }
}
