import Foundation
import Testing

@testable import WalletDocuments
@testable import WalletPasses

@Suite("pass.strings: read as Foundation reads them, written in UTF-16 as Apple asks")
struct PassStringsTests {
    /// What Foundation's own parser (Apple's CoreFoundation) reads from `data`.
    static func foundation(_ data: Data) throws -> [String: String] {
        try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String])
    }

    @Test("a file written here reads back through Foundation's parser, escapes, controls and every script intact")
    func roundTrip() throws {
        let entries = [
            "event.label": "VERANSTALTUNG", "quote": #"Say "hi" \ then"#, "lines": "one\ntwo\r\tthree",
            "control": "bell\u{07}end", "ja": "イベント 🎫", "empty": "", "spaced key": "x",
        ]
        let data = StringsFile(entries).encoded()
        #expect(data.starts(with: [0xFF, 0xFE]), "UTF-16 little-endian with its byte order mark")
        #expect(try Self.foundation(data) == entries)
        #expect(try StringsFile(data: data).entries == entries)
    }

    @Test(
        "UTF-8, UTF-8 with a byte order mark, UTF-16 either way round with one: the same entries",
        arguments: [
            Data("/* header */\n\"a\" = \"é\"; // note\nb = c;\n".utf8),
            Data([0xEF, 0xBB, 0xBF]) + Data("\"a\" = \"é\";\nb = c;".utf8),
            Data([0xFF, 0xFE]) + "\"a\" = \"é\";\nb = c;".data(using: .utf16LittleEndian)!,
            Data([0xFE, 0xFF]) + "\"a\" = \"é\";\nb = c;".data(using: .utf16BigEndian)!,
        ])
    func encodings(_ data: Data) throws {
        #expect(try StringsFile(data: data).entries == ["a": "é", "b": "c"])
    }

    @Test("an empty file, or one of comments, has no entries")
    func empty() throws {
        #expect(try StringsFile(data: Data()).entries.isEmpty)
        #expect(try StringsFile(data: Data("/* nothing yet */\n".utf8)).entries.isEmpty)
    }

    @Test("bytes that are not the text they declare are an encoding error that says what to do")
    func misdeclared() {
        for (data, expected) in [
            (Data([0xFF, 0xFE, 0x22]), "declares UTF-16"),
            ("\"a\" = \"b\";".data(using: .utf16LittleEndian)!, "without a byte order mark"),
            (Data([0xEF, 0xBB, 0xBF, 0xC3]), "declares UTF-8"),
            (Data([0xC3, 0x28, 0x41]), "neither UTF-8 nor UTF-16"),
        ] {
            #expect {
                try StringsFile(data: data)
            } throws: { error in
                guard case .encoding(let reason) = error as? StringsFile.ReadError else { return false }
                return reason.contains(expected)
            }
        }
    }

    @Test("text that is not a list of entries is a syntax error naming the line, as Foundation does")
    func syntax() {
        #expect {
            try StringsFile(data: Data("\"a\" = \"b\"\n\"c\" = \"d\";".utf8))
        } throws: { error in
            guard case .syntax(let reason) = error as? StringsFile.ReadError else { return false }
            return reason.contains("line 2")
        }
        #expect(throws: StringsFile.ReadError.self) { try StringsFile(data: Data("a = (1, 2);".utf8)) }
        let deep = Data(("\"a\" = \"(\";\n// {\n/* < */ b = " + String(repeating: "(", count: 1_000_000)).utf8)
        #expect(throws: StringsFile.ReadError.syntax("has a nested value on line 3: entries are \"key\" = \"value\";"))
        {
            try StringsFile(data: deep)
        }
    }
}

@Suite("Localized texts: language identifiers, and a fallback for languages without their own text")
struct LocalizedTextTests {
    @Test(
        "language identifiers are Apple's .lproj names",
        arguments: [
            ("en", true), ("de", true), ("zh-Hans", true), ("pt-BR", true), ("es-419", true), ("zh-Hant-TW", true),
            ("ast", true), ("EN", false), ("english", false), ("de_DE", false), ("pt-br", false), ("Base", false),
            ("", false), ("en-", false), ("zh-hans", false),
        ])
    func identifiers(_ identifier: String, valid: Bool) {
        #expect(LocalizedText.isLanguage(identifier) == valid)
    }

