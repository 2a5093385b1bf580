// swift-tools-version: 6.1
// Benchmarks for AppMeter's performance targets (ordo-one/benchmark). Run from this folder:
//   swift package benchmark
// A separate package so that the main build and `swift test` do not build the benchmark tooling.
import PackageDescription

let package = Package(
    name: "AppMeterBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "AppMeter", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PlayheadBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NielsenAppApi", package: "AppMeter"),
                .product(name: "AppMeter", package: "AppMeter"),
                .product(name: "MeterWire", package: "AppMeter"),
            ],
            path: "Benchmarks/PlayheadBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
