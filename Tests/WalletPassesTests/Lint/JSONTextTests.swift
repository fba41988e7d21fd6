import Foundation
import PropertyBased
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("JSON text reads and writes as Foundation's coders do, refusing what RFC 8259 refuses")
struct JSONTextTests {
    @Test("any value written reads back equal, pretty or not, and Foundation reads it the same")
    func roundTrip() async throws {
        await propertyCheck(count: 300, input: PassJSONGenerator.documents) { document in
            for pretty in [false, true] {
                let text = JSONValue.object(document).serialized(pretty: pretty)
                #expect(try JSONValue(parsing: text) == .object(document))
                #expect(try JSONDecoder().decode(JSONValue.self, from: text) == .object(document))
            }
            let foundation = try JSONEncoder().encode(JSONValue.object(document))
            #expect(try JSONValue(parsing: foundation) == .object(document))
        }
    }

    @Test(
        "texts RFC 8259 accepts read as Foundation reads them",
        arguments: [
            #"{"a":[1,-2.5,3e2,0.001,1E-7,-0,12345678901234567]}"#, #"  [ true , false , null ]  "#,
            #""\u00e9\ud83c\udf9f\n\t\"\\\/""#, #"{"a":{"a":{"a":{}}},"b":[]}"#, "\"Zürich — 東京 🎟️\"", "0",
        ])
    func accepted(_ text: String) throws {
        #expect(
            try JSONValue(parsing: Data(text.utf8)) == (try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
        )
    }

    @Test(
        "texts RFC 8259 refuses are refused with the byte where they go wrong",
        arguments: [
            "", "{", "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "-", "1e", "+1", "NaN", "tru", "nul", #""abc"#,
            "\"a\u{01}b\"", #""\x""#, #""\ud800""#, #""\udc00""#, #""\u12G4""#, "1e400", "[1] 2", "{1:2}", #"{"a" 1}"#,
            "// c\n{}", "\u{FEFF}{}",
        ])
    func refused(_ text: String) {
        #expect { try JSONValue(parsing: Data(text.utf8)) } throws: { "\($0)".contains("not valid JSON at byte") }
    }

    @Test("bytes that are not UTF-8 in a string are refused")
    func notUTF8() {
        #expect(throws: DecodingError.self) { try JSONValue(parsing: Data([0x22, 0xFF, 0xFE, 0x22])) }
    }

    @Test("nesting past 512 levels is refused rather than risking the stack; 512 is read")
    func depth() throws {
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: DecodingError.self) { try JSONValue(parsing: Data(deep.utf8)) }
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue(parsing: Data(allowed.utf8))
    }

    @Test("written text is pretty, sorted and unescaped where JSON allows")
    func format() {
        let value = JSONValue.object([
            "b": .array([.number(1), .number(0.5)]), "a": .string("x/y \"q\""), "c": .object([:]),
        ])
        let text = String(decoding: value.serialized(pretty: true), as: UTF8.self)
        #expect(text == "{\n  \"a\" : \"x/y \\\"q\\\"\",\n  \"b\" : [\n    1,\n    0.5\n  ],\n  \"c\" : {}\n}")
        #expect(String(decoding: value.serialized(), as: UTF8.self) == #"{"a":"x/y \"q\"","b":[1,0.5],"c":{}}"#)
    }
}
