import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import SecretsAudit
import SecretsTesting
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite(
    "The secret store in PostgreSQL: the file store's sealed header and items as rows, shared by replicas",
    .serialized,  // each test opens several pools: one at a time keeps the test server's connections few
    .enabled(if: Engine.postgresURL != nil, "needs PostgreSQL: set COFFER_TEST_POSTGRES_URL (.ci/run does)"))
struct PostgresSecretsBackendTests {
    let directory: TemporaryDirectory
    let keyFile: URL

    init() throws {
        directory = try TemporaryDirectory()
        keyFile = directory.appending("store.key")
        try EncryptedFileBackend.createKeyFile(at: keyFile)
    }

    /// A fresh, migrated PostgreSQL database of its own; returns its URL and the open database.
    func makeDatabase() async throws -> (url: String, database: WalletDatabase) {
        let url = try await Engine.postgres.makeDatabaseURL(in: directory)
        return (url, try await Engine.migrated(try WalletDatabase.open(url: url)))
    }

    /// Runs `body` with a fresh migrated database, shutting it down afterwards.
    func withDatabase(_ body: (String, WalletDatabase) async throws -> Void) async throws {
        let (url, database) = try await makeDatabase()
        try await database.whileOpen { try await body(url, $0) }
    }

    /// Opens the store at `url` on a thread of its own (opening blocks while it waits for the database).
    func open(_ url: String, key: KeySource? = nil, timeout: Duration = .seconds(10)) async throws
        -> PostgresSecretsBackend
    {
        let key = key ?? .keyFile(keyFile)
        return try await ChildProcess.detached { try PostgresSecretsBackend(url: url, key: key, timeout: timeout) }
    }

    static func query(_ account: String, service: String = "coffer.test") -> SecretQuery<Data> {
        SecretQuery(service: service, account: account)
    }

    @Test("passes the SecretsBackend conformance suite", arguments: SecretsBackendConformance.Check.allCases)
    func conforms(_ check: SecretsBackendConformance.Check) async throws {
        let (url, database) = try await makeDatabase()
        try await database.shutdown()
        let keyFile = keyFile
        try await SecretsBackendConformance { try PostgresSecretsBackend(url: url, key: .keyFile(keyFile)) }.run(
            check)
    }

