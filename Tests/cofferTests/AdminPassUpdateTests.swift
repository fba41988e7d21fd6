import CofferTestSupport
import Foundation
import Testing

@Suite("coffer admin pass update: the management API's change, from the shell", .serialized)
struct AdminPassUpdateTests {
    let world: AdminWorld

    init() throws { world = try AdminWorld() }

    func state(_ outcome: ChildProcess.Outcome) throws -> [String: Any] {
        try #require(outcome.status == 0, "\(outcome.errorOutput)")
        return try #require(try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
    }

    @Test("fields, void and expiry change the stored pass and print its state; a second change keeps the first")
    func update() throws {
        let (client, tag, _) = try world.seed()
        let first = try state(
            try world.admin(
                "pass", "update", "--client", client, "--tag", tag, "--field", "seat=12A", "--void",
                "--expire-at", "2026-12-31T23:00:00Z"))
        #expect((first["fields"] as? [String: Any])?["seat"] as? String == "12A")
        #expect(first["voided"] as? Bool == true)
        #expect(first["expiration_date"] as? String == "2026-12-31T23:00:00.000Z")
        let firstTag = try #require((first["update_tag"] as? String).flatMap { Int64($0) })
        #expect(firstTag > 0)

        let second = try state(
            try world.admin(
                "pass", "update", "--client", client, "--tag", tag, "--unvoid", "--number-field", "event=7",
                "--relevant-at", "2026-12-31T19:00:00+01:00"))
        let fields = try #require(second["fields"] as? [String: Any])
        #expect(fields["seat"] as? String == "12A", "the first change is stored")
        #expect(fields["event"] as? Double == 7)
        #expect(second["voided"] as? Bool == false)
        #expect(second["relevant_date"] as? String == "2026-12-31T18:00:00.000Z")
        #expect(try #require((second["update_tag"] as? String).flatMap { Int64($0) }) > firstTag)
    }

    @Test("key:language=text sets each language's value, label and change message; the state shows them all")
    func localized() throws {
        let (client, tag, _) = try world.seed()
        let changed = try state(
            try world.admin(
                "pass", "update", "--client", client, "--tag", tag, "--field", "seat:en=Row 7", "--field",
                "seat:de=Reihe 7", "--field", "seat:ja=7列", "--label", "seat:en=SEAT", "--label", "seat:de=PLATZ",
                "--change-message", "seat=%@"))
        #expect((changed["fields"] as? [String: Any])?["seat"] as? String == "Row 7")
        let seat = try #require((changed["localized_fields"] as? [String: Any])?["seat"] as? [String: Any])
        #expect(seat["value"] as? [String: String] == ["en": "Row 7", "de": "Reihe 7", "ja": "7列"])
        #expect(seat["label"] as? [String: String] == ["en": "SEAT", "de": "PLATZ", "ja": "SEAT"])
        #expect(seat["change_message"] == nil, "a plain change message is the same in every language")

        let mixed = try ChildProcess.run(
            world.coffer,
            [
                "admin", "pass", "update", "--client", client, "--tag", tag, "--field", "seat=1", "--field",
                "seat:de=2",
                "--data-dir", world.dataDirectory,
            ])
        #expect(mixed.status == 2)
        #expect(mixed.errorOutput.contains("with and without a language"))
    }

