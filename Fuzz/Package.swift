// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for StreamRender. A package of its own, so the root package's
// `swift build` and `swift test` never build them. Build and run with `Fuzz/run`
// (it passes `--sanitize=fuzzer`; see Fuzz/README.md).
let library: Target.Dependency = .product(name: "StreamRender", package: "StreamRender")

let package = Package(
    name: "StreamRenderFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "StreamRender", path: ".."),
    ],
    targets: [
        // What the fuzzers share: choices read off the input, cut points, failing loudly.
        .target(name: "FuzzSupport"),
        // Each fuzzer is one file defining LLVMFuzzerTestOneInput (no main.swift:
        // libFuzzer provides main).
        .executableTarget(name: "fuzz-sse", dependencies: ["FuzzSupport", library]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", library]),
        .executableTarget(name: "fuzz-markdown", dependencies: ["FuzzSupport", library]),
        .executableTarget(name: "fuzz-encoder", dependencies: ["FuzzSupport", library]),
    ],
    swiftLanguageModes: [.v6]
)
