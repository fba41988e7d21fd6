#if canImport(PassKit) && canImport(UIKit) && (os(iOS) || os(visionOS))
    import PassKit

    /// Apple Wallet on this device, as PassKit reports it.
    enum PlatformWallet {
        /// Whether the device can add passes from issuer data (iOS 16.4 and later).
        @MainActor
        static var canAddPasses: Bool {
            guard #available(iOS 16.4, *) else { return false }
            return PKAddPassesViewController.canAddPasses()
        }
    }
#else
    /// Apple Wallet on this device: there is none where PassKit's add-passes sheet does not exist.
    enum PlatformWallet {
        /// Always `false` here.
        @MainActor
        static var canAddPasses: Bool { false }
    }
#endif
