#if canImport(CLibSecret)
    import CLibSecret
    import Foundation
    import Secrets

    /// The Secret Service through libsecret: one shared connection per process, every call bounded by a timeout,
    /// and calls serialized (the D-Bus round trips are the cost, not the lock).
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

        /// The process's connection to the service, made on first use; a failed attempt is retried next time.
        private static let connection = Locked<UnsafeMutablePointer<SecretService>?>(nil)

        init(timeout: TimeInterval) {
            self.timeout = timeout
        }

        // MARK: Operations

        func search(_ attributes: [String: String], loadSecrets: Bool, loadAttributes: Bool) throws
            -> [SecretServiceItem]
        {
            try Self.connection.withLock { connection in
                let service = try Self.connect(&connection, timeout: timeout)
                let (unlocked, locked) = try paths(matching: attributes, service: service)
                let secrets = loadSecrets && !unlocked.isEmpty ? try self.secrets(at: unlocked, service: service) : [:]
                let found = unlocked.map { ($0, false) } + locked.map { ($0, true) }
                return try found.map { path, isLocked in
                    SecretServiceItem(
                        attributes: loadAttributes ? try self.attributes(at: path) : attributes, secret: secrets[path],
                        isLocked: isLocked)
                }
            }
        }

        func lookup(_ attributes: [String: String]) throws -> Data? {
            try Self.connection.withLock { connection in
                let service = try Self.connect(&connection, timeout: timeout)
                let table = GHashTableBox(attributes)
                let value = try call("look up") { cancellable, error in
                    secret_service_lookup_sync(service, nil, table.table, cancellable, error)
                }
                defer { if let value { secret_value_unref(UnsafeMutableRawPointer(value)) } }
                return value.map(Self.bytes)
            }
        }

        func store(_ value: Data, attributes: [String: String], label: String) throws {
            try Self.connection.withLock { connection in
                let service = try Self.connect(&connection, timeout: timeout)
                let table = GHashTableBox(attributes)
                let secret = value.withUnsafeBytes { bytes in
                    // An empty value still needs a valid pointer.
                    guard let base = bytes.baseAddress else { return secret_value_new("", 0, Self.contentType) }
                    return secret_value_new(
                        base.assumingMemoryBound(to: CChar.self), gssize(bytes.count), Self.contentType)
                }
                defer { secret_value_unref(UnsafeMutableRawPointer(secret)) }
                _ = try call("store") { cancellable, error in
                    secret_service_store_sync(
                        service, nil, table.table, "default", label, secret, cancellable, error)
                }
            }
        }

        func delete(_ attributes: [String: String], where isMatch: ([String: String]) -> Bool) throws -> Int {
            try Self.connection.withLock { connection in
                let service = try Self.connect(&connection, timeout: timeout)
                let (unlocked, locked) = try paths(matching: attributes, service: service)
                var deleted = 0
                for path in unlocked + locked where isMatch(try self.attributes(at: path)) {
                    _ = try call("delete") { cancellable, error in
                        secret_service_delete_item_dbus_path_sync(service, path, cancellable, error)
                    }
                    deleted += 1
                }
                return deleted
            }
        }

        func isDefaultCollectionLocked() throws -> Bool {
            try Self.connection.withLock { connection in
                _ = try Self.connect(&connection, timeout: timeout)
                // Asked of the service each time: libsecret's cached property would miss a lock made elsewhere.
                let value = try property(
                    "Locked", of: "org.freedesktop.Secret.Collection", at: Self.defaultCollectionPath,
                    ifMissing: .unavailable(
                        "the Secret Service has no default collection: create or unlock a keyring (gnome-keyring "
                            + "makes 'login' when it is first unlocked with a password)"))
                defer { g_variant_unref(value) }
                return g_variant_get_boolean(value) != 0
            }
        }

        func lockDefaultCollection() throws {
            try Self.connection.withLock { connection in
                let service = try Self.connect(&connection, timeout: timeout)
                let collection = try Self.required(
                    "find the default collection",
                    call("find the default collection") { cancellable, error in
                        secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, cancellable, error)
                    })
                defer { g_object_unref(collection) }
                let list = g_list_append(nil, collection)
                defer { g_list_free(list) }
                _ = try call("lock") { cancellable, error in
                    secret_service_lock_sync(service, list, cancellable, nil, error)
                }
            }
        }

        // MARK: D-Bus paths and properties

        /// The object paths of the unlocked and the locked items whose attributes include `attributes`.
        private func paths(matching attributes: [String: String], service: UnsafeMutablePointer<SecretService>)
            throws -> (unlocked: [String], locked: [String])
        {
            let table = GHashTableBox(attributes)
            var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            var locked: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?
            _ = try call("search") { cancellable, error in
                secret_service_search_for_dbus_paths_sync(
                    service, nil, table.table, cancellable, &unlocked, &locked, error)
            }
            defer {
                g_strfreev(unlocked)
                g_strfreev(locked)
            }
            return (Self.strings(unlocked), Self.strings(locked))
        }

        /// The values of the items at `paths`, in one call.
        private func secrets(at paths: [String], service: UnsafeMutablePointer<SecretService>) throws -> [String: Data]
        {
            var arguments: [UnsafePointer<gchar>?] = paths.map { UnsafePointer(strdup($0)) } + [nil]
            defer { arguments.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
            let table = try call("read values") { cancellable, error in
                secret_service_get_secrets_for_dbus_paths_sync(service, &arguments, cancellable, error)
            }
            guard let table else { return [:] }
            defer { g_hash_table_unref(table) }
            var secrets: [String: Data] = [:]
            var iterator = GHashTableIter()
            g_hash_table_iter_init(&iterator, table)
            var key: gpointer?
            var value: gpointer?
            while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
                guard let key, let value else { continue }
                secrets[String(cString: key.assumingMemoryBound(to: CChar.self))] = Self.bytes(of: OpaquePointer(value))
            }
            return secrets
        }

        /// The attributes of the item at `path`.
        private func attributes(at path: String) throws -> [String: String] {
            let dictionary = try property("Attributes", of: "org.freedesktop.Secret.Item", at: path)
            defer { g_variant_unref(dictionary) }
            var attributes: [String: String] = [:]
            for index in 0..<g_variant_n_children(dictionary) {
                let entry = g_variant_get_child_value(dictionary, index)
                let key = g_variant_get_child_value(entry, 0)
                let value = g_variant_get_child_value(entry, 1)
                attributes[String(cString: g_variant_get_string(key, nil))] = String(
                    cString: g_variant_get_string(value, nil))
                g_variant_unref(value)
                g_variant_unref(key)
                g_variant_unref(entry)
            }
            return attributes
        }

        /// A D-Bus property of an object of the Secret Service, read fresh (the caller unrefs it).
        private func property(
            _ name: String, of interface: String, at path: String, ifMissing missing: SecretsError? = nil
        ) throws -> OpaquePointer {
            let bus = try Self.required(
                "connect to the session bus",
                call("connect to the session bus") { cancellable, error in
                    g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable, error)
                })
            defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
            var arguments = [g_variant_new_string(interface), g_variant_new_string(name)]
            let parameters = g_variant_new_tuple(&arguments, gsize(arguments.count))
            let reply = try Self.required(
                "read \(name)",
                call("read \(name)", ifObjectMissing: missing) { cancellable, error in
                    g_dbus_connection_call_sync(
                        bus, "org.freedesktop.secrets", path, "org.freedesktop.DBus.Properties", "Get", parameters,
                        nil, G_DBUS_CALL_FLAGS_NONE, gint(timeout * 1000), cancellable, error)
                })
            defer { g_variant_unref(reply) }
            let boxed = g_variant_get_child_value(reply, 0)
            defer { g_variant_unref(boxed) }
            return try Self.required("read \(name)", g_variant_get_variant(boxed))
        }

        private static func strings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
            var strings: [String] = []
            var index = 0
            while let element = array?[index] {
                strings.append(String(cString: element))
                index += 1
            }
            return strings
        }

        // MARK: Connection, timeouts and errors

        private static func connect(
            _ connection: inout UnsafeMutablePointer<SecretService>?, timeout: TimeInterval
        ) throws -> UnsafeMutablePointer<SecretService> {
            if let connection { return connection }
            let service = try required(
                "connect",
                call("connect", timeout: timeout) { cancellable, error in
                    secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, cancellable, error)
                })
            connection = service
            return service
        }

        private func call<Result>(
            _ operation: String, ifObjectMissing missing: SecretsError? = nil,
            _ body: (UnsafeMutablePointer<GCancellable>, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result
        ) throws -> Result {
            try Self.call(operation, timeout: timeout, ifObjectMissing: missing, body)
        }

        /// `value`, or `unavailable` when a call that must answer something answered nothing.
        private static func required<Value>(_ operation: String, _ value: Value?) throws -> Value {
            guard let value else { throw SecretsError.unavailable("the Secret Service gave no answer to \(operation)") }
            return value
        }

        /// Runs one libsecret call with a cancellable that fires after `timeout`, and maps its `GError`.
        private static func call<Result>(
            _ operation: String, timeout: TimeInterval, ifObjectMissing missing: SecretsError? = nil,
            _ body: (UnsafeMutablePointer<GCancellable>, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result
        ) throws -> Result {
            let cancellable = CancellableBox()
            let timer = DispatchWorkItem { [cancellable] in cancellable.cancel() }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
            defer { timer.cancel() }
            var error: UnsafeMutablePointer<GError>?
            let result = body(cancellable.pointer, &error)
            if let error {
                defer { g_error_free(error) }
                if let missing, isMissingObject(error) { throw missing }
                throw Self.map(error.pointee, operation: operation, timeout: timeout)
            }
            return result
        }

        /// Whether the service answered that the object asked about does not exist.
        private static func isMissingObject(_ error: UnsafeMutablePointer<GError>) -> Bool {
            guard let name = g_dbus_error_get_remote_error(error) else { return false }
            defer { g_free(name) }
            return [
                "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                "org.freedesktop.Secret.Error.NoSuchObject",
            ].contains(String(cString: name))
        }

        private static func map(_ error: GError, operation: String, timeout: TimeInterval) -> SecretsError {
            let message = error.message.map { String(cString: $0) } ?? "unknown error"
            if error.domain == g_io_error_quark() && error.code == G_IO_ERROR_CANCELLED.rawValue {
                return .unavailable("the Secret Service did not answer \(operation) within \(timeout) seconds")
            }
            if error.domain == secret_error_get_quark() && error.code == SECRET_ERROR_IS_LOCKED.rawValue {
                return .locked("the Secret Service collection")
            }
            return .unavailable("the Secret Service failed to \(operation): \(message)")
        }

        // MARK: libsecret values

        private static func bytes(of value: OpaquePointer) -> Data {
            var length: gsize = 0
            guard let bytes = secret_value_get(value, &length) else { return Data() }
            return Data(bytes: bytes, count: Int(length))
        }
    }

    /// A `GHashTable` of strings built from a dictionary, freed with the box.
    private final class GHashTableBox {
        let table: OpaquePointer

        init(_ attributes: [String: String]) {
            table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)
            for (key, value) in attributes {
                g_hash_table_insert(table, g_strdup(key), g_strdup(value))
            }
        }

        deinit {
            g_hash_table_unref(table)
        }
    }

    /// A `GCancellable` that a timer on another thread may cancel.
    private final class CancellableBox: @unchecked Sendable {
        // Safe: `pointer` never changes, and g_cancellable_cancel is documented as callable from any thread.
        let pointer: UnsafeMutablePointer<GCancellable>

        init() {
            pointer = g_cancellable_new()
        }

        func cancel() {
            g_cancellable_cancel(pointer)
        }

        deinit {
            g_object_unref(pointer)
        }
    }
#endif
