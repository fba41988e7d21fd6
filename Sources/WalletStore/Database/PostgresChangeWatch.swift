import Foundation
import Logging
import PostgresKit
import Secrets
import WalletServices

/// Watches a PostgreSQL database's pass changes with `LISTEN`: triggers (``SchemaMigrator``'s migration 21) notify
/// ``channel`` of each pass updated or deleted by its identifier, and of `*` when a pass type, a user's account or a
/// tag's user changes, which any pass may depend on.
///
/// Catching up sends a notification of its own on the channel and waits for it to come back: PostgreSQL delivers
/// notifications in the order their transactions committed, so every change committed before has been seen by then
/// (https://www.postgresql.org/docs/current/sql-notify.html). One round trip serves every fetch waiting when it
/// starts. While the listening connection is down nothing is answered from memory, and once it is back everything
/// kept before is read again.
final class PostgresChangeWatch: DatabaseChangeWatch {
    /// The channel the triggers notify.
    static let channel = "coffer_pass_changes"
    /// How many passes' last changes are remembered; forgetting one moves the floor past it.
    static let rememberedChanges = 100_000
    /// How long a catch-up waits for its own notification before the fetches waiting for it read the database.
    static let catchUpDeadline: Duration = .seconds(1)

    private typealias Waiter = CheckedContinuation<UInt64?, Never>

    private struct State {
        /// How many notifications have been seen: the position.
        var sequence: UInt64 = 1
        /// Set while the connection listens.
        var connection: PostgresConnection?
        /// Every change at or before this position may be to any pass.
        var floor: UInt64 = 1
        /// The position of each remembered pass's last change, and the changes in the order seen (some superseded).
        var lastChange: [UUID: UInt64] = [:]
        var changes: [(passID: UUID, position: UInt64)] = []
        var oldestChange = 0
        /// The catch-up in flight (its number and start) and who waits for it; who waits for the next one.
        var catchUp: (number: UInt64, startedAt: ContinuousClock.Instant)?
        var catchUpCount: UInt64 = 0
        var waiting: [Waiter] = []
        var waitingForNext: [Waiter] = []
    }

    private let state = Locked(State())
    /// This watch's catch-ups' payloads start with it; other replicas' are ignored.
    private let catchUpPrefix = "sync:\(UUID().uuidString):"
    private let logger: Logger
    private let credentials: [String]
    /// The listening task, and the connection it opened, to close on ``stop()`` whatever the task waits for.
    private struct Lifecycle {
        var task: Task<Void, Never>?
        var connection: PostgresConnection?
        var stopping = false
    }
    private let lifecycle = Locked(Lifecycle())

    /// Starts listening with `configuration`'s connections, again after every loss.
    init(configuration: PostgresConnection.Configuration, credentials: [String], logger: Logger) {
        self.logger = logger
        self.credentials = credentials
        lifecycle.withLock { $0.task = Task { [self] in await listen(configuration: configuration) } }
    }

    /// Stops listening and closes the connection.
    func stop() async {
        let (task, connection) = lifecycle.withLock { lifecycle in
            lifecycle.stopping = true
            defer { (lifecycle.task, lifecycle.connection) = (nil, nil) }
            return (lifecycle.task, lifecycle.connection)
        }
        task?.cancel()
        try? await connection?.close()
        await task?.value
    }

    /// Keeps `connection` to close on ``stop()``; `false` once stopping (the caller closes it).
    private func opened(_ connection: PostgresConnection?) -> Bool {
        lifecycle.withLock { lifecycle in
            guard !lifecycle.stopping else { return false }
            lifecycle.connection = connection
            return true
        }
    }

    func position() -> UInt64? {
        state.withLock { $0.connection == nil ? nil : $0.sequence }
    }

    func catchUp() async -> UInt64? {
        await withCheckedContinuation { (waiter: Waiter) in
            enum Next { case answerNil, wait, send((PostgresConnection, UInt64)) }
            let next = state.withLock { state -> Next in
                guard state.connection != nil else { return .answerNil }
                if state.catchUp != nil {
                    state.waitingForNext.append(waiter)
                    return .wait
                }
                state.waiting.append(waiter)
                return Self.startCatchUp(&state).map(Next.send) ?? .answerNil
            }
            switch next {
            case .answerNil: waiter.resume(returning: nil)
            case .wait: break
            case .send(let start): send(start)
            }
        }
    }

    func mayHaveChanged(passID: UUID, since position: UInt64) -> Bool {
        state.withLock { state in
            state.connection == nil || state.floor > position || (state.lastChange[passID] ?? 0) > position
        }
    }

