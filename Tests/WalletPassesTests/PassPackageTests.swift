import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("Pass packages hold safe paths and a manifest of SHA-1 digests")
struct PassPackageTests {
    @Test("the manifest matches SHA-1 digests computed independently by sha1sum")
    func manifestMatchesSha1sum() throws {
        let package = try Fixtures.package()
        let manifest = try JSONDecoder().decode([String: String].self, from: try package.manifest())
        #expect(Set(manifest.keys) == Set(package.files.keys))
        let directory = try TemporaryDirectory()
        for (path, data) in package.files {
            let url = directory.appending(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/sha1sum"), package.files.keys.sorted().map { directory.appending($0).path })
        for line in outcome.output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            let path = String(parts[1].trimmingCharacters(in: .whitespaces).dropFirst(directory.url.path.count + 1))
            #expect(manifest[path] == String(parts[0]), "\(path)")
        }
        let text = String(decoding: try package.manifest(), as: UTF8.self)
        #expect(text.contains(#""fr.lproj/pass.strings""#), "slashes must not be escaped")
    }

    @Test(
        "unsafe or reserved paths are refused",
        arguments: [
            "../pass.json", "/etc/passwd", "a/b/c.png", "images/logo.png", ".hidden", "fr.lproj/.DS_Store",
            "manifest.json",
            "signature", "", "fr.lproj/", "back\\slash.png",
        ])
    func unsafePaths(_ path: String) throws {
        var package = try Fixtures.package()
        #expect(throws: WalletDocumentError.self) { try package.add(Data("x".utf8), at: path) }
        #expect(package.files[path] == nil)
    }

    @Test("the pass of an archive reads as the whole package's, without the other files; none is an error")
    func passAlone() throws {
        let package = try Fixtures.package()
        let archive = try package.archived()
        #expect(try PassPackage.pass(inArchive: archive) == package.pass)
        var files = package.files
        files.removeValue(forKey: "pass.json")
        #expect(throws: WalletDocumentError.self) {
            _ = try PassPackage.pass(inArchive: try DocumentArchive.zip(files))
        }
        #expect(throws: WalletDocumentError.self) { _ = try PassPackage.pass(inArchive: Data("not a zip".utf8)) }
    }

    @Test("a package without icon.png, with a fake PNG, or with broken pass.json names the file")
    func packageValidation() throws {
        var files = Fixtures.files()
        files["icon.png"] = nil
        files["logo.png"] = Data("GIF89a".utf8)
        let package = try PassPackage(pass: Fixtures.pass(), files: files)
        let keys = package.lint().errors.map(\.path)
        #expect(keys.contains("icon.png"))
        #expect(keys.contains("logo.png"))
        let broken = try PassPackage(files: ["pass.json": Data(#"{"formatVersion": 1, "generic": {}}"#.utf8)])
        #expect(broken.lint().errors.contains { $0.code == "key.required" && $0.path == "passTypeIdentifier" })
    }

    @Test("a pass directory is read with its localizations; old manifest and signature files are ignored")
    func directory() throws {
        let directory = try TemporaryDirectory()
        let source = try Fixtures.package()
        for (path, data) in source.files {
            let url = directory.appending(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try Data("stale".utf8).write(to: directory.appending("manifest.json"))
        try Data("stale".utf8).write(to: directory.appending("signature"))
        try Data("x".utf8).write(to: directory.appending(".DS_Store"))
        let package = try PassPackage(directory: directory.url)
        #expect(package.files == source.files)
    }

    @Test("a symbolic link in a pass directory is refused")
    func symlink() throws {
        let directory = try TemporaryDirectory()
        try Data(#"{}"#.utf8).write(to: directory.appending("pass.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory.appending("icon.png").path, withDestinationPath: "/etc/passwd")
        #expect(throws: WalletDocumentError.self) { try PassPackage(directory: directory.url) }
    }
}

@Suite("A pass is read from a folder, a Pass Designer template or a .pkpass alike")
struct PassSourceTests {
    @Test("a .pkpasstemplate folder is read without tooling.json; a .pkpass without its manifest and signature")
    func sources() throws {
        let directory = try TemporaryDirectory()
        let template = directory.appending("Ticket.pkpasstemplate")
        try FileManager.default.createDirectory(at: template, withIntermediateDirectories: true)
        for (path, data) in Fixtures.files().filter({ !$0.key.contains("/") }) {
            try data.write(to: template.appendingPathComponent(path))
        }
        try Fixtures.pass().encoded().write(to: template.appendingPathComponent("pass.json"))
        try Data("{}".utf8).write(to: template.appendingPathComponent("tooling.json"))
        let read = try PassPackage(contentsOf: template)
        #expect(read.files["tooling.json"] == nil && read.files["pass.json"] != nil)

        let signed = try DocumentSigner(identity: Fixtures.identity.signingIdentity).sign(read).pkpass()
        let archive = directory.appending("ticket.pkpass")
        try signed.write(to: archive)
        let fromArchive = try PassPackage(contentsOf: archive)
        #expect(fromArchive == read)
    }

    @Test("a ZIP whose files sit in one folder is read from that folder, without hidden files")
    func unwrapped() {
        let files = DocumentFiles.unwrapped(
            [
                "Ticket.pkpasstemplate/pass.json": Data("{}".utf8), "Ticket.pkpasstemplate/icon.png": Data([1]),
                "__MACOSX/Ticket.pkpasstemplate/._icon.png": Data([2]), "Ticket.pkpasstemplate/.DS_Store": Data([3]),
            ], payload: "pass.json")
        #expect(Set(files.keys) == ["pass.json", "icon.png"])
    }

    @Test("a source that does not exist, or a file that is not a ZIP, is a typed error")
    func missing() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: WalletDocumentError.self) { try PassPackage(contentsOf: directory.appending("none")) }
        let text = directory.appending("notes.pkpasstemplate")
        try Data("hello".utf8).write(to: text)
        #expect(throws: WalletDocumentError.self) { try PassPackage(contentsOf: text) }
    }
}
