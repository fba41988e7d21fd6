// swift-tools-version:6.1
import PackageDescription

// ProntoWalletSDK depends on nothing but the system: Foundation (FoundationNetworking on Linux), and PassKit and
// UIKit on iOS. Adding an account-bound pass from issuer data needs iOS 16.4; the rest of the SDK runs anywhere.
let package = Package(
    name: "ProntoWalletSDK",
    platforms: [.iOS(.v16), .macOS(.v13), .watchOS(.v9), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "ProntoWalletSDK", targets: ["ProntoWalletSDK"])
    ],
    targets: [
        .target(
            name: "ProntoWalletSDK",
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
        .testTarget(name: "ProntoWalletSDKTests", dependencies: ["ProntoWalletSDK"]),
    ]
)
