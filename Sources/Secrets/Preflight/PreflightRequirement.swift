/// A secret type that ``SecretsPreflight`` should look for, and whether the app needs it.
public struct PreflightRequirement: Sendable {
    /// The path the secret is stored at.
    public let path: String
    /// Whether a missing secret is an error (required) or only noted (optional).
    public let isRequired: Bool
    let inspect: @Sendable (any SecretsStoring) -> [PreflightFinding]

    /// Expects a secret of type `C`; its absence is an error.
    public static func required<C: SecretCoder>(_ type: C.Type) -> PreflightRequirement {
        PreflightRequirement(type, isRequired: true)
    }

    /// Looks for a secret of type `C`; its absence is only noted.
    public static func optional<C: SecretCoder>(_ type: C.Type) -> PreflightRequirement {
        PreflightRequirement(type, isRequired: false)
    }

    private init<C: SecretCoder>(_ type: C.Type, isRequired: Bool) {
        self.path = C.id.path
        self.isRequired = isRequired
        self.inspect = { store in
            let path = C.id.path
            let typeName = String(describing: C.self)
            do {
                guard let value = try store.read(C.id) else {
                    return [
                        isRequired
                            ? PreflightFinding(
                                level: .error, kind: .missing, account: path,
                                message: "the required \(typeName) is missing; save it before starting")
                            : PreflightFinding(
                                level: .info, kind: .missing, account: path, message: "no \(typeName) is set")
                    ]
                }
                var findings = (try? value.encode()).map { SecretShape.inspect($0, account: path) } ?? []
                findings += value.validate().map {
                    PreflightFinding(level: $0.level, kind: .declared, account: path, message: $0.message)
                }
                return findings
            } catch {
                return [.unreadable(error, account: path)]
            }
        }
    }
}
