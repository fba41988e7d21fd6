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

    /// Verifies a detached signature with `openssl cms -verify` against the root; returns the outcome.
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

    /// Signs `content` the way the rest of the ecosystem does (`openssl cms -sign`, which pyca/cryptography's
    /// `PKCS7SignatureBuilder` and the Python, Ruby and PHP pass libraries reproduce): a detached DER CMS
    /// signature, SHA-256 unless `digest` says otherwise, `rsaEncryption` as the SignerInfo's signature algorithm, the signer's certificate and
    /// `chain` included. `certificate` and `chain` are PEM; `key` is a PEM or DER private key.
    public static func cmsSign(
        content: Data, certificate: Data, key: Data, chain: [Data] = [], in directory: TemporaryDirectory,
        digest: String = "sha256"
    ) throws -> Data {
        let name = UUID().uuidString
        let contentURL = directory.appending("\(name).content")
        let certificateURL = directory.appending("\(name)-signer.pem")
        let keyURL = directory.appending("\(name)-signer.key")
        let chainURL = directory.appending("\(name)-chain.pem")
        let signatureURL = directory.appending("\(name).sig")
        try content.write(to: contentURL)
        try certificate.write(to: certificateURL)
        try key.write(to: keyURL)
        let isPEM = String(decoding: key, as: UTF8.self).contains("-----BEGIN")
        var arguments = [
            "cms", "-sign", "-binary", "-md", digest, "-in", contentURL.path, "-signer", certificateURL.path,
            "-inkey", keyURL.path, "-keyform", isPEM ? "PEM" : "DER", "-outform", "DER", "-out", signatureURL.path,
        ]
        if !chain.isEmpty {
            try chain.reduce(Data(), +).write(to: chainURL)
            arguments += ["-certfile", chainURL.path]
        }
        let outcome = try ChildProcess.run(executable, arguments)
        guard outcome.status == 0 else { throw OpenSSLFailure(arguments: arguments, output: outcome.errorOutput) }
        return try Data(contentsOf: signatureURL)
    }

    /// A certificate hierarchy made by openssl under one root, to sign with other certificates than Coffer makes.
    public struct Hierarchy: Sendable {
        /// Where the PEM files are.
        public let directory: TemporaryDirectory
        /// The root certificate (PEM).
        public let rootPEM: Data
        /// The intermediate certificate (PEM), a WWDR look-alike.
        public let intermediatePEM: Data

        /// Makes a root and an intermediate CA.
        public init(in directory: TemporaryDirectory) throws {
            self.directory = directory
            let extensions = directory.appending("extensions.cnf")
            try Data(
                """
                [ca]
                basicConstraints=critical,CA:TRUE
                keyUsage=critical,keyCertSign,cRLSign
                subjectKeyIdentifier=hash
                """.utf8
            ).write(to: extensions)
            try Hierarchy.run(
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.appending("root.key").path,
                "-out", directory.appending("root.pem").path, "-days", "30", "-subj", "/CN=Test Root (not Apple)",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
            try Hierarchy.run(
                "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.appending("wwdr.key").path,
                "-out", directory.appending("wwdr.csr").path, "-subj", "/OU=G4/CN=Test WWDR (not Apple)")
            try Hierarchy.run(
                "x509", "-req", "-in", directory.appending("wwdr.csr").path, "-CA",
                directory.appending("root.pem").path,
                "-CAkey", directory.appending("root.key").path, "-set_serial", "2", "-days", "30", "-extfile",
                extensions.path, "-extensions", "ca", "-out", directory.appending("wwdr.pem").path)
            rootPEM = try Data(contentsOf: directory.appending("root.pem"))
            intermediatePEM = try Data(contentsOf: directory.appending("wwdr.pem"))
        }

        /// Issues a leaf under the intermediate with subject UID `userID` and OU `team`, carrying Apple's Pass Type
        /// ID extension naming `marker` when given; returns its certificate and key (PEM).
        public func leaf(userID: String, team: String, marker: String?) throws -> (certificate: Data, key: Data) {
            let name = UUID().uuidString
            let extensions = directory.appending("\(name).cnf")
            var lines = ["[leaf]", "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature"]
            if let marker { lines.append("1.2.840.113635.100.6.1.16=ASN1:UTF8String:\(marker)") }
            try Data(lines.joined(separator: "\n").utf8).write(to: extensions)
            try Hierarchy.run(
                "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.appending("\(name).key").path,
                "-out", directory.appending("\(name).csr").path, "-subj",
                "/UID=\(userID)/CN=Pass Type ID: \(userID)/OU=\(team)/O=Test/C=US")
            try Hierarchy.run(
                "x509", "-req", "-in", directory.appending("\(name).csr").path, "-CA",
                directory.appending("wwdr.pem").path, "-CAkey", directory.appending("wwdr.key").path, "-set_serial",
                String(UInt32.random(in: 10...UInt32.max)), "-days", "30", "-extfile", extensions.path, "-extensions",
                "leaf", "-out", directory.appending("\(name).pem").path)
            return (
                try Data(contentsOf: directory.appending("\(name).pem")),
                try Data(contentsOf: directory.appending("\(name).key"))
            )
        }

        private static func run(_ arguments: String...) throws {
            let outcome = try ChildProcess.run(OpenSSL.executable, arguments)
            guard outcome.status == 0 else { throw OpenSSLFailure(arguments: arguments, output: outcome.errorOutput) }
        }
    }
}

/// openssl exited with an error.
public struct OpenSSLFailure: Error, CustomStringConvertible {
    /// The arguments it ran with.
    public let arguments: [String]
    /// What it printed on standard error.
    public let output: String

    /// The command and its error output.
    public var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
}
