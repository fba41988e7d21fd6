import Foundation
import Secrets
import WalletDocuments

/// The API users whose tokens authenticated a request in the last few seconds, by the SHA-256 of the token, so
/// that a busy client's requests do not each read the database to authenticate.
///
/// Only active users are kept, and each for at most ``lifetime``: a user revoked by another process (`coffer admin`
/// or another replica) is refused within that time, and at once by the process that revoked it. Unknown tokens are
/// never kept, so guessing costs a database read each time, as before.
package final class RecentlyAuthenticated: Sendable {
    private struct Entry {
        let user: APIUser
        let expires: Duration
    }

    /// How long an authenticated user is trusted without reading the database again.
    package let lifetime: Duration
    /// The most users kept; past it, expired entries are dropped, and if none had, all of them.
    let capacity: Int
    private let entries = Locked([Data: Entry]())
    private let clock: any CofferClock

    /// A cache keeping each user for `lifetime` (zero keeps none), `capacity` users at most, by `clock`'s uptime.
    package init(lifetime: Duration, capacity: Int = 4096, clock: any CofferClock = SystemClock()) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.clock = clock
    }

    /// The active user whose token hashes to `tokenHash`, if it authenticated less than ``lifetime`` ago.
    package func user(tokenHash: Data) -> APIUser? {
        let now = clock.uptime
        return entries.withLock { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard now < entry.expires else {
                entries[tokenHash] = nil
                return nil
            }
            return entry.user
        }
    }

    /// Keeps `user`, which just authenticated with the token that hashes to `tokenHash`.
    package func keep(_ user: APIUser, tokenHash: Data) {
        guard lifetime > .zero else { return }
        let now = clock.uptime
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { now < $0.value.expires }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[tokenHash] = Entry(user: user, expires: now + lifetime)
        }
    }

    /// Forgets the user with `id` (just revoked).
    package func forget(userID id: UUID) {
        entries.withLock { entries in entries = entries.filter { $0.value.user.id != id } }
    }
}
