import Foundation
import Secrets

/// Every key an app (or a module of it) persists, in one list that can be validated and printed as a report.
///
/// ```swift
/// struct AppStorageCatalog: StorageKeyCatalog {
///     var allKeys: [AnyStorageKey] {
///         [AnyStorageKey(StorageKeys.apiToken), AnyStorageKey(StorageKeys.Onboarding())]
///     }
/// }
/// try await StorageRouter.shared.register(AppStorageCatalog())
/// ```
///
/// Registering a catalog with a router validates it (``validationErrors``) and from then on reports every key used
/// that is not in a registered catalog (``UnregisteredKeyPolicy``).
public protocol StorageKeyCatalog: Sendable {
    /// The catalog's keys.
    var allKeys: [AnyStorageKey] { get }
}

extension StorageKeyCatalog {
    /// The descriptors of ``allKeys``.
    public var descriptors: [StorageKeyDescriptor] { allKeys.map(\.descriptor) }

    /// Every problem with the catalog (none for a valid one): duplicate names, missing descriptions, names that
    /// break the naming rules, and keys whose domain, policy, availability and sync policy do not go together.
    public var validationErrors: [StorageError] {
        StorageKeyValidation.problems(in: descriptors)
    }

    /// Throws ``StorageError/invalidCatalog(_:)`` listing every problem, if there is one.
    public func validate() throws(StorageError) {
        let problems = validationErrors
        if !problems.isEmpty { throw .invalidCatalog(problems) }
    }

    /// The catalog's catalog report.
    public var catalogReport: StorageCatalogReport { StorageCatalogReport(descriptors) }
}

/// A catalog of keys known only by their descriptors: read from JSON (say, the JSON form of an catalog report), or
/// put together from several catalogs.
public struct DescriptorCatalog: StorageKeyCatalog, Codable {
    /// The keys' descriptors.
    public let keys: [StorageKeyDescriptor]

    /// A catalog of `keys`.
    public init(_ keys: [StorageKeyDescriptor]) {
        self.keys = keys
    }

    /// Decodes a catalog from JSON: an array of descriptors or an object with a `keys` array (an catalog report).
    ///
    /// - Throws: ``StorageError/invalidConfiguration(key:reason:)`` naming what is wrong with the JSON.
    public init(json: Data) throws(StorageError) {
        let decoder = JSONDecoder()
        do {
            if let keys = try? decoder.decode([StorageKeyDescriptor].self, from: json) {
                self.init(keys)
            } else {
                self = try decoder.decode(DescriptorCatalog.self, from: json)
            }
        } catch {
            throw .invalidConfiguration(key: "catalog", reason: "the JSON is not a storage key catalog: \(error)")
        }
    }

    /// The keys.
    public var allKeys: [AnyStorageKey] { keys.map(AnyStorageKey.init(descriptor:)) }
}

/// The rules a key's metadata must follow, shared by catalogs and the router.
enum StorageKeyValidation {
    static func problems(in descriptors: [StorageKeyDescriptor]) -> [StorageError] {
        var problems: [StorageError] = []
        var seen: Set<String> = []
        var reportedDuplicates: Set<String> = []
        for descriptor in descriptors {
            if !seen.insert(descriptor.name).inserted, reportedDuplicates.insert(descriptor.name).inserted {
                problems.append(.duplicateKey(descriptor.name))
            }
            if descriptor.description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                problems.append(.missingDescription(descriptor.name))
            }
            if let problem = problem(with: descriptor) { problems.append(problem) }
        }
        return problems
    }

    /// What is wrong with one key's metadata, if anything.
    static func problem(with key: StorageKeyDescriptor) -> StorageError? {
        do {
            try SecretPath.validate(path: key.name)
        } catch {
            return .store(key: key.name, error as? SecretsError ?? .invalidIdentifier(key.name, reason: "\(error)"))
        }
        if let reason = inconsistency(domain: key.domain, security: key.security) {
            return .invalidConfiguration(key: key.name, reason: reason)
        }
        if case .encrypted(_, .pbkdf2(let iterations)) = key.security,
            !ValueSealer.acceptedIterations.contains(iterations)
        {
            return .invalidConfiguration(
                key: key.name,
                reason: "\(iterations) PBKDF2 iterations; use \(ValueSealer.acceptedIterations.lowerBound) to "
                    + "\(ValueSealer.maximumIterations)")
        }
        do {
            try StorageLocations.validateAppGroup(key.keyMaterialSource.rawValue)
            switch key.domain {
            case .appGroupUserDefaults(let identifier), .appGroupFileSystem(let identifier, _):
                try StorageLocations.validateAppGroup(identifier)
            default: break
            }
        } catch {
            return .store(key: key.name, error as? SecretsError ?? .invalidIdentifier(key.name, reason: "\(error)"))
        }
        if key.syncPolicy != .never, !key.availability.syncsToWatch {
            return .invalidConfiguration(
                key: key.name,
                reason: "it syncs (\(key.syncPolicy.rawValue)) but is \(key.availability.rawValue); "
                    + "make it all or phoneWithWatchSync, or never sync it")
        }
        return nil
    }

    /// Why a domain and a policy do not go together, if they do not.
    static func inconsistency(domain: StorageDomain, security: SecurityPolicy) -> String? {
        switch (domain, security) {
        case (.keychain, .keychain), (.keychain, .none), (_, .none), (_, .encrypted): return nil
        case (_, .keychain):
            return "a keychain policy needs the keychain domain; use encrypted(algorithm:keyDerivation:) elsewhere"
        }
    }
}

extension PlatformAvailability {
    /// Whether values with this availability may be sent to the watch.
    var syncsToWatch: Bool { self == .all || self == .phoneWithWatchSync }
}
