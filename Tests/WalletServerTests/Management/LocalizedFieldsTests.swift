import CofferTestSupport
import Foundation
import HTTPTypes
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("Localized passes through the management API: texts per language, served as each language's pass.strings")
struct LocalizedFieldsTests {
    typealias W = ManagementWorld

    static let create = """
        {"reference_id":"L-1","fields":{
          "event":{"value":{"en":"Swift in Concert","de":"Swift im Konzert","ja":"Swift コンサート"},
                   "label":{"en":"EVENT","de":"VERANSTALTUNG","ja":"イベント"},
                   "change_message":{"en":"Now: %@","de":"Jetzt: %@","ja":"変更: %@"}},
          "seat":"12A"}}
        """

    @Test(
        "a pass made with en, de and ja texts is served with three UTF-16 pass.strings Foundation reads, and no lint",
        arguments: Engine.available)
    func createAndServe(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let created = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: Self.create)
            #expect(created.status == .created, "\(created.text)")
            let state = try W.state(created.body)
            #expect(state.fields["event"] == .text("Swift in Concert"), "the English text stands for the value")
            #expect(state.localizedFields["event"]?["label"]?["de"] == "VERANSTALTUNG")
            #expect(state.localizedFields["event"]?["change_message"]?["ja"] == "変更: %@")
            #expect(state.localizedFields["seat"] == nil)

            let answer = try await W.send(client, .get, "/api/v2/passes/L-1/pkpass", token: world.token)
            #expect(answer.status == .ok)
            let verified = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root])
                .verify(pkpass: answer.body)
            let field = try #require(verified.pass.fields.field(forKey: "event"))
            guard case .text(let valueKey) = field.value, let labelKey = field.label else {
                Issue.record("pass.json names the texts by key")
                return
            }
            for (language, value, label) in [
                ("en", "Swift in Concert", "EVENT"), ("de", "Swift im Konzert", "VERANSTALTUNG"),
                ("ja", "Swift コンサート", "イベント"),
            ] {
                let data = try #require(verified.files["\(language).lproj/pass.strings"])
                #expect(data.starts(with: [0xFF, 0xFE]), "UTF-16 with its byte order mark")
                let entries = try #require(
                    try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String])
                #expect(entries[valueKey] == value && entries[labelKey] == label)
            }
            let package = try PassPackage(files: verified.files.filter { !PassPackage.generatedFiles.contains($0.key) })
            #expect(
                package.lint().findings.filter { $0.code.hasPrefix("strings.") || $0.code.hasPrefix("localization.") }
                    .isEmpty)
        }
    }

    @Test(
        "a new translation changes the key pass.json holds, so Wallet sees it; a plain value drops the entries",
        arguments: Engine.available)
    func change(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            _ = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: Self.create)
            let stored = { () async throws -> PassPackage in
                let tag = try #require(
                    try await world.world.repository.tag(
                        clientID: world.clientID, attribute: .referenceID, value: "L-1"))
                return try PassPackage(
                    archive: try #require(try await world.world.repository.pass(tagID: tag.id)).passContent)
            }
            let before = try await stored().pass.fields.value(forKey: "event")
            let patched = try await W.send(
                client, .patch, "/api/v2/passes/L-1", token: world.token,
                body: #"{"fields":{"event":{"value":{"en":"Swift Live","de":"Swift live","ja":"Swift ライブ"}}}}"#)
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(try W.state(patched.body).localizedFields["event"]?["value"]?["de"] == "Swift live")
            let after = try await stored()
            #expect(try after.pass.fields.value(forKey: "event") != before)
            guard case .text(let oldKey)? = before else { return }
            #expect(try after.strings(for: "de").entries[oldKey] == nil)

            let plain = try await W.send(
                client, .patch, "/api/v2/passes/L-1", token: world.token, body: #"{"fields":{"event":"Sold out"}}"#)
            #expect(plain.status == .ok)
            let state = try W.state(plain.body)
            #expect(state.fields["event"] == .text("Sold out"))
            #expect(state.localizedFields["event"]?["value"] == nil)
            #expect(state.localizedFields["event"]?["label"]?["ja"] == "イベント", "the label stays localized")
        }
    }

    @Test(
        "a language that is not an identifier, a number as a label or an unknown text is 400, naming the key",
        arguments: [
            (#"{"event":{"value":{"german":"Tor"}}}"#, "fields.event.value"),
            (#"{"event":{"label":3}}"#, "fields.event.label"),
            (#"{"event":{"colour":"red"}}"#, "fields.event.colour"),
            (#"{"event":{}}"#, "fields.event"),
            (#"{"event":{"value":{"de":4}}}"#, "fields.event.value.de"),
        ])
    func refused(fields: String, named: String) async throws {
        try await W.run(.sqliteFile) { client, world in
            let answer = try await W.send(
                client, .patch, "/api/v2/passes/PASS-001", token: world.token, body: #"{"fields":\#(fields)}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.text.contains(named), "\(answer.text)")
        }
    }
}
