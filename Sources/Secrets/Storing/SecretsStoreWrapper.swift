/// A store that adds something to every access of the store it wraps (a record of it, a check) and keeps its items
/// there: ``SecretsStore/aggregateStore`` looks through wrappers to find the ``AggregateSecretsStore`` underneath.
public protocol SecretsStoreWrapper: SecretsDataStoring {
    /// The store every access ends in.
    var base: any SecretsDataStoring { get }
}
