import Foundation

extension ProvisioningSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The session without its identifier, which completes a binding for whoever holds it: `<redacted>`.
    package var description: String {
        "ProvisioningSession(id: <redacted>, passID: \(passID), createdAt: \(createdAt), expiresAt: \(expiresAt), "
            + "usedAt: \(usedAt.map { "\($0)" } ?? "nil"))"
    }

    /// The same text as ``description``.
    package var debugDescription: String { description }

    /// What `dump` and debuggers show: every property, the identifier `<redacted>`.
    package var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": "<redacted>", "passID": passID, "createdAt": createdAt, "expiresAt": expiresAt,
                "usedAt": usedAt as Any,
            ])
    }
}