    @Test("the fallback is English when there is English, else the first language; empty and odd keys are refused")
    func fallback() throws {
        #expect(try LocalizedText(["de": "Tor", "en": "Gate", "ja": "ゲート"]).fallback == "Gate")
        #expect(try LocalizedText(["ja": "ゲート", "de": "Tor"]).fallback == "Tor")
        #expect(throws: WalletDocumentError.self) { try LocalizedText([:]) }
        #expect(throws: WalletDocumentError.self) { try LocalizedText(["german": "Tor"]) }
    }
}

@Suite("A field's texts in several languages: pass.json holds a key, each language's pass.strings its text")
struct PassFieldTextTests {
    static func package() throws -> PassPackage {
        try PassPackage(pass: Fixtures.pass(), files: ["icon.png": Fixtures.png(1)])
    }

    @Test("a localized value and label reach every language, pass.json names them by a key that changes with them")
    func localize() throws {
        var package = try Self.package()
        let value = try LocalizedText(["en": "Swift in Concert", "de": "Swift im Konzert", "ja": "Swift コンサート"])
        #expect(try package.setField(.value, ofKey: "event", to: .localized(value)))
        #expect(
            try package.setField(
                .label, ofKey: "event", to: .localized(try LocalizedText(["en": "EVENT", "de": "VERANSTALTUNG"]))))
        #expect(package.languages == ["de", "en", "ja"])
        let field = try #require(try package.pass.fields.field(forKey: "event"))
        guard case .text(let valueKey) = field.value, let labelKey = field.label else {
            Issue.record("the value and label are keys")
            return
        }
        #expect(valueKey.hasPrefix("event.value."))
        #expect(try package.strings(for: "ja").entries[valueKey] == "Swift コンサート")
        #expect(try package.strings(for: "ja").entries[labelKey] == "EVENT", "Japanese has no label: the fallback")
        #expect(try package.strings(for: "de").entries[labelKey] == "VERANSTALTUNG")
        #expect(package.lint().findings.filter { $0.code.hasPrefix("strings.") }.isEmpty)

        let renamed = try LocalizedText(["en": "Swift Live", "de": "Swift live", "ja": "Swift ライブ"])
        try package.setField(.value, ofKey: "event", to: .localized(renamed))
        let newKey = try #require(try package.pass.fields.field(forKey: "event")?.json["value"])
        #expect(newKey != .string(valueKey), "a new translation is a new key: Wallet sees the value change")
        for language in package.languages {
            #expect(try package.strings(for: language).entries[valueKey] == nil, "the old key is gone in \(language)")
        }

        try package.setField(.value, ofKey: "event", to: .plain(.text("Sold out")))
        #expect(try package.pass.fields.value(forKey: "event") == .text("Sold out"))
        #expect(try package.strings(for: "de").entries.keys.allSatisfy { !$0.hasPrefix("event.value.") })
        #expect(try !package.setField(.label, ofKey: "nope", to: .plain(.text("x"))))
        #expect(throws: WalletDocumentError.self) {
            try package.setField(.label, ofKey: "event", to: .plain(.number(3)))
        }
    }

    @Test("each language's view shows its own texts; a language lacking a key shows the key")
    func languageViews() throws {
        let report = LintSample.localized.report()
        let views = report.languageViews
        #expect(views.map(\.language) == ["de", "en", "ja"])
        let japanese = try #require(views.last?.texts.first { $0.path == "eventTicket.primaryFields[0].label" })
        #expect(japanese.shown == "イベント" && japanese.isLocalized)
        let description = try #require(views.first?.texts.first { $0.path == "description" })
        #expect(description.shown == "Concert ticket" && !description.isLocalized)
    }
}
