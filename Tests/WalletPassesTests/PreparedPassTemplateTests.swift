import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("A prepared template makes DocumentSigner's signed .pkpass, checked the same way, from files hashed once")
struct PreparedPassTemplateTests {
    let directory: TemporaryDirectory
    let signer = DocumentSigner(identity: Fixtures.identity.signingIdentity)
    let rootPEM: Data
    let template: PreparedPassTemplate
    static let signingTime = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        directory = try TemporaryDirectory()
        rootPEM = Data(try Fixtures.identity.rootPEM.utf8)
        template = try PreparedPassTemplate(files: Fixtures.files())
    }

    func passJSON(serial: String = "TICKET-001") throws -> Data {
        try Fixtures.pass(serial: serial).encoded()
    }

    @Test("the archive is byte for byte the one DocumentSigner.sign(package).pkpass() makes from the same files")
    func sameArchiveAsSigner() throws {
        let expected = try signer.sign(try Fixtures.package(), signingTime: Self.signingTime).pkpass()
        let made = try template.pkpass(passJSON: try passJSON(), signer: signer, signingTime: Self.signingTime)
        #expect(made == expected)
        #expect(try DocumentArchive.unzip(made) == DocumentArchive.unzip(expected))
    }

    @Test("the signed pass has the same files, manifest and signature as DocumentSigner's")
    func sameSignedPass() throws {
        let expected = try signer.sign(try Fixtures.package(), signingTime: Self.signingTime)
        let made = try template.sign(passJSON: try passJSON(), signer: signer, signingTime: Self.signingTime)
        #expect(made == expected)
        #expect(try template.manifest(passJSON: try passJSON()) == Fixtures.package().manifest())
    }

    @Test("openssl verifies the signature over the manifest that unzip(1) extracts")
    func opensslVerifies() throws {
        let pkpass = try template.pkpass(passJSON: try passJSON(), signer: signer)
        let (outcome, manifest) = try OpenSSL.verify(pkpass: pkpass, root: rootPEM, in: directory)
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let listed = try JSONDecoder().decode([String: String].self, from: manifest)
        #expect(Set(listed.keys) == Set(Fixtures.files().keys).union(["pass.json"]))
    }

    @Test("unzip -t and Python's zipfile find every entry intact")
    func otherReadersAcceptIt() throws {
        let pkpass = try template.pkpass(passJSON: try passJSON(), signer: signer)
        let test = try ArchiveTools.unzipTest(pkpass, in: directory)
        #expect(test.status == 0, "\(test.output)")
        let reading = try ArchiveTools.python(pkpass)
        #expect(reading.firstBadFile == nil)
        #expect(reading.names == (Array(Fixtures.files().keys) + ["pass.json", "manifest.json", "signature"]).sorted())
    }

    @Test("DocumentVerifier accepts it and returns its pass.json")
    func verifierAccepts() async throws {
        let pkpass = try template.pkpass(passJSON: try passJSON(serial: "TEMPLATE-7"), signer: signer)
        let verified = try await DocumentVerifier(trustRoots: [Fixtures.identity.root]).verify(pkpass: pkpass)
        #expect(verified.pass.serialNumber == "TEMPLATE-7")
        #expect(verified.signer == Fixtures.identity.signingIdentity.certificate)
    }

    @Test("a pass's own files join the template's: the same archive as a package holding all of them")
    func perPassFiles() throws {
        var shared = Fixtures.files()
        let strip = shared.removeValue(forKey: "strip@2x.png")!
        let template = try PreparedPassTemplate(files: shared)
        let made = try template.pkpass(
            passJSON: try passJSON(), files: ["strip@2x.png": strip], signer: signer, signingTime: Self.signingTime)
        #expect(made == (try signer.sign(try Fixtures.package(), signingTime: Self.signingTime).pkpass()))
    }

    @Test("a template from a pass type's folder skips its pass.json, manifest.json, signature and hidden files")
    func fromDirectory() throws {
        let folder = directory.appending("pass-type")
        try write(Fixtures.files(), to: folder)
        try write(
            [
                "pass.json": try passJSON(), "manifest.json": Data("{}".utf8), "signature": Data([1]),
                ".DS_Store": Data(),
            ],
            to: folder)
        let fromFolder = try PreparedPassTemplate(directory: folder)
        #expect(fromFolder.files == Fixtures.files())
        #expect(fromFolder.paths == Fixtures.files().keys.sorted())
        #expect(try PreparedPassTemplate(package: try Fixtures.package()).files == Fixtures.files())
    }

    @Test("many tasks share one template and each gets its own valid pass")
    func sharedBetweenTasks() async throws {
        let template = self.template
        let signer = self.signer
        let archives = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<8 {
                group.addTask {
                    let json = try Fixtures.pass(serial: "S-\(index)").encoded()
                    return (index, try template.pkpass(passJSON: json, signer: signer, signingTime: Self.signingTime))
                }
            }
            return try await group.reduce(into: [Int: Data]()) { $0[$1.0] = $1.1 }
        }
        for (index, archive) in archives {
            let expected = try signer.sign(try Fixtures.package(serial: "S-\(index)"), signingTime: Self.signingTime)
            #expect(archive == (try expected.pkpass()))
        }
    }

    // MARK: - Bad template input

    @Test(
        "paths a pass may not hold, pass.json and the generated files are refused when the template is made",
        arguments: [
            "../icon.png", "/etc/passwd", "fr.lproj/../../x.png", ".hidden.png", "a/b/c.png", "images/x.png",
            "back\\slash.png", "", "pass.json", "manifest.json", "signature",
        ])
    func refusesPaths(path: String) {
        #expect {
            try PreparedPassTemplate(files: ["icon.png": Fixtures.png(1), path: Data("x".utf8)])
        } throws: { error in
            guard case WalletDocumentError.invalidFilePath(let refused, _) = error else { return false }
            return refused == path
        }
    }

    @Test("files larger together than a pass may be are refused")
    func refusesOversizedTemplate() {
        let half = Data(count: PassPackage.maximumTotalSize / 2 + 1)
        #expect(throws: WalletDocumentError.tooLarge(what: "the template's files", limit: PassPackage.maximumTotalSize))
        {
            try PreparedPassTemplate(files: ["a.png": Fixtures.png(1) + half, "b.png": Fixtures.png(2) + half])
        }
    }

    @Test("an image that is not a PNG and strings Wallet cannot read are refused, naming the file")
    func refusesBadContent() {
        #expect(
            throws: WalletDocumentError.invalidPass([
                LintFinding(
                    code: "strings.encoding", severity: .error, path: "de.lproj/pass.strings",
                    message: "is neither UTF-8 nor UTF-16 text", fix: "save it as UTF-16 (or UTF-8)"),
                LintFinding(code: "file.png", severity: .error, path: "icon.png", message: "is not a PNG image"),
            ])
        ) {
            try PreparedPassTemplate(
                files: ["icon.png": Data("GIF89a".utf8), "de.lproj/pass.strings": Data([0xD8, 0x00, 0xFF])])
        }
    }

    @Test("a folder that does not exist is refused with its path")
    func refusesMissingFolder() {
        let missing = directory.appending("no-such-folder")
        #expect {
            try PreparedPassTemplate(directory: missing)
        } throws: { error in
            guard case WalletDocumentError.invalidFilePath(let path, _) = error else { return false }
            return path == missing.path
        }
    }

    @Test("a folder this user cannot read is refused with its path", .enabled(if: getuid() != 0, "root reads anything"))
    func refusesUnreadableFolder() throws {
        let folder = directory.appending("locked")
        try write(["icon.png": Fixtures.png(1)], to: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        #expect {
            try PreparedPassTemplate(directory: folder)
        } throws: { error in
            guard case WalletDocumentError.invalidFilePath(let path, _) = error else { return false }
            return path == folder.path
        }
    }

    @Test("a symbolic link, a named pipe and a folder below xx.lproj are refused, not followed or read")
    func refusesSpecialFiles() throws {
        let cases: [(String, (URL) throws -> Void)] = [
            (
                "link.png",
                { try FileManager.default.createSymbolicLink(atPath: $0.path, withDestinationPath: "/etc/passwd") }
            ),
            ("pipe.png", { #expect(mkfifo($0.path, 0o644) == 0) }),
            ("fr.lproj/deeper", { try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: true) }),
        ]
        for (name, make) in cases {
            let folder = directory.appending("special-\(UUID().uuidString)")
            try write(["icon.png": Fixtures.png(1), "fr.lproj/pass.strings": Data("\"a\" = \"b\";".utf8)], to: folder)
            try make(folder.appendingPathComponent(name))
            #expect(
                performing: { try PreparedPassTemplate(directory: folder) },
                throws: { error in
                    guard case WalletDocumentError.invalidFilePath(let path, _) = error else { return false }
                    return path == name
                })
        }
    }

    // MARK: - Bad passes: the same errors as DocumentSigner

    /// The error `body` throws.
    func error(_ body: () throws -> Void) -> (any Error)? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a pass.json that does not decode or is invalid fails as DocumentSigner.sign fails for the same files",
        arguments: [
            Data("not json".utf8), Data("{}".utf8),
            Data(#"{"formatVersion": 2, "passTypeIdentifier": "x", "teamIdentifier": "", "serialNumber": ""}"#.utf8),
        ])
    func invalidPassJSON(json: Data) throws {
        var files = Fixtures.files()
        files["pass.json"] = json
        let package = try PassPackage(files: files)
        let expected = try #require(error { _ = try signer.sign(package) })
        let found = try #require(error { _ = try template.pkpass(passJSON: json, signer: signer) })
        #expect(found as? WalletDocumentError == expected as? WalletDocumentError)
    }

    @Test("a template and pass without icon.png fail as DocumentSigner.sign fails")
    func missingIcon() throws {
        var files = Fixtures.files()
        files["icon.png"] = nil
        let template = try PreparedPassTemplate(files: files)
        let expected = try #require(error { _ = try signer.sign(try PassPackage(pass: Fixtures.pass(), files: files)) })
        let found = try #require(error { _ = try template.pkpass(passJSON: try passJSON(), signer: signer) })
        #expect(found as? WalletDocumentError == expected as? WalletDocumentError)
    }

    @Test("a pass of another pass type than the signer's certificate fails as DocumentSigner.sign fails")
    func wrongPassType() throws {
        var pass = Fixtures.pass()
        pass.passTypeIdentifier = "pass.dev.coffer.other"
        let expected = try #require(error { _ = try signer.sign(try PassPackage(pass: pass, files: Fixtures.files())) })
        let found = try #require(error { _ = try template.pkpass(pass: pass, signer: signer) })
        #expect(found as? WalletDocumentError == expected as? WalletDocumentError)
        guard case .identityMismatch = found as? WalletDocumentError else {
            Issue.record("expected an identity mismatch, got \(found)")
            return
        }
    }

    @Test(
        "a pass's own files may not replace the template's, be pass.json or have unsafe paths",
        arguments: ["icon.png", "pass.json", "../x.png", "manifest.json"])
    func refusesPassFiles(path: String) throws {
        #expect {
            try template.pkpass(passJSON: try passJSON(), files: [path: Fixtures.png(3)], signer: signer)
        } throws: { error in
            guard case WalletDocumentError.invalidFilePath(let refused, _) = error else { return false }
            return refused == path
        }
    }

    @Test("a pass whose files together exceed the limit is refused")
    func refusesOversizedPass() throws {
        let big = Fixtures.png(4) + Data(count: PassPackage.maximumTotalSize)
        #expect(throws: WalletDocumentError.tooLarge(what: "the pass's files", limit: PassPackage.maximumTotalSize)) {
            try template.pkpass(passJSON: try passJSON(), files: ["thumbnail.png": big], signer: signer)
        }
    }

    /// Writes `files` under `folder`, creating folders.
    func write(_ files: [String: Data], to folder: URL) throws {
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }
}
