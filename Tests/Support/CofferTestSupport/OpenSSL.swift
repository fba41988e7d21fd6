import Foundation

/// The system's `openssl`, the independent verifier.
public enum OpenSSL {
    /// The openssl binary.
    public static let executable = URL(fileURLWithPath: "/usr/bin/openssl")

    /// Runs openssl with `arguments`.
    @discardableResult
    public static func run(_ arguments: String..., input: Data = Data()) throws -> ChildProcess.Outcome {
        try ChildProcess.run(executable, arguments, input: input)
    }

    /// Verifies a detached signature the way DESIGN.md prescribes; returns the outcome.
    public static func verify(signature: Data, content: Data, root: Data, in directory: TemporaryDirectory) throws
        -> ChildProcess.Outcome
    {
        let name = UUID().uuidString
        let signatureURL = directory.appending("\(name).sig")
        let contentURL = directory.appending("\(name).content")
        let rootURL = directory.appending("\(name)-root.pem")
        try signature.write(to: signatureURL)
        try content.write(to: contentURL)
        try root.write(to: rootURL)
        return try ChildProcess.run(
            executable,
            [
                "cms", "-verify", "-binary", "-inform", "DER", "-in", signatureURL.path, "-content", contentURL.path,
                "-CAfile", rootURL.path, "-purpose", "any", "-out", "/dev/null",
            ])
    }
}
