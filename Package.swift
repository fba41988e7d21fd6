// swift-tools-version:6.2
import PackageDescription

/// What the three server targets build on: the wallet, logging and metrics, and the service lifecycle over NIO.
let serverFoundation: [Target.Dependency] = [
    "Secrets", "WalletDocuments", "WalletPasses", "WalletOrders", "WalletGoogle", "CofferSupport",
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "Logging", package: "swift-log"),
    .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
    .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
    .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
    .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
]

let package = Package(
    name: "Coffer",
    platforms: [.macOS(.v14), .iOS(.v17), .watchOS(.v10), .tvOS(.v17), .visionOS(.v1)],
    products: [
        .library(name: "Secrets", targets: ["Secrets"]),
        .library(name: "SecretsTesting", targets: ["SecretsTesting"]),
        .library(name: "SecretsAudit", targets: ["SecretsAudit"]),
        .library(name: "SecretsMetrics", targets: ["SecretsMetrics"]),
        .library(name: "SecretsSecretService", targets: ["SecretsSecretService"]),
        .library(name: "SecretsKeychain", targets: ["SecretsKeychain"]),
        .library(name: "SecretsPlatform", targets: ["SecretsPlatform"]),
        .library(name: "Keychain", targets: ["Keychain"]),
        .library(name: "AppSecureStorage", targets: ["AppSecureStorage"]),
        .library(name: "LocalData", targets: ["LocalData"]),
        .library(name: "TokenAuthentication", targets: ["TokenAuthentication"]),
        .library(name: "WalletDocuments", targets: ["WalletDocuments"]),
        .library(name: "WalletPasses", targets: ["WalletPasses"]),
        .library(name: "WalletOrders", targets: ["WalletOrders"]),
        .library(name: "WalletGoogle", targets: ["WalletGoogle"]),
        .library(name: "WalletServer", targets: ["WalletServer", "WalletServices", "WalletStore"]),
        .library(name: "WalletServerTesting", targets: ["WalletServerTesting"]),
        .library(name: "ProntoWalletSDK", targets: ["ProntoWalletSDK"]),
        .executable(name: "coffer", targets: ["coffer"]),
    ],
    // The server stack is behind traits, so that an app which depends on Coffer for its app-side libraries
    // (`traits: []`) resolves none of it: SwiftPM leaves out a package whose every use is guarded by a trait the
    // consumer did not enable. At the root, the default traits build everything (`swift run coffer serve`).
    traits: [
        .trait(
            name: "Wallet",
            description:
                "Wallet documents: WalletDocuments, WalletPasses, WalletOrders, WalletGoogle (swift-certificates, swift-nio-ssl, ZIPFoundation)."
        ),
        .trait(
            name: "Server",
            description: "The provisioning server and the coffer command-line tool (Hummingbird, SQLKit, PostgresKit).",
            enabledTraits: ["Wallet"]),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // CMS signing is SPI (`@_spi(CMS) import X509`): pin the exact version it was written against.
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // APNs: pass update pushes over HTTP/2 (the client), and the tests' HTTP/2 TLS stand-in for Apple's gateway.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // Tests only: generated pass.json documents for the model's round trip.
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "Secrets",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // Text codecs written by hand where an encoder costs too much (RFC 3339 dates, JSON strings, decimal digits):
        // plumbing for the audit, passes and the server that the app-side products do not carry. Not a product.
        .target(name: "CofferSupport"),
        .target(
            name: "SecretsAudit",
            dependencies: [
                "Secrets", "CofferSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The access audit's metrics sink, apart so that the audit needs no metrics package: swift-metrics' API alone
        // (no dependencies of its own); the application picks the backend.
        .target(
            name: "SecretsMetrics",
            dependencies: ["Secrets", "SecretsAudit", .product(name: "CoreMetrics", package: "swift-metrics")]
        ),
        .target(name: "SecretsTesting", dependencies: ["Secrets"]),
        .target(
            name: "SecretsKeychain", dependencies: ["Secrets", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "Keychain", dependencies: ["Secrets", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "LocalData",
            dependencies: [
                "Secrets", "SecretsPlatform",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .target(
            name: "TokenAuthentication",
            dependencies: [
                "Secrets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "AppSecureStorage",
            dependencies: [
                "Keychain", "Secrets", "SecretsPlatform",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SecretsPlatform",
            dependencies: [
                "Secrets", "SecretsKeychain", "SecretsSecretService", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libsecret (the Secret Service client) is loaded at run time, so building needs no system package.
        .target(name: "SecretsSecretService", dependencies: ["Secrets"]),
        // The iOS SDK: no dependencies. Its sources stay in the nested package `ProntoWalletSDK/` (a package of its
        // own, buildable alone for iOS 16); here it is a product an app adds by repository URL.
        .target(
            name: "ProntoWalletSDK",
            path: "ProntoWalletSDK/Sources/ProntoWalletSDK",
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // What every Apple Wallet document shares: the bundle and its manifest, the archive, the detached signature,
        // the signing identities, verification, and the JSON model, schema and lint plumbing.
        .target(
            name: "WalletDocuments",
            dependencies: [
                "Secrets", "CofferSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Wallet"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Wallet"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Wallet"])),
                .product(name: "ZIPFoundation", package: "ZIPFoundation", condition: .when(traits: ["Wallet"])),
            ]
        ),
        // Apple Wallet passes: the pass model, its lint, localization, templates and issuer data.
        .target(
            name: "WalletPasses",
            dependencies: [
                "WalletDocuments", "Secrets",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Wallet"])),
            ]
        ),
        // Apple Wallet orders (FinanceKit's documents): the order model, its lint and its package.
        .target(
            name: "WalletOrders",
            dependencies: [
                "WalletDocuments",
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Wallet"])),
            ]
        ),
        // A pass as Google Wallet's class and object, the save link and the callback check.
        .target(
            name: "WalletGoogle",
            dependencies: [
                "WalletPasses", "WalletDocuments", "Secrets", "CofferSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The server's domain: provisioning, management, distribution, traces, updates, the web flow, administration
        // and the outbox. It imports neither the SQL kits nor Hummingbird (.ci/check-imports.sh).
        .target(
            name: "WalletServices",
            dependencies: serverFoundation + [
                .target(name: "SecretsAudit", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
            ]
        ),
        // The server's store: the database, its migrations and rows, the SQL repository and the secret store in
        // PostgreSQL. The only target that imports the SQL kits.
        .target(
            name: "WalletStore",
            dependencies: serverFoundation + [
                "WalletServices",
                .target(name: "SecretsAudit", condition: .when(traits: ["Server"])),
                .target(name: "SecretsMetrics", condition: .when(traits: ["Server"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(name: "SQLiteKit", package: "sqlite-kit", condition: .when(traits: ["Server"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["Server"])),
            ]
        ),
        // The server's HTTP side: routes, controllers, middleware and pages, the outbox's senders (APNs and webhooks,
        // over AsyncHTTPClient), and the application that assembles the store and the services. The only target that
        // imports Hummingbird or AsyncHTTPClient.
        .target(
            name: "WalletServer",
            dependencies: serverFoundation + [
                "WalletServices", "WalletStore",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
            ]
        ),
        // Stand-ins for APNs (HTTP/2 over TLS on loopback) and Google Wallet (Hummingbird on loopback), for the
        // server's tests, its benchmarks and integrators' own tests.
        .target(
            name: "WalletServerTesting",
            dependencies: [
                "Secrets", "WalletDocuments", "WalletPasses", "WalletOrders", "WalletGoogle", "CofferSupport",
                .target(name: "WalletServices", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Server"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
            ]
        ),
        .executableTarget(
            name: "coffer",
            dependencies: [
                "Secrets", "CofferSupport",
                "SecretsAudit",
                "LocalData",
                .product(name: "Crypto", package: "swift-crypto"),
                "SecretsSecretService",
                "SecretsPlatform",
                "WalletDocuments", "WalletPasses", "WalletOrders", "WalletGoogle",
                "WalletServer", "WalletServices", "WalletStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
            ]
        ),
        .executableTarget(
            name: "APIClientExample",
            dependencies: ["TokenAuthentication", "Secrets"],
            path: "Examples/APIClient"
        ),
        .executableTarget(
            name: "CredentialStoreExample",
            dependencies: ["Secrets"],
            path: "Examples/CredentialStore"
        ),
        .executableTarget(
            name: "WebhookReceiverExample",
            dependencies: [
                "WalletServer", "WalletServices",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/WebhookReceiver"
        ),
        // A helper process for the crash-safety tests: writes to a store until it is killed.
        .executableTarget(
            name: "coffer-store-writer",
            dependencies: ["Secrets", "CofferTestSupport"],
            path: "Tests/Support/StoreWriter"
        ),
        // A helper process for LocalData's cross-process tests.
        .executableTarget(
            name: "coffer-localdata-child",
            dependencies: ["LocalData", "Secrets"],
            path: "Tests/Support/LocalDataChild"
        ),
        .target(
            name: "CofferTestSupport",
            dependencies: ["Secrets", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/CofferTestSupport"
        ),
        .testTarget(
            name: "SecretsTests",
            dependencies: [
                "Secrets", "CofferSupport", "SecretsTesting", "CofferTestSupport", "CredentialStoreExample",
                "coffer-store-writer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SecretsAuditTests",
            dependencies: [
                "Secrets", "SecretsAudit", "SecretsTesting", "CofferTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SecretsMetricsTests",
            dependencies: [
                "SecretsMetrics", "SecretsAudit", "Secrets", .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SecretsPlatformTests",
            dependencies: ["SecretsPlatform", "Secrets", "CofferTestSupport"]
        ),
        .testTarget(
            name: "LocalDataTests",
            dependencies: [
                "LocalData", "Secrets", "SecretsAudit", "SecretsKeychain", "SecretsSecretService", "CofferTestSupport",
                "coffer-localdata-child", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TokenAuthenticationTests",
            dependencies: [
                "TokenAuthentication", "Secrets", "SecretsKeychain", "CofferTestSupport", "APIClientExample",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "AppSecureStorageTests",
            dependencies: [
                "AppSecureStorage", "Keychain", "Secrets", "SecretsAudit", "SecretsKeychain", "CofferTestSupport",
            ]
        ),
        .testTarget(
            name: "KeychainTests",
            dependencies: ["Keychain", "Secrets", "SecretsKeychain", "CofferTestSupport"]
        ),
        .testTarget(
            name: "SecretsKeychainTests",
            dependencies: ["SecretsKeychain", "Secrets", "SecretsTesting", "CofferTestSupport"]
        ),
        .testTarget(
            name: "SecretsSecretServiceTests",
            dependencies: [
                "SecretsSecretService", "SecretsKeychain", "Secrets", "SecretsTesting", "CofferTestSupport",
            ]
        ),
        .testTarget(
            name: "WalletPassesTests",
            dependencies: [
                "WalletDocuments", "WalletPasses", "WalletOrders", "WalletGoogle", "Secrets", "CofferTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "WalletServerTests",
            dependencies: [
                "WalletServer", "WalletServices", "WalletStore", "WalletServerTesting", "WalletDocuments",
                "WalletPasses",
                "WalletOrders", "WalletGoogle", "Secrets",
                "SecretsAudit", "SecretsTesting", "CofferTestSupport", "CofferSupport",
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Wallet"])),
            ]
        ),
        .testTarget(
            name: "ProntoWalletIntegrationTests",
            dependencies: [
                "WalletServer", "WalletServices", "WalletStore", "WalletDocuments", "WalletPasses", "CofferTestSupport",
                "ProntoWalletSDK",
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Wallet"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Wallet"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ProntoWalletSDKTests",
            dependencies: ["ProntoWalletSDK"],
            path: "ProntoWalletSDK/Tests/ProntoWalletSDKTests"
        ),
        .testTarget(
            name: "cofferTests",
            dependencies: [
                "coffer", "CofferTestSupport", "LocalData", "Secrets", "WalletServer", "WalletServices", "WalletStore",
                "WalletDocuments", "WalletPasses", "WalletOrders",
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
            ]
        ),
    ]
)

// Settings every target shares: Swift 6 language mode is the default of tools 6.x; these upcoming
// features keep the code ready for the next language mode.
for target in package.targets where target.type != .plugin && target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InferIsolatedConformances"),
    ])
    target.swiftSettings = settings
}
