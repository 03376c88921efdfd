import Foundation

/// What every test target shares: the one fixture loader, the seeded generator and
/// its seeds. (Each test target re-exports this module from one file.)

/// Files under Tests/StreamRenderTests/Resources, read from the source tree (the tests
/// of every target run from a checkout).
public enum Fixtures {
    /// Tests/StreamRenderTests/Resources.
    public static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StreamRenderTests/Resources")

    public static func url(_ path: String) -> URL { resources.appendingPathComponent(path) }

    public static func path(_ name: String) -> String { url(name).path }

    /// The file's bytes; a missing fixture stops the test run with its path.
    public static func data(_ name: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else { fatalError("missing fixture \(name) at \(path(name))") }
        return [UInt8](data)
    }

    public static func bytes(_ name: String) -> [UInt8] { data(name) }

    public static func text(_ name: String) -> String { String(decoding: data(name), as: UTF8.self) }
}

/// A small, fast, seedable generator (SplitMix64) so failures can be replayed from
/// the seed they print.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Seeds for randomised tests: fixed by default so runs are repeatable, overridable
/// with STREAMRENDER_SEED to replay a failure or explore new ones.
public enum TestSeed {
    public static func base(_ fallback: UInt64) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["STREAMRENDER_SEED"], let value = UInt64(text) {
            return value
        }
        return fallback
    }
}

/// Cuts `bytes` into random chunks (sizes 1...maxChunk, often 1).
public func randomChunks(_ bytes: [UInt8], using rng: inout SeededGenerator, maxChunk: Int = 16) -> [ArraySlice<UInt8>] {
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

#if os(Linux)
/// Opens a pseudo-terminal of `columns` x `rows`: its primary (the terminal's side)
/// and secondary (the program's side) descriptors, both close-on-exec (a command
/// holding the primary would keep the terminal from hanging up); nil if one cannot be
/// opened at that size.
public func openPseudoTerminal(columns: Int, rows: Int) -> (primary: Int32, secondary: Int32)? {
    let primary = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard primary >= 0 else { return nil }
    // Glibc's module hides grantpt/unlockpt/ptsname: their Linux ioctls (TIOCSPTLCK,
    // TIOCGPTN; the macros are not imported) do the same.
    var unlock: Int32 = 0, number: UInt32 = 0
    guard ioctl(primary, 0x4004_5431, &unlock) == 0, ioctl(primary, 0x8004_5430, &number) == 0 else {
        close(primary)
        return nil
    }
    let secondary = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard secondary >= 0 else {
        close(primary)
        return nil
    }
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(primary, UInt(TIOCSWINSZ), &size) == 0 else {
        close(secondary)
        close(primary)
        return nil
    }
    return (primary, secondary)
}
#endif
