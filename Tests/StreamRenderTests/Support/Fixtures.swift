import Foundation

/// Files under Tests/StreamRenderTests/Resources.
enum Fixtures {
    static func url(_ path: String) -> URL {
        guard let base = Bundle.module.resourceURL else { fatalError("no resource bundle") }
        // .copy("Resources") keeps the folder; resourceURL may or may not name it.
        let nested = base.appendingPathComponent("Resources")
        let root = base.lastPathComponent == "Resources" ? base : nested
        return root.appendingPathComponent(path)
    }

    static func data(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url(path).path) else {
            fatalError("missing fixture \(path) at \(url(path).path)")
        }
        return [UInt8](data)
    }

    static func text(_ path: String) -> String {
        String(decoding: data(path), as: UTF8.self)
    }
}

/// A small, fast, seedable generator (SplitMix64) so failures can be replayed from
/// the seed they print.
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

/// Seeds for randomised tests: fixed by default so runs are repeatable, overridable
/// with STREAMRENDER_SEED to replay a failure or explore new ones.
enum TestSeed {
    static func base(_ fallback: UInt64) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["STREAMRENDER_SEED"], let value = UInt64(text) {
            return value
        }
        return fallback
    }
}

/// Cuts `bytes` into random chunks (sizes 1...maxChunk, often 1).
func randomChunks(_ bytes: [UInt8], using rng: inout SeededGenerator, maxChunk: Int = 16) -> [ArraySlice<UInt8>] {
    var chunks: [ArraySlice<UInt8>] = []
    var i = 0
    while i < bytes.count {
        let size = Int.random(in: 0...3, using: &rng) == 0 ? 1 : Int.random(in: 1...maxChunk, using: &rng)
        let end = min(bytes.count, i + size)
        chunks.append(bytes[i..<end])
        i = end
    }
    return chunks
}
