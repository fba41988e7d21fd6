import Foundation

/// Joins concurrent signings of one archive version: the first caller signs, the others wait for its archive.
///
/// When a change reaches thousands of devices at once, they all fetch the same new version; without this each
/// would sign it (figures: Benchmarks/RESULTS.md, "Fetches that cost no signature").
actor SigningFlights {
    private var flights: [Data: Task<Data, any Error>] = [:]

    /// The archive `sign` makes for `digest`, signed once however many callers ask at the same time.
    func archive(for digest: Data, _ sign: @escaping @Sendable () async throws -> Data) async throws -> Data {
        if let flight = flights[digest] { return try await flight.value }
        let flight = Task { try await sign() }
        flights[digest] = flight
        defer { flights[digest] = nil }
        return try await flight.value
    }
}
