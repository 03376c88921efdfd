import FuzzSupport
@_spi(Benchmarks) import StreamRender

// Markdown and layout on arbitrary bytes. The input, repaired to a String as the
// decoder repairs text (invalid UTF-8 to U+FFFD), goes into a WrappedDocument with
// markdown at a width W of 1...120, whole and in two chunkings cut at data-derived
// points (moved to scalar boundaries: a cut may split a grapheme cluster or CR LF).
// The chunked runs show the open block after every piece (`updateProvisional`, as
// the views do before each frame).
//
// Properties:
// - no visual line is wider than W: its prefix (`decoration(of:).textColumn`) plus
//   its width, and plus its fill, fit; so does its text as the view draws it (cells
//   cut by CellSplitter, tabs expanded), checked after every piece and at the end;
// - the final lines (positions and `plainText(of:)`) are the same in every chunking
//   (MarkdownStream: "every decision depends on the text alone");
// - `_invariantCheck()` after every mutation. It is compiled only with
//   STREAMRENDER_INVARIANT_CHECKS (debug builds of the root package); `Fuzz/run`
//   defines it for the release fuzzing build, so the checks run here too.
//
// Input bytes 0 and 1 choose the width and the options, and are part of the text as well.

struct Options {
    var settings: LayoutSettings
    var markdown: MarkdownOptions?

    init(_ data: UnsafeBufferPointer<UInt8>) {
        let a = data.count > 0 ? Int(data[0]) : 80
        let b = data.count > 1 ? Int(data[1]) : 0
        let policies: [WidthPolicy] = [.grapheme, .wcwidth, WidthPolicy(mode: .grapheme, ambiguousIsWide: true),
                                       WidthPolicy(mode: .wcwidth, ambiguousIsWide: true)]
        settings = LayoutSettings(width: 1 + a % 120, tabSize: 1 + (b >> 5) % 8, policy: policies[b & 3])
        // Plain text (no markdown) one time in eight.
        markdown = b & 0x1C == 0x1C ? nil : MarkdownOptions(hyperlinks: b & 0x04 != 0)
    }
}

/// The final state of a run.
struct Rendering: Equatable {
    var lines: [VisualLine]
    var text: [[UInt8]]
}

final class Checker {
    let options: Options
    let splitter: CellSplitter

    init(_ options: Options) {
        self.options = options
        splitter = CellSplitter(policy: options.settings.policy)
    }

    func width(_ text: String) -> Int {
        var width = 0
        var text = text
        text.withUTF8 { splitter.forEachCell(in: $0) { _, w in width += w } }
        return width
    }

    /// `line` fits the width, as the view draws it.
    func check(_ line: VisualLine, in view: WrappedDocument, _ context: @autoclosure () -> String) {
        let w = options.settings.width
        let decoration = view.decoration(of: line)
        let prefix = decoration.prefix.reduce(0) { $0 + width($1.text) }
        if prefix > decoration.textColumn {
            fuzzFailure("\(context()): prefix \(decoration.prefix.map(\.text)) is \(prefix) wide, past its text column \(decoration.textColumn); line \(line)")
        }
        if decoration.textColumn + line.width > w {
            fuzzFailure("\(context()): line \(line) at text column \(decoration.textColumn) is wider than \(w): \(view.plainText(of: line).debugDescription)")
        }
        var drawn = line.width
        if !line.isReplacement {
            let text = view.plainText(paragraph: line.paragraph, from: line.start, to: line.end, startColumn: 0,
                                      textColumn: decoration.textColumn).text
            drawn = width(text)
            if drawn > line.width {
                fuzzFailure("\(context()): line \(line) is drawn \(drawn) wide (cells by CellSplitter): \(text.debugDescription)")
            }
        }
        if let fill = decoration.fill, decoration.textColumn + line.width + decoration.fillCount * width(fill.text) > w {
            fuzzFailure("\(context()): line \(line) with its fill \(fill.text.debugDescription) x \(decoration.fillCount) is wider than \(w)")
        }
    }

