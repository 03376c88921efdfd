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

extension Corpus {
    /// An Anthropic stream of at least `size` bytes: the coding-answer fixture's
    /// events with its deltas repeated (what `sse-synth --repeat-to` makes).
    public static func anthropicStream(size: Int) -> [UInt8] {
        let text = String(decoding: fixture("sse/coding-answer.anthropic.sse"), as: UTF8.self)
        let events = text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { $0 + "\n\n" }
        let deltas = events.filter { $0.hasPrefix("event: content_block_delta") }
        let head = events.prefix { !$0.hasPrefix("event: content_block_delta") }
        let tail = events.drop { !$0.hasPrefix("event: content_block_stop") }
        var out = Array(head.joined().utf8)
        let body = Array(deltas.joined().utf8)
        while out.count < size { out += body }
        out += Array(tail.joined().utf8)
        return out
    }

    /// StreamRender's decoding: bytes in 64 KiB reads to text deltas; returns the
    /// number of text bytes.
    @inline(never)
    public static func decodeWithStreamRender(_ stream: [UInt8]) -> Int {
        var decoder = ResponseDecoder(format: .anthropic)
        var textBytes = 0
        let sink: (ResponseDecoder.Output) -> Void = {
            if case .event(.delta(_, .text, let text)) = $0 { textBytes += text.utf8.count }
        }
        stream.withUnsafeBufferPointer { buf in
            var i = 0
            while i < buf.count {
                let end = min(buf.count, i + 65_536)
                decoder.feed(UnsafeBufferPointer(rebasing: buf[i..<end]), sink)
                i = end
            }
        }
        decoder.finish(sink)
        return textBytes
    }

    struct NaiveEvent: Decodable {
        struct Delta: Decodable {
            var type: String
            var text: String?
        }
        var type: String
        var index: Int?
        var delta: Delta?
    }

