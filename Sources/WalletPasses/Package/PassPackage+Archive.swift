import Foundation

extension PassPackage {
    /// The package's files as a ZIP archive: how an unsigned pass is stored (for example by the server, which
    /// re-signs it when a device binds it).
    public func archived() throws -> Data {
        try PassArchive.zip(files)
    }

    /// Reads a package that ``archived()`` produced; its paths are checked like any other input.
    public init(archive: Data) throws {
        try self.init(files: try PassArchive.unzip(archive))
    }
}