    @Test("mistakes exit 2 (the command line) or 1 (another client's tag), print nothing and change nothing")
    func mistakes() throws {
        let (client, tag, _) = try world.seed()
        let other = try world.admin("client", "create", "--name", "Other")
        let otherClient = other.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let cases: [([String], Int32, String)] = [
            (["--client", client, "--tag", tag, "--field", "gate=B"], 2, "gate"),
            (["--client", client, "--tag", tag], 2, "at least one"),
            (["--client", client, "--tag", tag, "--field", "seat"], 2, "key=value"),
            (["--client", client, "--tag", tag, "--number-field", "seat=many"], 2, "number"),
            (["--client", client, "--tag", tag, "--expire-at", "soon"], 2, "RFC 3339"),
            (["--client", client, "--tag", tag, "--void", "--unvoid"], 2, "not both"),
            (["--client", client, "--tag", tag, "--id-attribute", "email", "--void"], 2, "--id-attribute"),
            (["--client", otherClient, "--tag", tag, "--void"], 1, "does not exist"),
            (["--client", client, "--tag", "NOPE", "--void"], 1, "does not exist"),
        ]
        for (arguments, status, message) in cases {
            let outcome = try ChildProcess.run(
                world.coffer, ["admin", "pass", "update"] + arguments + ["--data-dir", world.dataDirectory])
            #expect(outcome.status == status, "\(arguments): \(outcome.errorOutput)")
            #expect(outcome.errorOutput.contains(message), "\(arguments): \(outcome.errorOutput)")
            #expect(outcome.standardOutput.isEmpty)
        }
        let unchanged = try state(try world.admin("pass", "update", "--client", client, "--tag", tag, "--unvoid"))
        #expect((unchanged["fields"] as? [String: Any])?["seat"] as? String == "General admission")
    }

    @Test("--where, --csv and --jsonl run a bulk change to the end, print the job and exit 4 when items failed")
    func bulk() throws {
        let seeded = try #require(
            try JSONSerialization.jsonObject(
                with: try world.admin("seed-demo", "--tags", "5", "--json").standardOutput) as? [String: Any])
        let client = try #require(seeded["client_id"] as? String)
        let tags = try #require(seeded["tag_ids"] as? [String])

        let matched = try world.admin(
            "pass", "update", "--client", client, "--where", "seat=General admission", "--field", "seat=Moved")
        let job = try state(matched)
        #expect(job["state"] as? String == "finished")
        #expect(job["changed"] as? Int == 5)
        #expect(matched.errorOutput.contains("bulk change: 5/5"), "the progress on stderr: \(matched.errorOutput)")
        let none = try state(
            try world.admin("pass", "update", "--client", client, "--where", "seat=General admission", "--void"))
        #expect(none["skipped"] as? Int == 5)
        #expect(none["changed"] as? Int == 0)

        let directory = try TemporaryDirectory()
        let csv = directory.appending("changes.csv")
        try Data("reference_id,seat\n\(tags[0]),A1\nNOPE,B2\n".utf8).write(to: csv)
        let listed = try ChildProcess.run(
            world.coffer,
            ["admin", "pass", "update", "--client", client, "--csv", csv.path, "--data-dir", world.dataDirectory])
        #expect(listed.status == 4, "\(listed.errorOutput)")
        #expect(listed.errorOutput.contains("1 of 2 passes were not changed"))
        let failed = try #require(try JSONSerialization.jsonObject(with: listed.standardOutput) as? [String: Any])
        let failures = try #require(failed["failures"] as? [[String: Any]])
        #expect(failures.first?["target"] as? String == "reference_id NOPE")

        let lines = directory.appending("changes.jsonl")
        try Data(#"{"reference_id":"\#(tags[1])","fields":{"seat":"C3"}}"#.utf8).write(to: lines)
        let fromLines = try state(try world.admin("pass", "update", "--client", client, "--jsonl", lines.path))
        #expect(fromLines["changed"] as? Int == 1)
        let read = try state(try world.admin("pass", "update", "--client", client, "--tag", tags[1], "--unvoid"))
        #expect((read["fields"] as? [String: Any])?["seat"] as? String == "C3")

        let both = try ChildProcess.run(
            world.coffer,
            [
                "admin", "pass", "update", "--client", client, "--tag", tags[0], "--all", "--void", "--data-dir",
                world.dataDirectory,
            ])
        #expect(both.status == 2)
        #expect(both.errorOutput.contains("give one of --tag"))
    }
}
