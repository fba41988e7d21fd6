/// Tells whether the database may have changed, so that what was read from it can be answered again from memory
/// until it does.
///
/// ``generation()`` must move past every value it returned before a change to the database committed by anyone
/// (this process, another process, another replica) once that change's commit has returned: an answer kept at an
/// older generation is never given after a change it could hide.
package protocol DatabaseChangeWatch: Sendable {
    /// A number that changes whenever the database may have changed since it was last returned.
    func generation() -> UInt64
}