    // MARK: - Listening

    private func listen(configuration: PostgresConnection.Configuration) async {
        var delay = Duration.milliseconds(250)
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let opened = try await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
                connection = opened
                guard self.opened(opened) else {
                    try? await opened.close()
                    return
                }
                // A catch-up's notification needs no flush to disk: it only has to come back in order.
                _ = try await opened.query("SET synchronous_commit TO off", logger: logger)
                try await opened.listen(on: Self.channel) { notifications in
                    started(on: opened)
                    delay = .milliseconds(250)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { [self] in await watchCatchUps() }
                        for try await notification in notifications { received(notification.payload) }
                        group.cancelAll()
                    }
                }
            } catch  where !Task.isCancelled {
                logger.warning(
                    "pass changes are not heard: fetches read the database until they are",
                    metadata: ["error": "\(DatabaseFailure.describe(error, redacting: credentials))"])
            } catch {}
            stopped()
            try? await connection?.close()
            guard opened(nil) else { return }
            guard !Task.isCancelled else { return }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// Fails a catch-up that takes longer than ``catchUpDeadline``, for as long as the connection listens.
    private func watchCatchUps() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            let late = state.withLock { state -> UInt64? in
                guard let catchUp = state.catchUp, catchUp.startedAt.duration(to: .now) > Self.catchUpDeadline
                else { return nil }
                return catchUp.number
            }
            if let late { finishCatchUp(late, at: nil) }
        }
    }

    /// The connection listens: everything kept before may be stale.
    private func started(on connection: PostgresConnection) {
        state.withLock { state in
            state.sequence += 1
            state.floor = state.sequence
            state.lastChange.removeAll()
            state.changes.removeAll()
            state.oldestChange = 0
            state.connection = connection
        }
        logger.debug("listening for pass changes")
    }

    /// The connection is gone: nothing is answered from memory until it is back.
    private func stopped() {
        let waiters = state.withLock { state -> [Waiter] in
            state.connection = nil
            state.catchUp = nil
            defer { (state.waiting, state.waitingForNext) = ([], []) }
            return state.waiting + state.waitingForNext
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    private func received(_ payload: String) {
        if payload.hasPrefix(catchUpPrefix) {
            guard let number = UInt64(payload.dropFirst(catchUpPrefix.count)) else { return }
            finishCatchUp(number, at: state.withLock { $0.sequence })
            return
        }
        if payload.hasPrefix("sync:") { return }
        state.withLock { state in
            state.sequence += 1
            // Anything else than a pass's identifier may concern any pass.
            guard let passID = UUID(uuidString: payload) else {
                state.floor = state.sequence
                return
            }
            state.lastChange[passID] = state.sequence
            state.changes.append((passID, state.sequence))
            while state.changes.count - state.oldestChange > Self.rememberedChanges {
                let forgotten = state.changes[state.oldestChange]
                state.oldestChange += 1
                state.floor = max(state.floor, forgotten.position)
                if state.lastChange[forgotten.passID] == forgotten.position {
                    state.lastChange[forgotten.passID] = nil
                }
            }
            if state.oldestChange > Self.rememberedChanges {
                state.changes.removeFirst(state.oldestChange)
                state.oldestChange = 0
            }
        }
    }

    // MARK: - Catching up

    /// Starts the next catch-up for those waiting for it; what to send.
    private static func startCatchUp(_ state: inout State) -> (PostgresConnection, UInt64)? {
        guard let connection = state.connection else { return nil }
        state.catchUpCount += 1
        state.catchUp = (state.catchUpCount, .now)
        return (connection, state.catchUpCount)
    }

    private func send(_ start: (connection: PostgresConnection, number: UInt64)) {
        let payload = catchUpPrefix + String(start.number)
        Task { [self] in
            do {
                _ = try await start.connection.query(
                    "SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
            } catch {
                finishCatchUp(start.number, at: nil)
            }
        }
    }

    /// Answers the waiters of catch-up `number` with `position`, and starts the next one for those who came since.
    private func finishCatchUp(_ number: UInt64, at position: UInt64?) {
        let (waiters, next) = state.withLock { state -> ([Waiter], (PostgresConnection, UInt64)?) in
            guard state.catchUp?.number == number else { return ([], nil) }
            state.catchUp = nil
            let waiters = state.waiting
            state.waiting = []
            guard !state.waitingForNext.isEmpty else { return (waiters, nil) }
            swap(&state.waiting, &state.waitingForNext)
            return (waiters, Self.startCatchUp(&state))
        }
        for waiter in waiters { waiter.resume(returning: position) }
        if let next { send(next) }
    }
}
