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

    /// Unzips a `.pkpass` with unzip(1) and verifies its signature over `manifest.json` with openssl; returns the
    /// outcome and the manifest.
    public static func verify(pkpass: Data, root: Data, in directory: TemporaryDirectory) throws
        -> (outcome: ChildProcess.Outcome, manifest: Data)
    {
        let name = UUID().uuidString
        let archive = directory.appending("\(name).pkpass")
        let unzipped = directory.appending("\(name)-unzipped")
        try pkpass.write(to: archive)
        let unzip = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/unzip"), ["-q", archive.path, "-d", unzipped.path])
        guard unzip.status == 0 else { return (unzip, Data()) }
        let manifest = try Data(contentsOf: unzipped.appendingPathComponent("manifest.json"))
        let outcome = try verify(
            signature: try Data(contentsOf: unzipped.appendingPathComponent("signature")), content: manifest,
            root: root, in: directory)
        return (outcome, manifest)
    }
}
