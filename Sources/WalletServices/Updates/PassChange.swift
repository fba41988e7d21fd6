import Foundation
import WalletPasses

/// A change to a pass's content: new field values, dates, or its end. What is `nil` stays as it is.
public struct PassChange: Hashable, Sendable {
    /// New values by field key (a key of one of the template's fields: header, primary, secondary, auxiliary or
    /// back).
    public var fields: [String: PassField.Value]
    /// When the pass becomes relevant.
    public var relevantDate: Date?
    /// When the pass expires: Wallet shows it as expired from then on.
    public var expirationDate: Date?
    /// Whether the pass is void (used, cancelled): Wallet shows it as no longer valid.
    public var voided: Bool?

    /// Creates a change.
    public init(
        fields: [String: PassField.Value] = [:], relevantDate: Date? = nil, expirationDate: Date? = nil,
        voided: Bool? = nil
    ) {
        self.fields = fields
        self.relevantDate = relevantDate
        self.expirationDate = expirationDate
        self.voided = voided
    }

    /// Whether the change changes nothing.
    public var isEmpty: Bool { fields.isEmpty && relevantDate == nil && expirationDate == nil && voided == nil }

    /// The most fields one change sets.
    public static let maximumFields = 100
    /// The longest text value of a field, in characters.
    public static let maximumValueLength = 2048

    /// `pass` with the change applied.
    ///
    /// - Throws: ``WalletServerError/invalidArgument(_:)`` naming a key the pass has no field for, or a value that
    ///   is too long.
    public func applied(to pass: Pass) throws -> Pass {
        guard fields.count <= Self.maximumFields else {
            throw WalletServerError.invalidArgument("a change sets at most \(Self.maximumFields) fields")
        }
        var pass = pass
        for key in fields.keys.sorted() {
            let value = fields[key]!
            if case .text(let text) = value, text.count > Self.maximumValueLength {
                throw WalletServerError.invalidArgument(
                    "the value of field '\(key)' is longer than \(Self.maximumValueLength) characters")
            }
            guard pass.fields.setValue(value, forKey: key) else {
                throw WalletServerError.invalidArgument(
                    "the pass has no field '\(key)' (its fields: \(pass.fields.keys.joined(separator: ", ")))")
            }
        }
        if let relevantDate { pass.relevantDate = relevantDate }
        if let expirationDate { pass.expirationDate = expirationDate }
        if let voided { pass.voided = voided ? true : nil }
        return pass
    }
}
