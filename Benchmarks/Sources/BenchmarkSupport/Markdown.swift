import Foundation
@_spi(Benchmarks) import StreamRender

/// Markdown's worst cases for streaming, and the stream measured as the renderer
/// drives it.
extension Corpus {
    /// A fenced code block of about `bytes` bytes (`lines` lines of indented code).
    public static func longFence(bytes: Int) -> String {
        var s = "```swift\n"
        var k = 0
        while s.utf8.count < bytes {
            s += String(repeating: "    ", count: k % 4) + "let value\(k) = compute(\(k), \"text \(k)\") // step \(k)\n"
            k += 1
        }
        return s + "```\n"
    }

    /// A fence of exactly `lines` code lines.
    public static func fence(lines: Int) -> String {
        "```swift\n" + (0..<lines).map { "    let value\($0) = compute(\($0), \"text\") // step \($0)\n" }.joined() + "```\n"
    }

    /// A bullet list of about `bytes` bytes (items of one or two lines, some nested).
    public static func longList(bytes: Int) -> String {
        var s = ""
        var k = 0
        while s.utf8.count < bytes {
            s += "- item \(k) with **bold** text and `code` that goes on for a while\n"
            if k % 5 == 4 { s += "  - nested \(k) with a [link](https://example.com/\(k))\n" }
            k += 1
        }
        return s
    }

    /// One paragraph of about `bytes` bytes: prose with emphasis and code spans,
    /// its source lines about 80 columns long.
    public static func longParagraph(bytes: Int) -> String {
        var s = ""
        var k = 0
        var column = 0
        while s.utf8.count < bytes {
            let word = k % 11 == 3 ? "*word\(k)*" : k % 13 == 5 ? "`code\(k)`" : "word\(k)"
            s += word
            column += word.count + 1
            if column > 78 { s += "\n"; column = 0 } else { s += " " }
            k += 1
        }
        return s + "\n"
    }

    /// `text` in pieces of `size` bytes (cut at scalar boundaries).
    public static func pieces(_ text: String, size: Int) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var out: [String] = []
        var i = 0
        while i < scalars.count {
            var piece = ""
            var bytes = 0
            while i < scalars.count && bytes < size {
                piece.unicodeScalars.append(scalars[i])
                bytes += String(scalars[i]).utf8.count
                i += 1
            }
            out.append(piece)
        }
        return out
    }

    /// The stream's per-delta work: every piece appended, final lines taken. With
    /// `frameEvery`, the open block is also rendered after every that many pieces
    /// (a live view at 60 fps with a delta a millisecond). Returns lines (a checksum).
    @inline(never)
    public static func streamMarkdown(_ pieces: [String], frameEvery: Int? = nil) -> Int {
        var stream = MarkdownStream()
        var lines = 0
        for (k, piece) in pieces.enumerated() {
            lines &+= stream.append(piece).count
            if let frameEvery, k % frameEvery == 0 { lines &+= stream.provisionalLines().count }
        }
        return lines &+ stream.finish().count
    }

    /// One-shot parse and render of the whole text.
    @inline(never)
    public static func renderMarkdown(_ text: String) -> Int {
        MarkdownRenderer().render(text).count
    }

    /// Seconds spent on each piece (append, and the open block rendered after every
    /// piece, as the worst frame cadence): for per-delta cost along a block.
    public static func perPieceSeconds(_ pieces: [String]) -> [Double] {
        var stream = MarkdownStream()
        var times: [Double] = []
        times.reserveCapacity(pieces.count)
        var sink = 0
        for piece in pieces {
            let start = DispatchTime.now().uptimeNanoseconds
            sink &+= stream.append(piece).count
            sink &+= stream.provisionalLines().count
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        if sink == -1 { print("") }
        return times
    }

    /// The time the pieces of an 800-line fence's first 100 code lines and of its
    /// last 100 (lines 701-800) take (`perPieceSeconds`, the minimum of `runs`), and
    /// how many pieces each is.
    public static func firstAndLastHundredLines(_ fence: [String], runs: Int) -> (Double, Double, Int, Int) {
        let text = fence.joined()
        let lineStarts = text.utf8.enumerated().filter { $0.element == 0x0A }.map { $0.offset + 1 }
        var offsets: [Int] = []
        var at = 0
        for piece in fence { offsets.append(at); at += piece.utf8.count }
        let firstRange = offsets.indices.filter { offsets[$0] >= lineStarts[0] && offsets[$0] < lineStarts[100] }
        let lastRange = offsets.indices.filter { offsets[$0] >= lineStarts[700] && offsets[$0] < lineStarts[800] }
        var first = Double.infinity, last = Double.infinity
        for _ in 0..<runs {
            let times = perPieceSeconds(fence)
            first = min(first, firstRange.map { times[$0] }.reduce(0, +))
            last = min(last, lastRange.map { times[$0] }.reduce(0, +))
        }
        return (first, last, firstRange.count, lastRange.count)
    }
}
