import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("The management API: create, read, change, void, expire and list passes within the API user's client")
struct ManagementRoutesTests {
    typealias W = ManagementWorld

    @Test("a create answers 201 with the pass's state, which GET answers again", arguments: Engine.available)
    func createThenRead(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let body = """
                {"reference_id":"T-100","pronto_tag_id":"P-100","user_reference":"jane@example.com",
                 "fields":{"seat":"12A","event":"Gala"},"relevant_date":"2026-12-31T19:00:00Z",
                 "expiration_date":"2027-01-01T06:00:00+01:00"}
                """
            let created = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: body)
            #expect(created.status == .created, "\(String(decoding: created.body, as: UTF8.self))")
            let state = try W.state(created.body)
            #expect(state.tag.referenceID == "T-100")
            #expect(state.tag.prontoTagID == "P-100")
            #expect(state.fields["seat"] == .text("12A"))
            #expect(state.fields["event"] == .text("Gala"))
            #expect(state.passTypeIdentifier == "pass.dev.coffer.server")
            #expect(state.bindingState == .unbound)
            #expect(state.registrations == 0)
            #expect(!state.voided)
            #expect(state.relevantDate == ISO8601.date("2026-12-31T19:00:00Z"))
            #expect(state.expirationDate == ISO8601.date("2027-01-01T05:00:00Z"))
            // The tag belongs to the existing user with that reference (the world's Jane).
            let tag = try #require(try await world.world.repository.tag(id: state.tag.id))
            let jane = try await world.world.repository.users(clientID: world.clientID)
                .filter { $0.externalReference == "jane@example.com" }
            #expect(jane.map(\.id) == [tag.userID])

