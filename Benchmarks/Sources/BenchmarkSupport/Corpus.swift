import Foundation
@_spi(Benchmarks) import StreamRender

/// Inputs for the benchmarks, built from the fixtures in the main package's tests.
public enum Corpus {
    /// Tests/StreamRenderTests/Resources of the package this one benchmarks.
    public static let resources: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/StreamRenderTests/Resources")

    public static func fixture(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: resources.appendingPathComponent(path).path) else {
            fatalError("missing fixture \(path) under \(resources.path)")
        }
        return [UInt8](data)
    }

    /// `bytes` repeated until at least `size` bytes (cut at a line end).
    public static func repeated(_ bytes: [UInt8], to size: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(size + bytes.count)
        while out.count < size { out += bytes }
        return out
    }

    /// 1 MB of ASCII-heavy LLM text: a markdown coding answer.
    public static let asciiHeavy1MB: [UInt8] = repeated(fixture("answers/coding-answer.md"), to: 1 << 20)

    /// 1 MB of CJK and emoji text: the CJK, Korean and emoji lines of the
    /// multilingual fixture, without the Latin-script lines.
    public static let cjkEmojiHeavy1MB: [UInt8] = {
        let text = String(decoding: fixture("answers/multilingual.md"), as: UTF8.self)
        let lines = text.split(separator: "\n").filter { line in
            line.unicodeScalars.filter { $0.value >= 0x1100 }.count * 2 > line.unicodeScalars.count
        }
        return repeated(Array((lines.joined(separator: "\n") + "\n").utf8), to: 1 << 20)
    }()

    /// Segments `bytes` in one feed and sums the widths (the benchmark workload).
    @inline(never)
    public static func segmentAndMeasure(_ bytes: [UInt8], policy: WidthPolicy = .grapheme, fastPath: Bool = true) -> Int {
        var segmenter = GraphemeSegmenter(policy: policy, usesASCIIFastPath: fastPath)
        var total = 0
        let sink: (UnsafeBufferPointer<UInt8>, Int, Bool) -> Void = { _, width, _ in total &+= width }
        bytes.withUnsafeBufferPointer { segmenter.feedSegments($0, sink) }
        segmenter.finishSegments(sink)
        return total
    }

    /// Line-break opportunities of every line of `bytes`, counted.
    @inline(never)
    public static func lineBreaks(_ bytes: [UInt8], breaker: LineBreaker) -> Int {
        var count = 0
        bytes.withUnsafeBufferPointer { buf in
            var start = 0
            for i in 0..<buf.count where buf[i] == 0x0A {
                breaker.forEachOpportunity(in: UnsafeBufferPointer(rebasing: buf[start...i])) { _, _ in count += 1 }
                start = i + 1
            }
        }
        return count
    }
}

/// Median wall time of `body`, in seconds, over `runs` runs.
public func medianSeconds(runs: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    times.sort()
    return times[times.count / 2]
}
