/// What a ``SecretsStore`` ends in, for the components that sit on one and keep its items with its settings.
extension SecretsStore {
    /// The ``AggregateSecretsStore`` under this store, looking through ``SecretsStoreWrapper``s, or `nil` when
    /// ``base`` is another kind of store. Its ``AggregateSecretsStore/configuration`` names the service, access
    /// group and access policy every item is kept with.
    public nonisolated var aggregateStore: AggregateSecretsStore? {
        var store = base
        while true {
            if let aggregate = store as? AggregateSecretsStore { return aggregate }
            guard let wrapper = store as? any SecretsStoreWrapper else { return nil }
            store = wrapper.base
        }
    }
}
