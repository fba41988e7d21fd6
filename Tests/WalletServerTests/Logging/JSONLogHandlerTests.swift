import CofferTestSupport
import Foundation
import Logging
import Synchronization
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("JSON log lines: one object per line that any JSON parser reads back exactly")
struct JSONLogHandlerTests {
    /// Logs one message with `metadata` and returns the line written.
    func line(_ message: Logger.Message, metadata: Logger.Metadata = [:]) throws -> Data {
        let written = Mutex([Data]())
        var logger = Logger(label: "coffer.test") { label in
            JSONLogHandler(label: label) { line in written.withLock { $0.append(line) } }
        }
        logger[metadataKey: "service"] = "wallet"
        logger.info(message, metadata: metadata)
        return try #require(written.withLock { $0.first })
    }

    @Test(
        "quotes, backslashes, control characters, slashes and non-ASCII text come back unchanged",
        arguments: [
            #"plain"#, #"say "hi""#, #"C:\path\to"#, "line\nbreak\r\ttab", "bell\u{07}nul\u{0}", "/api/v2/x",
            "café ✓ 日本", "",
        ])
    func escaping(text: String) throws {
        let data = try line("\(text)", metadata: ["value": "\(text)"])
        #expect(data.last == UInt8(ascii: "\n"))
        #expect(data.dropLast().contains(UInt8(ascii: "\n")) == false, "one line")
        let fields = try JSONDecoder().decode([String: String].self, from: data)
        #expect(fields["message"] == text)
        #expect(fields["value"] == text)
    }

    @Test("keys are sorted, logger and event metadata both appear, and the fixed fields cannot be overwritten")
    func fields() throws {
        let data = try line("hello", metadata: ["zeta": "1", "alpha": "2", "level": "forged", "message": "forged"])
        let text = String(decoding: data, as: UTF8.self)
        let fields = try JSONDecoder().decode([String: String].self, from: data)
        #expect(fields["level"] == "info")
        #expect(fields["message"] == "hello")
        #expect(fields["label"] == "coffer.test")
        #expect(fields["service"] == "wallet")
        let keys = ["alpha", "label", "level", "message", "service", "timestamp", "zeta"]
        #expect(Set(fields.keys) == Set(keys))
        let positions = keys.map { text.range(of: "\"\($0)\":")!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test("the timestamp is UTC ISO 8601 with milliseconds, and now")
    func timestamp() throws {
        let before = Date()
        let fields = try JSONDecoder().decode([String: String].self, from: try line("tick"))
        let after = Date()
        let stamp = try #require(fields["timestamp"])
        #expect(stamp.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/#) != nil, "\(stamp)")
        let parsed = try #require(ISO8601.date(stamp))
        #expect(parsed >= before.addingTimeInterval(-0.001) && parsed <= after)
    }
}
