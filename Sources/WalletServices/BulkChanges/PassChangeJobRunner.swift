import Foundation
import Logging
import Secrets
import ServiceLifecycle

/// Does bulk changes (``PassChangeJobs``) on this replica: ``concurrentBatches`` batches at once, claimed as soon as
/// a job is made here (its doorbell in ``OutboxWakeUp``) and every ``pollInterval`` (jobs made on another replica,
/// and items a killed replica left leased). Runs as a ServiceLifecycle `Service` until graceful shutdown, finishing
/// the batches under way.
public struct PassChangeJobRunner: Service {
    let jobs: PassChangeJobs
    let wakeUp: OutboxWakeUp
    let pollInterval: Duration
    let logger: Logger

    /// How many batches one replica does at once: one computes while another commits.
    package static let concurrentBatches = 2

    /// Creates a runner of `jobs`, woken by `wakeUp`'s bulk change doorbell.
    package init(
        jobs: PassChangeJobs, wakeUp: OutboxWakeUp, pollInterval: Duration = .seconds(1),
        logger: Logger = Logger(label: "coffer.bulk-changes")
    ) {
        self.jobs = jobs
        self.wakeUp = wakeUp
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Does batches until graceful shutdown.
    public func run() async throws {
        let (jobs, wakeUp, poll, logger) = (jobs, wakeUp, pollInterval, logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    wakeUp.ringPassChangeJobs()
                    try? await Task.sleep(for: poll)
                }
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    let active = Locked(0)
                    await withDiscardingTaskGroup { workers in
                        for await _ in wakeUp.passChangeJobs.stream {
                            if Task.isCancelled { break }
                            // Workers still busy go on; only the free ones start again.
                            let starting = active.withLock { count in
                                defer { count = Self.concurrentBatches }
                                return Self.concurrentBatches - count
                            }
                            for _ in 0..<starting {
                                workers.addTask {
                                    await Self.work(jobs, logger: logger)
                                    active.withLock { $0 -= 1 }
                                }
                            }
                        }
                    }
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Does batches until none is free or the task is cancelled; a failed batch is logged and left to its lease.
    static func work(_ jobs: PassChangeJobs, logger: Logger) async {
        while !Task.isCancelled {
            do {
                guard try await jobs.runBatch() != nil else { return }
            } catch {
                logger.warning(
                    "a bulk change batch failed; its items are done again once their lease ends",
                    metadata: ["error": "\(LoggedError.description(of: error))"])
                return
            }
        }
    }
}
