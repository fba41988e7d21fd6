import CofferTestSupport
import Foundation
import SQLKit
import Synchronization
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Group commit: concurrent writes share one transaction, and each caller still gets its own answer")
struct GroupCommitTests {
    /// Records the batches a committer was given.
    final class Batches: Sendable {
        private let sizes = Mutex([Int]())
        func record(_ size: Int) { sizes.withLock { $0.append(size) } }
        var all: [Int] { sizes.withLock { $0 } }
    }

    struct Refused: Error, Equatable {
        let entry: Int
    }

    @Test("entries that arrive during a commit are committed together, each answered with its own outcome")
    func batches() async throws {
        let batches = Batches()
        let commit = GroupCommit<Int, Int>(maximumBatchSize: 16) { entries in
            batches.record(entries.count)
            try await Task.sleep(for: .milliseconds(20))
            return entries.map { $0 * 10 }
        }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for entry in 0..<64 { group.addTask { (entry, try await commit.submit(entry)) } }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 64)
        #expect(outcomes.allSatisfy { $0.value == $0.key * 10 })
        #expect(batches.all.reduce(0, +) == 64, "every entry committed once")
        #expect(batches.all.count < 64, "some entries shared a commit: \(batches.all)")
        #expect(batches.all.allSatisfy { $0 <= 16 }, "no batch is larger than asked: \(batches.all)")
    }

    @Test("when a batch fails, its entries are committed alone: only the bad one's caller gets the error")
    func isolatesFailures() async throws {
        let batches = Batches()
        let commit = GroupCommit<Int, Int> { entries in
            batches.record(entries.count)
            try await Task.sleep(for: .milliseconds(5))
            if let bad = entries.first(where: { $0 % 7 == 3 }) { throw Refused(entry: bad) }
            return entries
        }
        let results = await withTaskGroup(of: (Int, Result<Int, Refused>).self) { group in
            for entry in 0..<40 {
                group.addTask {
                    do {
                        return (entry, .success(try await commit.submit(entry)))
                    } catch let error as Refused {
                        return (entry, .failure(error))
                    } catch {
                        Issue.record("unexpected error \(error)")
                        return (entry, .failure(Refused(entry: -1)))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<Int, Refused>]()) { $0[$1.0] = $1.1 }
        }
        for entry in 0..<40 {
            if entry % 7 == 3 {
                #expect(results[entry] == .failure(Refused(entry: entry)))
            } else {
                #expect(results[entry] == .success(entry))
            }
        }
    }

    @Test("a lone entry is committed at once, and the batcher starts again after it goes idle")
    func idle() async throws {
        let commit = GroupCommit<String, String> { $0.map { $0.uppercased() } }
        #expect(try await commit.submit("a") == "A")
        try await Task.sleep(for: .milliseconds(10))
        #expect(try await commit.submit("b") == "B")
    }
}
