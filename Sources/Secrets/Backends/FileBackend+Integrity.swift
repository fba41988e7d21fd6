extension ItemFileStore {
    /// A finding for every item file that cannot be read, and for a directory that is not private.
    func integrityFindings() -> [PreflightFinding] {
        let access = accessProblems().map {
            PreflightFinding(level: .warn, kind: .storeAccess, message: "the store's directory is not private: \($0)")
        }
        do {
            return try access
                + damagedItems().map {
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
    /// Every item file that cannot be decrypted, a directory that is not private, and an interrupted key rotation
    /// or re-key.
    public func integrityFindings() -> [PreflightFinding] {
        var findings = store.integrityFindings()
        if (try? isRotationIncomplete) == true {
            findings.append(
                PreflightFinding(
                    level: .warn, kind: .rotationIncomplete,
                    message: "a key rotation or re-key was interrupted; run it again to finish"))
        }
        return findings
    }
}
