// swift-tools-version: 6.1
import PackageDescription

// Every Swift target of the SDK (not the tests; scripts/build-wasm-core and build-browser-sdk pass the
// same to swiftc): an import is internal unless it says `public` or `package` (what the module's API
// shows its importers), a member is visible only from a module the file imports, an existential is
// spelled `any`. Re-exports (`@_exported import`) are each module's Exports.swift.
let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

// The SDK alone: what an app that adds this repository as a dependency resolves and builds (swift-crypto,
// swift-log; a plugin is never built for a dependent). The census, the demo and `meter` are the
// package in Server/, with the server's dependencies and platforms (docs/architecture.md).
let package = Package(
    name: "AppMeter",
    // The SDK's minimums (docs/integration.md, "Requirements"): checked at exactly these by scripts/apple-check.
    platforms: [.macOS(.v13), .iOS(.v15), .tvOS(.v15)],
    products: [
        .library(name: "NielsenAppApi", targets: ["NielsenAppApi"]),
        .library(name: "AppMeter", targets: ["AppMeter"]),
        .library(name: "MeterWire", targets: ["MeterWire"]),
        // For the census (Server/, a package of its own) and the fuzz targets, not for apps.
        .library(name: "MeterContract", targets: ["MeterContract"]),
        .library(name: "MeasurementCore", targets: ["MeasurementCore"]),
        .library(name: "MeterInput", targets: ["MeterInput"]),
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
        // `swift package generate-documentation`: the SDK's DocC catalogs, built in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // The SDK ⇄ census contract (docs/protocol.md), imported by both sides: its Foundation-free
        // part (ping fields, the query encoder and parser, ID3) in MeterContract, which the core
        // builds on; the JSON formats in MeterWire, which re-exports MeterContract.
        .target(name: "MeterContract", swiftSettings: upcoming),
        .target(name: "MeterWire", dependencies: ["MeterContract"], swiftSettings: upcoming),
        // The crediting rules and time, with no Foundation and no dependency: built for Embedded
        // Swift (wasm32) in CI, shared by the SDK and the census (docs/architecture.md).
        .target(name: "MeasurementCore", dependencies: ["MeterContract"], swiftSettings: upcoming),
        // The browser SDK's engine side: the guide's ggPM calls read into the core's commands,
        // effects written for the page's JavaScript. Compiled to wasm by scripts/build-browser-sdk.
        .target(name: "BrowserCore", dependencies: ["MeasurementCore", "MeterContract"], swiftSettings: upcoming),
        // Untyped input read once into the core's typed values (trackEvent's and updateOTT's
        // dictionaries): the SDK's facades and the census's AMP replay share it.
        .target(name: "MeterInput", dependencies: ["MeasurementCore", "MeterWire"], swiftSettings: upcoming),
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
            swiftSettings: upcoming + [
                .define("APPMETER_NO_ADVERTISING_ID", .when(traits: ["NoAdvertisingIdentifier"])),
                .define("APPMETER_NO_AD_FRAMEWORK", .when(traits: ["NoAdFramework", "NoAdvertisingIdentifier"])),
            ]
        ),
        // The flavours' privacy manifests: without `upcoming`, as SwiftPM's generated resource
        // accessor imports Foundation with Swift 6's implicit access, which the target's own
        // import must match; built as another package's dependency, the two otherwise disagree.
        .target(name: "AppMeterPrivacyGlobal", path: "Sources/AppMeterPrivacy/Global",
                resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "AppMeterPrivacyNoAdFramework", path: "Sources/AppMeterPrivacy/NoAdFramework",
                resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "AppMeterPrivacyNoID", path: "Sources/AppMeterPrivacy/NoID",
                resources: [.copy("PrivacyInfo.xcprivacy")]),
        // The documented facades. On Apple platforms their classes are the original's Objective-C
        // classes too; NielsenAppApiObjC holds the headers' constants and the guides' #import lines.
        .target(
            name: "NielsenAppApi",
            dependencies: ["AppMeter", "NielsenAppApiObjC", .product(name: "Logging", package: "swift-log")],
            swiftSettings: upcoming),
        .target(name: "NielsenAppApiObjC"),
        .testTarget(name: "MeterWireTests", dependencies: ["MeterWire"]),
        // The guides' samples that only an app in Swift 5 language mode compiles as published.
        .testTarget(
            name: "GuideSampleTests", dependencies: ["AppMeter", "NielsenAppApi"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Fixtures/: files an earlier release wrote, read through #filePath.
        .testTarget(
            name: "AppMeterTests",
            dependencies: ["AppMeter", "NielsenAppApi", "MeterWire", "BrowserCore", .product(name: "Logging", package: "swift-log")],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
