import CofferTestSupport
import Foundation
import LocalData
import Testing

@Suite("LocalData across processes: persistence, crashes, assertions")
struct CrossProcessTests {
    let directory: TemporaryDirectory
    let environment: [String: String]
    let child: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "coffer-localdata-child")
        environment = [
            "HOME": directory.url.path, "XDG_CONFIG_HOME": directory.appending("config").path,
            "XDG_DATA_HOME": directory.appending("data").path, "XDG_CACHE_HOME": directory.appending("cache").path,
        ]
        child = try ChildProcess.executable(named: "coffer-localdata-child")
    }

    func run(_ arguments: String...) throws -> ChildProcess.Outcome {
        try ChildProcess.run(child, arguments, environment: environment)
    }

    @Test("defaults written by one process are read by the next, from the documented XDG files")
    func defaultsPersist() throws {
        #expect(try run("set", "-", "greeting", "hello").output == "ok\n")
        #expect(try run("set", "group.dev.coffer.shared", "greeting", "from the group").output == "ok\n")
        #expect(try run("get", "-", "greeting").output == "hello\n")
        #expect(try run("get", "group.dev.coffer.shared", "greeting").output == "from the group\n")
        #expect(try run("get", "-", "missing").output == "nil\n")
        #if !canImport(Darwin)
            let config = directory.appending("config").path
            #expect(FileManager.default.fileExists(atPath: "\(config)/coffer-localdata-child.plist"))
            #expect(FileManager.default.fileExists(atPath: "\(config)/group.dev.coffer.shared.plist"))
        #endif
    }

    @Test("a bulk migration killed with SIGKILL part-way loses nothing, and the next run finishes it")
    func killedMigration() async throws {
        let suite = "group.dev.coffer.legacy"
        let count = 400
        #expect(try run("seed", suite, "\(count)").status == 0)

        // Read the child's progress straight from its pipe and kill it the moment it reports 40 moves, so that
        // however loaded the machine is, the kill lands while it is still moving values.
        let (migration, output) = try ChildProcess.start(
            child, ["migrate", suite, "\(count)"], environment: environment)
        var seen = ""
        while !seen.contains("ok 40\n") {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        kill(migration.processIdentifier, SIGKILL)
        migration.waitUntilExit()
        #expect(migration.terminationReason == .uncaughtSignal)
        #expect(migration.terminationStatus == SIGKILL)

        let afterCrash = try run("verify", suite, "\(count)").output
        let numbers = afterCrash.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(numbers.count == 4, "\(afterCrash)")
        #expect(numbers[0] >= 40 && numbers[0] < count, "moved: \(afterCrash)")
        #expect(numbers[2] == 0 && numbers[3] == 0, "nothing lost or changed: \(afterCrash)")

        #expect(try run("migrate", suite, "\(count)").status == 0)
        #expect(try run("verify", suite, "\(count)").output == "moved \(count) legacy 0 lost 0 wrong 0\n")
    }

    @Test("in a debug build, using a key that no registered catalog lists stops the process")
    func unregisteredKeyAsserts() throws {
        let outcome = try run("unregistered")
        #if DEBUG
            #expect(outcome.status != 0)
            #expect(!outcome.output.contains("no assertion"))
        #else
            #expect(outcome.output == "no assertion\n")
        #endif
    }
}
