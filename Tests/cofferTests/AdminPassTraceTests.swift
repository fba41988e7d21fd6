import CofferTestSupport
import Foundation
import Testing

@Suite("coffer admin pass trace: a pass's timeline and why it may not update, from the shell", .serialized)
struct AdminPassTraceTests {
    let world: AdminWorld

    init() throws { world = try AdminWorld() }

    @Test("after a change, the timeline shows it, and the diagnosis names the missing https web service")
    func timeline() throws {
        let (client, tag, _) = try world.seed()
        let changed = try world.admin("pass", "update", "--client", client, "--tag", tag, "--field", "seat=12A")
        try #require(changed.status == 0, "\(changed.errorOutput)")

        let trace = try world.admin("pass", "trace", tag)
        #expect(trace.status == 0, "\(trace.errorOutput)")
        #expect(trace.output.contains("serial \(tag)") || trace.output.contains("pass "))
        let lines = trace.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("changed") && $0.contains("seat") })
        #expect(lines.contains { $0.hasPrefix("- no_device_registered:") && $0.contains("not https") })

        let json = try world.admin("pass", "trace", tag, "--json")
        #expect(json.status == 0, "\(json.errorOutput)")
        let report = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
        let events = try #require(report["events"] as? [[String: Any]])
        #expect(events.map { $0["kind"] as? String }.contains("changed"))
        let diagnosis = try #require(report["diagnosis"] as? [[String: Any]])
        #expect(diagnosis.contains { $0["code"] as? String == "no_device_registered" })
    }

    @Test("an unknown name exits 1; a bad limit exits 2; neither prints a trace")
    func mistakes() throws {
        _ = try world.seed()
        let unknown = try world.admin("pass", "trace", "NO-SUCH-PASS")
        #expect(unknown.status == 1)
        #expect(unknown.errorOutput.contains("no pass is named"))
        #expect(unknown.output.isEmpty)
        let limit = try world.admin("pass", "trace", "NO-SUCH-PASS", "--limit", "0")
        #expect(limit.status == 2)
    }
}
