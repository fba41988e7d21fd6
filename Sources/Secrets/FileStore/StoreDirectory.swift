import Foundation

/// The file-system mechanics shared by Coffer's file stores: a private directory, an inter-process lock, and
/// crash-safe writes.
///
/// - The directory and its subdirectories are created with mode 0700.
/// - ``withExclusiveLock(_:)`` holds `flock(LOCK_EX)` on `<root>/.lock` through a descriptor opened for that
///   call alone, so it excludes other threads of this process as well as other processes.
/// - ``write(_:to:)`` creates a temporary file exclusively with mode 0600, writes it, flushes it for ordering,
///   renames it over the target, and flushes the directory for durability: after it returns, the new bytes
///   survive a crash or power loss, and at no moment can a reader see a partial file. On Apple systems the
///   ordering flush is `F_BARRIERFSYNC` (the file's data reaches the disk before the rename) and the durable one
///   `F_FULLFSYNC`, once per write; elsewhere both are `fsync`.
/// - ``withExclusiveLock(_:)`` runs inside a ``WriteActivity``: on iOS, watchOS, tvOS and visionOS a background
///   task assertion (`ProcessInfo.performExpiringActivity`), so that the app is not suspended while it holds a
///   `flock` in a shared (app-group) container, which the system punishes with a 0xdead10cc termination.
/// - Readers take no lock: a rename replaces a file atomically.
/// - Every file is opened with `O_NOFOLLOW | O_NONBLOCK` and checked to be a regular file, so that a symbolic link
///   or a FIFO put in the store by someone who can write to it is an error, never a hang.
struct StoreDirectory: Sendable {
    /// The store's root directory.
    let root: URL
    /// How descriptors are flushed.
    let flusher: FileFlusher
    /// What keeps the process running while the lock is held.
    let activity: WriteActivity

    /// The prefix of temporary files; they are never listed, and ``removeTemporaryFiles(in:)`` clears leftovers.
    static let temporaryPrefix = ".tmp-"
    static let lockFileName = ".lock"
    /// Where unreadable item files are moved (``quarantine(_:)``).
    static let quarantineDirectory = "quarantine"

    init(root: URL, flusher: FileFlusher = .system, activity: WriteActivity = .system) {
        self.root = root.standardizedFileURL
        self.flusher = flusher
        self.activity = activity
    }

    func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Creates the root and `subdirectories` with mode 0700 (the parents of root as needed).
    func create(subdirectories: [String]) throws {
        for url in [root] + subdirectories.map(url) {
            do {
                try FileManager.default.createDirectory(
                    at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SecretsError.io(operation: "creating directory", path: url.path, code: Self.posixCode(of: error))
            }
        }
    }

    /// Whether the root exists as a directory.
    var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    // MARK: Locking

    /// Runs `body` while holding the store's exclusive lock, inside the write activity (which ends only after the
    /// lock is released).
    func withExclusiveLock<Result>(_ body: () throws -> Result) throws -> Result {
        let endActivity = activity.begin("Coffer: writing the store at \(root.lastPathComponent)")
        defer { endActivity() }
        let path = url(Self.lockFileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw SecretsError.corruptData("\(path) (a symbolic link where a file belongs)") }
            throw SecretsError.io(operation: "opening lock file", path: path, code: errno)
        }
        defer { close(descriptor) }
        try Self.requireRegularFile(descriptor, path: path)
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw SecretsError.io(operation: "locking", path: path, code: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    // MARK: Writing

    /// Replaces the file at `relativePath` with `data`, durably and atomically.
    func write(_ data: Data, to relativePath: String) throws {
        let target = url(relativePath)
        let directory = target.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(Self.temporaryPrefix + SecureRandom.hex(byteCount: 12))
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SecretsError.io(operation: "creating temporary file in", path: directory.path, code: errno)
        }
        var renamed = false
        defer { if !renamed { unlink(temporary.path) } }
        do {
            defer { close(descriptor) }
            guard fchmod(descriptor, 0o600) == 0 else {
                throw SecretsError.io(operation: "setting mode of", path: temporary.path, code: errno)
            }
            try Self.writeAll(data, to: descriptor, path: temporary.path)
            // Ordering is enough here: the directory's durable flush below covers these bytes too.
            try flush(descriptor, .ordering, path: temporary.path)
        }
        guard rename(temporary.path, target.path) == 0 else {
            throw SecretsError.io(operation: "renaming into", path: target.path, code: errno)
        }
        renamed = true
        try synchronizeDirectory(directory)
    }

    /// Removes the file at `relativePath` durably; returns whether it existed.
    func remove(_ relativePath: String) throws -> Bool {
        let target = url(relativePath)
        guard unlink(target.path) == 0 else {
            if errno == ENOENT { return false }
            throw SecretsError.io(operation: "removing", path: target.path, code: errno)
        }
        try synchronizeDirectory(target.deletingLastPathComponent())
        return true
    }

    /// Moves the file at `relativePath` to `quarantine/` under a new unique name, durably, and returns that
    /// location relative to the root. Call it only while holding the lock.
    func quarantine(_ relativePath: String) throws -> String {
        try create(subdirectories: [Self.quarantineDirectory])
        let source = url(relativePath)
        let location =
            Self.quarantineDirectory + "/" + source.lastPathComponent + "." + SecureRandom.hex(byteCount: 4)
        guard rename(source.path, url(location).path) == 0 else {
            throw SecretsError.io(operation: "moving to quarantine", path: source.path, code: errno)
        }
        try synchronizeDirectory(url(Self.quarantineDirectory))
        try synchronizeDirectory(source.deletingLastPathComponent())
        return location
    }

    /// What makes the store's directory less private than Coffer makes it: another owner than this process's
    /// user, or access for the group or others, on the root or a subdirectory that exists.
    func accessProblems(subdirectories: [String] = []) -> [String] {
        ([root] + subdirectories.map(url)).compactMap { directory in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.path) else { return nil }
            var problems: [String] = []
            if let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value, owner != geteuid() {
                problems.append("owned by user \(owner), not by this process's user \(geteuid())")
            }
            if let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0 {
                problems.append("mode \(String(mode, radix: 8)) lets the group or others in; make it 0700")
            }
            return problems.isEmpty ? nil : "\(directory.path): " + problems.joined(separator: ", ")
        }
    }

