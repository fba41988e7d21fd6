import Foundation
import WalletDocuments

/// Google's discovery document of the `walletobjects` API as a validator of classes and objects, checking what the
/// document states at every level: each key a property of its schema, each value of its type, format and
/// enumeration (deprecated values refused), each property whose description begins "Required." or says "This is a
/// required property/field" present, the lists Google says it rejects past a maximum (`messages`,
/// `merchantLocations`) within it, and the pairs it says "may not" both be set apart. `TicketLeg`'s conditional
/// requirements are read from their descriptions the same way (an origin, and a departure unless the object has a
/// `validTimeInterval`).
///
/// The tests and `GoogleWalletStandIn` use it; the document comes from Google's Python client (`.ci/run`).
package struct GoogleDiscoveryDocument: Sendable {
    /// The document's `revision`.
    package let revision: String
    private let schemas: [String: JSONValue]

    /// Reads the document at `path`.
    ///
    /// - Throws: when it cannot be read or has no `schemas`.
    package init(contentsOf path: String) throws {
        let value = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .object(let document) = value, case .object(let schemas)? = document["schemas"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.schemas = schemas
        if case .string(let revision)? = document["revision"] { self.revision = revision } else { revision = "?" }
    }

    /// The document named by `COFFER_TEST_GOOGLE_DISCOVERY`, if the environment names one that can be read.
    package static let fromEnvironment: GoogleDiscoveryDocument? = {
        guard let path = ProcessInfo.processInfo.environment["COFFER_TEST_GOOGLE_DISCOVERY"], !path.isEmpty else {
            return nil
        }
        return try? GoogleDiscoveryDocument(contentsOf: path)
    }()

    /// What is wrong with `value` as an instance of the schema `name` (`EventTicketObject`); empty when valid.
    package func problems(_ value: JSONValue, as name: String) -> [String] {
        guard case .object(let schema)? = schemas[name] else { return ["no schema \(name)"] }
        var problems = check(value, against: schema, at: name)
        if name.hasSuffix("Object"), case .object(let object) = value {
            problems += ticketLegProblems(object, at: name)
        }
        return problems
    }

    /// What is wrong with `value`, encoded as Google's JSON, as an instance of the schema `name`.
    package func problems(_ value: some Encodable, as name: String) -> [String] {
        guard let data = try? JSONEncoder().encode(value), let json = try? JSONValue(parsing: data) else {
            return ["\(name) does not encode"]
        }
        return problems(json, as: name)
    }

    // MARK: Rules

    private func check(_ value: JSONValue, against schema: [String: JSONValue], at path: String) -> [String] {
        if case .string(let reference)? = schema["$ref"] {
            guard case .object(let resolved)? = schemas[reference] else { return ["\(path): no schema \(reference)"] }
            return check(value, against: resolved, at: path)
        }
        guard case .string(let type)? = schema["type"] else { return [] }
        switch (type, value) {
        case ("object", .object(let object)):
            return objectProblems(object, schema: schema, at: path)
        case ("array", .array(let items)):
            guard case .object(let itemSchema)? = schema["items"] else { return [] }
            return items.enumerated().flatMap { check($1, against: itemSchema, at: "\(path)[\($0)]") }
        case ("string", .string(let text)):
            return stringProblems(text, schema: schema, at: path)
        case ("integer", .number(let number)), ("number", .number(let number)):
            return type == "integer" && number != number.rounded() ? ["\(path) is not a whole number"] : []
        case ("boolean", .bool):
            return []
        default:
            return ["\(path) is not \(type == "array" || type == "integer" ? "an" : "a") \(type)"]
        }
    }

    private func objectProblems(_ object: [String: JSONValue], schema: [String: JSONValue], at path: String)
        -> [String]
    {
        guard case .object(let properties)? = schema["properties"] else { return [] }
        var problems: [String] = []
        for key in object.keys.sorted() {
            guard case .object(let property)? = properties[key] else {
                problems.append("\(path).\(key) is not a property of the schema")
                continue
            }
            problems += check(object[key]!, against: property, at: "\(path).\(key)")
            if let limit = Self.rejectedBeyond(property), case .array(let items)? = object[key], items.count > limit {
                problems.append("\(path).\(key) has \(items.count) items; Google rejects more than \(limit)")
            }
            for other in Self.exclusive(property) where object[other] != nil && key < other {
                problems.append("\(path).\(key) and \(other) may not both be set")
            }
        }
        for key in properties.keys.sorted() where object[key] == nil {
            if case .object(let property)? = properties[key], Self.isRequired(property) {
                problems.append("\(path).\(key) is required")
            }
        }
        return problems
    }

    private func stringProblems(_ text: String, schema: [String: JSONValue], at path: String) -> [String] {
        if case .array(let values)? = schema["enum"] {
            guard let index = values.firstIndex(of: .string(text)) else {
                return ["\(path) is '\(text)', not one of the enumeration"]
            }
            if case .array(let deprecated)? = schema["enumDeprecated"], index < deprecated.count,
                deprecated[index] == .bool(true)
            {
                return ["\(path) is '\(text)', which is deprecated"]
            }
        }
        if schema["deprecated"] == .bool(true) { return ["\(path) is deprecated"] }
        switch schema["format"] {
        case .string("int64")?, .string("uint64")?:
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                ? [] : ["\(path) is not an integer in a string"]
        case .string("byte")?:
            return Data(base64Encoded: text) == nil ? ["\(path) is not base64"] : []
        default:
            return []
        }
    }

    /// `TicketLeg`'s conditions, from its descriptions: an `originName` unless there is an `originStationCode`
    /// (and one whenever there is a `destinationName`), and a `departureDateTime` unless the object has a
    /// `validTimeInterval`.
    private func ticketLegProblems(_ object: [String: JSONValue], at path: String) -> [String] {
        var legs: [(String, [String: JSONValue])] = []
        if case .object(let leg)? = object["ticketLeg"] { legs.append(("\(path).ticketLeg", leg)) }
        if case .array(let many)? = object["ticketLegs"] {
            for (index, item) in many.enumerated() {
                if case .object(let leg) = item { legs.append(("\(path).ticketLegs[\(index)]", leg)) }
            }
        }
        return legs.flatMap { legPath, leg -> [String] in
            var problems: [String] = []
            if leg["originName"] == nil, leg["originStationCode"] == nil || leg["destinationName"] != nil {
                problems.append("\(legPath).originName is required")
            }
            if leg["departureDateTime"] == nil, object["validTimeInterval"] == nil {
                problems.append("\(legPath).departureDateTime is required without the object's validTimeInterval")
            }
            return problems
        }
    }

    private static func description(_ property: [String: JSONValue]) -> String {
        if case .string(let text)? = property["description"] { text } else { "" }
    }

    private static func isRequired(_ property: [String: JSONValue]) -> Bool {
        let text = description(property)
        return text.hasPrefix("Required.") || text.contains("This is a required property of")
            || text.contains("This is a required field for")
    }

    /// The most items Google says it accepts of a list ("The maximum number of these fields is 10", "a maximum of
    /// ten on the object. Any additional … will be rejected"); not the limits of what it displays.
    private static func rejectedBeyond(_ property: [String: JSONValue]) -> Int? {
        let text = description(property)
        if text.contains("The maximum number of these fields is 10.") { return 10 }
        if text.contains("maximum of ten on the"), text.contains("will be rejected") { return 10 }
        return nil
    }

    /// The properties a description says may not be set with this one ("Both `a` and `b` may not be set").
    private static func exclusive(_ property: [String: JSONValue]) -> [String] {
        let text = description(property)
        guard let range = text.range(of: "Both `"), text.contains("may not be set") else { return [] }
        let names = text[range.lowerBound...].split(separator: "`", maxSplits: 4).map(String.init)
        return names.count >= 4 ? [names[1], names[3]] : []
    }
}
