import Foundation
import WalletDocuments

/// The files of an order before signing: `order.json`, the images and receipts it names (`logo.png`, …) and
/// localizations (`fr.lproj/order.strings`, `fr.lproj/logo.png`).
///
/// Paths follow a pass's rules (relative, `/`, at most an `xx.lproj` folder deep); `manifest.json` and `signature`
/// are made by signing, never taken from the input. The files total less than 5 MB, as Wallet asks, and number at most
/// ``maximumFiles``.
public struct OrderPackage: Hashable, Sendable {
    /// The files that go into the order, by path.
    public private(set) var files: [String: Data]

    /// The most bytes an order's files may total: Wallet takes orders "below 5 MB".
    public static let maximumTotalSize = OrderChecks.maximumPackageSize
    /// The most files an order may hold, `order.json` included.
    public static let maximumFiles = 64

    /// Creates a package from `order.json` bytes and other files.
    ///
    /// - Throws: ``WalletDocumentError/invalidFilePath(_:reason:)`` for a path an order may not hold,
    ///   ``WalletDocumentError/tooLarge(what:limit:)`` past ``maximumTotalSize``.
    public init(files: [String: Data]) throws {
        guard files.count <= Self.maximumFiles else {
            throw WalletDocumentError.invalidFilePath(
                files.keys.sorted().last ?? "", reason: "an order holds at most \(Self.maximumFiles) files")
        }
        let total = files.values.reduce(0) { $0 + $1.count }
        guard total < Self.maximumTotalSize else {
            throw WalletDocumentError.tooLarge(what: "the order's files", limit: Self.maximumTotalSize)
        }
        for path in files.keys { try DocumentFiles.validate(path: path) }
        self.files = files
    }

    /// Creates a package from an order model and its other files.
    public init(order: Order, files: [String: Data] = [:]) throws {
        var all = files
        all["order.json"] = try order.encoded()
        try self.init(files: all)
    }

    /// Reads an order in any form it is kept in: a folder (`order.json`, images, `xx.lproj/`), or a `.order` or ZIP
    /// archive, whose manifest and signature are left out (signing makes them anew). Hidden files, a ZIP's
    /// `__MACOSX` folder and one enclosing folder are left out too.
    ///
    /// - Throws: ``WalletDocumentError/invalidFilePath(_:reason:)`` for a source that cannot be read or holds a path
    ///   an order may not, ``WalletDocumentError/malformedArchive(_:)`` for a file that is not a ZIP archive.
    public init(contentsOf url: URL) throws {
        try self.init(files: try DocumentFiles.read(contentsOf: url, payload: Self.payload))
    }

    /// Reads a package that ``archived()`` produced; its paths are checked like any other input.
    public init(archive: Data) throws {
        try self.init(files: try DocumentArchive.unzip(archive))
    }

    /// The package's files as a ZIP archive: how an unsigned order is stored (by the server, which signs it when
    /// a device fetches it).
    public func archived() throws -> Data {
        try DocumentArchive.zip(files)
    }

    /// The file the order's JSON is in.
    static let payload = "order.json"

    /// The path of `language`'s strings: `fr.lproj/order.strings`.
    public static func stringsPath(for language: String) -> String { "\(language).lproj/order.strings" }

    /// Adds or replaces a file.
    public mutating func add(_ data: Data, at path: String) throws {
        try DocumentFiles.validate(path: path)
        guard files[path] != nil || files.count < Self.maximumFiles else {
            throw WalletDocumentError.invalidFilePath(path, reason: "an order holds at most \(Self.maximumFiles) files")
        }
        let total = files.reduce(data.count) { $0 + ($1.key == path ? 0 : $1.value.count) }
        guard total < Self.maximumTotalSize else {
            throw WalletDocumentError.tooLarge(what: "the order's files", limit: Self.maximumTotalSize)
        }
        files[path] = data
    }

    /// Removes the file at `path`; returns whether there was one.
    @discardableResult
    public mutating func remove(at path: String) -> Bool {
        files.removeValue(forKey: path) != nil
    }

    /// The parsed `order.json`.
    ///
    /// - Throws: ``WalletDocumentError/invalidOrder(_:)`` when it is missing,
    ///   ``WalletDocumentError/malformedOrderJSON(_:)`` when it is not a JSON dictionary.
    public var order: Order {
        get throws {
            guard let json = files[Self.payload] else {
                throw WalletDocumentError.invalidOrder([
                    LintFinding(code: "json.missing", severity: .error, path: Self.payload, message: "is missing")
                ])
            }
            return try Self.decodeOrder(json)
        }
    }

    /// Parses `order.json`, describing what is wrong when it cannot.
    static func decodeOrder(_ json: Data) throws -> Order {
        do {
            return try Order(json: json)
        } catch let error as DecodingError {
            throw WalletDocumentError.malformedOrderJSON(DocumentFiles.describe(error))
        } catch {
            throw WalletDocumentError.malformedOrderJSON("not valid JSON")
        }
    }

    /// Replaces `order.json` with `order`.
    public mutating func setOrder(_ order: Order) throws {
        try add(try order.encoded(), at: Self.payload)
    }

    /// What ``OrderLint`` finds in the order and its files.
    public func lint() -> OrderLintReport {
        var others = files
        let json = others.removeValue(forKey: Self.payload)
        return OrderLint.report(orderJSON: json ?? Data("{}".utf8), files: others)
    }

    /// Throws ``WalletDocumentError/invalidOrder(_:)`` with the errors ``lint()`` finds, if any.
    public func validate() throws {
        guard files[Self.payload] != nil else { _ = try order; return }
        let errors = lint().errors
        guard errors.isEmpty else { throw WalletDocumentError.invalidOrder(errors) }
    }

    /// `manifest.json`: every file's lowercase hex SHA-256, keys sorted, slashes unescaped.
    public func manifest() -> Data {
        DocumentManifest.json(files.mapValues(DocumentManifest.sha256))
    }
}

extension OrderPackage: SignableDocument {
    /// The signed `.order` (``DocumentSigner/sign(_:signingTime:)``).
    public func signedArchive(by signer: DocumentSigner, signingTime: Date) throws -> Data {
        try signer.sign(self, signingTime: signingTime).archive
    }
}
