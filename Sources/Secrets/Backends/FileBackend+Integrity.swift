extension ItemFileStore {
    /// A finding for every item file that cannot be read.
    func integrityFindings() -> [PreflightFinding] {
        do {
            return try damagedItems().map {
                PreflightFinding(level: .error, kind: .damagedItem, message: "\($0.error)")
            }
        } catch {
            return [PreflightFinding(level: .error, kind: .storeUnreadable, message: "\(error)")]
        }
    }
}

extension FileBackend: SecretsIntegrityChecking {
    /// Every item file that cannot be read.
    public func integrityFindings() -> [PreflightFinding] {
        store.integrityFindings()
    }
}

extension EncryptedFileBackend: SecretsIntegrityChecking {
    /// Every item file that cannot be decrypted, and an interrupted key rotation.
    public func integrityFindings() -> [PreflightFinding] {
        var findings = store.integrityFindings()
        if (try? isRotationIncomplete) == true {
            findings.append(
                PreflightFinding(
                    level: .warn, kind: .rotationIncomplete,
                    message: "a key rotation was interrupted; run it again to finish"))
        }
        return findings
    }
}