            for uri in ["/api/v2/passes/T-100", "/api/v2/passes/P-100?id_attribute=pronto_tag_id"] {
                let read = try await W.send(client, .get, uri, token: world.token)
                #expect(read.status == .ok)
                #expect(try W.state(read.body) == state)
            }
            // The stored pass is the template made into this pass, with the values given.
            let pass = try #require(try await world.world.repository.pass(tagID: state.tag.id))
            let json = try PassPackage(archive: pass.passContent).pass
            #expect(json.serialNumber == state.serialNumber)
            #expect(json.fields.value(forKey: "seat") == .text("12A"))
        }
    }

    @Test("a create without a user reference makes a new user; GET of the world's own pass shows its fields")
    func newUserAndExistingPass() async throws {
        try await W.run(.sqliteFile) { client, world in
            let users = try await world.world.repository.users(clientID: world.clientID).count
            let created = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"subscription_id":"S-1"}"#)
            #expect(created.status == .created)
            #expect(try await world.world.repository.users(clientID: world.clientID).count == users + 1)
            let state = try W.state(created.body)
            #expect(state.fields["seat"] == .text("General admission"), "the demo ticket's own value")
            let existing = try await W.send(client, .get, "/api/v2/passes/PASS-001", token: world.token)
            #expect(existing.status == .ok)
            #expect(try W.state(existing.body).fields == ["event": .text("Launch")])
        }
    }

    @Test("every route is 401 with a challenge without a valid token", arguments: Engine.available)
    func unauthorized(_ engine: Engine) async throws {
        try await W.run(engine) { client, _ in
            let routes: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/api/v2/passes", #"{"reference_id":"X"}"#), (.get, "/api/v2/passes", nil),
                (.get, "/api/v2/passes/PASS-001", nil), (.patch, "/api/v2/passes/PASS-001", #"{"voided":true}"#),
                (.post, "/api/v2/passes/PASS-001/void", nil), (.post, "/api/v2/passes/PASS-001/expire", nil),
            ]
            for (method, uri, body) in routes {
                for token in [nil, "not-a-token"] {
                    let answer = try await W.send(client, method, uri, token: token, body: body)
                    #expect(answer.status == .unauthorized, "\(method) \(uri)")
                    #expect(answer.headers[.wwwAuthenticate] != nil)
                    #expect(answer.errorCode == "unauthorized")
                }
            }
        }
    }

    @Test(
        "another client's tag is 404 on every route, exactly like a tag that does not exist",
        arguments: Engine.available)
    func otherClientsTag(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let before = try await world.world.repository.pass(tagID: world.world.tag.id)
            for tag in ["PASS-001", "MISSING"] {
                let routes: [(HTTPRequest.Method, String, String?)] = [
                    (.get, "/api/v2/passes/\(tag)", nil), (.patch, "/api/v2/passes/\(tag)", #"{"voided":true}"#),
                    (.post, "/api/v2/passes/\(tag)/void", nil), (.post, "/api/v2/passes/\(tag)/expire", nil),
                ]
                for (method, uri, body) in routes {
                    let token = tag == "PASS-001" ? world.otherToken : world.token
                    let answer = try await W.send(client, method, uri, token: token, body: body)
                    #expect(answer.status == .notFound, "\(method) \(uri)")
                    #expect(answer.errorCode == "not_found")
                }
            }
            #expect(try await world.world.repository.pass(tagID: world.world.tag.id) == before, "nothing changed")
            let list = try await W.send(client, .get, "/api/v2/passes", token: world.otherToken)
            #expect(list.status == .ok)
            #expect(String(decoding: list.body, as: UTF8.self) == #"{"next_cursor":null,"passes":[]}"#)
        }
    }

    @Test(
        "malformed bodies, unknown keys, wrong types and bad dates are 400, and nothing is created",
        arguments: [
            "", "{", "[]", #""text""#, "{}", #"{"reference_id":""}"#, #"{"reference_id":5}"#,
            #"{"reference_id":"A","colour":"red"}"#, #"{"reference_id":"A","fields":[]}"#,
            #"{"reference_id":"A","fields":{"seat":true}}"#, #"{"reference_id":"A","fields":{"seat":null}}"#,
            #"{"reference_id":"A","relevant_date":"tomorrow"}"#, #"{"reference_id":"A","pass_type_id":"nope"}"#,
            #"{"reference_id":"A","fields":{"gate":"B"}}"#, #"{"reference_id":"line\nbreak"}"#,
        ])
    func badCreates(_ body: String) async throws {
        try await W.run(.sqliteFile) { client, world in
            let tags = try await world.world.repository.tags(clientID: world.clientID).count
            let answer = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: body)
            #expect(answer.status == .badRequest, "\(body): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.errorCode == "bad_request")
            #expect(try await world.world.repository.tags(clientID: world.clientID).count == tags)
        }
    }

    @Test("a field the template does not have is 400 and names the template's fields", arguments: Engine.available)
    func unknownField(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let create = try await W.send(
                client, .post, "/api/v2/passes", token: world.token,
                body: #"{"reference_id":"T-9","fields":{"gate":"B"}}"#)
            #expect(create.status == .badRequest)
            let message = String(decoding: create.body, as: UTF8.self)
            #expect(message.contains("gate") && message.contains("seat"))
            let before = try await world.world.repository.pass(tagID: world.world.tag.id)
            let patch = try await W.send(
                client, .patch, "/api/v2/passes/PASS-001", token: world.token, body: #"{"fields":{"seat":"1"}}"#)
            #expect(patch.status == .badRequest, "PASS-001's pass has only 'event'")
            #expect(try await world.world.repository.pass(tagID: world.world.tag.id) == before)
        }
    }

    @Test("a body over 64 KiB is 413 on create and on change")
    func oversized() async throws {
        try await W.run(.sqliteFile) { client, world in
            let big = #"{"reference_id":"A","fields":{"seat":""# + String(repeating: "x", count: 70_000) + #""}}"#
            let create = try await W.send(client, .post, "/api/v2/passes", token: world.token, body: big)
            #expect(create.status == .contentTooLarge)
            #expect(create.errorCode == "too_large")
            let patch = try await W.send(client, .patch, "/api/v2/passes/PASS-001", token: world.token, body: big)
            #expect(patch.status == .contentTooLarge)
        }
    }

    @Test("GET /api/v2/pass_types lists the pass types shared with the client, each with its NFC public key")
    func passTypes() async throws {
        try await W.run(.sqliteFile) { client, world in
            let passType = try #require(try await world.world.repository.passTypes().first)
            let mine = try await W.send(client, .get, "/api/v2/pass_types", token: world.token)
            #expect(mine.status == .ok)
            let listed = try JSONSerialization.jsonObject(with: mine.body) as? [String: [[String: Any]]]
            let only = try #require(listed?["pass_types"]?.first)
            #expect(listed?["pass_types"]?.count == 1)
            #expect(only["id"] as? String == passType.id.uuidString)
            #expect(only["pass_type_identifier"] as? String == passType.passTypeIdentifier)
            #expect(only["nfc_public_key"] as? String == passType.nfcPublicKey)
            #expect(PassNFC.isP256PublicKey(try #require(only["nfc_public_key"] as? String)))
            let theirs = try await W.send(client, .get, "/api/v2/pass_types", token: world.otherToken)
            #expect(String(decoding: theirs.body, as: UTF8.self) == #"{"pass_types":[]}"#)
            #expect(try await W.send(client, .get, "/api/v2/pass_types", token: nil).status == .unauthorized)
        }
    }

    @Test(
        "a reused tag identifier is 409; another client may use it once the pass type is shared with it"
    )
    func duplicateTag() async throws {
        try await W.run(.sqliteFile) { client, world in
            let duplicate = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"PASS-001"}"#)
            #expect(duplicate.status == .conflict)
            #expect(duplicate.errorCode == "conflict")
            let passType = try #require(try await world.world.repository.passTypes().first)
            let unnamed = try await W.send(
                client, .post, "/api/v2/passes", token: world.otherToken, body: #"{"reference_id":"PASS-001"}"#)
            #expect(unnamed.status == .notFound, "the other client has no pass type shared with it")
            let refused = try await W.send(
                client, .post, "/api/v2/passes", token: world.otherToken,
                body: #"{"reference_id":"PASS-001","pass_type_id":"\#(passType.id)"}"#)
            #expect(refused.status == .forbidden, "another client's pass type")
            #expect(refused.errorCode == "forbidden")
            try await world.world.repository.grantPassType(
                passTypeID: passType.id, clientID: world.otherClientID, now: Date())
            let named = try await W.send(
                client, .post, "/api/v2/passes", token: world.otherToken,
                body: #"{"reference_id":"PASS-001","pass_type_id":"\#(passType.id)"}"#)
            #expect(named.status == .created)
        }
    }

    @Test(
        "PATCH changes fields, semantic tags, dates and voided through the updater; void and expire are shorthands",
        arguments: Engine.available)
    func changes(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let created = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"T-7"}"#)
            let first = try W.state(created.body)
            let patched = try await W.send(
                client, .patch, "/api/v2/passes/T-7", token: world.token,
                body: #"{"fields":{"seat":"14C","event":"Encore"},"relevant_date":"2026-12-24T18:00:00Z"}"#)
            #expect(patched.status == .ok, "\(String(decoding: patched.body, as: UTF8.self))")
            let second = try W.state(patched.body)
            #expect(second.fields["seat"] == .text("14C"))
            #expect(second.fields["event"] == .text("Encore"))
            #expect(second.relevantDate == ISO8601.date("2026-12-24T18:00:00Z"))
            #expect(Int64(second.updateTag)! > Int64(first.updateTag)!)
            #expect(second.serialNumber == first.serialNumber)

            let moved = try await W.send(
                client, .patch, "/api/v2/passes/T-7", token: world.token,
                body: #"{"semantics":{"eventStartDate":"2026-06-05T21:00:00+02:00","venueName":"Hall B"}}"#)
            #expect(moved.status == .ok, "\(String(decoding: moved.body, as: UTF8.self))")
            let movedPass = try PassPackage(
                archive: try #require(try await world.world.repository.pass(tagID: first.tag.id)).passContent
            ).pass
            #expect(movedPass.semantics?.json["eventStartDate"] == .string("2026-06-05T21:00:00+02:00"))
            #expect(movedPass.semantics?.venueName == "Hall B")
            for body in [
                #"{"semantics":{"kickOff":"21:00"}}"#, #"{"semantics":{}}"#, #"{"semantics":"x"}"#,
                #"{"semantics":{"eventStartDate":5}}"#,
            ] {
                let refused = try await W.send(client, .patch, "/api/v2/passes/T-7", token: world.token, body: body)
                #expect(refused.status == .badRequest, "\(body)")
            }

            let voided = try await W.send(client, .post, "/api/v2/passes/T-7/void", token: world.token)
            #expect(voided.status == .ok)
            #expect(try W.state(voided.body).voided)
            let expired = try await W.send(client, .post, "/api/v2/passes/T-7/expire", token: world.token)
            #expect(expired.status == .ok)
            let expiry = try #require(try W.state(expired.body).expirationDate)
            #expect(expiry <= Date())
            let read = try await W.send(client, .get, "/api/v2/passes/T-7", token: world.token)
            let last = try W.state(read.body)
            #expect(last.voided && last.fields["seat"] == .text("14C") && last.expirationDate == expiry)
            let stored = try #require(try await world.world.repository.pass(tagID: first.tag.id))
            #expect(try PassPackage(archive: stored.passContent).pass.voided == true)
        }
    }

    @Test("a pass type's stored template is what passes are made from, and names the fields a create may set")
    func storedTemplate() async throws {
        try await W.run(.sqliteFile) { client, world in
            let repository = world.world.repository
            let passType = try #require(try await repository.passTypes().first)
            var package = try PassTemplate.demoTicket().package
            var pass = try package.pass
            pass.fields = PassFields(
                primaryFields: [.text("gate", "A", label: "GATE")], backFields: [.text("terms", "None")])
            try package.setPass(pass)
            try await repository.setPassTemplate(passTypeID: passType.id, archive: try package.archived())

            let created = try await W.send(
                client, .post, "/api/v2/passes", token: world.token,
                body: #"{"reference_id":"TPL-1","fields":{"gate":"B"}}"#)
            #expect(created.status == .created)
            #expect(try W.state(created.body).fields == ["gate": .text("B"), "terms": .text("None")])
            let demoField = try await W.send(
                client, .post, "/api/v2/passes", token: world.token,
                body: #"{"reference_id":"TPL-2","fields":{"seat":"1"}}"#)
            #expect(demoField.status == .badRequest, "the demo ticket's field is not this template's")
        }
    }

    @Test("a pass that would have lint errors is 400 invalid_pass, answering the findings; nothing is created")
    func invalidPassAnswersFindings() async throws {
        try await W.run(.sqliteFile) { client, world in
            let repository = world.world.repository
            let passType = try #require(try await repository.passTypes().first)
            var package = try PassTemplate.demoTicket().package
            var pass = try package.pass
            pass.fields.primaryFields = [
                PassField(key: "row", value: .text("1"), label: "ROW", changeMessage: "Your row changed")
            ]
            try package.setPass(pass)
            // A template stored before lint refused it (coffer admin pass-type template lints it now).
            try await repository.setPassTemplate(passTypeID: passType.id, archive: try package.archived())
            let tags = try await repository.tags(clientID: world.clientID).count

            let answer = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"LINT-1"}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "invalid_pass")
            let body = try JSONSerialization.jsonObject(with: answer.body) as? [String: [String: Any]]
            let findings = try #require(body?["error"]?["findings"] as? [[String: String]])
            #expect(findings.map { $0["code"] } == ["field.change-message"])
            #expect(findings.first?["path"] == "eventTicket.primaryFields[0].changeMessage")
            #expect(try await repository.tags(clientID: world.clientID).count == tags)
        }
    }

    @Test(
        "the state tracks registrations, issuance and binding; a change queues a push per device",
        arguments: Engine.available)
    func lifecycle(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let created = try await W.send(
                client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"LIFE-1"}"#)
            let passID = try W.state(created.body).passID
            let repository = world.world.repository
            for device in ["device-a", "device-b"] {
                _ = try await repository.register(
                    .pass, deviceLibraryIdentifier: device, pushToken: "token-\(device)", documentID: passID,
                    now: Date(),
                    maximumDevices: 20)
            }
            func read() async throws -> ManagedPassState {
                try W.state(try await W.send(client, .get, "/api/v2/passes/LIFE-1", token: world.token).body)
            }
            #expect(try await read().registrations == 2)
            #expect(try await read().bindingState == .unbound)

            let issued = try await W.send(
                client, .post, "/api/v2/in_app_provisioning/issuer_data", token: world.token,
                body: #"{"tag_id":"LIFE-1"}"#)
            #expect(issued.status == .ok)
            #expect(try await read().bindingState == .issued)
            let data = try JSONDecoder().decode([String: String].self, from: issued.body)
            let binding = try JSONDecoder().decode(
                IssuerBindingData.self, from: try #require(data["issuer_data"].flatMap { Data(base64Encoded: $0) }))
            let bound = try await W.send(
                client, .post, "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(binding.sessionIdentifier)",
                token: nil, body: #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
            #expect(bound.status == .ok)
            #expect(try await read().bindingState == .bound)

            let voided = try await W.send(client, .post, "/api/v2/passes/LIFE-1/void", token: world.token)
            #expect(voided.status == .ok)
            let queued = try await world.world.database.sql.raw(
                "SELECT COUNT(*) AS n FROM push_outbox WHERE pass_id = \(bind: passID.uuidString)"
            ).first(decodingColumn: "n", as: Int.self)
            #expect(queued == 2, "one push per registered device")
            #expect(try await read().bindingState == .bound, "a change keeps the binding")
        }
    }

    @Test(
        "a PATCH with nothing to change, an unknown key or a bad id_attribute is 400",
        arguments: [
            ("/api/v2/passes/PASS-001", "{}"), ("/api/v2/passes/PASS-001", #"{"voided":"yes"}"#),
            ("/api/v2/passes/PASS-001", #"{"colour":"red"}"#), ("/api/v2/passes/PASS-001", "nope"),
            ("/api/v2/passes/PASS-001?id_attribute=email", #"{"voided":true}"#),
        ])
    func badChanges(_ uri: String, _ body: String) async throws {
        try await W.run(.sqliteFile) { client, world in
            let answer = try await W.send(client, .patch, uri, token: world.token, body: body)
            #expect(answer.status == .badRequest, "\(uri) \(body)")
        }
    }

    @Test(
        "the list pages through every pass once, in a stable order, with an opaque cursor", arguments: Engine.available)
    func paging(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            var made = ["PASS-001"]
            for index in 1...6 {
                let answer = try await W.send(
                    client, .post, "/api/v2/passes", token: world.token, body: #"{"reference_id":"L-\#(index)"}"#)
                #expect(answer.status == .created)
                made.append("L-\(index)")
            }
            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/api/v2/passes?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")
                let answer = try await W.send(client, .get, uri, token: world.token)
                #expect(answer.status == .ok)
                let page = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
                let passes = try #require(page["passes"] as? [[String: Any]])
                seen += passes.compactMap { ($0["tag"] as? [String: Any])?["reference_id"] as? String }
                cursor = page["next_cursor"] as? String
                pages += 1
                #expect(passes.count <= 3)
            } while cursor != nil && pages < 10
            #expect(seen == made, "oldest first, each once")
            #expect(pages == 3)
            let whole = try await W.send(client, .get, "/api/v2/passes", token: world.token)
            #expect(whole.status == .ok)
        }
    }

    @Test(
        "a bad limit or cursor is 400",
        arguments: ["limit=0", "limit=201", "limit=ten", "limit=", "cursor=garbage", "cursor=cDE6MTox"])
    func badPaging(_ query: String) async throws {
        try await W.run(.sqliteFile) { client, world in
            let answer = try await W.send(client, .get, "/api/v2/passes?\(query)", token: world.token)
            #expect(answer.status == .badRequest, "\(query)")
        }
    }

    @Test("another method on a management path is 405 with Allow")
    func methodNotAllowed() async throws {
        try await W.run(.sqliteFile) { client, world in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/api/v2/passes/PASS-001", "GET, PATCH"), (.put, "/api/v2/passes", "GET, POST"),
                (.get, "/api/v2/passes/PASS-001/void", "POST"),
            ]
            for (method, uri, allow) in cases {
                let answer = try await W.send(client, method, uri, token: world.token)
                #expect(answer.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(answer.headers[.allow] == allow)
            }
        }
    }
}
