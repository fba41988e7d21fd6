import Foundation
import NIOSSL
import Secrets

extension WalletServerConfiguration.Variable {
    /// The `.p8` APNs authentication key that signs provider tokens (with ``apnsKeyID`` and ``apnsTeamID``; without
    /// the three, pushes authenticate with each pass type's certificate).
    public static let apnsKeyFile = "COFFER_APNS_KEY_FILE"
    /// The APNs key's ID (10 letters and digits, from App Store Connect).
    public static let apnsKeyID = "COFFER_APNS_KEY_ID"
    /// The Apple developer team of the APNs key (10 letters and digits).
    public static let apnsTeamID = "COFFER_APNS_TEAM_ID"
    /// `production` (the default) or `sandbox`: the APNs gateway pushes go to.
    public static let apnsEnvironment = "COFFER_APNS_ENVIRONMENT"
    /// A stand-in for APNs (`https://localhost:<port>`, WalletServerTesting's `APNsStandIn`), with
    /// ``apnsStandInRoot``: benchmarks and tests only.
    public static let apnsStandIn = "COFFER_APNS_STAND_IN"
    /// The PEM file of the certificate that issued the stand-in's TLS certificate, trusted beside the system's roots.
    public static let apnsStandInRoot = "COFFER_APNS_STAND_IN_ROOT"
}

extension WalletServerConfiguration {
    /// The APNs settings from their four values (an option's or an environment variable's, `nil` when unset), each
    /// named in errors by its entry in `names` (`keyFile`, `keyID`, `teamID`, `environment`).
    ///
    /// With none of the key file, key ID and team ID, pushes authenticate with each pass type's certificate; with all
    /// three, with provider tokens signed by that key. The environment is `production` unless it says `sandbox`.
    ///
    /// - Throws: ``WalletServerError/invalidConfiguration(_:)`` when only some of the three are given, the key file
    ///   holds no P-256 key, the IDs are not 10 letters and digits, or the environment is neither.
    public static func apns(
        keyFile: String?, keyID: String?, teamID: String?, environment: String?,
        names: (keyFile: String, keyID: String, teamID: String, environment: String) = (
            Variable.apnsKeyFile, Variable.apnsKeyID, Variable.apnsTeamID, Variable.apnsEnvironment
        )
    ) throws -> APNsConfiguration {
        var apns = APNsConfiguration()
        if let environment { apns.gateway = try APNsConfiguration.Gateway.named(environment, from: names.environment) }
        let given = [(keyFile, names.keyFile), (keyID, names.keyID), (teamID, names.teamID)]
        let missing = given.filter { $0.0 == nil }.map(\.1)
        guard missing.count < 3 else { return apns }
        do {
            guard missing.isEmpty, let keyFile, let keyID, let teamID else {
                throw APNsError.incompleteTokenSettings(missing: missing)
            }
            guard !keyFile.contains("\u{0}") else { throw APNsError.unreadableSigningKey("the path is not usable") }
            let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let file = URL(fileURLWithPath: keyFile, relativeTo: base).standardizedFileURL
            apns.authentication = .token(try APNsSigningKey(contentsOf: file, keyID: keyID, teamID: teamID))
        } catch let error as APNsError {
            throw WalletServerError.invalidConfiguration(error.description)
        }
        return apns
    }

    /// ``apns(keyFile:keyID:teamID:environment:names:)`` from `environment`'s `COFFER_APNS_*` variables, and the
    /// stand-in they may name.
    static func apns(environment: [String: String]) throws -> APNsConfiguration {
        func value(_ name: String) -> String? { EnvironmentValue.named(name, in: environment) }
        var apns = try apns(
            keyFile: value(Variable.apnsKeyFile), keyID: value(Variable.apnsKeyID), teamID: value(Variable.apnsTeamID),
            environment: value(Variable.apnsEnvironment))
        if let standIn = value(Variable.apnsStandIn) {
            guard let url = URL(string: standIn), url.scheme?.lowercased() == "https", url.host != nil,
                let root = value(Variable.apnsStandInRoot)
            else {
                throw WalletServerError.invalidConfiguration(
                    "\(Variable.apnsStandIn) must be an https URL, with \(Variable.apnsStandInRoot) naming its root")
            }
            apns.gateway = .custom(url)
            do {
                apns.additionalTrustRoots = try NIOSSLCertificate.fromPEMFile(root)
            } catch {
                throw WalletServerError.invalidConfiguration("\(Variable.apnsStandInRoot) is not a PEM certificate")
            }
        }
        return apns
    }
}
