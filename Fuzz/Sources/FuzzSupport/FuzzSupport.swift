/// Choices read off a fuzzer's input, front to back. Once the input is used up every
/// choice is 0, so any input (even an empty one) is a valid script.
public struct Choices {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var position = 0

    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `range` (two bytes when the range has more than 256 values).
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        var value = Int(byte())
        if span > 256 { value = value << 8 | Int(byte()) }
        return range.lowerBound + value % span
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return UnsafeBufferPointer(rebasing: bytes[position..<end])
    }
}

/// Chunkings for the chunking differentials: every fuzzer feeds its input whole and
/// cut in these ways, and requires the same result.
public enum Chunkings {
    /// Up to `count` cut points in `1..<length`, taken from the data itself (16-bit
    /// numbers read from its first bytes), so every input is cut somewhere without
    /// the fuzzer having to spend bytes on it.
    public static func cuts(of data: UnsafeBufferPointer<UInt8>, count: Int, length: Int) -> [Int] {
        guard length > 1 else { return [] }
        var cuts: Set<Int> = []
        for k in 0..<count {
            let hi = 2 * k < data.count ? Int(data[2 * k]) : k
            let lo = 2 * k + 1 < data.count ? Int(data[2 * k + 1]) : 0
            cuts.insert(1 + (hi << 8 | lo) % (length - 1))
        }
        return cuts.sorted()
    }

    /// The ranges between `cuts` (sorted, inside `0...length`).
    public static func pieces(length: Int, cuts: [Int]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for cut in cuts where cut > start && cut < length {
            ranges.append(start..<cut)
            start = cut
        }
        ranges.append(start..<length)
        return ranges
    }

    /// Pieces of `size` (the last one shorter).
    public static func pieces(length: Int, size: Int) -> [Range<Int>] {
        stride(from: 0, to: max(length, 1), by: max(1, size)).map { $0..<min(length, $0 + max(1, size)) }
    }
}

/// Stops the run: libFuzzer reports the trap as a crash and saves the input; the
/// message says which property broke.
public func fuzzFailure(_ message: @autoclosure () -> String) -> Never {
    fatalError("fuzz property violated: " + message())
}