    @Test(
        "rows hold the file store's formats, nothing in clear: a MACed header, CFEI items under keyed names")
    func rowsAreSealed() async throws {
        try await withDatabase { url, database in
            let backend = try await open(url)
            let value = Data("-----BEGIN PRIVATE KEY----- sentinel-value".utf8)
            try backend.save(value, for: Self.query("wallet/pass-types/pass.com.example/key"))
            let header = try #require(
                try await database.sql.raw("SELECT header FROM secret_store_header").first()?.decode(
                    column: "header", as: Data.self))
            let json = try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
            #expect(json["format"] as? String == "coffer-encrypted-file-store")
            #expect(json["version"] as? Int == 2)
            #expect((json["mac"] as? String)?.isEmpty == false)
            let rows = try await database.sql.raw("SELECT name, item FROM secret_items").all()
            try #require(rows.count == 1)
            let name = try rows[0].decode(column: "name", as: String.self)
            let item = try rows[0].decode(column: "item", as: Data.self)
            #expect(name.count == 64 && name.allSatisfy(\.isHexDigit))
            #expect(item.prefix(4) == Data("CFEI".utf8))
            #expect(item.range(of: Data("sentinel-value".utf8)) == nil)
            #expect(item.range(of: Data("pass.com.example".utf8)) == nil)
            await backend.close()
        }
    }

    @Test("two processes opening an empty database at once create one header; each reads what the other writes")
    func concurrentOpen() async throws {
        try await withDatabase { url, database in
            let backends = try await withThrowingTaskGroup(of: PostgresSecretsBackend.self) { group in
                for _ in 0..<6 { group.addTask { try await open(url) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let headers = try await database.sql.raw("SELECT COUNT(*) AS n FROM secret_store_header").first()?.decode(
                column: "n", as: Int.self)
            #expect(headers == 1)
            for (index, backend) in backends.enumerated() {
                try backend.save(Data("from \(index)".utf8), for: Self.query("item-\(index)"))
            }
            for backend in backends {
                for index in backends.indices {
                    #expect(try backend.read(Self.query("item-\(index)")) == Data("from \(index)".utf8))
                }
                #expect(try backend.listAccounts(service: "coffer.test", accessGroup: nil).count == backends.count)
            }
            for backend in backends { await backend.close() }
        }
    }

    @Test("a wrong key is the file store's error: wrongKey for a key file, wrongPassphrase for a passphrase")
    func wrongKey() async throws {
        try await withDatabase { url, _ in
            let backend = try await open(url)
            try backend.save(Data("v".utf8), for: Self.query("a"))
            await backend.close()
            let otherKey = directory.appending("other.key")
            try EncryptedFileBackend.createKeyFile(at: otherKey)
            await #expect {
                try await open(url, key: .keyFile(otherKey))
            } throws: { error in
                if case SecretsError.wrongKey = error { return true }
                return false
            }
            await #expect {
                try await open(url, key: .passphrase("not the key"))
            } throws: { error in
                // A passphrase cannot open a store made for a key file: the same refusal the file store gives.
                if case SecretsError.unsupported = error { return true }
                return false
            }
        }
        try await withDatabase { url, _ in
            let options = EncryptedFileBackend.Options(iterations: EncryptedFileBackend.minimumIterations)
            let made = try await ChildProcess.detached {
                try PostgresSecretsBackend(url: url, key: .passphrase("right one"), options: options)
            }
            await made.close()
            await #expect {
                try await ChildProcess.detached {
                    try PostgresSecretsBackend(url: url, key: .passphrase("wrong one"), options: options)
                }
            } throws: { error in
                if case SecretsError.wrongPassphrase = error { return true }
                return false
            }
        }
    }

    @Test("a tampered, truncated or moved item row fails authentication; a tampered header row is corruptData")
    func tamperedRows() async throws {
        try await withDatabase { url, database in
            let backend = try await open(url)
            try backend.save(Data("first value".utf8), for: Self.query("first"))
            try backend.save(Data("second value".utf8), for: Self.query("second"))
            let names = try await database.sql.raw("SELECT name FROM secret_items ORDER BY name").all().map {
                try $0.decode(column: "name", as: String.self)
            }
            // A flipped bit in the sealed value.
            try await database.sql.raw(
                "UPDATE secret_items SET item = set_byte(item, length(item) - 1, get_byte(item, length(item) - 1) # 1)"
            ).run()
            #expect {
                try backend.read(Self.query("first"))
            } throws: { error in
                if case SecretsError.authenticationFailed = error { return true }
                return false
            }
            // Truncated rows.
            try await database.sql.raw("UPDATE secret_items SET item = substring(item FROM 1 FOR 10)").run()
            #expect {
                try backend.read(Self.query("second"))
            } throws: { error in
                if case SecretsError.corruptData = error { return true }
                return false
            }
            // One item's (intact) row copied under the other's name.
            try backend.save(Data("first value".utf8), for: Self.query("first"))
            try backend.save(Data("second value".utf8), for: Self.query("second"))
            try await database.sql.raw(
                """
                UPDATE secret_items SET item = (SELECT item FROM secret_items WHERE name = \(bind: names[0])) \
                WHERE name = \(bind: names[1])
                """
            ).run()
            var failures = 0
            for account in ["first", "second"] {
                do {
                    _ = try backend.read(Self.query(account))
                } catch SecretsError.authenticationFailed {
                    failures += 1
                }
            }
            #expect(failures == 1)
            // Listing skips the moved row instead of reporting its account twice.
            #expect(try backend.listAccounts(service: "coffer.test", accessGroup: nil).count == 1)
            await backend.close()

            // The header's generation edited: its MAC no longer matches.
            try await database.sql.raw(
                """
                UPDATE secret_store_header SET header = convert_to(jsonb_set(convert_from(header, 'UTF8')::jsonb, \
                '{generation}', '7')::text, 'UTF8')
                """
            ).run()
            await #expect {
                try await open(url)
            } throws: { error in
                if case SecretsError.corruptData = error { return true }
                return false
            }
        }
    }

    @Test("a database that is down, unreachable or missing its tables is unavailable, never a crash or a hang")
    func databaseGone() async throws {
        // Nothing listens on the port: connecting is refused.
        var closedPort = URLComponents(string: Engine.postgresURL!)!
        closedPort.port = 9
        await #expect {
            try await open(closedPort.string!, timeout: .seconds(3))
        } throws: { error in
            if case SecretsError.unavailable = error { return true }
            return false
        }

        // A database that was never migrated has no tables: the message says how to make them.
        let bare = try await Engine.postgres.makeDatabaseURL(in: directory)
        await #expect {
            try await open(bare, timeout: .seconds(3))
        } throws: { error in
            guard case SecretsError.unavailable(let reason) = error else { return false }
            return reason.contains("migrate")
        }

        // The database goes away under an open store: every call fails with `unavailable`, within the timeout.
        let (url, database) = try await makeDatabase()
        try await database.shutdown()
        let backend = try await open(url, timeout: .seconds(3))
        try backend.save(Data("v".utf8), for: Self.query("a"))
        let name = String(URLComponents(string: url)!.path.dropFirst())
        try await Engine.withServer { try await $0.sql.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run() }
        let calls: [(String, @Sendable () throws -> Void)] = [
            ("read", { _ = try backend.read(Self.query("a")) }),
            ("save", { try backend.save(Data("w".utf8), for: Self.query("a")) }),
            ("delete", { _ = try backend.delete(Self.query("a")) }),
            ("list", { _ = try backend.listAccounts(service: "coffer.test", accessGroup: nil) }),
        ]
        for (what, call) in calls {
            await #expect(throws: Never.self, "\(what)") {
                let error = try await ChildProcess.detached { () -> SecretsError? in
                    do {
                        try call()
                        return nil
                    } catch let error as SecretsError {
                        return error
                    }
                }
                guard case .unavailable = error else {
                    Issue.record("\(what) gave \(String(describing: error)), not unavailable")
                    return
                }
            }
        }
        await backend.close()
        #expect {
            try backend.read(Self.query("a"))
        } throws: { error in
            if case SecretsError.unavailable = error { return true }
            return false
        }
    }

    @Test("on PostgreSQL the server needs COFFER_PASSPHRASE or COFFER_KEY_FILE, not a key file per replica")
    func serverNeedsStoreKey() async throws {
        let (url, database) = try await makeDatabase()
        try await database.shutdown()
        let configuration = WalletServerConfiguration(
            dataDirectory: directory.appending("data"), databaseURL: url, createsDevelopmentIdentity: false)
        await #expect {
            try await WalletServerStorage.open(configuration: configuration)
        } throws: { error in
            guard case WalletServerError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("COFFER_PASSPHRASE") && reason.contains("COFFER_KEY_FILE")
        }
        #expect(!FileManager.default.fileExists(atPath: configuration.keyFileURL.path))

        // With a key file, two storages (two replicas) share the signing keys through the database.
        var keyed = configuration
        keyed.secretStoreKey = .keyFile(keyFile)
        let first = try await WalletServerStorage.open(configuration: keyed)
        var elsewhere = keyed
        elsewhere.dataDirectory = directory.appending("other-data")
        let second = try await WalletServerStorage.open(configuration: elsewhere)
        try await ChildProcess.detached {
            try first.secrets.saveData(Data("shared".utf8), account: "wallet/check")
        }
        let read = try await ChildProcess.detached { try second.secrets.readData(account: "wallet/check") }
        #expect(read == Data("shared".utf8))
        #expect(!FileManager.default.fileExists(atPath: keyed.secretStoreDirectory.path))
        try await first.shutdown()
        try await second.shutdown()
    }
}
