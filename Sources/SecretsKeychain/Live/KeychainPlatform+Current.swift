extension KeychainPlatform {
    /// The platform this code runs on; elsewhere (Linux, where only ``SecItemEmulator`` exists), iOS's rules.
    package static var current: KeychainPlatform {
        #if os(macOS)
            return .macOS
        #elseif targetEnvironment(macCatalyst)
            return .macCatalyst
        #elseif os(watchOS)
            return .watchOS
        #elseif os(tvOS)
            return .tvOS
        #elseif os(visionOS)
            return .visionOS
        #else
            return .iOS
        #endif
    }
}
