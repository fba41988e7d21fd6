import Foundation

/// What issuing binding data needs about one pass, read in one query: its tag and pass identifiers, the pass type it
/// is signed for and the tag's user. Unlike ``ProvisioningTarget`` it leaves out the pass's content, which an
/// issuance neither reads nor changes.
package struct IssuanceTarget: Hashable, Sendable {
    /// The tag's identifier.
    package var tagID: UUID
    /// The pass's identifier.
    package var passID: UUID
    /// The pass's serial number.
    package var serialNumber: String
    /// The pass type it is signed for.
    package var passType: PassType
    /// The tag's user, whose account hash binds the pass.
    package var user: User
    /// Whether the tag's client may issue under the pass type (an administrator granted it).
    package var clientMayIssue: Bool

    /// Creates a target.
    package init(
        tagID: UUID, passID: UUID, serialNumber: String, passType: PassType, user: User, clientMayIssue: Bool
    ) {
        self.tagID = tagID
        self.passID = passID
        self.serialNumber = serialNumber
        self.passType = passType
        self.user = user
        self.clientMayIssue = clientMayIssue
    }
}
