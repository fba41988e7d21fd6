import Foundation

/// Everything the provisioning flow needs about one pass, read in one query: the pass, its tag, the tag's user and
/// the pass type it is signed for.
package struct ProvisioningTarget: Hashable, Sendable {
    /// The tag the pass belongs to.
    package var tag: ClientTag
    /// The pass.
    package var pass: StoredPass
    /// The pass type it is signed for.
    package var passType: PassType
    /// The tag's user, whose account hash binds the pass.
    package var user: User

    /// Creates a target.
    package init(tag: ClientTag, pass: StoredPass, passType: PassType, user: User) {
        self.tag = tag
        self.pass = pass
        self.passType = passType
        self.user = user
    }
}
