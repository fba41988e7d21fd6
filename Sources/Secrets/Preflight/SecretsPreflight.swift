/// A health check of a store: is it readable, are the secrets the app needs there, and are they well-formed?
///
/// ```swift
/// let findings = SecretsPreflight.run(on: store, expecting: [.required(NotionSecret.self)])
/// if findings.contains(where: { $0.level == .error }) { … }
/// ```
///
/// It lists the store, reads every expected secret (missing, undecodable, empty tokens, empty envelopes, and
/// the type's own ``SecretCoder/validate()`` checks), and, for stores with byte access, inspects the other
/// items too. Where the backend can tell how items were stored (``SecretsPolicyInspecting``), an item stored under
/// another access policy than the store's is a `policy-mismatch` warning. It never prompts: an item that needs the
/// user is noted (`needs-user`), not read. Findings never contain secret values.
public enum SecretsPreflight {
    /// Runs every check on `store` and returns the findings, most serious first.
    public static func run(
        on store: any SecretsStoring, expecting requirements: [PreflightRequirement] = []
    ) -> [PreflightFinding] {
        AuthenticationContext.withCurrent(.background()) { inspect(store, expecting: requirements) }
    }

    private static func inspect(_ store: any SecretsStoring, expecting requirements: [PreflightRequirement])
        -> [PreflightFinding]
    {
        var findings: [PreflightFinding] = []
        if let aggregate = store as? AggregateSecretsStore {
            findings += aggregate.configuration.diagnostics.map {
                PreflightFinding(level: .warn, kind: .configuration, message: $0)
            }
            for backend in aggregate.backends {
                findings += (backend as? any SecretsIntegrityChecking)?.integrityFindings() ?? []
                if let inspecting = backend as? any SecretsPolicyInspecting {
                    findings += policyFindings(inspecting, aggregate.configuration)
                }
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
            findings.append(.unreadable(error, account: account))
        }
        return findings
    }

    /// A warning for each item stored with another accessibility than `configuration`'s, saying what it changes.
    private static func policyFindings(_ backend: any SecretsPolicyInspecting, _ configuration: SecretsConfiguration)
        -> [PreflightFinding]
    {
        let wanted = configuration.accessPolicy
        guard
            let stored = try? backend.storedAccessibility(
                service: configuration.service, accessGroup: configuration.accessGroup)
        else { return [] }
        return stored.sorted { $0.key < $1.key }.compactMap { account, accessibility in
            guard accessibility != wanted.accessibility else { return nil }
            let actual = AccessPolicy(accessibility: accessibility)
            var consequence = ""
            if wanted.isReadableWhileLocked && !actual.isReadableWhileLocked {
                consequence = ": background reads while the device is locked fail with `locked`"
            } else if wanted.accessibility.isThisDeviceOnly && !accessibility.isThisDeviceOnly {
                consequence = ": it may sync, and move to another device in a backup"
            }
            return PreflightFinding(
                level: .warn, kind: .policyMismatch, account: account,
                message: "stored as \(accessibility.rawValue), the store reads it as \(wanted.accessibility.rawValue)"
                    + consequence + "; save it again to store it under the store's policy")
        }
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

/// A backend that can tell how each item was protected when it was stored, for ``SecretsPreflight``.
public protocol SecretsPolicyInspecting {
    /// The accessibility each item of `service` in `accessGroup` (`nil`: the default group) was stored with, by
    /// account.
    func storedAccessibility(service: String, accessGroup: String?) throws -> [String: AccessPolicy.Accessibility]
}
