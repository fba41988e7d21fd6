import Foundation

/// Everything the provisioning flow needs about one pass, read in one query: the pass, its tag, the tag's user and
/// the pass type it is signed for.
public struct ProvisioningTarget: Hashable, Sendable {
    /// The tag the pass belongs to.
    public var tag: ClientTag
    /// The pass.
    public var pass: ApplePass
    /// The pass type it is signed for.
    public var passType: PassType
    /// The tag's user, whose account hash binds the pass.
    public var user: User

    /// Creates a target.
    public init(tag: ClientTag, pass: ApplePass, passType: PassType, user: User) {
        self.tag = tag
        self.pass = pass
        self.passType = passType
        self.user = user
    }
}
