import Foundation
import Secrets

/// Every key's domain, protection, serializer, owner, availability and sync policy, as text, JSON or Markdown.
///
/// The JSON form (`{"keys": [...]}`) is also a catalog: ``DescriptorCatalog/init(json:)`` and
/// `coffer data catalog --catalog` read it.
public struct StorageCatalogReport: Sendable, Hashable, Codable {
    /// The formats a report is rendered in.
    public enum Format: String, Sendable, CaseIterable, Codable {
        /// Aligned plain text, one block per key.
        case text
        /// Pretty-printed JSON with sorted keys.
        case json
        /// A Markdown table.
        case markdown
    }

    /// The keys, sorted by name.
    public let keys: [StorageKeyDescriptor]

    /// A report of `keys`.
    public init(_ keys: [StorageKeyDescriptor]) {
        self.keys = keys.sorted { $0.name < $1.name }
    }

    /// The report in `format`.
    public func rendered(as format: Format) -> String {
        switch format {
        case .text: return text
        case .json: return json
        case .markdown: return markdown
        }
    }

    private var text: String {
        var lines = ["\(keys.count) storage key\(keys.count == 1 ? "" : "s")"]
        for key in keys {
            lines.append("")
            lines.append("\(key.name) (\(key.valueType))")
            for (label, value) in Self.columns(of: key).dropFirst(2) {
                lines.append("  \(label.padding(toLength: 13, withPad: " ", startingAt: 0))\(value)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings, enums and arrays of them cannot fail.
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)).map { $0 + "\n" } ?? ""
    }

    private var markdown: String {
        let header = Self.columns(of: nil).map(\.label)
        var lines = [
            "| " + header.joined(separator: " | ") + " |",
            "|" + String(repeating: "---|", count: header.count),
        ]
        for key in keys {
            let cells = Self.columns(of: key).map { Self.escapeMarkdown($0.value) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func columns(of key: StorageKeyDescriptor?) -> [(label: String, value: String)] {
        [
            ("Key", key?.name ?? ""),
            ("Type", key?.valueType ?? ""),
            ("Domain", key.map { describe($0.domain) } ?? ""),
            ("Security", key.map { describe($0.security, source: $0.keyMaterialSource) } ?? ""),
            ("Serializer", key?.serializer ?? ""),
            ("Owner", key?.owner ?? ""),
            ("Availability", key?.availability.rawValue ?? ""),
            ("Sync", key?.syncPolicy.rawValue ?? ""),
            ("Description", key?.description ?? ""),
        ]
    }

    static func describe(_ domain: StorageDomain) -> String {
        switch domain {
        case .userDefaults: return "userDefaults"
        case .appGroupUserDefaults(let identifier): return "appGroupUserDefaults(\(identifier))"
        case .keychain: return "keychain"
        case .fileSystem(let directory): return "fileSystem(\(describe(directory)))"
        case .encryptedFileSystem(let directory): return "encryptedFileSystem(\(describe(directory)))"
        case .appGroupFileSystem(let identifier, let directory):
            return "appGroupFileSystem(\(identifier), \(describe(directory)))"
        }
    }

    private static func describe(_ directory: FileDirectory) -> String {
        switch directory {
        case .documents: return "documents"
        case .caches: return "caches"
        case .custom(let url): return url.path
        }
    }

    private static func describe(_ security: SecurityPolicy, source: KeyMaterialSource) -> String {
        switch security {
        case .none: return "none"
        case .keychain(let accessibility, let control):
            return "keychain(\(accessibility.rawValue)\(control.map { ", \($0.rawValue)" } ?? ""))"
        case .encrypted(let algorithm, let derivation):
            let kdf: String
            switch derivation {
            case .pbkdf2(let iterations): kdf = "pbkdf2 ×\(iterations)"
            case .hkdf: kdf = "hkdf"
            }
            return "encrypted(\(algorithm.rawValue), \(kdf), key: \(source))"
        }
    }

    private static func escapeMarkdown(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
