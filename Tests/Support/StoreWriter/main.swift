// A writer for the crash-safety tests: saves items into an encrypted file store in a loop, printing
// "ok <n>" after each save returns, until it has written <count> items or is killed.
//
// Usage: coffer-store-writer <store-dir> <key-file> <writer-name> <count> <value-bytes>
import CofferTestSupport
import Foundation
import Secrets

let arguments = CommandLine.arguments
guard arguments.count == 6, let count = Int(arguments[4]), let size = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: coffer-store-writer <dir> <key-file> <name> <count> <bytes>\n".utf8))
    exit(2)
}
let name = arguments[3]

do {
    let backend = try EncryptedFileBackend(
        directory: URL(fileURLWithPath: arguments[1]), key: .keyFile(URL(fileURLWithPath: arguments[2])))
    for index in 0..<count {
        let query = SecretQuery<Data>(
            service: WriterValues.service, account: WriterValues.account(writer: name, index: index))
        try backend.save(WriterValues.value(writer: name, index: index, size: size), for: query)
        FileHandle.standardOutput.write(Data("ok \(index)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("coffer-store-writer: \(error)\n".utf8))
    exit(1)
}
