// swift-tools-version:6.2
import PackageDescription

// Coffer's benchmarks: `swift package --package-path Benchmarks benchmark` runs them;
// `bash Benchmarks/compare-baselines.sh` prints ratios against openssl and a bare fsync loop.
let package = Package(
    name: "CofferBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Coffer", path: "../"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "SecretsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "SecretsSecretService", package: "Coffer"),
                .product(name: "Keychain", package: "Coffer"),
                .product(name: "Crypto", package: "swift-crypto"),
                "AuditBenchmarkSupport",
            ],
            path: "Benchmarks/SecretsBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "WalletBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "WalletDocuments", package: "Coffer"),
                .product(name: "WalletPasses", package: "Coffer"),
            ],
            path: "Benchmarks/WalletBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "LocalDataBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LocalData", package: "Coffer"),
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/LocalDataBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TokenAuthenticationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TokenAuthentication", package: "Coffer"),
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/TokenAuthenticationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "localdata-baseline",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "LocalData", package: "Coffer"),
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/localdata-baseline"
        ),
        // The access audit's read cost: `bash Benchmarks/compare-audit.sh` prints the ratio.
        .executableTarget(
            name: "audit-baseline",
            dependencies: ["AuditBenchmarkSupport", .product(name: "Secrets", package: "Coffer")],
            path: "Sources/audit-baseline"
        ),
        .target(
            name: "AuditBenchmarkSupport",
            dependencies: [
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "SecretsAudit", package: "Coffer"),
                .product(name: "SecretsMetrics", package: "Coffer"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Sources/AuditBenchmarkSupport"
        ),
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "WalletDocuments", package: "Coffer"), .product(name: "WalletPasses", package: "Coffer"),
            ],
            path: "Sources/BenchmarkSupport"
        ),
        .executableTarget(
            name: "secret-service-baseline",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "SecretsSecretService", package: "Coffer"),
            ],
            path: "Sources/secret-service-baseline"
        ),
        // The HTTP floor of Benchmarks/load-issuer-data.sh: a bare endpoint on the server's HTTP stack.
        .executableTarget(
            name: "hummingbird-baseline",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")],
            path: "Sources/hummingbird-baseline"
        ),
        // The fan-out of Benchmarks/load-pass-fetch.sh: one change to a pass on 10,000 devices, to the last push.
        .executableTarget(
            name: "pass-fanout",
            dependencies: [
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "WalletDocuments", package: "Coffer"),
                .product(name: "WalletPasses", package: "Coffer"),
                .product(name: "WalletServer", package: "Coffer"),
                .product(name: "WalletServerTesting", package: "Coffer"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Sources/pass-fanout"
        ),
        // Issue 57's devices: an APNs stand-in and a device per pass that fetches its pass on its push.
        .executableTarget(
            name: "bulk-change",
            dependencies: [
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "WalletDocuments", package: "Coffer"),
                .product(name: "WalletPasses", package: "Coffer"),
                .product(name: "WalletServer", package: "Coffer"),
                .product(name: "WalletServerTesting", package: "Coffer"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Sources/bulk-change"
        ),
        // Issue 55's Google Wallet figures: an event-wide change and per-pass changes of 10,000 tickets, paced.
        .executableTarget(
            name: "google-event-change",
            dependencies: [
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "WalletDocuments", package: "Coffer"),
                .product(name: "WalletPasses", package: "Coffer"),
                .product(name: "WalletServer", package: "Coffer"),
                .product(name: "WalletServerTesting", package: "Coffer"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Sources/google-event-change"
        ),
        .executableTarget(
            name: "coffer-baselines",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Secrets", package: "Coffer"),
                .product(name: "WalletDocuments", package: "Coffer"),
                .product(name: "WalletPasses", package: "Coffer"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/coffer-baselines"
        ),
    ]
)
