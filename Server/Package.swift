// swift-tools-version: 6.1
// The census (the collection server), the demo and the `meter` command line: a package of its own,
// so that an app depending on the SDK (the package in ..) resolves none of the server's
// dependencies, and with its own minimum platforms (Hummingbird needs macOS 14). Build, test and
// run with --package-path Server: `swift run --package-path Server meter demo` (docs/architecture.md).
import PackageDescription

/// Swift 7's rules now, on every target: an import is internal unless it says otherwise (a module
/// another target must see through this one's API is a `package import`), a member is visible
/// only where its module is imported, and an existential is spelled `any`.
let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "AppMeterServer",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17)],
    products: [
        // The read side the fuzz package drives: stored pings, certification, timelines, tables.
        .library(name: "CensusStore", targets: ["CensusStore"]),
        .library(name: "MeterTables", targets: ["MeterTables"]),
        .executable(name: "meter", targets: ["meter"]),
    ],
    // Both on by default. The README's first run (`meter demo`, embedded SQLite on loopback) turns
    // them off with `--disable-default-traits`: without them swift-nio-ssl's copy of BoringSSL,
    // postgres-nio and its kits are not built, a third less to compile (docs/architecture.md).
    traits: [
        .default(enabledTraits: ["PostgreSQL", "TLS"]),
        .trait(name: "PostgreSQL", description: "The census on PostgreSQL (`--database postgres://…`), through postgres-nio."),
        .trait(name: "TLS", description: "HTTPS (`meter serve --tls-cert --tls-key`), through swift-nio-ssl."),
    ],
    dependencies: [
        // The SDK: the contract, the engine and the input readers the census shares, and the SDK
        // the demo and the tests drive.
        .package(name: "AppMeter", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        // Named for the engines' own imports (the kits above bring them).
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Tests only: a certificate made in the test for the census's HTTPS.
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // `meter serve`'s settings from the environment and a JSON file as well as flags (docs/census.md).
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
    ],
    targets: [
        // What the census knows without a network or an engine: a ping's validation, the credit
        // rule and its rows, plausibility, certification, DTVR and AMP replay, and the one set of
        // queries both engines run (SQLKit) behind the storage protocol (docs/architecture.md).
        .target(
            name: "CensusStore",
            dependencies: [
                .product(name: "MeterWire", package: "AppMeter"),
                .product(name: "MeterContract", package: "AppMeter"),
                // The crediting rules (DTVR from stored tags) and the engine, which replays
                // Google AMP's cloud-API events with the SDK's own rules. Never the SDK itself.
                .product(name: "MeasurementCore", package: "AppMeter"),
                .product(name: "MeterInput", package: "AppMeter"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        // The embedded engine: one SQLite file, its own writer thread and checkpoints.
        .target(
            name: "CensusSQLite",
            dependencies: [
                "CensusStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        // The engine at scale: PostgreSQL through postgres-nio, a pool of writers.
        .target(
            name: "CensusPostgres",
            dependencies: [
                "CensusStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        // The census on the network: routes, the ping fast path, connection guards, the dashboard,
        // the browser SDK's files, metrics and the live feed, over either engine.
        .target(
            name: "CensusHTTP",
            dependencies: [
                "CensusStore", "CensusSQLite",
                .target(name: "CensusPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "MeterWire", package: "AppMeter"),
                .product(name: "MeterContract", package: "AppMeter"),
                .product(name: "MeasurementCore", package: "AppMeter"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // HTTPS (`meter serve --tls-cert --tls-key`), through swift-nio-ssl: the TLS trait.
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["TLS"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                // The ping fast path: a channel handler in the HTTP/1 pipeline, below the router.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // ByteBuffer to and from Data.
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                // GET /metrics: Prometheus text from a registry of each server's own. Its collectors
                // are swift-metrics handlers; the census uses them directly (CensusMetrics says why).
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The browser SDK it serves (JavaScript, the engine as WebAssembly, the demo page), the
            // dashboard's script, one file per pane, and the read API's OpenAPI document.
            resources: [.copy("Browser"), .copy("Dashboard/Scripts"), .copy("API")],
            swiftSettings: upcoming),
        // What `meter` prints: reports, certifications and escaped text as terminal tables.
        .target(
            name: "MeterTables",
            dependencies: ["CensusStore", .product(name: "MeterContract", package: "AppMeter")],
            swiftSettings: upcoming),
        .target(
            name: "MeterDemo",
            dependencies: [
                "CensusHTTP", "CensusStore", "MeterTables",
                .product(name: "NielsenAppApi", package: "AppMeter"),
                .product(name: "AppMeter", package: "AppMeter"),
                // The AMP page view's routes (WireRoute).
                .product(name: "MeterWire", package: "AppMeter"),
                .product(name: "Logging", package: "swift-log"),
                // A lock for the demo's viewability provider (the SDK's own is not public).
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .executableTarget(
            name: "meter",
            dependencies: [
                "CensusHTTP", "CensusStore", "CensusSQLite", "MeterTables", "MeterDemo",
                .product(name: "MeterWire", package: "AppMeter"),
                // Checking an export's signature (`meter certify --verify`).
                .product(name: "Crypto", package: "swift-crypto"),
                // `meter --version` and the appid check of `meter apps`; `meter play` drives the SDK.
                .product(name: "AppMeter", package: "AppMeter"),
                .product(name: "NielsenAppApi", package: "AppMeter"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: upcoming),
        // The census's handling of one ping counted in instructions under callgrind
        // (scripts/instruction-guard, beside Probes/'s sdk-probe): built with the release meter.
        .executableTarget(
            name: "census-probe",
            dependencies: [
                "CensusHTTP", "CensusStore", "CensusSQLite",
                .product(name: "MeterWire", package: "AppMeter"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "CensusTests",
            dependencies: [
                "CensusHTTP", "CensusStore", "CensusSQLite", "CensusPostgres", "MeterTables", "MeterDemo",
                .product(name: "NielsenAppApi", package: "AppMeter"),
                .product(name: "AppMeter", package: "AppMeter"),
                .product(name: "MeterWire", package: "AppMeter"),
                .product(name: "MeterContract", package: "AppMeter"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // AMP's `nielsen` vendor configuration, as published (Fixtures/README.md).
            resources: [.copy("Fixtures")],
            swiftSettings: upcoming),
    ],
    swiftLanguageModes: [.v6]
)
