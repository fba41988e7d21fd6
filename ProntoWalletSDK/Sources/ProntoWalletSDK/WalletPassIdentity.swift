/// Which pass in Apple Wallet a tag's pass is: its pass type identifier and serial number, as `PKPassLibrary` finds
/// it.
public struct WalletPassIdentity: Hashable, Sendable {
    /// The pass type identifier (`pass.com.example.tickets`).
    public let passTypeIdentifier: String
    /// The pass's serial number within its pass type.
    public let serialNumber: String

    /// Names a pass by its pass type identifier and serial number.
    public init(passTypeIdentifier: String, serialNumber: String) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
    }
}
