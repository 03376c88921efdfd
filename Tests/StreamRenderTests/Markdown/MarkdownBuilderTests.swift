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

    /// A link's target shown after its text loses its controls (C0, DEL, C1: a target in
    /// angle brackets may hold them), and a clean one is shown as it is, non-ASCII too.
    @Test func aLinkTargetIsShownWithoutControls() {
        let dirty = "[a](<http://x/\u{7}b\u{7F}c\u{85}d\u{1B}[31me>)\n"
        #expect(text(MarkdownRenderer().render(dirty)) == "a (http://x/bcd[31me)", "\(text(MarkdownRenderer().render(dirty)))")
        #expect(text(MarkdownRenderer().render("[a](http://x/é—中)\n")) == "a (http://x/é—中)")
        #expect(text(MarkdownRenderer().render("![a](<http://x/\u{9}i>)\n")) == "a (image: http://x/i)")
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

    /// A leaf's text in the parse's shared arrays (after another leaf's, so its offsets
    /// start past 0): lines, pieces, a line of its own, its edits and a graft keep whole
    /// characters and its runs and breaks in place.
    @Test func leafTextInTheSharedArraysKeepsRunsAndBreaks() {
        let bold = Style(attributes: .bold)
        var tree = MarkdownRenderer.ParseTree()
        tree.bytes = Array("xyz".utf8)
        tree.runs = [.init(end: 3, look: Style.plain.look)]
        // The leaf: "ab" plain, "éc" bold, a hard break, "de" bold (bytes 3..<10).
        tree.bytes += "abécde".utf8
        tree.runs += [.init(end: 5, look: Style.plain.look), .init(end: 10, look: bold.look)]  // (runs merge across breaks)
        tree.breaks = [8]
        var leaf = MarkdownRenderer.Node(.paragraph)
        leaf.text = 3..<10
        leaf.runs = 1..<3
        leaf.breaks = 0..<1
        #expect(tree.lineCount(leaf) == 2 && tree.lineRange(leaf, 0) == 3..<8 && tree.lineRange(leaf, 1) == 8..<10)
        var run = leaf.runs.lowerBound
        var pieces: [Range<Int>] = []
        tree.forEachPiece(of: leaf, line: 0, run: &run) { range, _ in pieces.append(range) }
        tree.forEachPiece(of: leaf, line: 1, run: &run) { range, _ in pieces.append(range) }
        #expect(pieces == [3..<5, 5..<8, 8..<10])
        var line = StyledLine()
        tree.append(leaf, to: &line)
        #expect(line.bytes == Array("abécde".utf8) && line.runs.map(\.end) == [2, 7] && line.style(of: line.runs[1]) == bold)
        // Onto a line with text (a spare's arrays, or a line going on): offsets shift.
        tree.append(leaf, to: &line)
        #expect(line.bytes == Array("abécdeabécde".utf8) && line.runs.map(\.end) == [2, 7, 9, 14])
        var cut = tree
        cut.truncate(leaf, to: 6)  // inside `é`: cut before it
        #expect(cut.bytes == Array("xyzab".utf8) && cut.runs.map(\.end) == [3, 5] && cut.breaks.isEmpty)
        cut.truncate(leaf, to: 3)  // all of the leaf: the run before it stays
        #expect(cut.bytes == Array("xyz".utf8) && cut.runs.map(\.end) == [3])
        let rest = tree.dropping(leaf, before: 5)
        #expect(rest.text == 5..<10 && rest.runs == 2..<3 && rest.breaks == 0..<1)
        #expect(tree.runStart(rest.runs.lowerBound, in: rest) == 5)
        // Grafted after a tree of one node: indices and offsets move.
        var document = MarkdownRenderer.Node(.document)
        document.childCount = 1
        document.first = 1
        document.end = 2
        leaf.end = 2
        tree.nodes = [document, leaf]
        var other = MarkdownRenderer.ParseTree()
        other.nodes = [MarkdownRenderer.Node(.table)]
        other.bytes = Array("0123".utf8)
        other.runs = [.init(end: 4, look: Style.plain.look)]
        other.graft(tree, from: 1, at: 0)
        #expect(other.nodes.count == 1 && other.nodes[0].text == 7..<14 && other.nodes[0].runs == 2..<4)
        #expect(other.runs.map(\.end) == [4, 7, 9, 14] && other.breaks == [12] && other.nodes[0].end == 1)
        #expect(other.string(other.nodes[0].text) == "abécde" && other.lineRange(other.nodes[0], 1) == 12..<14)
    }

    /// Runs hold a link as a number in their holder's targets: a line, a parse, a graft
    /// and a line made of a leaf read the same link back; lines are equal by their
    /// links' targets, not by their numbers.
    @Test func runsKeepTheirLinksThroughEveryHolder() {
        let a = Style(attributes: .underline, hyperlink: "https://a.example/"), b = Style(hyperlink: "https://b.example/")
        let boldA = Style(attributes: [.bold, .underline], hyperlink: "https://a.example/")
        var line = StyledLine()
        line.spans = [.init("one", style: a), .init("two", style: b), .init("three", style: a), .init("four")]
        #expect(line.spans.map(\.style) == [a, b, a, .plain])
        #expect(line.runs.map(\.link) == [1, 2, 3, 0])
        // A link's text in another style keeps its number.
        line.append(Array("five".utf8), style: boldA)
        line.append(Array("six".utf8), style: boldA)  // (merged)
        #expect(line.runs.count == 5 && line.style(of: line.runs[4]) == boldA && line.runs[4].link == 3 && line.linkTargets.count == 3)
        // The same text and styles, numbered otherwise: equal, and hashed alike.
        var other = StyledLine()
        for span in line.spans { other.append(span) }
        let renumbered = StyledLine(bytes: line.bytes, runs: line.runs.enumerated().map { k, run in
            .init(end: run.end, look: run.look, link: run.link == 0 ? 0 : k == 1 ? 2 : 1)
        }, linkTargets: ["https://a.example/", "https://b.example/"])
        #expect(other == line && renumbered == line && renumbered.hashValue == line.hashValue)
        var wrong = renumbered
        wrong.spans = renumbered.spans.map { span in span.style == b ? .init(span.text, style: a) : span }
        #expect(wrong != line)
        // A leaf of a parse, with links of its own, grafted onto a parse that has others.
        var tree = MarkdownRenderer.ParseTree()
        tree.bytes = Array("xyzabc".utf8)
        tree.runs = [.init(end: 3, style: b, targets: &tree.linkTargets), .init(end: 6, style: a, targets: &tree.linkTargets)]
        var leaf = MarkdownRenderer.Node(.paragraph)
        leaf.text = 3..<6
        leaf.runs = 1..<2
        leaf.end = 2
        var document = MarkdownRenderer.Node(.document)
        (document.childCount, document.first, document.end) = (1, 1, 2)
        tree.nodes = [document, leaf]
        var grafted = MarkdownRenderer.ParseTree()
        grafted.nodes = [MarkdownRenderer.Node(.table)]
        grafted.bytes = Array("0".utf8)
        grafted.runs = [.init(end: 1, style: b, targets: &grafted.linkTargets)]
        grafted.graft(tree, from: 1, at: 0)
        var fromLeaf = StyledLine()
        fromLeaf.append(Array("-".utf8), style: b)
        grafted.append(grafted.nodes[0], to: &fromLeaf)
        #expect(fromLeaf.spans == [.init("-", style: b), .init("abc", style: a)])
        var pieces: [Style] = []
        var run = grafted.nodes[0].runs.lowerBound
        grafted.forEachPiece(of: grafted.nodes[0], line: 0, run: &run) { _, style in pieces.append(style) }
        #expect(pieces == [a])
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
