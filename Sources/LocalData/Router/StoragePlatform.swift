/// The kind of device the code runs on, for ``PlatformAvailability``.
public enum StoragePlatform: String, Hashable, Sendable, CaseIterable {
    /// An iPhone, iPad, Mac, Apple TV, Vision Pro or Linux machine: everything but a watch.
    case phone
    /// An Apple Watch.
    case watch

    /// Where this code runs.
    public static var current: StoragePlatform {
        #if os(watchOS)
            return .watch
        #else
            return .phone
        #endif
    }

    /// Whether values with `availability` belong here.
    public func allows(_ availability: PlatformAvailability) -> Bool {
        switch (availability, self) {
        case (.all, _), (.phoneOnly, .phone), (.phoneWithWatchSync, _), (.watchOnly, .watch): return true
        case (.phoneOnly, .watch), (.watchOnly, .phone): return false
        }
    }
}
