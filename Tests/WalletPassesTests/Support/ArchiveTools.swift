import CofferTestSupport
import Foundation

/// Other programs' ZIP readers: unzip(1)'s integrity test and Python's `zipfile`.
enum ArchiveTools {
    /// What Python's `zipfile` reads from an archive.
    struct PythonReading: Decodable {
        /// `ZipFile.testzip()`: the first entry whose CRC-32 fails, or nil.
        let firstBadFile: String?
        /// Each entry's name as Python decodes it, in archive order.
        let names: [String]
        /// Each entry's general purpose flags, by name.
        let flags: [String: Int]
        /// Each entry's compression method (0 stored, 8 deflated), by name.
        let methods: [String: Int]
        /// Each entry's contents, hex SHA-1, by name.
        let sha1: [String: String]
    }

    /// Runs `unzip -t` on `archive`; returns its exit status and output.
    static func unzipTest(_ archive: Data, in directory: TemporaryDirectory) throws -> (status: Int32, output: String) {
        let url = directory.appending("\(UUID().uuidString).zip")
        try archive.write(to: url)
        let outcome = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-t", url.path])
        return (outcome.status, outcome.output + outcome.errorOutput)
    }

    /// Reads `archive` with Python's `zipfile`.
    static func python(_ archive: Data) throws -> PythonReading {
        let script = """
            import hashlib, io, json, sys, zipfile
            with zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read())) as archive:
                infos = archive.infolist()
                print(json.dumps({
                    "firstBadFile": archive.testzip(),
                    "names": [info.filename for info in infos],
                    "flags": {info.filename: info.flag_bits for info in infos},
                    "methods": {info.filename: info.compress_type for info in infos},
                    "sha1": {info.filename: hashlib.sha1(archive.read(info)).hexdigest() for info in infos},
                }))
            """
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: archive)
        guard outcome.status == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: ["python3": outcome.errorOutput])
        }
        return try JSONDecoder().decode(PythonReading.self, from: outcome.standardOutput)
    }
}
