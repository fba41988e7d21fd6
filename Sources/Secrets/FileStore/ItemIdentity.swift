import Crypto
import Foundation

/// The identity of an item in a file store, in a canonical, unambiguous byte encoding.
///
/// Encoding: `u16 length ‖ service`, `u8 has-group ‖ u16 length ‖ group`, `u16 length ‖ account`, lengths
/// big-endian. The bytes name the item's file (hashed), bind its ciphertext (associated data), and are stored
/// inside the file so that listing can recover the account.
struct ItemIdentity: Hashable, Sendable {
    var service: String
    var accessGroup: String?
    var account: String

    init(service: String, accessGroup: String?, account: String) {
        self.service = service
        self.accessGroup = accessGroup
        self.account = account
    }

    init<Value>(_ query: SecretQuery<Value>) {
        self.init(service: query.service, accessGroup: query.accessGroup, account: query.account)
    }

    /// The largest encoding a valid identity can have.
    static let maximumEncodedSize =
        2 + SecretPath.maximumNameLength + 1 + 2 + SecretPath.maximumNameLength + 2
        + SecretPath.maximumPathLength

    var encoded: Data {
        var bytes = ByteWriter()
        bytes.appendString(service)
        bytes.append(UInt8(accessGroup == nil ? 0 : 1))
        bytes.appendString(accessGroup ?? "")
        bytes.appendString(account)
        return bytes.data
    }

    init(decoding data: Data) throws {
        var reader = ByteReader(data)
        let service = try reader.readString()
        let hasGroup = try reader.readByte()
        let group = try reader.readString()
        let account = try reader.readString()
        guard reader.isAtEnd, hasGroup <= 1 else { throw ByteReader.Malformed() }
        self.init(service: service, accessGroup: hasGroup == 1 ? group : nil, account: account)
    }
}

/// Appends big-endian integers and length-prefixed strings.
struct ByteWriter {
    private(set) var data: Data

    /// Creates an empty writer with room for `capacity` bytes, so that large values are copied once.
    init(capacity: Int = 0) {
        data = Data(capacity: capacity)
    }

    mutating func append(_ bytes: Data) { data.append(bytes) }
    mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    /// Appends a `u32` length and `bytes`.
    mutating func appendLengthPrefixed(_ bytes: Data) {
        append(UInt32(clamping: bytes.count))
        append(bytes)
    }

    /// Appends `plaintext` sealed in place, without an intermediate copy of the box.
    mutating func appendSealed(
        _ plaintext: Data, with algorithm: EncryptionAlgorithm, key: SymmetricKey, authenticating associatedData: Data
    ) throws {
        try algorithm.seal(plaintext, using: key, authenticating: associatedData, appendingTo: &data)
    }

    mutating func appendString(_ string: String) {
        let utf8 = Data(string.utf8)
        append(UInt16(clamping: utf8.count))
        append(utf8.prefix(Int(UInt16.max)))
    }
}

/// Reads what ``ByteWriter`` wrote, throwing on any truncation.
struct ByteReader {
    /// The bytes end early or hold an impossible value.
    struct Malformed: Error {}

    private let data: Data
    private var offset: Int

    init(_ data: Data) {
        self.data = data
        self.offset = data.startIndex
    }

    var isAtEnd: Bool { offset == data.endIndex }
    var remaining: Data { data[offset...] }

    mutating func readBytes(_ count: Int) throws -> Data {
        guard count >= 0, data.endIndex - offset >= count else { throw Malformed() }
        defer { offset += count }
        return data[offset..<offset + count]
    }

    mutating func readByte() throws -> UInt8 { try readBytes(1).first! }

    mutating func readInteger<Integer: FixedWidthInteger>(_: Integer.Type = Integer.self) throws -> Integer {
        try readBytes(Integer.bitWidth / 8).reduce(0) { $0 << 8 | Integer($1) }
    }

    mutating func readUInt16() throws -> UInt16 { try readInteger() }
    mutating func readUInt32() throws -> UInt32 { try readInteger() }

    /// Reads an item file's magic and version and returns the version, throwing `corruptData` for another kind
    /// of file and `unsupported` for a version outside `versions`.
    @discardableResult
    mutating func readItemHeader(magic: Data, versions: ClosedRange<UInt8>, fileName: String) throws -> UInt8 {
        guard try readBytes(magic.count) == magic else {
            throw SecretsError.corruptData("item \(fileName) (not a Coffer item file of this store's kind)")
        }
        let version = try readByte()
        guard versions.contains(version) else {
            if version < versions.lowerBound { throw SecretsError.corruptData("item \(fileName) (version \(version))") }
            throw SecretsError.unsupported("item \(fileName) has format version \(version); upgrade Coffer")
        }
        return version
    }

    mutating func readString() throws -> String {
        let bytes = try readBytes(Int(try readUInt16()))
        guard let string = String(data: bytes, encoding: .utf8) else { throw Malformed() }
        return string
    }
}
