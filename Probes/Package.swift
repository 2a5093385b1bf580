// swift-tools-version: 6.1
// Instruction counts of the SDK's per-second calls and of an hour of viewing, under valgrind's
// callgrind (scripts/instruction-guard, run by CI): counts repeat whatever else the machine runs,
// where wall time does not. A separate package, as Benchmarks is, so the SDK's manifest stays the
// apps' and `swift test` does not build it.
import PackageDescription

let package = Package(
    name: "AppMeterProbes",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "AppMeter", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "sdk-probe",
            dependencies: [
                .product(name: "AppMeter", package: "AppMeter"),
                .product(name: "NielsenAppApi", package: "AppMeter"),
                .product(name: "MeterWire", package: "AppMeter"),
            ],
            path: "Sources/sdk-probe",
            swiftSettings: [
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("ExistentialAny"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
