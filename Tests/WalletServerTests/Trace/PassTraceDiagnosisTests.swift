import Foundation
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("The trace's diagnosis: one finding per known cause of a pass not updating")
struct PassTraceDiagnosisTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let url = "https://wallet.example.com/passkit"

    /// Events given oldest first, numbered from 1, each a second after the one before, ending at `now`.
    static func events(_ specs: [(PassEvent.Kind, [String: JSONValue])]) -> [PassEvent] {
        specs.enumerated().map { index, spec in
            PassEvent(
                id: Int64(index + 1), passID: UUID(),
                occurredAt: now.addingTimeInterval(TimeInterval(index - specs.count)), kind: spec.0,
                device: spec.0 == .changed ? nil : "0123456789abcdef", details: spec.1)
        }.reversed()
    }

    static func codes(
        _ specs: [(PassEvent.Kind, [String: JSONValue])], registrations: Int = 1, url: String? = url,
        now: Date = now
    ) -> [String] {
        PassTrace.diagnose(newestFirst: events(specs), registrations: registrations, webServiceURL: url, now: now)
            .map(\.code)
    }

    static func field(_ key: String, message: Bool) -> JSONValue {
        .object(["key": .string(key), "change_message": .bool(message)])
    }

    @Test("a healthy trace has no finding")
    func healthy() {
        let codes = Self.codes([
            (.registered, ["outcome": .string("created")]),
            (.changed, ["fields": .array([Self.field("gate", message: true)])]), (.pushSent, ["status": .number(200)]),
            (.listed, [:]), (.fetched, ["status": .number(200)]),
        ])
        #expect(codes.isEmpty)
    }

    @Test("the newest change decides: a field without changeMessage is silent, an earlier one no longer counts")
    func silentChange() {
        #expect(
            Self.codes([(.changed, ["fields": .array([Self.field("seat", message: false)])])])
                == ["change_without_message"])
        #expect(
            Self.codes([
                (.changed, ["fields": .array([Self.field("seat", message: false)])]),
                (.changed, ["fields": .array([Self.field("seat", message: true)])]),
            ]).isEmpty)
        let finding = PassTrace.diagnose(
            newestFirst: Self.events([(.changed, ["fields": .array([Self.field("seat", message: false)])])]),
            registrations: 1, webServiceURL: Self.url, now: Self.now)
        #expect(finding.first?.message.contains("'seat'") == true)
    }

    @Test("no device: no https webServiceURL, never registered, unregistered, or its token went stale")
    func noDevice() throws {
        func message(_ specs: [(PassEvent.Kind, [String: JSONValue])], url: String?) throws -> String {
            let findings = PassTrace.diagnose(
                newestFirst: Self.events(specs), registrations: 0, webServiceURL: url, now: Self.now)
            return try #require(findings.first { $0.code == "no_device_registered" }).message
        }
        #expect(try message([], url: nil).contains("public URL is not https"))
        #expect(try message([(.issued, [:])], url: Self.url).contains("never added to Wallet"))
        #expect(
            try message([(.registered, ["outcome": .string("created")]), (.unregistered, [:])], url: Self.url)
                .contains("the last one unregistered"))
        #expect(
            try message(
                [
                    (.registered, ["outcome": .string("created")]),
                    (.pushRefused, ["registration_removed": .bool(true)]),
                ], url: Self.url
            ).contains("no longer valid"))
    }

    @Test("a push APNs accepted counts as unfetched only after the grace period, and until a fetch")
    func unfetchedPush() {
        let pushed: [(PassEvent.Kind, [String: JSONValue])] = [(.pushSent, ["status": .number(200)])]
        #expect(Self.codes(pushed).isEmpty)
        #expect(Self.codes(pushed, now: Self.now.addingTimeInterval(PassTrace.fetchGrace + 1)) == ["push_not_fetched"])
        #expect(
            Self.codes(pushed + [(.fetched, ["status": .number(304)])], now: Self.now.addingTimeInterval(600)).isEmpty)
    }

    @Test(
        "refusals of the pass type's credentials, whatever their status, and abandoned pushes",
        arguments: ["TopicDisallowed", "BadCertificate", "BadCertificateEnvironment", "InvalidProviderToken"])
    func credentials(_ reason: String) {
        #expect(
            Self.codes([(.pushRefused, ["status": .number(400), "reason": .string(reason)])]) == ["push_credentials"])
        #expect(
            Self.codes([(.pushFailed, ["status": .number(403), "reason": .string("Forbidden")])]) == [
                "push_credentials"
            ])
        #expect(
            Self.codes([
                (
                    .pushFailed,
                    ["status": .number(500), "reason": .string("InternalServerError"), "abandoned": .bool(true)]
                )
            ])
                == ["push_abandoned"])
    }

    @Test("each distinct cause devices log is one finding, the newest first")
    func deviceLogs() {
        let codes = Self.codes([
            (.deviceLog, ["message": .string("…"), "cause": .string("a")]),
            (.deviceLog, ["message": .string("…"), "cause": .string("b")]),
            (.deviceLog, ["message": .string("…"), "cause": .string("a")]),
            (.deviceLog, ["message": .string("no cause")]),
        ])
        #expect(codes == ["device_log", "device_log"])
    }

    @Test(
        "device log lines name their pass in each of Wallet's phrasings",
        arguments: [
            (
                "[2016-08-28 11:57:01 -0400] Register task (for device ceed87, pass type pass.com.a.card, serial "
                    + "number 8560-765F; with web service url https://a.example/pb) encountered error: "
                    + "Authentication failure", "pass.com.a.card", "8560-765F"
            ),
            (
                "Get pass task (pass type pass.com.a, serial number S1, if-modified-since Tue, 09 Aug 2016 21:57:32 "
                    + "GMT; with web service url https://a.example) encountered error: Unexpected response code 500",
                "pass.com.a", "S1"
            ),
            (
                "Web service error for pass.com.a (https://a.example/pb): Server ignored the 'if-modified-since' "
                    + "header and returned the full unchanged pass data for serial number 'S-2'.", "pass.com.a", "S-2"
            ),
        ])
    func passReference(_ message: String, _ passType: String, _ serial: String) {
        let reference = DeviceLogReading.passReference(in: message)
        #expect(reference?.passTypeIdentifier == passType)
        #expect(reference?.serialNumber == serial)
        #expect(DeviceLogReading.cause(of: message) != nil)
    }

    @Test("a line that names no pass, or only half of one, names none")
    func noReference() {
        #expect(DeviceLogReading.passReference(in: "Get serial #s task encountered error: timed out") == nil)
        #expect(DeviceLogReading.passReference(in: "pass type pass.com.a only") == nil)
        #expect(DeviceLogReading.cause(of: "all is well") == nil)
    }
}