    /// Removes temporary files that a crashed writer left behind. Call it only while holding the lock.
    func removeTemporaryFiles(in subdirectory: String?) {
        let directory = subdirectory.map(url) ?? root
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    // MARK: Reading

    /// Returns the bytes of the file at `relativePath`, or `nil` if there is none.
    ///
    /// Throws ``SecretsError/corruptData(_:)`` when it is not a regular file or is larger than `limit` bytes.
    /// With `prefix`, reads at most that many bytes from the start.
    func read(_ relativePath: String, limit: Int, prefix: Int? = nil) throws -> Data? {
        let path = url(relativePath).path
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer, for ever; regular files ignore it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw SecretsError.corruptData("\(path) (a symbolic link where a file belongs)") }
            throw SecretsError.io(operation: "opening", path: path, code: errno)
        }
        defer { close(descriptor) }
        let size = Int(try Self.requireRegularFile(descriptor, path: path).st_size)
        guard size <= limit else { throw SecretsError.corruptData("\(path) (\(size) bytes, more than \(limit))") }
        let wanted = min(size, prefix ?? size)
        var data = Data(count: wanted)
        var filled = 0
        try data.withUnsafeMutableBytes { buffer in
            while filled < wanted {
                let count = Foundation.read(descriptor, buffer.baseAddress! + filled, wanted - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw SecretsError.io(operation: "reading", path: path, code: errno)
                }
                if count == 0 { break }
                filled += count
            }
        }
        return data.prefix(filled)
    }

    /// The names of the files in `subdirectory` that end with `suffix`, skipping temporary files.
    func fileNames(in subdirectory: String, suffix: String) throws -> [String] {
        let directory = url(subdirectory)
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(suffix) && !$0.hasPrefix(Self.temporaryPrefix) }
                .sorted()
        } catch {
            throw SecretsError.io(operation: "listing", path: directory.path, code: Self.posixCode(of: error))
        }
    }

    // MARK: Low level

    /// The status of an open descriptor, which must be a regular file.
    @discardableResult
    private static func requireRegularFile(_ descriptor: Int32, path: String) throws -> stat {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw SecretsError.io(operation: "inspecting", path: path, code: errno)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw SecretsError.corruptData("\(path) (not a regular file)")
        }
        return status
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        if let code = data.withUnsafeBytes({ Descriptors.writeAll($0, to: descriptor) }) {
            throw SecretsError.io(operation: "writing", path: path, code: code)
        }
    }

    private func flush(_ descriptor: Int32, _ strength: FileFlusher.Strength, path: String) throws {
        guard flusher.flush(descriptor, strength) else {
            throw SecretsError.io(operation: "syncing", path: path, code: errno)
        }
    }

    private func synchronizeDirectory(_ directory: URL) throws {
        try Self.synchronizeDirectory(directory, flusher: flusher)
    }

    /// Flushes `directory`'s entries (a file just created or renamed in it) to stable storage.
    static func synchronizeDirectory(_ directory: URL, flusher: FileFlusher = .system) throws {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SecretsError.io(operation: "opening", path: directory.path, code: errno) }
        defer { close(descriptor) }
        guard flusher.flush(descriptor, .durable) else {
            throw SecretsError.io(operation: "syncing", path: directory.path, code: errno)
        }
    }

    private static func posixCode(of error: any Error) -> Int32 {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return Int32(underlying.code)
        }
        return nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code) : EIO
    }
}
