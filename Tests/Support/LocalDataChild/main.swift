// A separate process for LocalData's cross-process tests: values written by one process and read by the next,
// migrations killed half-way, and the debug assertion for unregistered keys. Places come from HOME and the XDG
// variables the test sets.
//
// Usage:
//   coffer-localdata-child set <suite|-> <name> <value>      store a String (JSON) in the defaults
//   coffer-localdata-child get <suite|-> <name>              print it, or "nil"
//   coffer-localdata-child seed <suite> <count>              write legacy strings straight into UserDefaults
//   coffer-localdata-child migrate <suite> <count>           move them into encrypted files, "ok <n>" after each
//   coffer-localdata-child verify <suite> <count>            print "moved <a> legacy <b> lost <c> wrong <d>"
//   coffer-localdata-child unregistered                      use a key no registered catalog lists
import Foundation
import LocalData
import Secrets

let arguments = Array(CommandLine.arguments.dropFirst())
let source = KeyMaterialSource("child")
let router = StorageRouter(
    configuration: StorageConfiguration(
        applicationIdentifier: "dev.coffer.localdata-child",
        keychainBackend: { throw SecretsError.unavailable("the child uses no key store") },
        keyMaterialProviders: [source: FixedKeyMaterialProvider(.passphrase("child passphrase"))],
        syncTransport: nil))

func defaultsKey(_ suite: String, _ name: String) -> StorageKeys.Key<String> {
    StorageKeys.Key(
        name, domain: suite == "-" ? .userDefaults : .appGroupUserDefaults(identifier: suite), owner: "Tests",
        description: "A value another process reads.")
}

func legacyKey(_ suite: String, _ index: Int) -> StorageKeys.Key<String> {
    StorageKeys.Key(
        "legacy/\(index)", domain: .appGroupUserDefaults(identifier: suite), serializer: .propertyList,
        owner: "Tests", description: "A value an old version wrote straight into UserDefaults.")
}

func movedKey(_ index: Int) -> StorageKeys.Key<String> {
    StorageKeys.Key(
        "moved/\(index)", domain: .encryptedFileSystem(directory: .documents),
        security: .encrypted(algorithm: .aes256GCM, keyDerivation: .pbkdf2(iterations: 100_000)),
        keyMaterialSource: source, owner: "Tests", description: "A migrated value.")
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
    switch (arguments.first, arguments.count) {
    case ("set", 4):
        try await router.set(arguments[3], for: defaultsKey(arguments[1], arguments[2]))
        say("ok")
    case ("get", 3):
        say(try await router.get(defaultsKey(arguments[1], arguments[2])) ?? "nil")
    case ("seed", 3):
        let defaults = UserDefaults(suiteName: arguments[1])!
        for index in 0..<Int(arguments[2])! { defaults.set("value \(index)", forKey: "legacy/\(index)") }
        guard defaults.synchronize() else { throw SecretsError.unavailable("the defaults were not written") }
        say("ok")
    case ("migrate", 3):
        for index in 0..<Int(arguments[2])! {
            try await router.register(StorageMigration(from: legacyKey(arguments[1], index), to: movedKey(index)))
        }
        try await router.migrateAll { say("ok \($0.completed)") }
    case ("verify", 3):
        var moved = 0
        var legacy = 0
        var lost = 0
        var wrong = 0
        for index in 0..<Int(arguments[2])! {
            let target = try await router.get(movedKey(index))
            let old = try await router.get(legacyKey(arguments[1], index))
            if target != nil { moved += 1 }
            if old != nil { legacy += 1 }
            if target == nil, old == nil { lost += 1 }
            if let value = target ?? old, value != "value \(index)" { wrong += 1 }
        }
        say("moved \(moved) legacy \(legacy) lost \(lost) wrong \(wrong)")
    case ("unregistered", 1):
        struct Catalog: StorageKeyCatalog {
            var allKeys: [AnyStorageKey] { [AnyStorageKey(defaultsKey("-", "registered"))] }
        }
        try await router.register(Catalog())
        _ = try await router.get(defaultsKey("-", "stray"))
        say("no assertion")
    default:
        FileHandle.standardError.write(Data("usage: see the comment at the top of main.swift\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("coffer-localdata-child: \(error)\n".utf8))
    exit(1)
}
