import CofferTestSupport
import Crypto
import Foundation
@_spi(Testing) import Secrets
import Testing

@Suite("EncryptedFileBackend keeps secrets confidential, authentic and recoverable")
struct EncryptedFileBackendTests {
    let directory: TemporaryDirectory
    var storeURL: URL { directory.appending("store") }
    var itemsURL: URL { storeURL.appendingPathComponent("items") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    func open(
        _ passphrase: Passphrase = "correct horse", algorithm: EncryptionAlgorithm = .aes256GCM,
        create: Bool = true, maximumValueSize: Int = 16 * 1024 * 1024
    ) throws -> EncryptedFileBackend {
        try EncryptedFileBackend(
            directory: storeURL, key: .passphrase(passphrase),
            options: .weakKeyDerivationForTesting(
                createIfMissing: create, algorithm: algorithm, maximumValueSize: maximumValueSize))
    }

    func query(_ account: String) -> SecretQuery<Data> { SecretQuery(service: "svc", account: account) }

    func itemFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: itemsURL, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "item" }.sorted { $0.path < $1.path }
    }

    /// Saves `accounts` (value = the account's name) and returns the file that holds each.
    func populate(_ backend: EncryptedFileBackend, _ accounts: [String]) throws -> [String: URL] {
        var files: [String: URL] = [:]
        for account in accounts {
            let before = Set(try itemFiles())
            try backend.save(Data("value of \(account)".utf8), for: query(account))
            files[account] = Set(try itemFiles()).subtracting(before).first
        }
        return files
    }

    // MARK: Unlocking

    @Test("a wrong passphrase is a typed error and changes nothing")
    func wrongPassphrase() throws {
        try open().save(Data("v".utf8), for: query("a"))
        let header = try Data(contentsOf: storeURL.appendingPathComponent("store.json"))
        #expect(throws: SecretsError.wrongPassphrase(store: storeURL.path)) { try open("wrong horse") }
        #expect(try Data(contentsOf: storeURL.appendingPathComponent("store.json")) == header)
        #expect(try open().read(query("a")) == Data("v".utf8))
    }

    @Test("a store protected by a passphrase refuses a key file with a clear message")
    func wrongKeyKind() throws {
        _ = try open()
        let keyFile = directory.appending("key")
        try EncryptedFileBackend.createKeyFile(at: keyFile)
        #expect {
            _ = try EncryptedFileBackend(directory: storeURL, key: .keyFile(keyFile))
        } throws: { "\($0)".contains("protected by a passphrase") }
    }

    @Test("a key file unlocks its store; another key file, a short one or a missing one do not")
    func keyFiles() throws {
        let keyFile = directory.appending("key")
        let otherKey = directory.appending("other-key")
        try EncryptedFileBackend.createKeyFile(at: keyFile)
        try EncryptedFileBackend.createKeyFile(at: otherKey)
        #expect(throws: SecretsError.self) { try EncryptedFileBackend.createKeyFile(at: keyFile) }
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        try EncryptedFileBackend(directory: storeURL, key: .keyFile(keyFile)).save(Data("v".utf8), for: query("a"))
        #expect(
            try EncryptedFileBackend(directory: storeURL, key: .keyFile(keyFile)).read(query("a")) == Data("v".utf8))
        #expect(throws: SecretsError.wrongKey(store: storeURL.path)) {
            try EncryptedFileBackend(directory: storeURL, key: .keyFile(otherKey))
        }
        let shortKey = directory.appending("short-key")
        try Data(repeating: 1, count: 16).write(to: shortKey)
        #expect(throws: SecretsError.self) { try EncryptedFileBackend(directory: storeURL, key: .keyFile(shortKey)) }
        #expect {
            try EncryptedFileBackend(directory: storeURL, key: .keyFile(directory.appending("absent")))
        } throws: { error in
            guard case SecretsError.unavailable = error else { return false }
            return true
        }
    }

    @Test("a raw 256-bit key (as kept in a platform keychain) unlocks the store")
    func rawKey() throws {
        let key = SymmetricKey(size: .bits256)
        try EncryptedFileBackend(directory: storeURL, key: .key(key)).save(Data("v".utf8), for: query("a"))
        #expect(try EncryptedFileBackend(directory: storeURL, key: .key(key)).read(query("a")) == Data("v".utf8))
        #expect(throws: SecretsError.wrongKey(store: storeURL.path)) {
            try EncryptedFileBackend(directory: storeURL, key: .key(SymmetricKey(size: .bits256)))
        }
    }

    @Test("an empty passphrase is refused")
    func emptyPassphrase() {
        #expect(throws: SecretsError.self) { try open("") }
        #expect(!FileManager.default.fileExists(atPath: storeURL.appendingPathComponent("store.json").path))
    }

    // MARK: Creation

    @Test("a store is not created in a directory that holds other files")
    func refusesForeignDirectory() throws {
        try FileManager.default.createDirectory(at: storeURL, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: storeURL.appendingPathComponent("notes.txt"))
        #expect { try open() } throws: { "\($0)".contains("not empty") }
        #expect(try Data(contentsOf: storeURL.appendingPathComponent("notes.txt")) == Data("mine".utf8))
    }

    @Test("without createIfMissing, an absent store is unavailable and nothing is created")
    func noImplicitCreation() {
        #expect(throws: SecretsError.unavailable("there is no store at \(storeURL.path)")) { try open(create: false) }
        #expect(!FileManager.default.fileExists(atPath: storeURL.path))
    }

    @Test("the store directory is 0700 and every file in it 0600")
    func permissions() throws {
        _ = try populate(try open(), ["a", "b"])
        func mode(_ url: URL) throws -> Int {
            try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! NSNumber).intValue
        }
        #expect(try mode(storeURL) == 0o700)
        #expect(try mode(itemsURL) == 0o700)
        #expect(try mode(storeURL.appendingPathComponent("store.json")) == 0o600)
        for file in try itemFiles() { #expect(try mode(file) == 0o600) }
    }

    @Test("neither file names nor file contents reveal accounts or values")
    func confidentiality() throws {
        let backend = try open()
        try backend.save(Data("PLAINTEXT-VALUE".utf8), for: query("brokers/schwab/credentials"))
        for file in try itemFiles() {
            #expect(!file.lastPathComponent.contains("schwab"))
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data("schwab".utf8)) == nil)
            #expect(bytes.range(of: Data("PLAINTEXT-VALUE".utf8)) == nil)
        }
        let header = try Data(contentsOf: storeURL.appendingPathComponent("store.json"))
        #expect(header.range(of: Data("schwab".utf8)) == nil)
    }

    // MARK: Damage

    @Test("a flipped byte anywhere in an item fails that item only", arguments: [0, 4, 5, 6, 10, 14, 20, 60, -1])
    func flippedByte(offset: Int) throws {
        let backend = try open()
        let files = try populate(backend, ["victim", "bystander/one", "bystander/two"])
        var bytes = try Data(contentsOf: files["victim"]!)
        let index = offset >= 0 ? offset : bytes.count + offset
        bytes[index] ^= 0x01
        try bytes.write(to: files["victim"]!)
        let fresh = try open()
        #expect(throws: SecretsError.self) { try fresh.read(query("victim")) }
        #expect(try fresh.read(query("bystander/one")) == Data("value of bystander/one".utf8))
        #expect(try fresh.read(query("bystander/two")) == Data("value of bystander/two".utf8))
        #expect(try fresh.listAccounts(service: "svc", accessGroup: nil).contains("bystander/one"))
    }

    @Test("a flipped ciphertext byte is reported as failed authentication")
    func tamperedValueFailsAuthentication() throws {
        let files = try populate(try open(), ["victim"])
        var bytes = try Data(contentsOf: files["victim"]!)
        bytes[bytes.count - 20] ^= 0x80
        try bytes.write(to: files["victim"]!)
        #expect {
            try open().read(query("victim"))
        } throws: { error in
            guard case SecretsError.authenticationFailed = error else { return false }
            return true
        }
    }

    @Test("truncated and empty item files are corrupt, and the other items still read", arguments: [0, 1, 13, 30, 70])
    func truncated(length: Int) throws {
        let backend = try open()
        let files = try populate(backend, ["victim", "bystander"])
        let bytes = try Data(contentsOf: files["victim"]!)
        try bytes.prefix(length).write(to: files["victim"]!)
        #expect(throws: SecretsError.self) { try backend.read(query("victim")) }
        #expect(try backend.read(query("bystander")) == Data("value of bystander".utf8))
        #expect(try backend.listAccounts(service: "svc", accessGroup: nil).contains("bystander"))
        #expect(try backend.damagedItems().map(\.fileName) == [files["victim"]!.lastPathComponent])
    }

    @Test("an item file moved to another item's name fails authentication instead of reading as that item")
    func swappedFiles() throws {
        let files = try populate(try open(), ["alice/token", "mallory/token"])
        try FileManager.default.removeItem(at: files["alice/token"]!)
        try FileManager.default.copyItem(at: files["mallory/token"]!, to: files["alice/token"]!)
        #expect(throws: SecretsError.self) { try open().read(query("alice/token")) }
        #expect(try open().listAccounts(service: "svc", accessGroup: nil) == ["mallory/token"])
    }

    @Test("foreign files in the store are ignored by reads and listing, and reported when they pose as items")
    func foreignFiles() throws {
        _ = try populate(try open(), ["a"])
        try Data("hello".utf8).write(to: storeURL.appendingPathComponent("README"))
        try Data("hello".utf8).write(to: itemsURL.appendingPathComponent("notes.txt"))
        try Data("hello".utf8).write(to: itemsURL.appendingPathComponent("forged.item"))
        try FileManager.default.createDirectory(
            at: itemsURL.appendingPathComponent("subdir.item"), withIntermediateDirectories: true)
        let backend = try open()
        #expect(try backend.read(query("a")) == Data("value of a".utf8))
        #expect(try backend.listAccounts(service: "svc", accessGroup: nil) == ["a"])
        #expect(try backend.damagedItems().count == 2)
    }

    @Test(
        "a hostile header is rejected quickly instead of stalling or crashing the reader",
        arguments: [
            #""iterations" : 600000"#: #""iterations" : 2000000000"#,
            #""version" : 2"#: #""version" : 99"#,
            #""format" : "coffer-encrypted-file-store""#: #""format" : "something-else""#,
            "{": "[",
        ])
    func hostileHeader(replacing: String, with replacement: String) throws {
        _ = try EncryptedFileBackend(directory: storeURL, key: .passphrase("p"))
        let headerURL = storeURL.appendingPathComponent("store.json")
        let header = try String(contentsOf: headerURL, encoding: .utf8)
        #expect(header.contains(replacing))
        try header.replacingOccurrences(of: replacing, with: replacement).write(
            to: headerURL, atomically: false, encoding: .utf8)
        #expect(throws: SecretsError.self) { try EncryptedFileBackend(directory: storeURL, key: .passphrase("p")) }
    }

    // MARK: Size

    @Test("a 10 MiB value round-trips")
    func tenMebibytes() throws {
        let value = Data((0..<(10 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try open().save(value, for: query("big"))
        #expect(try open().read(query("big")) == value)
    }

    @Test("a value over the limit is refused with its size and the limit, and nothing is written")
    func tooLarge() throws {
        let backend = try open(maximumValueSize: 1024)
        #expect(throws: SecretsError.tooLarge(byteCount: 1025, limit: 1024)) {
            try backend.save(Data(count: 1025), for: query("big"))
        }
        #expect(try itemFiles().isEmpty)
        try backend.save(Data(count: 1024), for: query("big"))
    }

    // MARK: Keys

    @Test(
        "rotateKey re-encrypts every item under a new data key and forgets the old one",
        arguments: [nil, EncryptionAlgorithm.chaCha20Poly1305])
    func rotateKey(to algorithm: EncryptionAlgorithm?) throws {
        let backend = try open()
        let accounts = (0..<12).map { "item/\($0)" }
        _ = try populate(backend, accounts)
        let before = try itemFiles().map { try Data(contentsOf: $0) }
        let headerBefore = try Data(contentsOf: storeURL.appendingPathComponent("store.json"))
        var reports: [EncryptedFileBackend.RotationProgress] = []
        let rotated = try backend.rotateKey(algorithm: algorithm) { reports.append($0) }
        #expect(rotated == RotationResult(resealed: accounts.count, quarantined: []))
        #expect(reports.last == .init(completed: 12, total: 12))
        let after = try itemFiles().map { try Data(contentsOf: $0) }
        #expect(zip(before, after).allSatisfy { $0.0[6..<14] != $0.1[6..<14] })
        #expect(try backend.isRotationIncomplete == false)
        #expect(backend.algorithm == algorithm ?? .aes256GCM)
        #expect(try Data(contentsOf: storeURL.appendingPathComponent("store.json")) != headerBefore)
        let reopened = try open()
        for account in accounts {
            #expect(try reopened.read(query(account)) == Data("value of \(account)".utf8))
        }
    }

    @Test("a rotation stopped half-way leaves every item readable, and running it again finishes it")
    func interruptedRotation() throws {
        struct Stop: Error {}
        let backend = try open()
        let accounts = (0..<10).map { "item/\($0)" }
        _ = try populate(backend, accounts)
        #expect(throws: Stop.self) {
            try backend.rotateKey { if $0.completed == 4 { throw Stop() } }
        }
        let reopened = try open()
        #expect(try reopened.isRotationIncomplete)
        for account in accounts {
            #expect(try reopened.read(query(account)) == Data("value of \(account)".utf8))
        }
        try reopened.save(Data("written mid-rotation".utf8), for: query("item/new"))
        #expect(try reopened.rotateKey().resealed == 6)
        #expect(try reopened.isRotationIncomplete == false)
        #expect(try open().read(query("item/new")) == Data("written mid-rotation".utf8))
    }

    @Test("an item that fails authentication is set aside by a rotation, with its reason, and the others rotate")
    func rotationQuarantinesDamage() throws {
        let backend = try open()
        let files = try populate(backend, ["good", "bad"])
        var bytes = try Data(contentsOf: files["bad"]!)
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: files["bad"]!)
        let result = try backend.rotateKey()
        #expect(result.resealed == 1)
        #expect(result.quarantined.map(\.fileName) == [files["bad"]!.lastPathComponent])
        guard case .authenticationFailed = result.quarantined.first?.reason else {
            Issue.record("\(result)")
            return
        }
        #expect(try open().read(query("good")) == Data("value of good".utf8))
    }

    @Test("a rotation does not re-seal an item file found under another item's name as that item")
    func rotationQuarantinesMovedFile() throws {
        let backend = try open()
        let files = try populate(backend, ["original"])
        let stray = itemsURL.appendingPathComponent(String(repeating: "ab", count: 32) + ".item")
        try FileManager.default.copyItem(at: files["original"]!, to: stray)
        #expect(try backend.rotateKey().quarantined.map(\.fileName) == [stray.lastPathComponent])
        #expect(try itemFiles().map(\.lastPathComponent) == [files["original"]!.lastPathComponent])
        #expect(try open().read(query("original")) == Data("value of original".utf8))
    }

    @Test("changePassphrase re-wraps only the master key: items are untouched, the old passphrase stops working")
    func changePassphrase() throws {
        let backend = try open()
        _ = try populate(backend, ["a", "b"])
        let before = try itemFiles().map { try Data(contentsOf: $0) }
        try backend.changePassphrase(to: "new passphrase")
        #expect(try itemFiles().map { try Data(contentsOf: $0) } == before)
        #expect(throws: SecretsError.wrongPassphrase(store: storeURL.path)) { try open() }
        #expect(try open("new passphrase").read(query("a")) == Data("value of a".utf8))
        try backend.save(Data("after".utf8), for: query("c"))
        #expect(try open("new passphrase").read(query("c")) == Data("after".utf8))
    }

    @Test("a second instance sees the first instance's rotation and keeps working")
    func twoInstances() throws {
        let first = try open()
        let second = try open()
        _ = try populate(first, ["a"])
        try first.rotateKey()
        #expect(try second.read(query("a")) == Data("value of a".utf8))
        try second.save(Data("from second".utf8), for: query("b"))
        try first.rotateKey()
        #expect(try second.read(query("b")) == Data("from second".utf8))
        #expect(try first.read(query("b")) == Data("from second".utf8))
    }
}
