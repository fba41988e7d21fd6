import Foundation

extension StorageLocations.Platform {
    /// The conventions of the platform this code runs on: the system's directories on Apple platforms, XDG
    /// elsewhere.
    public static var current: Self {
        #if canImport(Darwin)
            return .apple(
                StorageLocations.AppleDirectories(
                    documents: .documentsDirectory, applicationSupport: .applicationSupportDirectory,
                    caches: .cachesDirectory,
                    appGroupContainer: { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0) }
                ))
        #else
            return .xdg
        #endif
    }
}
