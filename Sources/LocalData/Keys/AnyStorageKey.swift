import Foundation

/// A key with its value type erased, for catalogs that list keys of many types.
public struct AnyStorageKey: Hashable, Sendable {
    /// The key's metadata.
    public let descriptor: StorageKeyDescriptor

    /// Erases `key`'s value type.
    public init(_ key: some StorageKey) {
        self.descriptor = key.descriptor
    }

    /// A key known only by its metadata (say, read from a catalog's JSON).
    public init(descriptor: StorageKeyDescriptor) {
        self.descriptor = descriptor
    }

    /// The key's name.
    public var name: String { descriptor.name }
}
