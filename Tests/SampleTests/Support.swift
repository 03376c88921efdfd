import Foundation

/// The fixtures of StreamRenderTests (the samples' tests read the same files).
enum Fixtures {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StreamRenderTests/Resources")

    static func path(_ name: String) -> String { resources.appendingPathComponent(name).path }

    static func bytes(_ name: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else { fatalError("missing fixture \(name)") }
        return [UInt8](data)
    }

    static func text(_ name: String) -> String { String(decoding: bytes(name), as: UTF8.self) }
}

/// SplitMix64, as in StreamRenderTests: failures replay from the seed they print.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Seeds for randomised tests: fixed by default, overridable with STREAMRENDER_SEED.
enum TestSeed {
    static func base(_ fallback: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["STREAMRENDER_SEED"].flatMap { UInt64($0) } ?? fallback
    }
}

/// A random chunk size: often 1, usually small, sometimes large.
func randomChunkSize(using rng: inout SeededGenerator) -> Int {
    switch Int.random(in: 0..<8, using: &rng) {
    case 0, 1, 2: return 1
    case 3, 4, 5: return Int.random(in: 1...8, using: &rng)
    case 6: return Int.random(in: 1...64, using: &rng)
    default: return Int.random(in: 1...1024, using: &rng)
    }
}

/// `items` cut into consecutive pieces of random sizes.
func randomPieces<C: Collection>(_ items: C, using rng: inout SeededGenerator) -> [C.SubSequence] {
    var pieces: [C.SubSequence] = []
    var start = items.startIndex
    while start != items.endIndex {
        let end = items.index(start, offsetBy: randomChunkSize(using: &rng), limitedBy: items.endIndex) ?? items.endIndex
        pieces.append(items[start..<end])
        start = end
    }
    return pieces
}
