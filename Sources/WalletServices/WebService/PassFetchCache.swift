import Foundation
import Secrets
import WalletDocuments

/// What a device's fetch of a pass needs (its token's hash, its `Last-Modified`, its signed archive), kept in
/// memory for as long as the database shows no change to it (``DatabaseChangeWatch``).
///
/// An answer is kept under the watch's position read before what it was made from: once the pass may have changed
/// (a commit by anyone), it is read again before it is given. Only fetches that authenticated are kept, so a caller
/// without a token adds nothing; ``maximumEntries`` and ``maximumArchiveBytes`` bound the memory.
package final class PassFetchCache: Sendable {
    /// A pass as its fetch answers it.
    package struct Entry: Sendable {
        /// The pass's identifier.
        package var passID: UUID
        /// The SHA-256 of the pass's authentication token.
        package var authenticationTokenHash: Data?
        /// When what devices fetch last changed.
        package var modifiedAt: Date
        /// The signed archive, once a fetch served it.
        package var archive: Data?

        /// Creates an entry.
        package init(passID: UUID, authenticationTokenHash: Data?, modifiedAt: Date, archive: Data? = nil) {
            self.passID = passID
            self.authenticationTokenHash = authenticationTokenHash
            self.modifiedAt = modifiedAt
            self.archive = archive
        }
    }

    private struct Kept {
        var entry: Entry
        var position: UInt64
    }

    private struct State {
        var kept: [String: Kept] = [:]
        var archiveBytes = 0
    }

    /// How many passes are kept at most.
    package let maximumEntries: Int
    /// How many bytes of archives are kept at most; a larger archive is not kept.
    package let maximumArchiveBytes: Int
    private let watch: any DatabaseChangeWatch
    private let state = Locked(State())

    /// A cache over the database `watch` watches.
    package init(watch: any DatabaseChangeWatch, maximumEntries: Int = 10_000, maximumArchiveBytes: Int = 64 << 20) {
        self.watch = watch
        self.maximumEntries = maximumEntries
        self.maximumArchiveBytes = maximumArchiveBytes
    }

    /// The pass's entry if `authorized` accepts it and nothing changed since it was kept (after catching up with the
    /// database's changes), and the position to keep what is read now under (`nil`: keep nothing). An entry
    /// `authorized` refuses costs no catch-up: a wrong token is answered as fast as for a pass not kept.
    package func entry(
        passTypeIdentifier: String, serialNumber: String, authorized: (Entry) -> Bool
    ) async -> (entry: Entry?, position: UInt64?) {
        let key = Self.key(passTypeIdentifier, serialNumber)
        guard let kept = state.withLock({ $0.kept[key] }), authorized(kept.entry) else {
            return (nil, watch.position())
        }
        guard let position = await watch.catchUp() else { return (nil, nil) }
        guard !watch.mayHaveChanged(passID: kept.entry.passID, since: kept.position) else { return (nil, position) }
        return (kept.entry, position)
    }

    /// Keeps `entry`, read after ``entry(passTypeIdentifier:serialNumber:authorized:)`` returned `position`. An entry without
    /// an archive keeps the archive already kept for the same pass if the pass has not changed since.
    package func keep(_ entry: Entry, passTypeIdentifier: String, serialNumber: String, readAt position: UInt64?) {
        guard let position else { return }
        let key = Self.key(passTypeIdentifier, serialNumber)
        let watch = watch
        state.withLock { state in
            var entry = entry
            if let old = state.kept.removeValue(forKey: key) {
                state.archiveBytes -= old.entry.archive?.count ?? 0
                if entry.archive == nil, old.entry.passID == entry.passID,
                    !watch.mayHaveChanged(passID: entry.passID, since: old.position)
                {
                    entry.archive = old.entry.archive
                }
            }
            if let archive = entry.archive, archive.count > maximumArchiveBytes / 16 { entry.archive = nil }
            let bytes = entry.archive?.count ?? 0
            while !state.kept.isEmpty
                && (state.kept.count >= maximumEntries || state.archiveBytes + bytes > maximumArchiveBytes)
            {
                // Any entry will do: the one the dictionary's order gives first.
                let evicted = state.kept.remove(at: state.kept.startIndex)
                state.archiveBytes -= evicted.value.entry.archive?.count ?? 0
            }
            state.kept[key] = Kept(entry: entry, position: position)
            state.archiveBytes += bytes
        }
    }

    private static func key(_ passTypeIdentifier: String, _ serialNumber: String) -> String {
        passTypeIdentifier + "\u{0}" + serialNumber
    }
}
