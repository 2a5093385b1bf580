// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "AppMeter",
    // The SDK's minimums (docs/integration.md, "Requirements"): checked at exactly these by scripts/apple-check.
    platforms: [.macOS(.v13), .iOS(.v15), .tvOS(.v15)],
    products: [
        .library(name: "MeterWire", targets: ["MeterWire"]),
        .library(name: "AppMeter", targets: ["AppMeter"]),
        .library(name: "NielsenAppApi", targets: ["NielsenAppApi"]),
        .library(name: "Census", targets: ["Census"]),
        .executable(name: "meter", targets: ["meter"]),
    ],
    // The guides' three flavours as builds (docs/privacy.md): name one. Each ships its own privacy
    // manifest, the resource of a target AppMeter depends on under that trait.
    traits: [
        .trait(
            name: "AdFramework",
            description: "The guides' global flavour (the default): AdSupport and AppTrackingTransparency are linked; the ad id is read when the user allows tracking."),
        .trait(
            name: "NoAdFramework",
            description: "The guides' No Ad Framework flavour as a build: AdSupport and AppTrackingTransparency are not linked; the vendor id and the user's choice on the opt-out page."),
        .trait(
            name: "NoAdvertisingIdentifier",
            description: "The guides' noID flavour as a build: AdSupport and AppTrackingTransparency are not linked and every instance is noID."),
        .default(enabledTraits: ["AdFramework"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Tests only: a certificate made in the test for the census's HTTPS.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // `meter serve`'s settings from the environment and a JSON file as well as flags (docs/census.md).
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        // `swift package generate-documentation`: the SDK's DocC catalogs, built in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // The SDK ⇄ census contract (docs/protocol.md), imported by both sides: its Foundation-free
        // part (ping fields, the query encoder and parser, ID3) in MeterContract, which the core
        // builds on; the JSON formats in MeterWire, which re-exports MeterContract.
        .target(name: "MeterContract"),
        .target(name: "MeterWire", dependencies: ["MeterContract"]),
        // The crediting rules and time, with no Foundation and no dependency: built for Embedded
        // Swift (wasm32) in CI, shared by the SDK and the census (docs/architecture.md).
        .target(name: "MeasurementCore", dependencies: ["MeterContract"]),
        // The browser SDK's engine side: the guide's ggPM calls read into the core's commands,
        // effects written for the page's JavaScript. Compiled to wasm by scripts/build-browser-sdk.
        .target(name: "BrowserCore", dependencies: ["MeasurementCore", "MeterContract"]),
        // Untyped input read once into the core's typed values (trackEvent's and updateOTT's
        // dictionaries): the SDK's facades and the census's AMP replay share it.
        .target(name: "MeterInput", dependencies: ["MeasurementCore", "MeterWire"]),
        .target(
            name: "AppMeter",
            dependencies: [
                "MeasurementCore",
                "MeterInput",
                "MeterWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // What App Store review reads (docs/privacy.md): the manifest of the build's flavour.
                .target(name: "AppMeterPrivacyGlobal", condition: .when(traits: ["AdFramework"])),
                .target(name: "AppMeterPrivacyNoAdFramework", condition: .when(traits: ["NoAdFramework"])),
                .target(name: "AppMeterPrivacyNoID", condition: .when(traits: ["NoAdvertisingIdentifier"])),
            ],
            swiftSettings: [
                .define("APPMETER_NO_ADVERTISING_ID", .when(traits: ["NoAdvertisingIdentifier"])),
                .define("APPMETER_NO_AD_FRAMEWORK", .when(traits: ["NoAdFramework", "NoAdvertisingIdentifier"])),
            ]
        ),
        .target(name: "AppMeterPrivacyGlobal", path: "Sources/AppMeterPrivacy/Global",
                resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "AppMeterPrivacyNoAdFramework", path: "Sources/AppMeterPrivacy/NoAdFramework",
                resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "AppMeterPrivacyNoID", path: "Sources/AppMeterPrivacy/NoID",
                resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The documented facades. On Apple platforms their classes are the original's Objective-C
        // classes too; NielsenAppApiObjC holds the headers' constants and the guides' #import lines.
        .target(name: "NielsenAppApi", dependencies: ["AppMeter", "NielsenAppApiObjC"]),
        .target(name: "NielsenAppApiObjC"),
        .target(
            name: "Census",
            dependencies: [
                "MeterWire",
                // The crediting rules (DTVR from stored tags) and the engine, which replays
                // Google AMP's cloud-API events with the SDK's own rules. Never the SDK itself.
                "MeasurementCore",
                "MeterInput",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPS (`meter serve --tls-cert --tls-key`), through swift-nio-ssl.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The ping fast path: a channel handler in the HTTP/1 pipeline, below the router.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // GET /metrics: Prometheus text from a registry of each server's own. Its collectors
                // are swift-metrics handlers; the census uses them directly (CensusMetrics says why).
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The browser SDK it serves: JavaScript, the engine as WebAssembly, the demo page.
            resources: [.copy("Browser")]
        ),
        .target(
            name: "MeterDemo",
            dependencies: ["Census", "NielsenAppApi", "AppMeter", .product(name: "Logging", package: "swift-log")]),
        .executableTarget(
            name: "meter",
            dependencies: [
                "Census", "MeterDemo", "MeterWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .testTarget(name: "MeterWireTests", dependencies: ["MeterWire"]),
        // The guides' samples that only an app in Swift 5 language mode compiles as published.
        .testTarget(
            name: "GuideSampleTests", dependencies: ["AppMeter", "NielsenAppApi"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Fixtures/: files an earlier release wrote, read through #filePath.
        .testTarget(name: "AppMeterTests", dependencies: ["AppMeter", "NielsenAppApi", "MeterWire", "BrowserCore"], exclude: ["Fixtures"]),
        .testTarget(
            name: "CensusTests",
            dependencies: [
                "Census", "MeterDemo", "NielsenAppApi", "AppMeter", "MeterWire",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