    /// The common naive approach: split the body into lines, and `JSONDecoder` every
    /// `data:` line. Returns the number of text bytes.
    @inline(never)
    public static func decodeNaively(_ stream: [UInt8]) -> Int {
        let decoder = JSONDecoder()
        var textBytes = 0
        let text = String(decoding: stream, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("data: ") {
            guard let event = try? decoder.decode(NaiveEvent.self, from: Data(line.dropFirst(6).utf8)) else { continue }
            if event.type == "content_block_delta", let t = event.delta?.text { textBytes += t.utf8.count }
        }
        return textBytes
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

/// The fastest of `runs` timings of `body` in CPU time of the calling thread, in
/// seconds: on a shared machine noise only ever adds time, so the minimum is the
/// steadiest estimate of the cost itself, and thread CPU time leaves out time the
/// thread was not running.
public func minimumSeconds(runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let start = threadCPUSeconds()
        body()
        best = min(best, threadCPUSeconds() - start)
    }
    return best
}

public func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

extension Corpus {
    /// The text deltas of `stream`, decoded once (what a renderer is handed).
    public static func textDeltas(of stream: [UInt8]) -> [String] {
        var decoder = ResponseDecoder()
        var deltas: [String] = []
        let sink: (ResponseDecoder.Output) -> Void = {
            if case .event(.delta(_, .text, let text)) = $0 { deltas.append(text) }
        }
        stream.withUnsafeBufferPointer { decoder.feed($0, sink) }
        decoder.finish(sink)
        return deltas
    }

    /// The coding-answer fixture's own deltas (about 4 bytes each, cut like a
    /// tokenizer) repeated to at least `textBytes` bytes of text: the 1 MB
    /// version is about 250,000 deltas.
    public static func codingAnswerDeltas(textBytes: Int) -> [String] {
        let one = textDeltas(of: fixture("sse/coding-answer.anthropic.sse"))
        let size = one.reduce(0) { $0 + $1.utf8.count }
        var out: [String] = []
        out.reserveCapacity(one.count * (textBytes / max(1, size) + 1))
        var total = 0
        while total < textBytes {
            out += one
            total += size
        }
        return out
    }

    /// CJK/emoji-heavy text cut into deltas of 1 to 4 scalars (a tokenizer's pieces).
    public static func cjkEmojiDeltas(textBytes: Int) -> [String] {
        let scalars = Array(String(decoding: cjkEmojiHeavy1MB, as: UTF8.self).unicodeScalars)
        var out: [String] = []
        var i = 0, total = 0, k = 0
        while total < textBytes {
            let n = 1 + (k % 4)
            var piece = String.UnicodeScalarView()
            for j in 0..<n { piece.append(scalars[(i + j) % scalars.count]) }
            let s = String(piece)
            out.append(s)
            total += s.utf8.count
            i += n
            k += 1
        }
        return out
    }

    /// Appends every delta to a wrapped document at `width` and finishes it;
    /// returns the number of visual lines (the benchmark workload).
    ///
    /// With `repeats`, the deltas are streamed that many times over (the 10 MB stream
    /// is the 1 MB one ten times: the same text as a 10 MB array of deltas, without
    /// timing the harness's walk through 40 MB of input strings).
    @inline(never)
    public static func appendAndLayOut(_ deltas: [String], width: Int, repeats: Int = 1,
                                       limits: HistoryLimits = .standard) -> Int {
        var view = WrappedDocument(settings: LayoutSettings(width: width), limits: limits)
        var lines = 0
        for _ in 0..<repeats {
            for delta in deltas { view.append(delta) { _ in lines += 1 } }
        }
        view.finish { _ in lines += 1 }
        return lines
    }
}

extension Corpus {
    /// Streams `deltas` through an inline live view with a frame after every delta;
    /// returns (bytes written, frames).
    @inline(never)
    public static func inlineFrames(_ deltas: [String], width: Int, height: Int, repeats: Int = 1) -> (bytes: Int, frames: Int) {
        var view = InlineView(settings: LayoutSettings(width: width), height: height, capabilities: .full)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        var bytes = 0
        for _ in 0..<repeats {
            for delta in deltas {
                view.append(delta)
                view.frame(into: &out)
                bytes += out.count
                out.removeAll(keepingCapacity: true)
            }
        }
        view.finish()
        view.frame(into: &out)
        bytes += out.count
        return (bytes, view.framesWritten)
    }

    /// Two frames of `width` x `height`: for `append`, the second adds one character
    /// after the text of the first's last row; otherwise every cell differs.
    public static func framePair(width: Int, height: Int, append: Bool) -> (Frame, Frame, StyleTable) {
        var styles = StyleTable()
        let bold = styles.intern(Style(foreground: .green, attributes: .bold))
        var a = Frame(width: width, height: height), b = Frame(width: width, height: height)
        let letters = Array("abcdefghijklmnopqrstuvwxyz ")
        for r in 0..<height {
            for c in 0..<(width - 1) {
                a.put(String(letters[(r * 7 + c) % letters.count]), width: 1, style: c % 9 == 0 ? bold : .plain, row: r, column: c)
                if append {
                    b.put(String(letters[(r * 7 + c) % letters.count]), width: 1, style: c % 9 == 0 ? bold : .plain, row: r, column: c)
                } else {
                    b.put(String(letters[(r * 5 + c + 3) % letters.count]), width: 1, style: c % 7 == 0 ? .plain : bold, row: r, column: c)
                }
            }
        }
        if append { b.put("z", width: 1, row: height - 1, column: width - 1) }
        return (a, b, styles)
    }

    /// Diffs and encodes `a` to `b`, `count` times; returns the bytes of one frame.
    @inline(never)
    public static func diffAndEncode(_ a: Frame, _ b: Frame, _ styles: StyleTable, count: Int) -> Int {
        var diff = FrameDiff()
        var encoder = ANSIEncoder(capabilities: .full, absoluteRows: true)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        var bytes = 0
        for _ in 0..<count {
            encoder.cursor = (0, 0)
            out.removeAll(keepingCapacity: true)
            diff.compute(from: a, to: b)
            encoder.encode(diff.changes, of: b, styles: styles, into: &out)
            bytes = out.count
        }
        return bytes
    }
}
