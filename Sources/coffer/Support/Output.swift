import Foundation

/// Writes command results to standard output.
enum Output {
    /// Prints `value` as pretty, key-sorted JSON.
    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        write(try encoder.encode(value), endingLine: true)
    }

    /// Writes raw bytes, adding a newline when asked and the bytes do not end with one.
    static func write(_ data: Data, endingLine: Bool) {
        FileHandle.standardOutput.write(data)
        if endingLine && data.last != UInt8(ascii: "\n") {
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
    }
}
