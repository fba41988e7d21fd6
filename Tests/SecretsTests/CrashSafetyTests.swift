import CofferTestSupport
import Foundation
import Secrets
import Testing

@Suite("The encrypted file store survives kill -9 and concurrent writer processes", .serialized)
struct CrashSafetyTests {
    let directory: TemporaryDirectory
    let keyFile: URL
    var storeURL: URL { directory.appending("store") }

    init() throws {
        directory = try TemporaryDirectory()
        keyFile = directory.appending("key")
        try EncryptedFileBackend.createKeyFile(at: keyFile)
    }

    func writer() throws -> URL { try ChildProcess.executable(named: "coffer-store-writer") }

    func backend() throws -> EncryptedFileBackend {
        try EncryptedFileBackend(directory: storeURL, key: .keyFile(keyFile))
    }

    @Test("every write that returned success reads back after the writer is killed mid-write", arguments: [5, 23, 61])
    func killedWriter(acknowledgementsBeforeKill: Int) throws {
        let size = 256 * 1024
        let (process, output) = try ChildProcess.start(
            try writer(), [storeURL.path, keyFile.path, "w", "1000000", "\(size)"])
        var text = ""
        while text.split(separator: "\n").count < acknowledgementsBeforeKill {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        text += String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal)
        let acknowledged = text.split(separator: "\n").compactMap { Int($0.dropFirst(3)) }
        try #require(acknowledged.count >= acknowledgementsBeforeKill)

        let store = try backend()
        var lastBySlot: [Int: Int] = [:]
        for index in acknowledged { lastBySlot[index % WriterValues.slots] = index }
        for (_, index) in lastBySlot {
            let query = SecretQuery<Data>(
                service: WriterValues.service, account: WriterValues.account(writer: "w", index: index))
            let value = try store.read(query)
            // The write after the last acknowledged one may have completed before the kill, but never half of it.
            let allowed = [index, index + WriterValues.slots].map {
                WriterValues.value(writer: "w", index: $0, size: size)
            }
            #expect(value.map(allowed.contains) == true, "slot of write \(index) holds neither acknowledged value")
        }
        #expect(try store.damagedItems().isEmpty)
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: storeURL.appendingPathComponent("items").path
        )
        .filter { $0.hasPrefix(".tmp-") }
        #expect(leftovers.isEmpty, "opening the store did not clear a dead writer's temporary file")
    }

    @Test("several processes writing at once lose no update")
    func concurrentProcesses() throws {
        _ = try backend()
        let names = ["alpha", "beta", "gamma", "delta"]
        let count = 40
        let processes = try names.map { name in
            try ChildProcess.start(try writer(), [storeURL.path, keyFile.path, name, "\(count)", "2048"])
        }
        for (process, output) in processes {
            _ = output.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let store = try backend()
        let accounts = try store.listAccounts(service: WriterValues.service, accessGroup: nil)
        #expect(accounts.count == names.count * count)
        for name in names {
            for index in 0..<count {
                let query = SecretQuery<Data>(
                    service: WriterValues.service, account: WriterValues.account(writer: name, index: index))
                #expect(try store.read(query) == WriterValues.value(writer: name, index: index, size: 2048))
            }
        }
    }
}
