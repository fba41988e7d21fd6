#if os(Linux)
    import Foundation
    import Secrets

    /// libsecret and the few GLib functions Coffer calls, found at run time.
    ///
    /// Loading at run time (`dlopen`) means building Coffer needs no `-dev` package: where the library is missing
    /// the Secret Service is ``Secrets/SecretsError/unavailable(_:)``, with a message that names the package to
    /// install. libsecret links GLib, GObject and GIO, so every symbol resolves through libsecret's own handle.
    ///
    /// The signatures below are those of libsecret 0.20 and GLib 2.74's headers; pointer types libsecret keeps
    /// opaque (`SecretService *`, `GHashTable *`, `GVariant *` …) are `OpaquePointer`.
    ///
    /// `@unchecked Sendable`: every stored property is a `let` holding a C function's address (or, for the three
    /// passed as callbacks, the same address as an `OpaquePointer`), fixed for the life of the process.
    final class LibSecret: @unchecked Sendable {
        /// A `GError **` out-parameter: GLib stores the address of a `GError` there on failure.
        typealias GErrorOut = UnsafeMutablePointer<UnsafeMutableRawPointer?>
        /// The file `dlopen` loads unless ``libraryVariable`` names another.
        static let defaultLibrary = "libsecret-1.so.0"
        /// The environment variable that names the library to load instead of ``defaultLibrary`` (a path, or a
        /// file name the dynamic loader looks up).
        static let libraryVariable = "COFFER_LIBSECRET"

        // MARK: libsecret

        typealias ServiceGetSync =
            @convention(c) (
                CInt, OpaquePointer?, GErrorOut
            ) -> OpaquePointer?
        typealias ServiceLookupSync =
            @convention(c) (
                OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?,
                GErrorOut
            ) -> OpaquePointer?
        typealias ServiceStoreSync =
            @convention(c) (
                OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                OpaquePointer?, OpaquePointer?, GErrorOut
            ) -> CInt
        typealias ServiceDeletePathSync =
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?,
                GErrorOut
            ) -> CInt
        typealias ServiceSearchPathsSync =
            @convention(c) (
                OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?,
                UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?,
                UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?,
                GErrorOut
            ) -> CInt
        typealias ServiceGetSecretsForPathsSync =
            @convention(c) (
                OpaquePointer?, UnsafePointer<UnsafePointer<CChar>?>?, OpaquePointer?,
                GErrorOut
            ) -> OpaquePointer?
        typealias ServiceLockSync =
            @convention(c) (
                OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?,
                GErrorOut
            ) -> CInt
        typealias CollectionForAliasSync =
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, CInt, OpaquePointer?,
                GErrorOut
            ) -> OpaquePointer?
        typealias ValueNew = @convention(c) (UnsafePointer<CChar>?, Int, UnsafePointer<CChar>?) -> OpaquePointer?
        typealias ValueGet = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>?
        typealias Unref = @convention(c) (OpaquePointer?) -> Void
        typealias Quark = @convention(c) () -> UInt32

        let serviceGetSync: ServiceGetSync
        let serviceLookupSync: ServiceLookupSync
        let serviceStoreSync: ServiceStoreSync
        let serviceDeleteItemDBusPathSync: ServiceDeletePathSync
        let serviceSearchForDBusPathsSync: ServiceSearchPathsSync
        let serviceGetSecretsForDBusPathsSync: ServiceGetSecretsForPathsSync
        let serviceLockSync: ServiceLockSync
        let collectionForAliasSync: CollectionForAliasSync
        let valueNew: ValueNew
        let valueGet: ValueGet
        let valueUnref: Unref
        let secretErrorQuark: Quark

        // MARK: GLib, GObject, GIO

        typealias HashTableNewFull =
            @convention(c) (
                OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?
            ) -> OpaquePointer?
        typealias HashTableInsert =
            @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?)
            -> CInt
        typealias HashTableIterInit = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void
        typealias HashTableIterNext =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            ) -> CInt
        typealias StrDup = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        typealias StrFreev = @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Void
        typealias ListAppend = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
        typealias ErrorFree = @convention(c) (UnsafeMutableRawPointer?) -> Void
        typealias CancellableNew = @convention(c) () -> OpaquePointer?
        typealias BusGetSync =
            @convention(c) (
                CInt, OpaquePointer?, GErrorOut
            ) -> OpaquePointer?
        typealias ConnectionCallSync =
            @convention(c) (
                OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?, CInt, CInt, OpaquePointer?,
                GErrorOut
            ) -> OpaquePointer?
        typealias RemoteErrorName = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CChar>?
        typealias VariantNewString = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
        typealias VariantNewTuple = @convention(c) (UnsafePointer<OpaquePointer?>?, Int) -> OpaquePointer?
        typealias VariantChildCount = @convention(c) (OpaquePointer?) -> Int
        typealias VariantChild = @convention(c) (OpaquePointer?, Int) -> OpaquePointer?
        typealias VariantGetString =
            @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>?
        typealias VariantGetVariant = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias VariantGetBoolean = @convention(c) (OpaquePointer?) -> CInt

        /// `g_str_hash` and `g_str_equal`, `g_free`: passed to `g_hash_table_new_full` as function pointers.
        let strHash: OpaquePointer
        let strEqual: OpaquePointer
        let freeFunction: OpaquePointer
        let hashTableNewFull: HashTableNewFull
        let hashTableInsert: HashTableInsert
        let hashTableUnref: Unref
        let hashTableIterInit: HashTableIterInit
        let hashTableIterNext: HashTableIterNext
        let strdup: StrDup
        let free: Free
        let strfreev: StrFreev
        let listAppend: ListAppend
        let listFree: Unref
        let errorFree: ErrorFree
        let ioErrorQuark: Quark
        let objectUnref: Unref
        let cancellableNew: CancellableNew
        let cancellableCancel: Unref
        let busGetSync: BusGetSync
        let connectionCallSync: ConnectionCallSync
        let remoteErrorName: RemoteErrorName
        let variantNewString: VariantNewString
        let variantNewTuple: VariantNewTuple
        let variantChildCount: VariantChildCount
        let variantChild: VariantChild
        let variantGetString: VariantGetString
        let variantGetVariant: VariantGetVariant
        let variantGetBoolean: VariantGetBoolean
        let variantUnref: Unref

        // MARK: Constants (libsecret's and GLib's enums)

        /// `SECRET_SERVICE_OPEN_SESSION`.
        static let openSession: CInt = 1 << 1
        /// `SECRET_COLLECTION_NONE`.
        static let collectionNone: CInt = 0
        /// `SECRET_ERROR_IS_LOCKED`.
        static let errorIsLocked: CInt = 2
        /// `G_IO_ERROR_CANCELLED`.
        static let ioErrorCancelled: CInt = 19
        /// `G_BUS_TYPE_SESSION`.
        static let sessionBus: CInt = 2
        /// `G_DBUS_CALL_FLAGS_NONE`.
        static let callFlagsNone: CInt = 0
        /// The size of a `GHashTableIter` (three pointers, two ints and a pointer), rounded up.
        static let hashTableIteratorSize = 64

        // MARK: Loading

        /// The process's libsecret, loaded on first use: the library, or why it could not be loaded.
        static let shared: Result<LibSecret, SecretsError> = load(
            ProcessInfo.processInfo.environment[libraryVariable] ?? defaultLibrary)

        /// Loads `library` and resolves every function Coffer calls.
        ///
        /// - Returns: `unavailable` naming the Debian package to install when the library is missing, or naming
        ///   the function when the library is too old to have it.
        static func load(_ library: String) -> Result<LibSecret, SecretsError> {
            DynamicLibrary.open(firstOf: [library]) { library throws(DynamicLibraryError) in try LibSecret(library) }
                .mapError { failure in
                    .unavailable(
                        "libsecret could not be loaded (\(failure)); install libsecret 0.18 or later to use the Secret "
                            + "Service (Debian and Ubuntu: apt-get install libsecret-1-0; Fedora: dnf install libsecret)"
                    )
                }
        }

        private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
            func symbol(_ name: String) throws(DynamicLibraryError) -> UnsafeMutableRawPointer {
                try library.address(of: name)
            }
            func function<Function>(_ name: String, as type: Function.Type) throws(DynamicLibraryError) -> Function {
                try library.function(name, as: type)
            }
            serviceGetSync = try function("secret_service_get_sync", as: ServiceGetSync.self)
            serviceLookupSync = try function("secret_service_lookup_sync", as: ServiceLookupSync.self)
            serviceStoreSync = try function("secret_service_store_sync", as: ServiceStoreSync.self)
            serviceDeleteItemDBusPathSync = try function(
                "secret_service_delete_item_dbus_path_sync", as: ServiceDeletePathSync.self)
            serviceSearchForDBusPathsSync = try function(
                "secret_service_search_for_dbus_paths_sync", as: ServiceSearchPathsSync.self)
            serviceGetSecretsForDBusPathsSync = try function(
                "secret_service_get_secrets_for_dbus_paths_sync", as: ServiceGetSecretsForPathsSync.self)
            serviceLockSync = try function("secret_service_lock_sync", as: ServiceLockSync.self)
            collectionForAliasSync = try function("secret_collection_for_alias_sync", as: CollectionForAliasSync.self)
            valueNew = try function("secret_value_new", as: ValueNew.self)
            valueGet = try function("secret_value_get", as: ValueGet.self)
            valueUnref = try function("secret_value_unref", as: Unref.self)
            secretErrorQuark = try function("secret_error_get_quark", as: Quark.self)

            strHash = OpaquePointer(try symbol("g_str_hash"))
            strEqual = OpaquePointer(try symbol("g_str_equal"))
            freeFunction = OpaquePointer(try symbol("g_free"))
            hashTableNewFull = try function("g_hash_table_new_full", as: HashTableNewFull.self)
            hashTableInsert = try function("g_hash_table_insert", as: HashTableInsert.self)
            hashTableUnref = try function("g_hash_table_unref", as: Unref.self)
            hashTableIterInit = try function("g_hash_table_iter_init", as: HashTableIterInit.self)
            hashTableIterNext = try function("g_hash_table_iter_next", as: HashTableIterNext.self)
            strdup = try function("g_strdup", as: StrDup.self)
            free = try function("g_free", as: Free.self)
            strfreev = try function("g_strfreev", as: StrFreev.self)
            listAppend = try function("g_list_append", as: ListAppend.self)
            listFree = try function("g_list_free", as: Unref.self)
            errorFree = try function("g_error_free", as: ErrorFree.self)
            ioErrorQuark = try function("g_io_error_quark", as: Quark.self)
            objectUnref = try function("g_object_unref", as: Unref.self)
            cancellableNew = try function("g_cancellable_new", as: CancellableNew.self)
            cancellableCancel = try function("g_cancellable_cancel", as: Unref.self)
            busGetSync = try function("g_bus_get_sync", as: BusGetSync.self)
            connectionCallSync = try function("g_dbus_connection_call_sync", as: ConnectionCallSync.self)
            remoteErrorName = try function("g_dbus_error_get_remote_error", as: RemoteErrorName.self)
            variantNewString = try function("g_variant_new_string", as: VariantNewString.self)
            variantNewTuple = try function("g_variant_new_tuple", as: VariantNewTuple.self)
            variantChildCount = try function("g_variant_n_children", as: VariantChildCount.self)
            variantChild = try function("g_variant_get_child_value", as: VariantChild.self)
            variantGetString = try function("g_variant_get_string", as: VariantGetString.self)
            variantGetVariant = try function("g_variant_get_variant", as: VariantGetVariant.self)
            variantGetBoolean = try function("g_variant_get_boolean", as: VariantGetBoolean.self)
            variantUnref = try function("g_variant_unref", as: Unref.self)
        }
    }

    /// The fields of a GLib `GError` (`gerror.h`: `GQuark domain; gint code; gchar *message;`).
    struct GError {
        /// The error domain's quark.
        var domain: UInt32
        /// The code within the domain.
        var code: CInt
        /// The message, if there is one.
        var message: String?

        /// Reads the fields of the `GError` at `pointer`.
        init(at pointer: UnsafeMutableRawPointer) {
            domain = pointer.load(fromByteOffset: 0, as: UInt32.self)
            code = pointer.load(fromByteOffset: MemoryLayout<UInt32>.size, as: CInt.self)
            message = pointer.load(
                fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafePointer<CChar>?.self
            ).map { String(cString: $0) }
        }
    }
#endif
