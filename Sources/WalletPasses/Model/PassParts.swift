import Crypto
import Foundation

/// A barcode on a pass.
public struct PassBarcode: Codable, Hashable, Sendable {
    /// The symbology (`PKBarcodeFormat…`).
    public enum Format: String, Codable, Hashable, Sendable, CaseIterable {
        /// QR code.
        case qr = "PKBarcodeFormatQR"
        /// PDF417.
        case pdf417 = "PKBarcodeFormatPDF417"
        /// Aztec.
        case aztec = "PKBarcodeFormatAztec"
        /// Code 128 (not shown on watchOS).
        case code128 = "PKBarcodeFormatCode128"
    }

    /// The symbology.
    public var format: Format
    /// The encoded message.
    public var message: String
    /// The text encoding of the message, usually `iso-8859-1`.
    public var messageEncoding: String
    /// Text shown under the barcode.
    public var altText: String?

    /// Creates a barcode.
    public init(format: Format, message: String, messageEncoding: String = "iso-8859-1", altText: String? = nil) {
        self.format = format
        self.message = message
        self.messageEncoding = messageEncoding
        self.altText = altText
    }
}

/// A place where the pass is relevant.
public struct PassLocation: Codable, Hashable, Sendable {
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Altitude in meters.
    public var altitude: Double?
    /// Text shown on the lock screen near the place.
    public var relevantText: String?

    /// Creates a location.
    public init(latitude: Double, longitude: Double, altitude: Double? = nil, relevantText: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.relevantText = relevantText
    }
}

/// A Bluetooth beacon near which the pass is relevant.
public struct PassBeacon: Codable, Hashable, Sendable {
    /// The beacon's UUID.
    public var proximityUUID: String
    /// The major identifier.
    public var major: UInt16?
    /// The minor identifier.
    public var minor: UInt16?
    /// Text shown on the lock screen near the beacon.
    public var relevantText: String?

    /// Creates a beacon.
    public init(proximityUUID: String, major: UInt16? = nil, minor: UInt16? = nil, relevantText: String? = nil) {
        self.proximityUUID = proximityUUID
        self.major = major
        self.minor = minor
        self.relevantText = relevantText
    }
}

/// A time span during which the pass is relevant (`relevantDates`).
public struct PassRelevantDate: Codable, Hashable, Sendable {
    /// A single moment.
    public var date: Date?
    /// The start of an interval.
    public var startDate: Date?
    /// The end of an interval.
    public var endDate: Date?

    /// Creates a relevant date or interval.
    public init(date: Date? = nil, startDate: Date? = nil, endDate: Date? = nil) {
        self.date = date
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// Near-field communication data for value-added-services passes.
public struct PassNFC: Codable, Hashable, Sendable {
    /// The payload sent to the terminal (at most 64 bytes).
    public var message: String
    /// The terminal's public key, Base64-encoded X.509 SubjectPublicKeyInfo (P-256).
    public var encryptionPublicKey: String?
    /// Whether the user must authenticate before each use.
    public var requiresAuthentication: Bool?

    /// Creates NFC data.
    public init(message: String, encryptionPublicKey: String? = nil, requiresAuthentication: Bool? = nil) {
        self.message = message
        self.encryptionPublicKey = encryptionPublicKey
        self.requiresAuthentication = requiresAuthentication
    }

    /// Whether `text` is what `encryptionPublicKey` must hold: Base64 of the DER X.509 SubjectPublicKeyInfo of a
    /// P-256 public key, parsed as one (a key of another curve, or bytes that merely look like one, is not).
    public static func isP256PublicKey(_ text: String) -> Bool {
        guard let der = Data(base64Encoded: text) else { return false }
        return (try? P256.KeyAgreement.PublicKey(derRepresentation: der)) != nil
    }
}

/// The FIDO profile that binds an account-bound pass to an account (`fidoProfile`).
public struct FIDOProfile: Codable, Hashable, Sendable {
    /// The relying party's identifier (the issuer's host).
    public var relyingPartyIdentifier: String
    /// A stable, non-guessable hash of the account.
    public var accountHash: String
    /// The hash of the device key, once the device has bound the pass.
    public var keyHash: String?

    /// Creates a profile.
    public init(relyingPartyIdentifier: String, accountHash: String, keyHash: String? = nil) {
        self.relyingPartyIdentifier = relyingPartyIdentifier
        self.accountHash = accountHash
        self.keyHash = keyHash
    }
}

/// The binding an account-bound pass carries once a device has bound it (`issuerBindingData` in `pass.json`).
///
/// PassKit reads the key as a dictionary: `{"issuerBindingData": "<hex>", "learnMoreURL": "<url>"}`, where the
/// inner string is the hex the device sent to the callback (PassKit hex-decodes it) and `learnMoreURL` is an optional
/// page about the binding. A bare string under the outer key, as older Coffer versions wrote, is read as the inner
/// string and written back as the dictionary.
public struct PassIssuerBindingData: Codable, Hashable, Sendable {
    /// The binding data the device sent, hex-encoded.
    public var issuerBindingData: String
    /// A page that explains the binding to the user, if the issuer has one.
    public var learnMoreURL: String?

    /// Creates binding data from the device's hex and an optional learn-more page.
    public init(issuerBindingData: String, learnMoreURL: String? = nil) {
        self.issuerBindingData = issuerBindingData
        self.learnMoreURL = learnMoreURL
    }

    private enum CodingKeys: String, CodingKey {
        case issuerBindingData, learnMoreURL
    }

    /// Decodes the dictionary, or a bare hex string (the form older versions wrote).
    public init(from decoder: any Decoder) throws {
        if let hex = try? decoder.singleValueContainer().decode(String.self) {
            self.init(issuerBindingData: hex)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            issuerBindingData: try container.decode(String.self, forKey: .issuerBindingData),
            learnMoreURL: try container.decodeIfPresent(String.self, forKey: .learnMoreURL))
    }

    /// Encodes the dictionary PassKit reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuerBindingData, forKey: .issuerBindingData)
        try container.encodeIfPresent(learnMoreURL, forKey: .learnMoreURL)
    }
}

/// A color written as `rgb(r, g, b)`.
public struct PassColor: Codable, Hashable, Sendable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// Creates a color.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `rgb(r, g, b)` (also `#rrggbb`, which Wallet accepts too).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.hasPrefix("#"), trimmed.count == 7, let value = UInt32(trimmed.dropFirst(), radix: 16) {
            self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            return
        }
        guard trimmed.hasPrefix("rgb("), trimmed.hasSuffix(")") else { return nil }
        let parts = trimmed.dropFirst(4).dropLast().split(separator: ",", omittingEmptySubsequences: false)
            .map { UInt8($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let red = parts[0], let green = parts[1], let blue = parts[2] else { return nil }
        self.init(red: red, green: green, blue: blue)
    }

    /// `rgb(r, g, b)`.
    public var description: String { "rgb(\(red), \(green), \(blue))" }

    /// Decodes a color string; an unparseable one fails with a message naming the text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let color = PassColor(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not rgb(r, g, b)"))
        }
        self = color
    }

    /// Encodes `rgb(r, g, b)`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