    /// Feeds `pieces` of `text`; returns the final lines.
    func render(_ text: String, _ pieces: [Range<Int>], showingOpenBlock: Bool, name: String) -> Rendering {
        var view = WrappedDocument(settings: options.settings, markdown: options.markdown)
        let utf8 = Array(text.utf8)
        // With many pieces, a frame (and the checks) every fourth piece: a frame lays
        // out the open block afresh, and per piece that made the fuzzer 4x slower.
        let every = pieces.count <= 8 ? 1 : 4
        for (k, piece) in pieces.enumerated() {
            view.append(String(decoding: utf8[piece], as: UTF8.self))
            guard k % every == 0 else { continue }
            view._invariantCheck()
            if showingOpenBlock {
                view.updateProvisional()
                view._invariantCheck()
                // Every line while there are few pieces; the last lines (what a view shows) otherwise.
                let lines = every == 1 ? view.allLines() : view.tailLines(6)
                for line in lines { check(line, in: view, "\(name), after piece \(k)") }
            }
        }
        view.finish()
        view._invariantCheck()
        let lines = view.allLines()
        for line in lines { check(line, in: view, "\(name), at the end") }
        return Rendering(lines: lines, text: lines.map { Array(view.plainText(of: $0).utf8) })
    }
}

/// Moves byte offsets of `utf8` forward to scalar boundaries.
func scalarBoundaries(_ pieces: [Range<Int>], in utf8: [UInt8]) -> [Range<Int>] {
    func boundary(_ p: Int) -> Int {
        var p = p
        while p < utf8.count && utf8[p] & 0xC0 == 0x80 { p += 1 }
        return p
    }
    var result: [Range<Int>] = []
    var start = 0
    for piece in pieces {
        let end = piece.upperBound == utf8.count ? utf8.count : boundary(piece.upperBound)
        if end > start { result.append(start..<end) }
        start = max(start, end)
    }
    if start < utf8.count { result.append(start..<utf8.count) }
    return result
}

func firstDifference(_ a: Rendering, _ b: Rendering) -> String {
    for k in 0..<max(a.lines.count, b.lines.count) {
        let x = k < a.lines.count ? "\(a.lines[k]) \(String(decoding: a.text[k], as: UTF8.self).debugDescription)" : "nothing"
        let y = k < b.lines.count ? "\(b.lines[k]) \(String(decoding: b.text[k], as: UTF8.self).debugDescription)" : "nothing"
        if x != y { return "line \(k): whole gives \(x), chunked gives \(y)" }
    }
    return "no line differs"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt {
    let data = UnsafeBufferPointer(start: d, count: n)
    let options = Options(data)
    let checker = Checker(options)
    let text = String(decoding: data, as: UTF8.self)
    let utf8 = Array(text.utf8)
    let length = utf8.count
    let cut = scalarBoundaries(Chunkings.pieces(length: length, cuts: Chunkings.cuts(of: data, count: 3, length: length)), in: utf8)
    let small = scalarBoundaries(Chunkings.pieces(length: length, size: 1 + Int(n > 0 ? data[n - 1] : 0) % 16), in: utf8)
    let context = "width \(options.settings.width), \(options.settings.policy), tab \(options.settings.tabSize), markdown \(options.markdown != nil)"

    let whole = checker.render(text, [0..<length], showingOpenBlock: false, name: "whole (\(context))")
    for (name, pieces) in [("cut at \(cut.dropFirst().map(\.lowerBound))", cut), ("in pieces of about \(small.first?.count ?? 0) bytes", small)] {
        let other = checker.render(text, pieces, showingOpenBlock: true, name: "\(name) (\(context))")
        if other != whole {
            fuzzFailure("fed \(name) (\(context)), the final lines differ from fed whole: \(firstDifference(whole, other))")
        }
    }
    return 0
}
