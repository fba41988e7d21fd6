import Foundation
import WalletDocuments

/// How one iOS shows a pass: the layout it picks and the keys it does not read. Wallet drops silently what an older
/// iOS does not know, so this is the only place an author sees it.
public struct PassRendering: Hashable, Sendable, Codable {
    /// The iOS.
    public let os: IOSVersion
    /// The layout Wallet draws, such as `poster event ticket` or `event ticket`.
    public let layout: String
    /// Why Wallet falls back from the layout the pass asks for, when it does.
    public let fallbackReason: String?
    /// The barcode format Wallet shows (the first one this iOS can draw), or `nil` when it shows none.
    public let barcode: String?
    /// The paths of the keys in `pass.json` this iOS does not read, for this layout.
    public let ignoredKeys: [String]

    init(_ pass: Pass, files: [String: Data]?, on os: IOSVersion) {
        self.os = os
        var fallback: String?
        if os >= .iOS27, pass.json["posterGeneric"] != nil {
            layout = "poster generic"
        } else if PassChecks.isPosterEventTicket(pass), os >= .iOS18 {
            let shortfalls = PassChecks.posterEventShortfalls(pass, files: files)
            layout = shortfalls.isEmpty ? "poster event ticket" : "event ticket"
            if !shortfalls.isEmpty { fallback = "missing " + shortfalls.joined(separator: ", ") }
        } else if PassChecks.isSemanticBoardingPass(pass), os >= .iOS26 {
            let shortfalls = PassChecks.semanticBoardingShortfalls(pass)
            layout = shortfalls.isEmpty ? "semantic boarding pass" : "boarding pass"
            if !shortfalls.isEmpty { fallback = "missing " + shortfalls.joined(separator: ", ") }
        } else {
            layout = Self.name(of: pass.style)
        }
        fallbackReason = fallback
        barcode =
            (pass.barcodes ?? []).compactMap(\.format).first { ($0.since ?? os) <= os }?.rawValue
            ?? pass.barcode?.format?.rawValue
        var ignored = Self.unknownKeys(pass.json, schema: Pass.schema, at: "", on: os)
        if layout != "poster event ticket" {
            ignored += PassChecks.posterEventOnlyKeys.filter { pass.json[$0] != nil && !ignored.contains($0) }
        }
        if layout != "semantic boarding pass" {
            ignored += Pass.boardingLinkEntries.map(\.key).filter { pass.json[$0] != nil && !ignored.contains($0) }
        }
        if layout != "poster generic", pass.json["posterGeneric"] != nil, !ignored.contains("posterGeneric") {
            ignored.append("posterGeneric")
        }
        ignoredKeys = ignored.sorted()
    }

    /// The paths of the keys in `object` that `os` does not read: introduced later, or unknown to Apple's reference.
    static func unknownKeys(_ object: [String: JSONValue], schema: DocumentSchema, at path: String, on os: IOSVersion)
        -> [String]
    {
        var ignored: [String] = []
        for (key, value) in object {
            let keyPath = LintContext.path(path, key)
            guard let entry = schema.entry(for: key), (entry.since ?? os) <= os else {
                ignored.append(keyPath)
                continue
            }
            ignored += unknownKeys(value, kind: entry.kind, at: keyPath, on: os)
        }
        return ignored
    }

    private static func unknownKeys(_ value: JSONValue, kind: SchemaValueKind, at path: String, on os: IOSVersion)
        -> [String]
    {
        switch (kind, value) {
        case (.dictionary(let type), .object(let object)):
            return unknownKeys(object, schema: type.schema, at: path, on: os)
        case (.array(let element, _), .array(let elements)):
            return elements.enumerated().flatMap { unknownKeys($1, kind: element, at: "\(path)[\($0)]", on: os) }
        case (.tagged(let key, let types), .object(let object)):
            guard case .string(let tag)? = object[key], let type = types[tag] else { return [] }
            return unknownKeys(object, schema: type.schema, at: path, on: os)
        default:
            return []
        }
    }

    private static func name(of style: Pass.Style) -> String {
        switch style {
        case .boardingPass: "boarding pass"
        case .coupon: "coupon"
        case .eventTicket: "event ticket"
        case .generic: "generic"
        case .storeCard: "store card"
        }
    }
}
