import Foundation

extension APNsConfiguration {
    /// How a pass type's pushes authenticate, as `coffer admin pass-type list` shows it: with the pass type's own
    /// certificate, or with the team's `.p8` key, which works only for pass types of the key's team.
    public struct PushAuthentication: Encodable, Hashable, Sendable {
        /// `certificate` or `token`.
        public let method: String
        /// The `.p8` key's ID, with token authentication.
        public let keyID: String?
        /// The `.p8` key's team, with token authentication.
        public let teamID: String?
        /// Whether pushes for the pass type can authenticate: always with its certificate, and with a key only of
        /// its own team.
        public let usable: Bool

        /// One cell of a table: "certificate", "p8 key ABC123DEFG (team X)", or in capitals when it cannot work.
        public var summary: String {
            guard let keyID, let teamID else { return "certificate" }
            return usable ? "p8 key \(keyID) (team \(teamID))" : "P8 KEY OF ANOTHER TEAM (\(teamID)): PUSHES FAIL"
        }
    }

    /// How pushes for a pass type of team `teamIdentifier` authenticate.
    public func pushAuthentication(teamIdentifier: String) -> PushAuthentication {
        switch authentication {
        case .certificate:
            return PushAuthentication(method: "certificate", keyID: nil, teamID: nil, usable: true)
        case .token(let key):
            return PushAuthentication(
                method: "token", keyID: key.keyID, teamID: key.teamID, usable: key.teamID == teamIdentifier)
        }
    }
}
