#if os(Linux)
    import Foundation
    import Secrets

    /// The Secret Service through libsecret, loaded at run time (``LibSecret``): one shared connection per process,
    /// every call bounded by a timeout, and calls serialized (the D-Bus round trips are the cost, not the lock).
    ///
    /// It passes no schema: libsecret would add an `xdg:schema` attribute to every stored item, and an item with one
    /// is not the item `secret-tool store` writes (a save would then add a second item beside it instead of
    /// replacing it).
    final class LibSecretClient: SecretServiceClient {
        /// The content type Coffer stores values under, so that binary values survive.
        static let contentType = "application/octet-stream"
        /// The D-Bus object path of the default collection's alias.
        static let defaultCollectionPath = "/org/freedesktop/secrets/aliases/default"

        let timeout: TimeInterval
        private let library: Result<LibSecret, SecretsError>

        /// The process's connection to the service, made on first use; a failed attempt is retried next time.
        private static let connection = Locked<OpaquePointer?>(nil)

        /// Creates a client of the process's libsecret, or of `library` when it fails to load (for tests).
        init(timeout: TimeInterval, library: Result<LibSecret, SecretsError> = LibSecret.shared) {
            self.timeout = timeout
            self.library = library
        }

        // MARK: Operations

        func search(_ attributes: [String: String], loadSecrets: Bool, loadAttributes: Bool) throws
            -> [SecretServiceItem]
        {
            try withService { lib, service in
                let (unlocked, locked) = try paths(matching: attributes, service: service, lib)
                let secrets = loadSecrets && !unlocked.isEmpty ? try secrets(at: unlocked, service: service, lib) : [:]
                let found = unlocked.map { ($0, false) } + locked.map { ($0, true) }
                return try found.map { path, isLocked in
                    SecretServiceItem(
                        attributes: loadAttributes ? try self.attributes(at: path, lib) : attributes,
                        secret: secrets[path], isLocked: isLocked)
                }
            }
        }

        func lookup(_ attributes: [String: String]) throws -> Data? {
            try withService { lib, service in
                let table = GHashTableBox(attributes, lib)
                let value = try call("look up", lib) { cancellable, error in
                    lib.serviceLookupSync(service, nil, table.table, cancellable, error)
                }
                defer { lib.valueUnref(value) }
                return value.map { Self.bytes(of: $0, lib) }
            }
        }

        func store(_ value: Data, attributes: [String: String], label: String) throws {
            try withService { lib, service in
                let table = GHashTableBox(attributes, lib)
                // An empty value still needs a valid pointer.
                let secret =
                    value.isEmpty
                    ? lib.valueNew("", 0, Self.contentType)
                    : value.withUnsafeBytes { bytes in
                        lib.valueNew(
                            bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, Self.contentType)
                    }
                defer { lib.valueUnref(secret) }
                _ = try call("store", lib) { cancellable, error in
                    lib.serviceStoreSync(service, nil, table.table, "default", label, secret, cancellable, error)
                }
            }
        }

        func delete(_ attributes: [String: String], where isMatch: ([String: String]) -> Bool) throws -> Int {
            try withService { lib, service in
                let (unlocked, locked) = try paths(matching: attributes, service: service, lib)
                var deleted = 0
                for path in unlocked + locked where isMatch(try self.attributes(at: path, lib)) {
                    _ = try call("delete", lib) { cancellable, error in
                        lib.serviceDeleteItemDBusPathSync(service, path, cancellable, error)
                    }
                    deleted += 1
                }
                return deleted
            }
        }

        func isDefaultCollectionLocked() throws -> Bool {
            try withService { lib, _ in
                // Asked of the service each time: libsecret's cached property would miss a lock made elsewhere.
                let value = try property(
                    "Locked", of: "org.freedesktop.Secret.Collection", at: Self.defaultCollectionPath, lib,
                    ifMissing: .unavailable(
                        "the Secret Service has no default collection: create or unlock a keyring (gnome-keyring "
                            + "makes 'login' when it is first unlocked with a password)"))
                defer { lib.variantUnref(value) }
                return lib.variantGetBoolean(value) != 0
            }
        }

        func lockDefaultCollection() throws {
            try withService { lib, service in
                let collection = try Self.required(
                    "find the default collection",
                    call("find the default collection", lib) { cancellable, error in
                        lib.collectionForAliasSync(service, "default", LibSecret.collectionNone, cancellable, error)
                    })
                defer { lib.objectUnref(collection) }
                let list = lib.listAppend(nil, UnsafeMutableRawPointer(collection))
                defer { lib.listFree(list) }
                _ = try call("lock", lib) { cancellable, error in
                    lib.serviceLockSync(service, list, cancellable, nil, error)
                }
            }
        }

        // MARK: D-Bus paths and properties

        /// The object paths of the unlocked and the locked items whose attributes include `attributes`.
        private func paths(matching attributes: [String: String], service: OpaquePointer, _ lib: LibSecret)
            throws -> (unlocked: [String], locked: [String])
        {
            let table = GHashTableBox(attributes, lib)
            var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var locked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            _ = try call("search", lib) { cancellable, error in
                lib.serviceSearchForDBusPathsSync(service, nil, table.table, cancellable, &unlocked, &locked, error)
            }
            defer {
                lib.strfreev(unlocked)
                lib.strfreev(locked)
            }
            return (Self.strings(unlocked), Self.strings(locked))
        }

        /// The values of the items at `paths`, in one call.
        private func secrets(at paths: [String], service: OpaquePointer, _ lib: LibSecret) throws -> [String: Data] {
            var arguments: [UnsafePointer<CChar>?] = paths.map { UnsafePointer(Foundation.strdup($0)) } + [nil]
            defer { arguments.forEach { Foundation.free(UnsafeMutableRawPointer(mutating: $0)) } }
            let table = try call("read values", lib) { cancellable, error in
                lib.serviceGetSecretsForDBusPathsSync(service, &arguments, cancellable, error)
            }
            guard let table else { return [:] }
            defer { lib.hashTableUnref(table) }
            var secrets: [String: Data] = [:]
            let iterator = UnsafeMutableRawPointer.allocate(
                byteCount: LibSecret.hashTableIteratorSize, alignment: MemoryLayout<UnsafeRawPointer>.alignment)
            defer { iterator.deallocate() }
            lib.hashTableIterInit(iterator, table)
            var key: UnsafeMutableRawPointer?
            var value: UnsafeMutableRawPointer?
            while lib.hashTableIterNext(iterator, &key, &value) != 0 {
                guard let key, let value else { continue }
                secrets[String(cString: key.assumingMemoryBound(to: CChar.self))] = Self.bytes(
                    of: OpaquePointer(value), lib)
            }
            return secrets
        }

        /// The attributes of the item at `path`.
        private func attributes(at path: String, _ lib: LibSecret) throws -> [String: String] {
            let dictionary = try property("Attributes", of: "org.freedesktop.Secret.Item", at: path, lib)
            defer { lib.variantUnref(dictionary) }
            var attributes: [String: String] = [:]
            for index in 0..<lib.variantChildCount(dictionary) {
                let entry = lib.variantChild(dictionary, index)
                let key = lib.variantChild(entry, 0)
                let value = lib.variantChild(entry, 1)
                if let name = lib.variantGetString(key, nil), let text = lib.variantGetString(value, nil) {
                    attributes[String(cString: name)] = String(cString: text)
                }
                lib.variantUnref(value)
                lib.variantUnref(key)
                lib.variantUnref(entry)
            }
            return attributes
        }

        /// A D-Bus property of an object of the Secret Service, read fresh (the caller unrefs it).
        private func property(
            _ name: String, of interface: String, at path: String, _ lib: LibSecret,
            ifMissing missing: SecretsError? = nil
        ) throws -> OpaquePointer {
            let bus = try Self.required(
                "connect to the session bus",
                call("connect to the session bus", lib) { cancellable, error in
                    lib.busGetSync(LibSecret.sessionBus, cancellable, error)
                })
            defer { lib.objectUnref(bus) }
            let arguments = [lib.variantNewString(interface), lib.variantNewString(name)]
            let parameters = lib.variantNewTuple(arguments, arguments.count)
            let reply = try Self.required(
                "read \(name)",
                call("read \(name)", lib, ifObjectMissing: missing) { cancellable, error in
                    lib.connectionCallSync(
                        bus, "org.freedesktop.secrets", path, "org.freedesktop.DBus.Properties", "Get", parameters,
                        nil, LibSecret.callFlagsNone, CInt(timeout * 1000), cancellable, error)
                })
            defer { lib.variantUnref(reply) }
            let boxed = lib.variantChild(reply, 0)
            defer { lib.variantUnref(boxed) }
            return try Self.required("read \(name)", lib.variantGetVariant(boxed))
        }

        private static func strings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
            var strings: [String] = []
            var index = 0
            while let element = array?[index] {
                strings.append(String(cString: element))
                index += 1
            }
            return strings
        }

        // MARK: Connection, timeouts and errors

        /// Runs `body` with the loaded library and the process's connection, connecting first when needed.
        ///
        /// - Throws: `unavailable` when libsecret is not installed, or the service does not answer.
        private func withService<Result>(_ body: (LibSecret, OpaquePointer) throws -> Result) throws -> Result {
            let lib = try library.get()
            return try Self.connection.withLock { connection in
                if connection == nil {
                    connection = try Self.required(
                        "connect",
                        call("connect", lib) { cancellable, error in
                            lib.serviceGetSync(LibSecret.openSession, cancellable, error)
                        })
                }
                return try body(lib, connection!)
            }
        }

        /// `value`, or `unavailable` when a call that must answer something answered nothing.
        private static func required<Value>(_ operation: String, _ value: Value?) throws -> Value {
            guard let value else { throw SecretsError.unavailable("the Secret Service gave no answer to \(operation)") }
            return value
        }

        /// Runs one libsecret call with a cancellable that fires after `timeout`, and maps its `GError`.
        private func call<Result>(
            _ operation: String, _ lib: LibSecret, ifObjectMissing missing: SecretsError? = nil,
            _ body: (OpaquePointer?, LibSecret.GErrorOut) -> Result
        ) throws -> Result {
            let cancellable = CancellableBox(lib)
            let timer = DispatchWorkItem { [cancellable] in cancellable.cancel() }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
            defer { timer.cancel() }
            var error: UnsafeMutableRawPointer?
            let result = body(cancellable.pointer, &error)
            if let error {
                defer { lib.errorFree(error) }
                if let missing, Self.isMissingObject(error, lib) { throw missing }
                throw Self.map(GError(at: error), operation: operation, timeout: timeout, lib)
            }
            return result
        }

        /// Whether the service answered that the object asked about does not exist.
        private static func isMissingObject(_ error: UnsafeMutableRawPointer, _ lib: LibSecret) -> Bool {
            guard let name = lib.remoteErrorName(error) else { return false }
            defer { lib.free(name) }
            return [
                "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                "org.freedesktop.Secret.Error.NoSuchObject",
            ].contains(String(cString: name))
        }

        private static func map(_ error: GError, operation: String, timeout: TimeInterval, _ lib: LibSecret)
            -> SecretsError
        {
            let message = error.message ?? "unknown error"
            if error.domain == lib.ioErrorQuark() && error.code == LibSecret.ioErrorCancelled {
                return .unavailable("the Secret Service did not answer \(operation) within \(timeout) seconds")
            }
            if error.domain == lib.secretErrorQuark() && error.code == LibSecret.errorIsLocked {
                return .locked("the Secret Service collection")
            }
            return .unavailable("the Secret Service failed to \(operation): \(message)")
        }

        // MARK: libsecret values

        private static func bytes(of value: OpaquePointer, _ lib: LibSecret) -> Data {
            var length = 0
            guard let bytes = lib.valueGet(value, &length) else { return Data() }
            return Data(bytes: bytes, count: length)
        }
    }

    /// A `GHashTable` of strings built from a dictionary, freed with the box.
    private final class GHashTableBox {
        let table: OpaquePointer?
        private let lib: LibSecret

        init(_ attributes: [String: String], _ lib: LibSecret) {
            self.lib = lib
            table = lib.hashTableNewFull(lib.strHash, lib.strEqual, lib.freeFunction, lib.freeFunction)
            for (key, value) in attributes {
                _ = lib.hashTableInsert(table, lib.strdup(key), lib.strdup(value))
            }
        }

        deinit {
            lib.hashTableUnref(table)
        }
    }

    /// A `GCancellable` that a timer on another thread may cancel.
    private final class CancellableBox: @unchecked Sendable {
        // Safe: `pointer` and `lib` never change, and g_cancellable_cancel is documented as callable from any thread.
        let pointer: OpaquePointer?
        private let lib: LibSecret

        init(_ lib: LibSecret) {
            self.lib = lib
            pointer = lib.cancellableNew()
        }

        func cancel() {
            lib.cancellableCancel(pointer)
        }

        deinit {
            lib.objectUnref(pointer)
        }
    }
#endif
