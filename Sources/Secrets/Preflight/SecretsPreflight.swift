/// A health check of a store: is it readable, are the secrets the app needs there, and are they well-formed?
///
/// ```swift
/// let findings = SecretsPreflight.run(on: store, expecting: [.required(NotionSecret.self)])
/// if findings.contains(where: { $0.level == .error }) { … }
/// ```
///
/// It lists the store, reads every expected secret (missing, undecodable, empty tokens, empty envelopes, and
/// the type's own ``SecretCoder/validate()`` checks), and, for stores with byte access, inspects the other
/// items too. Findings never contain secret values.
public enum SecretsPreflight {
    /// Runs every check on `store` and returns the findings, most serious first.
    public static func run(
        on store: any SecretsStoring, expecting requirements: [PreflightRequirement] = []
    ) -> [PreflightFinding] {
        var findings: [PreflightFinding] = []
        if let aggregate = store as? AggregateSecretsStore {
            findings += aggregate.configuration.diagnostics.map {
                PreflightFinding(level: .warn, kind: .configuration, message: $0)
            }
            for backend in aggregate.backends {
                findings += (backend as? any SecretsIntegrityChecking)?.integrityFindings() ?? []
            }
        }
        let accounts: [String]
        do {
            accounts = try store.listAccounts()
        } catch {
            findings.append(PreflightFinding(level: .error, kind: .storeUnreadable, message: "\(error)"))
            return sorted(findings)
        }
        findings.append(
            PreflightFinding(level: .info, kind: .summary, message: "the store holds \(accounts.count) item(s)"))
        if accounts.isEmpty && requirements.isEmpty {
            findings.append(PreflightFinding(level: .warn, kind: .storeEmpty, message: "the store is empty"))
        }
        for requirement in requirements {
            findings += requirement.inspect(store)
        }
        let expected = Set(requirements.map(\.path))
        for account in accounts where !expected.contains(account) {
            findings += inspectUntyped(account, in: store, hasExpectations: !requirements.isEmpty)
        }
        return sorted(findings)
    }

    private static func inspectUntyped(
        _ account: String, in store: any SecretsStoring, hasExpectations: Bool
    ) -> [PreflightFinding] {
        var findings: [PreflightFinding] = []
        if hasExpectations {
            findings.append(
                PreflightFinding(
                    level: .info, kind: .unrecognized, account: account,
                    message: "no expected secret type is stored here"))
        }
        guard let dataStore = store as? any SecretsDataStoring else { return findings }
        do {
            guard let data = try dataStore.readData(account: account) else { return findings }
            findings += SecretShape.inspect(data, account: account)
        } catch {
            findings.append(PreflightFinding(level: .error, kind: .undecodable, account: account, message: "\(error)"))
        }
        return findings
    }

    private static func sorted(_ findings: [PreflightFinding]) -> [PreflightFinding] {
        findings.enumerated().sorted { lhs, rhs in
            lhs.element.level != rhs.element.level ? lhs.element.level > rhs.element.level : lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// A backend that can check its own storage for damage, for ``SecretsPreflight``.
public protocol SecretsIntegrityChecking {
    /// Problems with the backend's storage that reading a single item would not reveal.
    func integrityFindings() -> [PreflightFinding]
}
