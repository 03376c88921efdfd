import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct PaneViewTests {
    /// One screen: a frame composed by the test, diffed and encoded into a model terminal.
    struct Screen {
        var frame: Frame
        var shown: Frame
        var styles = StyleTable()
        var encoder = ANSIEncoder(capabilities: .full, absoluteRows: true)
        var diff = FrameDiff()
        var model: ModelTerminal

        init(width: Int, height: Int, policy: WidthPolicy) {
            frame = Frame(width: width, height: height)
            shown = frame
            model = ModelTerminal(width: width, height: height, policy: policy)
        }

        mutating func flush() {
            diff.compute(from: shown, to: frame)
            var out: [UInt8] = []
            encoder.encode(diff.changes, of: frame, styles: styles, into: &out)
            model.apply(out)
            shown = frame
        }

        /// The model terminal's text in `columns` of `row` (a wide cluster counted at its first column).
        func text(row: Int, columns: Range<Int>) -> String {
            columns.filter { !model.screen[row, $0].isContinuation }.map { model.screen[row, $0].text }.joined()
        }
    }

    /// What a pane should show: the tail of its document, each line's text as cells.
    static func expectedRows(_ pane: PaneView) -> [String] {
        var document = pane.view
        document.updateProvisional()
        let splitter = CellSplitter(policy: document.layout.settings.policy)
        // A cell that starts with a combining mark is drawn on a space (see LineDrawer.standalone).
        let rows = document.tail(pane.height).lines.map {
            InlineViewTests.trimmed(splitter.cells(of: document.plainText(of: $0)).map { LineDrawer.standalone($0.text, policy: splitter.policy) }.joined())
        }
        return rows + Array(repeating: "", count: pane.height - rows.count)
    }

    @Test func twoPanesSideBySideShowTheirTailsOnTheModelTerminal() {
        let seed = TestSeed.base(1313)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<40 {
            let width = [5, 9, 23, 41].randomElement(using: &rng)!
            let height = [2, 3, 6, 12].randomElement(using: &rng)!
            let policy: WidthPolicy = Bool.random(using: &rng) ? .grapheme : .wcwidth
            let markdown: MarkdownOptions? = Bool.random(using: &rng) ? MarkdownOptions(theme: .dark) : nil
            // Left pane, a separator column, right pane; a status row below them.
            let leftWidth = (width - 1) / 2, rightWidth = width - leftWidth - 1
            var panes = [
                PaneView(settings: LayoutSettings(width: leftWidth, policy: policy), height: height - 1,
                         markdown: markdown),
                PaneView(settings: LayoutSettings(width: rightWidth, policy: policy), height: height - 1,
                         left: leftWidth + 1, markdown: markdown),
            ]
            var pieces = [
                randomPieces(RandomDocument.make(using: &rng, pieces: Int.random(in: 1...40, using: &rng)), using: &rng),
                randomPieces(RandomDocument.make(using: &rng, pieces: Int.random(in: 1...40, using: &rng)), using: &rng),
            ]
            var screen = Screen(width: width, height: height, policy: policy)
            for r in 0..<height - 1 { screen.frame.put("│", width: 1, row: r, column: leftWidth) }
            while !pieces[0].isEmpty || !pieces[1].isEmpty {
                let k = pieces[0].isEmpty ? 1 : pieces[1].isEmpty ? 0 : Int.random(in: 0...1, using: &rng)
                let piece = pieces[k].removeFirst()
                panes[k].append(piece)
                for p in panes.indices { panes[p].draw(into: &screen.frame, styles: &screen.styles) }
                screen.frame._invariantCheck()
                screen.flush()
                let context = "seed \(seed) round \(round) \(width)x\(height) \(policy) markdown \(markdown != nil)"
                #expect(screen.model.mismatch(with: screen.frame, styles: screen.styles, encoder: screen.encoder) == nil,
                        "\(context)")
                for p in panes.indices {
                    let want = Self.expectedRows(panes[p])
                    let got = (0..<height - 1).map {
                        InlineViewTests.trimmed(screen.text(row: $0, columns: panes[p].left..<panes[p].left + panes[p].width))
                    }
                    #expect(got == want, "\(context) pane \(p)")
                    if got != want { return }
                }
                // Neither pane wrote outside its rectangle.
                #expect((0..<height - 1).allSatisfy { screen.model.screen[$0, leftWidth].text == "│" }, "\(context)")
                #expect(screen.text(row: height - 1, columns: 0..<width).allSatisfy { $0 == " " }, "\(context)")
            }
            #expect(screen.model.unknown.isEmpty && screen.model.violations.isEmpty,
                    "\(screen.model.unknown.prefix(3)) \(screen.model.violations.prefix(3))")
        }
    }

    @Test func aCombiningMarkThatStartsAParagraphStaysInItsPane() {
        // In grapheme mode a paragraph that starts with a combining mark is a cell of
        // width 1; written alone, the terminal would add it to the rule on its left.
        var screen = Screen(width: 11, height: 3, policy: .grapheme)
        for r in 0..<3 { screen.frame.put("│", width: 1, row: r, column: 5) }
        var left = PaneView(settings: LayoutSettings(width: 5), height: 3)
        var right = PaneView(settings: LayoutSettings(width: 5), height: 3, left: 6,
                             markdown: MarkdownOptions(theme: .monochrome))
        left.append("abc")
        right.append("\u{301}xy\n\n> \u{301}z")  // also after a prefix (the quote's bar)
        left.draw(into: &screen.frame, styles: &screen.styles)
        right.draw(into: &screen.frame, styles: &screen.styles)
        screen.flush()
        #expect(screen.model.mismatch(with: screen.frame, styles: screen.styles, encoder: screen.encoder) == nil)
        #expect((0..<3).allSatisfy { screen.model.screen[$0, 5].text == "│" })
        #expect(screen.text(row: 0, columns: 6..<11) == " \u{301}xy  ")
        #expect(screen.text(row: 2, columns: 6..<11).hasSuffix(" \u{301}z "))
    }

    @Test func eachDocumentsStylesAreInternedIntoTheScreensTable() {
        var screen = Screen(width: 40, height: 3, policy: .grapheme)
        // Ids the documents also use (1, 2...) already name other styles on the screen.
        _ = screen.styles.intern(Style(foreground: .red, attributes: .underline))
        _ = screen.styles.intern(Style(background: .blue))
        var left = PaneView(settings: LayoutSettings(width: 19), height: 3, markdown: MarkdownOptions(theme: .dark))
        var right = PaneView(settings: LayoutSettings(width: 20), height: 3, left: 20,
                             markdown: MarkdownOptions(theme: .monochrome))
        left.append("**bold** and *it*\n")
        right.append("*it* and **bold**\n")
        left.draw(into: &screen.frame, styles: &screen.styles)
        right.draw(into: &screen.frame, styles: &screen.styles)
        screen.flush()
        #expect(screen.model.mismatch(with: screen.frame, styles: screen.styles, encoder: screen.encoder) == nil)
        func style(_ column: Int) -> Style { screen.styles[screen.frame[0, column].style] }
        #expect(screen.text(row: 0, columns: 0..<19).hasPrefix("bold and it"))
        #expect(screen.text(row: 0, columns: 20..<40).hasPrefix("it and bold"))
        #expect(style(0).attributes.contains(.bold) && style(9).attributes.contains(.italic))  // left "b", "i"
        #expect(style(20).attributes.contains(.italic) && style(27).attributes.contains(.bold))  // right "i", "b"
        #expect(style(5) == .plain && style(25) == .plain)  // the spaces between
        // The screen's own styles are untouched.
        #expect(screen.styles[StyleID(rawValue: 1)] == Style(foreground: .red, attributes: .underline))
        #expect(screen.styles[StyleID(rawValue: 2)] == Style(background: .blue))
    }

    @Test func aPaneWritesOnlyItsRectangle() {
        var frame = Frame(width: 12, height: 6)
        for r in 0..<6 { for c in 0..<12 { frame.put("x", width: 1, row: r, column: c) } }
        var styles = StyleTable()
        var pane = PaneView(settings: LayoutSettings(width: 5), height: 3, top: 1, left: 2)
        pane.append("ab 日本 c\nd")
        pane.draw(into: &frame, styles: &styles)
        frame._invariantCheck()
        for r in 0..<6 {
            for c in 0..<12 where !(1..<4).contains(r) || !(2..<7).contains(c) {
                #expect(frame[r, c].text == "x", "row \(r) column \(c)")
            }
        }
        // "ab 日本 c" wraps at 5 columns: "ab 日" and "本 c"; then "d"; the tail fits 3 rows.
        #expect((1..<4).map { frame.text(row: $0) } == ["xxab 日xxxxx", "xx本 c xxxxx", "xxd    xxxxx"])
        // A pane past the frame's right edge draws what fits; a wide cluster is never cut.
        var edge = PaneView(settings: LayoutSettings(width: 6), height: 1, top: 5, left: 9)
        edge.append("ab日本")
        edge.draw(into: &frame, styles: &styles)
        frame._invariantCheck()
        #expect(frame.text(row: 5) == "xxxxxxxxxab ")
        // ...and past its left edge: a wide cluster whose first half is off the frame is blanked.
        var before = PaneView(settings: LayoutSettings(width: 4), height: 1, top: 0, left: -1)
        before.append("日本")
        before.draw(into: &frame, styles: &styles)
        frame._invariantCheck()
        #expect(frame.text(row: 0) == " 本xxxxxxxxx")
    }

    @Test func resizeRewrapsAtTheNewSize() {
        var frame = Frame(width: 20, height: 4)
        var styles = StyleTable()
        var pane = PaneView(settings: LayoutSettings(width: 20), height: 4)
        pane.append("one two three four five six")
        pane.draw(into: &frame, styles: &styles)
        #expect(frame.text(row: 0) == "one two three four  ")
        pane.resize(to: LayoutSettings(width: 9), height: 2)
        pane.left = 11
        frame = Frame(width: 20, height: 4)
        pane.draw(into: &frame, styles: &styles)
        // The last two lines of "one two / three / four five / six" at 9 columns.
        #expect((0..<4).map { frame.text(row: $0) } ==
                ["           four five", "           six      ", String(repeating: " ", count: 20), String(repeating: " ", count: 20)])
    }
}
