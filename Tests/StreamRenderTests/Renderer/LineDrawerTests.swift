import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// Which cells the live views draw on a space (`LineDrawer.standalone`): letters and
/// the like are told apart by ICU's cached properties, the rest by the standard
/// library's; checked here against the standard library's rule alone, written apart,
/// for every scalar (those ICU's Unicode does not know yet too: a newer terminal may
/// join a new mark to the cell before).
@Suite struct LineDrawerTests {
    static func expectedNeedsBase(_ scalar: Unicode.Scalar, policy: WidthPolicy) -> Bool {
        let value = scalar.value
        // Arrows, operators, shapes and the simple scalars hold no mark (nor does text below U+0300).
        if value < 0x300 || (0x2190...0x2BFF).contains(value) || SimpleText.width(of: value) != nil { return false }
        let p = scalar.properties
        let spacing = p.generalCategory == .spacingMark
        if policy.mode != .grapheme && spacing && !p.isGraphemeExtend { return false }
        return p.isGraphemeExtend || spacing || value == 0x200D
    }

    @Test func cellsThatStartWithAMarkAreDrawnOnASpace() {
        var marks = 0, checked = 0
        var differ: [String] = []
        for value in UInt32(0x300)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let text = String(Character(scalar))
                let expected = Self.expectedNeedsBase(scalar, policy: policy)
                if LineDrawer.standalone(text, policy: policy) != (expected ? " " + text : text) {
                    differ.append("U+\(String(value, radix: 16, uppercase: true)) \(policy.mode)")
                }
                if expected { marks += 1 }
                checked += 1
            }
        }
        #expect(differ.isEmpty, "\(differ.count): \(differ.prefix(40).joined(separator: ", "))")
        // (The Unicode 16 marks ICU 72 does not know, such as U+0897, among them.)
        #expect(LineDrawer.standalone("\u{0897}") == " \u{0897}" && LineDrawer.standalone("\u{0E33}") == "\u{0E33}")
        #expect(marks > 4_000 && checked > 2_000_000, "\(marks) of \(checked)")
    }

    /// A line the layout marks simple (`VisualLine.isSimple`: its width is not measured
    /// again) draws the cells it draws unmarked, into a row of bytes and into a frame,
    /// for markdown and plain text of every kind at several widths and both policies
    /// (a debug build also asserts the width at each simple line drawn).
    @Test func aSimpleLineDrawsAsItDoesMeasured() {
        let seed = TestSeed.base(0x51AA_0001)
        var rng = SeededGenerator(seed: seed)
        var simple = 0
        for round in 0..<60 {
            var text = ""
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let paragraph = OnePassLayoutTests.randomParagraph(using: &rng)
                text += ["", "- ", "> ", "# ", "1. ", "| a | b |\n|---|---|\n| "].randomElement(using: &rng)! + paragraph
                text += ["\n", "\n\n", "\n---\n"].randomElement(using: &rng)!
            }
            let width = [1, 7, 20, 33, 80].randomElement(using: &rng)!
            let policy = [WidthPolicy.grapheme, .wcwidth, WidthPolicy(mode: .grapheme, ambiguousIsWide: true)].randomElement(using: &rng)!
            let settings = LayoutSettings(width: width, policy: policy)
            var view = Bool.random(using: &rng)
                ? WrappedDocument(settings: settings, markdown: MarkdownOptions()) : WrappedDocument(settings: settings)
            view.append(text)
            view.finish()
            let splitter = CellSplitter(policy: policy)
            for line in view.allLines() {
                var measured = line
                measured.isSimple = false
                if line.isSimple { simple += 1 }
                var hinted = RowCells(width: width), plain = RowCells(width: width)
                LineDrawer.draw(line, row: 0, in: &hinted, view: view, splitter: splitter)
                LineDrawer.draw(measured, row: 0, in: &plain, view: view, splitter: splitter)
                #expect(hinted.bytes == plain.bytes && hinted.runs.map(\.style) == plain.runs.map(\.style)
                        && hinted.content == plain.content && hinted.failed == plain.failed,
                        "seed \(seed) round \(round) \(line) at \(width) \(policy)")
                var hintedFrame = Frame(width: width, height: 1), plainFrame = Frame(width: width, height: 1)
                LineDrawer.draw(line, row: 0, in: &hintedFrame, view: view, splitter: splitter)
                LineDrawer.draw(measured, row: 0, in: &plainFrame, view: view, splitter: splitter)
                #expect(hintedFrame == plainFrame, "seed \(seed) round \(round) \(line) at \(width) \(policy) (frame)")
            }
        }
        #expect(simple > 500, "simple lines drawn: \(simple)")
    }

    /// A rule's fill, drawn as one run of its copies, shows what the plain text of its
    /// line says (written apart: `WrappedDocument.plainText(of:)`) at every width, under
    /// each policy (ambiguous-wide draws it a copy at a time), after a prefix too.
    @Test func aFillDrawsAsManyCopiesAsFit() {
        for policy in [WidthPolicy.grapheme, .wcwidth, WidthPolicy(mode: .grapheme, ambiguousIsWide: true)] {
            for width in 1...23 {
                var view = WrappedDocument(settings: LayoutSettings(width: width, policy: policy), markdown: MarkdownOptions())
                view.append("a\n\n---\n\n> b\n>\n> ***\n\nc\n")
                view.finish()
                let splitter = CellSplitter(policy: policy)
                var rules = 0
                for line in view.allLines() where view.decoration(of: line).fill != nil {
                    rules += 1
                    var frame = Frame(width: width, height: 1), cells = RowCells(width: width)
                    LineDrawer.draw(line, row: 0, in: &frame, view: view, splitter: splitter)
                    LineDrawer.draw(line, row: 0, in: &cells, view: view, splitter: splitter)
                    let want = view.plainText(of: line).trimmingSuffix(" ")
                    #expect(frame.text(row: 0).trimmingSuffix(" ") == want, "\(policy) at \(width)")
                    #expect(String(decoding: cells.bytes[..<cells.content.bytes], as: UTF8.self).trimmingSuffix(" ") == want, "\(policy) at \(width)")
                }
                #expect(rules == 2, "\(policy) at \(width)")
            }
        }
    }
}

private extension String {
    func trimmingSuffix(_ c: Character) -> String {
        var s = self
        while s.last == c { s.removeLast() }
        return s
    }
}
