// swift-tools-version: 6.1
// libFuzzer targets for every parser that takes outside input. Build and run with scripts/fuzz
// (swift build --sanitize fuzzer --sanitize address). A separate package: the main builds and
// scripts/test do not build them.
import PackageDescription

/// One fuzz target: a library-mode executable whose `LLVMFuzzerTestOneInput` libFuzzer calls.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name, dependencies: dependencies, path: "Targets/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
    name: "AppMeterFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        // The SDK (the root) and the census (Server/, a package of its own).
        .package(name: "AppMeter", path: ".."),
        .package(name: "AppMeterServer", path: "../Server"),
    ],
    targets: [
        fuzzTarget("FuzzPingQuery", [.product(name: "MeterWire", package: "AppMeter")]),
        fuzzTarget("FuzzTraceBody", [.product(name: "MeterWire", package: "AppMeter")]),
        fuzzTarget("FuzzID3", [.product(name: "MeterWire", package: "AppMeter")]),
        fuzzTarget("FuzzSDKInput", [.product(name: "AppMeter", package: "AppMeter")]),
        // The read side: certification, timelines and the terminal's tables on any stored trace;
        // FuzzCertificationRules is its arithmetic alone, fast enough for the long runs.
        .target(name: "FuzzSupport", dependencies: [
            .product(name: "CensusStore", package: "AppMeterServer"), .product(name: "MeterTables", package: "AppMeterServer"), .product(name: "MeterWire", package: "AppMeter"),
        ], path: "Targets/FuzzSupport"),
        fuzzTarget("FuzzCertification", [
            "FuzzSupport", .product(name: "CensusStore", package: "AppMeterServer"), .product(name: "MeterTables", package: "AppMeterServer"), .product(name: "MeterWire", package: "AppMeter"),
        ]),
        fuzzTarget("FuzzCertificationRules", [
            "FuzzSupport", .product(name: "CensusStore", package: "AppMeterServer"), .product(name: "MeterTables", package: "AppMeterServer"), .product(name: "MeterWire", package: "AppMeter"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
