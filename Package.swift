// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StreamRender",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "StreamRender", targets: ["StreamRender"]),
        .executable(name: "stream-render", targets: ["stream-render"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // pkg-config (icu-uc) flags only; see the comment in its header.
        .systemLibrary(
            name: "CICUSystem",
            path: "Sources/CICUSystem",
            pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]
        ),
        .target(
            name: "CICU",
            dependencies: ["CICUSystem"],
            linkerSettings: [.linkedLibrary("icuuc")]
        ),
        // md4c (CommonMark + GitHub tables, strikethrough, task lists, autolinks).
        .systemLibrary(
            name: "CMD4C",
            path: "Sources/CMD4C",
            pkgConfig: "md4c",
            providers: [.apt(["libmd4c-dev"]), .brew(["md4c"])]
        ),
        .target(
            name: "StreamRender",
            dependencies: [
                "CICU",
                "CMD4C",
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: [
                // _invariantCheck() bodies compile only in debug builds (tests).
                .define("STREAMRENDER_INVARIANT_CHECKS", .when(configuration: .debug)),
            ]
        ),
        .executableTarget(
            name: "stream-render",
            dependencies: [
                "StreamRender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Samples/: small programs that embed the library (see Samples/README.md). They
        // are built with everything else, so CI compiles them; none is a product.
        .executableTarget(name: "sample-minimal", dependencies: ["StreamRender"], path: "Samples/sample-minimal"),
        .executableTarget(name: "sample-async", dependencies: ["StreamRender"], path: "Samples/sample-async"),
        .executableTarget(name: "sample-panes", dependencies: ["StreamRender"], path: "Samples/sample-panes"),
        .executableTarget(name: "sample-music", dependencies: ["StreamRender"], path: "Samples/sample-music"),
        // Counts the test thread's allocations (wraps malloc in the test process).
        .target(name: "CAllocationCounter", path: "Tests/CAllocationCounter"),
        // What the test targets share: the fixture loader (Tests/StreamRenderTests/Resources)
        // and the seeded generator.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "StreamRenderTests",
            dependencies: ["StreamRender", "CAllocationCounter", "TestSupport"],
            exclude: ["Resources"]
        ),
        // Runs the built stream-render binary on the fixtures of StreamRenderTests.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["StreamRender", "stream-render", "TestSupport"]
        ),
        // The samples' logic (sample_music, sample_panes, sample_async) and the built samples, run on fixtures.
        .testTarget(
            name: "SampleTests",
            dependencies: ["StreamRender", "sample-minimal", "sample-async", "sample-panes", "sample-music", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
