import Testing
@_spi(Benchmarks) @testable import StreamRender

/// What md4c's callbacks build, at the edges the builder tracks by place on its stack:
/// math opened in one tight list item, a table GFM rejects, lexer tokens out of range.
@Suite struct MarkdownBuilderTests {
    /// An unclosed `\(` ends with its item (an implicit paragraph): the next item's
    /// `\(x\)` is math, in one shot and in every chunking (it was shown as `(x)` while
    /// the first item's `\(` was still taken for open).
    @Test func mathLeftOpenInOneListItemDoesNotReachTheNext() {
        let document = "- a \\(b\n- \\(x\\) and \\[y\\]\n  - \\(z\\)\n"
        let lines = MarkdownRenderer().render(document)
        #expect(text(lines) == "• a (b\n• x and y\n  ◦ z", "\(text(lines))")
        let math = MarkdownTheme.dark.math
        #expect(lines[1].spans.first { $0.text == "x" }?.style == math)
        expectEveryChunking(document, rendersAs: lines, seed: 2406)
    }

    /// An autolink shows its target already, also when its text goes on a span of the
    /// same style (an image's alt text inside a link, GitHub's badge): its target is not
    /// repeated after it, while the image's and the outer link's are shown.
    @Test func anAutolinkInsideALinkIsNotRepeated() {
        let document = "[![Chat at https://example.org/room](https://example.org/b.svg)](https://example.org/join)\n"
        let lines = MarkdownRenderer().render(document)
        #expect(text(lines) == "Chat at https://example.org/room (image: https://example.org/b.svg) (https://example.org/join)",
                "\(text(lines))")
        expectEveryChunking(document, rendersAs: lines, seed: 2409)
        // Links whose text goes on from a neighbour of the same style.
        #expect(text(MarkdownRenderer().render("a <http://x.y><http://z.w>\n")) == "a http://x.yhttp://z.w")
        #expect(text(MarkdownRenderer().render("http://q.r<http://x.y>\n")) == "http://q.rhttp://x.y")
    }

    /// A footnote reference whose label holds a `\(` takes it: the math it opened is no
    /// longer open, and what the `\)` would take back stays, whole characters (it was cut
    /// inside `é`, a byte the terminal got alone).
    @Test func aFootnoteLabelTakesTheBracketMathItHolds() {
        let document = "q [^a\\(b]éy\\) z\n"
        let lines = MarkdownRenderer().render(document)
        #expect(text(lines) == "q ¹éy) z", "\(text(lines))")
        expectEveryChunking(document, rendersAs: lines, seed: 2410)
    }

    /// The leaf text's edits keep whole characters and its runs and breaks in place.
    @Test func inlineTextEditsKeepRunsAndBreaks() {
        var inline = MarkdownRenderer.InlineText()
        inline.append("ab".utf8, style: .plain)
        inline.append("éc".utf8, style: Style(attributes: .bold))
        inline.breaks.append(inline.bytes.count)
        inline.append("de".utf8, style: Style(attributes: .bold))
        #expect(inline.runs.map(\.end) == [2, 7] && inline.lineRange(1) == 5..<7)  // (runs merge across breaks)
        var run = 0
        var pieces: [Range<Int>] = []
        inline.forEachPiece(ofLine: 0, run: &run) { range, _ in pieces.append(range) }
        inline.forEachPiece(ofLine: 1, run: &run) { range, _ in pieces.append(range) }
        #expect(pieces == [0..<2, 2..<5, 5..<7])
        var cut = inline
        cut.truncate(to: 3)  // inside `é`: cut before it
        #expect(cut.bytes == Array("ab".utf8) && cut.runs.map(\.end) == [2] && cut.breaks.isEmpty)
        var rest = inline
        rest.removeFirst(2)
        #expect(rest.bytes == Array("écde".utf8) && rest.runs.map(\.end) == [5] && rest.breaks == [3])
    }

    /// A header cell past the delimiter row's count is seen only when the rejected table
    /// is parsed again as a paragraph: its footnote is numbered in document order, before
    /// the next paragraph's, in one shot and in every chunking.
    @Test func aRejectedTablesFootnotesAreNumberedInDocumentOrder() {
        let document = "| a | b[^x] |\n| --- |\n\nc[^y]\n\n[^x]: X\n[^y]: Y\n"
        let lines = MarkdownRenderer().render(document)
        let shown = text(lines)
        #expect(shown.contains("b¹") && shown.contains("c²") && shown.hasSuffix("[1] X\n[2] Y"), "\(shown)")
        expectEveryChunking(document, rendersAs: lines, seed: 2407)
    }

    /// Tokens before the line's start, overlapping or past its end cut nothing out of it.
    @Test func tokensOutOfRangeKeepTheLine() {
        let renderer = MarkdownRenderer()
        let tokens = [Token(start: -3, end: -1, kind: .keyword), Token(start: 2, end: 4, kind: .string),
                      Token(start: 1, end: 3, kind: .comment), Token(start: 5, end: 99, kind: .number)]
        #expect(renderer.codeLine("let é = 1", tokens: tokens).plainText == "let é = 1")
    }
}
