import Foundation

/// A stand-in for Apple's certificate authority, made with openssl: a root, a WWDR intermediate under it, and Pass
/// Type ID certificates issued from a CSR the way Apple's portal issues them (Apple's subject, key usage, extended key
/// usages and Pass Type ID extension, 395 days).
public struct AppleCAStandIn: Sendable {
    /// What a certificate issued by the stand-in carries, to make the ones Coffer must refuse.
    public struct Issuance: Sendable {
        /// The subject's UID (the pass type identifier).
        public var passTypeIdentifier: String
        /// The subject's OU (the team identifier).
        public var teamIdentifier: String
        /// Whether it has Apple's pass-signing extended key usage (1.2.840.113635.100.4.14).
        public var passSigningUsage = true

        /// A certificate for `passTypeIdentifier` in `teamIdentifier`, as Apple issues it.
        public init(passTypeIdentifier: String, teamIdentifier: String) {
            self.passTypeIdentifier = passTypeIdentifier
            self.teamIdentifier = teamIdentifier
        }
    }

    /// Where its keys and certificates are.
    public let directory: TemporaryDirectory
    /// The root certificate, PEM.
    public let rootPEM: Data
    /// The WWDR intermediate, PEM.
    public let wwdrPEM: Data

    /// Makes the root and the intermediate.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "apple-ca")
        let config = directory.appending("ca.cnf")
        try Data(Self.extensions.utf8).write(to: config)
        try Self.openssl(
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.appending("root.key").path,
            "-out", directory.appending("root.pem").path, "-days", "3650",
            "-subj", "/CN=Stand-in Apple Root CA/O=NOT APPLE/C=US", "-config", config.path, "-extensions", "root")
        try Self.openssl(
            "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", directory.appending("wwdr.key").path,
            "-out", directory.appending("wwdr.csr").path,
            "-subj", "/CN=Stand-in Apple WWDR Certification Authority/OU=G4/O=NOT APPLE/C=US",
            "-config", config.path)
        try Self.openssl(
            "x509", "-req", "-in", directory.appending("wwdr.csr").path, "-CA", directory.appending("root.pem").path,
            "-CAkey", directory.appending("root.key").path, "-set_serial", "0x13dc", "-days", "3650",
            "-extfile", config.path, "-extensions", "wwdr", "-out", directory.appending("wwdr.pem").path)
        rootPEM = try Data(contentsOf: directory.appending("root.pem"))
        wwdrPEM = try Data(contentsOf: directory.appending("wwdr.pem"))
    }

    /// Issues a Pass Type ID certificate for the key of `csrPEM`, as `issuance` says; returns it as DER (a `.cer`).
    public func issue(csrPEM: String, _ issuance: Issuance) throws -> Data {
        let name = UUID().uuidString
        let csr = directory.appending("\(name).csr")
        let extensions = directory.appending("\(name).cnf")
        let certificate = directory.appending("\(name).cer")
        try Data(csrPEM.utf8).write(to: csr)
        let usages = "clientAuth" + (issuance.passSigningUsage ? ",1.2.840.113635.100.4.14" : "")
        try Data(
            """
            [pass]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = \(usages)
            1.2.840.113635.100.6.1.16 = ASN1:UTF8String:\(issuance.passTypeIdentifier)
            1.2.840.113635.100.6.3.2 = ASN1:NULL

            """.utf8
        ).write(to: extensions)
        let subject =
            "/UID=\(issuance.passTypeIdentifier)/CN=Pass Type ID: \(issuance.passTypeIdentifier)"
            + "/OU=\(issuance.teamIdentifier)/O=NOT APPLE/C=US"
        try Self.openssl(
            "x509", "-req", "-in", csr.path, "-CA", directory.appending("wwdr.pem").path,
            "-CAkey", directory.appending("wwdr.key").path, "-set_serial", "0x\(name.prefix(8))", "-days", "395",
            "-subj", subject, "-extfile", extensions.path, "-extensions", "pass", "-outform", "DER",
            "-out", certificate.path)
        return try Data(contentsOf: certificate)
    }

    /// The root's and the intermediate's extensions.
    private static let extensions = """
        [req]
        distinguished_name = name
        [name]
        [root]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [wwdr]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid

        """

    /// What openssl said when it failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func openssl(_ arguments: String...) throws {
        let outcome = try ChildProcess.run(OpenSSL.executable, arguments)
        guard outcome.status == 0 else {
            let said = outcome.errorOutput.split(separator: "\n").suffix(3).joined(separator: " ")
            throw Failure(description: "openssl \(arguments.prefix(2).joined(separator: " ")): \(said)")
        }
    }
}
