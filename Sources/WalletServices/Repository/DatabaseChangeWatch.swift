import Foundation

/// Tells whether what a device's fetch of a pass reads may have changed in the database, so that it can be answered
/// again from memory until it does.
///
/// A position is a point in the changes the watch has seen. Whatever commits after ``position()`` returned moves the
/// pass's state past that position by the time ``catchUp()`` returns; nothing kept at an older position is given
/// after a change it could hide.
package protocol DatabaseChangeWatch: Sendable {
    /// The position reached so far, to keep what is read next under; `nil` while the watch cannot see changes.
    func position() -> UInt64?

    /// Waits until every change committed before the call has been seen, and returns the position reached; `nil`
    /// when it cannot tell (then nothing may be answered from memory).
    func catchUp() async -> UInt64?

    /// Whether what a fetch of the pass `passID` answers may have changed since `position`, as far as the watch has
    /// seen (call ``catchUp()`` first).
    func mayHaveChanged(passID: UUID, since position: UInt64) -> Bool
}
