// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StreamRenderBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "StreamRender", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Corpora shared by the package-benchmark suites and the ratio checks.
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "StreamRender", package: "StreamRender")]
        ),
        // Ratios measured in one run and asserted: `swift run -c release benchmark-ratios`.
        .executableTarget(
            name: "benchmark-ratios",
            dependencies: ["BenchmarkSupport", .product(name: "StreamRender", package: "StreamRender")]
        ),
        .executableTarget(
            name: "UnicodeBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "StreamRender", package: "StreamRender"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/UnicodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
