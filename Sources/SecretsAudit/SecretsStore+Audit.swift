import Secrets

extension SecretsStore {
    /// Creates a store over `base` whose every access is recorded in `audit` (through an ``AuditedSecretsStore``).
    ///
    /// Label a caller's accesses with ``SecretsAudit/withCaller(_:_:)-(_,()->Result)``: the label follows each call
    /// onto the thread that runs it.
    public init(_ base: any SecretsDataStoring, audit: SecretsAudit, changeBufferSize: Int = 256) {
        self.init(AuditedSecretsStore(base, audit: audit), changeBufferSize: changeBufferSize)
    }
}
