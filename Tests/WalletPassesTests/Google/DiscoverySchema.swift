import Foundation

/// Google's discovery document of the `walletobjects` API, as a validator of the JSON Coffer makes: every key a
/// property of its schema, every value of its type and enumeration, every top-level property the document calls
/// "Required." present. `.ci/run` takes the document from Google's Python client (`COFFER_TEST_GOOGLE_DISCOVERY`).
struct DiscoverySchema {
    /// The document's path, when the environment names one.
    static let path = ProcessInfo.processInfo.environment["COFFER_TEST_GOOGLE_DISCOVERY"].flatMap {
        $0.isEmpty ? nil : $0
    }

    let schemas: [String: Any]
    let revision: String

    init(contentsOf path: String) throws {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let object = document as? [String: Any] ?? [:]
        schemas = object["schemas"] as? [String: Any] ?? [:]
        revision = object["revision"] as? String ?? "?"
    }

    /// What is wrong with `value` as an instance of the schema `name`; empty when it is valid.
    func problems(_ value: Any, as name: String) -> [String] {
        guard let schema = schemas[name] as? [String: Any] else { return ["no schema \(name)"] }
        var problems = check(value, against: schema, at: name)
        if let object = value as? [String: Any], let properties = schema["properties"] as? [String: Any] {
            for (key, property) in properties {
                let description = (property as? [String: Any])?["description"] as? String ?? ""
                if description.hasPrefix("Required."), object[key] == nil {
                    problems.append("\(name).\(key) is required")
                }
            }
        }
        return problems
    }

    private func check(_ value: Any, against schema: [String: Any], at path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            guard let resolved = schemas[reference] as? [String: Any] else {
                return ["\(path): no schema \(reference)"]
            }
            return check(value, against: resolved, at: path)
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return ["\(path) is not an object"] }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            let additional = schema["additionalProperties"] as? [String: Any]
            return object.keys.sorted().flatMap { key -> [String] in
                if let property = properties[key] as? [String: Any] {
                    return check(object[key]!, against: property, at: "\(path).\(key)")
                }
                if let additional { return check(object[key]!, against: additional, at: "\(path).\(key)") }
                return ["\(path).\(key) is not a property of the schema"]
            }
        case "array":
            guard let array = value as? [Any], let items = schema["items"] as? [String: Any] else {
                return ["\(path) is not an array"]
            }
            return array.enumerated().flatMap { check($1, against: items, at: "\(path)[\($0)]") }
        case "string":
            guard let text = value as? String else { return ["\(path) is not a string"] }
            if let values = schema["enum"] as? [String], !values.contains(text) {
                return ["\(path) is '\(text)', not one of the enumeration"]
            }
            if (schema["deprecated"] as? Bool) == true { return ["\(path) is deprecated"] }
            return []
        case "integer", "number":
            return value is NSNumber && !(value is Bool) ? [] : ["\(path) is not a number"]
        case "boolean":
            return value is Bool ? [] : ["\(path) is not a boolean"]
        default:
            return []
        }
    }
}
