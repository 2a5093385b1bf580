// swift-tools-version: 6.1
// docs/integration.md, "Add the package", as an app's package writes it, with this repository
// by path instead of by URL. Built and run against a census by scripts/integration-check (CI).
import PackageDescription

let package = Package(
    name: "GuidePlayer",
    platforms: [.macOS(.v13), .iOS(.v15), .tvOS(.v15)],   // an app at the SDK's minimums
    dependencies: [
        .package(name: "AppMeter", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "GuidePlayer",
            dependencies: [
                .product(name: "NielsenAppApi", package: "AppMeter"),
            ]
        ),
    ]
)
