import Foundation

/// What ``SecretsStore/update(account:_:)`` does with an item once it has read it.
public enum SecretsStoreUpdate: Hashable, Sendable {
    /// Leave the item as it is.
    case keep
    /// Save these bytes in its place.
    case save(Data)
    /// Delete it.
    case delete

    /// The change this makes, as ``SecretsStore/changes()`` reports it, or `nil` for none.
    var change: SecretsStoreChange.Kind? {
        switch self {
        case .keep: nil
        case .save: .saved
        case .delete: .deleted
        }
    }
}
