import Foundation
import StreamRender

/// Issue 14: input classes that must cost at most 3x prose per byte. The same classes
/// as `Benchmarks/cliffs/generate.py` (which makes them as files for the process
/// measurements), built here for the library checks.
extension Corpus {
    public struct CliffClass: Sendable {
        public var name: String
        public var text: String
    }

    /// A deterministic generator (SplitMix64).
    struct Mix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static func repeatedText(_ unit: String, to size: Int) -> String {
        String(repeating: unit, count: size / unit.utf8.count + 1)
    }

    /// Every class at about `size` bytes (the long line at ten times that); prose first.
    public static func cliffClasses(size: Int = 1 << 20) -> [CliffClass] {
        var mix = Mix(state: 14)
        func random(_ alphabet: [Character], _ count: Int) -> String {
            String((0..<count).map { _ in alphabet[mix.below(alphabet.count)] })
        }
        let prose = String(decoding: fixture("answers/coding-answer.md"), as: UTF8.self)
        let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let cjk = "流式渲染把模型的回答一块一块地显示在终端里，每一块的代价应当与它的长度成正比。"
            + "中文没有空格，几乎每两个字之间都可以换行，但标点符号前面不能断开。"
            + "日本語の文章も同じで、句読点の前では改行しない。한국어도여기서는붙여썼다。"
        let emoji = ["😀", "🎉", "🚀", "👍🏽", "👩‍👩‍👧‍👦", "🇫🇷", "🇯🇵", "1️⃣", "❤️", "🧑🏿‍💻", "🏳️‍🌈", "🐈‍⬛", "✨", "🔥"]
        func marks(_ count: Int) -> String {
            String(String.UnicodeScalarView((0..<count).map { _ in Unicode.Scalar(0x300 + UInt32(mix.below(0x70)))! }))
        }
        var emojiRun = "", zalgo = "", tiny = "", bidi = "$("
        let bidiMarks = ["\u{200E}", "\u{200F}", "\u{2066}", "\u{2069}", "\u{061C}", "\u{200E}\u{301}", "\u{200F}\u{35C}"]
        while bidi.utf8.count < size { bidi += bidiMarks[mix.below(bidiMarks.count)] }
        while emojiRun.utf8.count < size { emojiRun += emoji[mix.below(emoji.count)] }
        while zalgo.utf8.count < size {
            for _ in 0..<(2 + mix.below(6)) { zalgo += String(Array("zalgohecomes")[mix.below(12)]) + marks(mix.below(201)) }
            zalgo += " "
        }
        let answers = ["Yes.", "No.", "Sure thing.", "Done!", "OK", "Why?", "See above.", "Thanks, that works.", "1", "-"]
        while tiny.utf8.count < size { tiny += answers[mix.below(answers.count)] + "\n\n" }
        return [
            CliffClass(name: "prose", text: repeatedText(prose, to: size)),
            CliffClass(name: "hex", text: random(Array("0123456789abcdef"), size) + "\n"),
            CliffClass(name: "base64", text: random(base64, size) + "\n"),
            CliffClass(name: "word", text: random(Array("abcdefghijklmnopqrstuvwxyz"), size) + "\n"),
            CliffClass(name: "cjk", text: String(repeatedText(cjk, to: size).prefix(size / 3)) + "\n"),
            CliffClass(name: "emoji", text: emojiRun + "\n"),
            CliffClass(name: "combining", text: zalgo + "\n"),
            CliffClass(name: "endless-combining", text: "e" + marks(size / 2) + "\n"),
            // The line-break rules read through the whole run (LB9) to the number after it.
            CliffClass(name: "endless-bidi", text: bidi + "12\n"),
            CliffClass(name: "tiny", text: tiny),
            // A paragraph (the fixture's first line is a heading; a heading line is
            // split only by the 16 KB forced split, measured by Benchmarks/cliffs).
            CliffClass(name: "long-line", text: repeatedText("The answer on one line: " + prose.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: " "), to: 10 * size) + "\n"),
        ]
    }

    /// `text` in pieces of at least `size` bytes, cut between scalars, as UTF-8.
    public static func bytePieces(_ text: String, size: Int) -> [[UInt8]] {
        let bytes = Array(text.utf8)
        var out: [[UInt8]] = []
        out.reserveCapacity(bytes.count / size + 1)
        var i = 0
        while i < bytes.count {
            var end = min(bytes.count, i + size)
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            out.append(Array(bytes[i..<end]))
            i = end
        }
        return out
    }

    /// Plain text through a `StreamRenderer` (format text, unpaced), one piece per
    /// feed, the clock advancing 1 ms per piece (a live view draws a frame every 17).
    /// Returns the bytes written.
    @inline(never)
    public static func renderText(_ pieces: [[UInt8]], output: StreamRenderer.Configuration.Output, markdown: Bool) -> Int {
        let sink = DiscardingSink()
        let configuration = StreamRenderer.Configuration(
            output: output, layout: LayoutSettings(width: 80), input: .init(format: .text),
            content: .init(markdown: markdown), live: .init(height: 24, pacing: nil),
            capabilities: TerminalCapabilities(colors: .truecolor))
        let renderer = StreamRenderer(configuration: configuration, sink: sink)
        var now = Duration.zero
        for piece in pieces {
            piece.withUnsafeBufferPointer { renderer.feed($0) }
            renderer.tick(now: now)
            now += .milliseconds(1)
        }
        renderer.finish()
        return sink.bytes
    }
}
