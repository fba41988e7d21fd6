import CofferTestSupport
import Foundation
import Testing
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
        #expect(throws: WalletPassesError.self) { try package.add(Data("x".utf8), at: path) }
        #expect(package.files[path] == nil)
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
        #expect(throws: WalletPassesError.self) { try PassPackage(directory: directory.url) }
    }
}
