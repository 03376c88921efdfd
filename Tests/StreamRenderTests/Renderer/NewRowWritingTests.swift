import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Rows of an empty inline region are written without a diff: from their frame
/// (`ANSIEncoder.encodeNewRows`) or, for final rows, drawn straight into bytes
/// (`RowCells`). Both must send the terminal the bytes the diff sends.
@Suite struct NewRowWritingTests {
    /// What `InlineView` diffs a new region's frame against: a blank frame whose blanks
    /// inside each row's text, and every cell of a row the terminal's wrap continues,
    /// were never sent. (Written here apart from the encoder's own rule.)
    static func unwrittenBlank(for frame: Frame) -> Frame {
        var previous = Frame(width: frame.width, height: frame.height)
        for r in 0..<frame.height {
            for c in 0..<frame.textEnd(row: r) where frame[r, c].isPlainBlank { previous.markUnwritten(row: r, column: c) }
            if r > 0 && frame.wraps(row: r - 1) { previous.markRowUnwritten(r - 1) }
        }
        return previous
    }

    static let cells: [(String, Int)] = [("x", 1), ("y", 1), (" ", 1), ("中", 2), ("é", 1), ("e\u{301}", 1), ("👍🏽", 2), (" \u{301}", 1)]

    @Test func newRowsOfAFrameAreTheDiffAgainstABlankFrame() {
        let seed = TestSeed.base(0x4E52_0001)
        var rng = SeededGenerator(seed: seed)
        var styles = StyleTable()
        let ids = [StyleID.plain, styles.intern(Style(attributes: .bold)), styles.intern(Style(foreground: .ansi(2))),
                   styles.intern(Style(foreground: .rgb(1, 2, 3), attributes: .underline, hyperlink: "https://example.com"))]
        for round in 0..<3000 {
            let width = [1, 2, 3, 4, 5, 8, 13].randomElement(using: &rng)!
            let height = Int.random(in: 0...6, using: &rng)
            var frame = Frame(width: width, height: height)
            for r in 0..<height {
                var column = Int.random(in: 0...2, using: &rng) == 0 ? Int.random(in: 0..<width, using: &rng) : 0
                for _ in 0..<Int.random(in: 0...(width + 2), using: &rng) where column < width {
                    let (text, w) = Self.cells.randomElement(using: &rng)!
                    let style = Int.random(in: 0...2, using: &rng) == 0 ? ids.randomElement(using: &rng)! : .plain
                    column = frame.put(text, width: w, style: style, row: r, column: column)
                    if Int.random(in: 0...5, using: &rng) == 0 { column += 1 }  // a gap
                }
                if Int.random(in: 0...3, using: &rng) == 0 { frame.setWraps(row: r) }
            }
            // The states an empty region starts in: the first frame, after a batch of
            // final rows (the cursor on the row above, perhaps wrap pending), and with
            // blank rows not yet made; the pen unknown or set.
            var encoder = ANSIEncoder(capabilities: [TerminalCapabilities.full, .full.withoutHyperlinks].randomElement(using: &rng)!,
                                      absoluteRows: false)
            switch Int.random(in: 0...2, using: &rng) {
            case 0: encoder.cursor = (0, 0); encoder.existingRows = 1
            case 1: encoder.cursor = (-1, Int.random(in: 0...width, using: &rng)); encoder.existingRows = 0
            default: encoder.cursor = (-2, Int.random(in: 0...width, using: &rng)); encoder.existingRows = -1
            }
            var junk: [UInt8] = []
            if Bool.random(using: &rng) { encoder.setStyle(styles[ids.randomElement(using: &rng)!], into: &junk) }
            var diffed = encoder, direct = encoder
            var want: [UInt8] = [], got: [UInt8] = []
            var diff = FrameDiff()
            diff.compute(from: Self.unwrittenBlank(for: frame), to: frame)
            diffed.encode(diff.changes, of: frame, styles: styles, into: &want)
            direct.encodeNewRows(of: frame, styles: styles, into: &got)
            #expect(got == want, "seed \(seed) round \(round): \(String(decoding: got, as: UTF8.self).debugDescription) != \(String(decoding: want, as: UTF8.self).debugDescription)")
            #expect(direct.cursor?.row == diffed.cursor?.row && direct.cursor?.column == diffed.cursor?.column
                    && direct.existingRows == diffed.existingRows, "seed \(seed) round \(round): encoder state")
            if got != want { return }
        }
    }

    /// A row's cells as bytes: a gap between cells is spaces, trailing plain blanks are
    /// not content, a cell drawn left of the row's end fails the row (a frame must
    /// draw it), and a frame's row reads back as the same bytes.
    @Test func rowCellsKeepWhatAFrameRowShows() {
        let bold = StyleID(rawValue: 1)
        var cells = RowCells(width: 10)
        "ab".utf8.withContiguousStorageIfAvailable { _ = cells.putRun($0, columns: 2, style: .plain, row: 0, column: 0) }
        _ = cells.put("中", width: 2, style: bold, row: 0, column: 3)
        " x  ".utf8.withContiguousStorageIfAvailable { _ = cells.putRun($0, columns: 4, style: .plain, row: 0, column: 5) }
        #expect(String(decoding: cells.bytes, as: UTF8.self) == "ab 中 x  ")
        #expect(cells.content.column == 7 && cells.content.bytes == "ab 中 x".utf8.count)
        #expect(cells.runs.map(\.style) == [.plain, bold, .plain])
        #expect(!cells.failed)
        var frame = Frame(width: 10, height: 1)
        frame.put("a", width: 1, row: 0, column: 0)
        frame.put("b", width: 1, row: 0, column: 1)
        frame.put("中", width: 2, style: bold, row: 0, column: 3)
        frame.put(" ", width: 1, row: 0, column: 5)
        frame.put("x", width: 1, row: 0, column: 6)
        let read = RowCells(row: 0, of: frame)
        #expect(read.bytes[..<read.content.bytes] == cells.bytes[..<cells.content.bytes])
        #expect(read.content.column == cells.content.column && read.runs.map(\.style) == [.plain, bold, .plain])
        _ = cells.put("y", width: 1, style: .plain, row: 0, column: 8)
        #expect(cells.failed, "a cell over one drawn before")
    }

    /// Streams `pieces` through an inline view writing new rows `how`, a frame after
    /// the pieces `frameAt` picks; returns every frame's bytes.
    static func frames(_ pieces: [String], width: Int, height: Int, policy: WidthPolicy, capabilities: TerminalCapabilities,
                       markdown: MarkdownOptions?, how: InlineView.NewRows, frameAt: Set<Int>, status: String? = nil,
                       resize: (at: Int, width: Int)? = nil) -> [[UInt8]] {
        var view = InlineView(settings: LayoutSettings(width: width, policy: policy), height: height,
                              capabilities: capabilities, markdown: markdown)
        view.newRows = how
        view.status = status
        var frames: [[UInt8]] = []
        InlineViewTests.drive(&view, pieces, policy: policy, height: height, frameAt: { frameAt.contains($0) },
                              resize: resize) { frames.append($0) }
        return frames
    }

    /// A prepended concatenation mark joins the space after it into one cell (GB9b): a
    /// cell that ends in a space but is no blank, also at the end of a row written
    /// straight into bytes (it was taken for a trailing blank there once).
    @Test func aCellEndingInASpaceIsNoBlankAtARowsEnd() {
        Self.expectNewRowsAreTheDiffedBytes("a\u{0600} b \u{06DD} c\u{110BD} d \u{0600}  e, 中\u{0600} x\n",
                                            widths: 2...7, policies: [.grapheme, .wcwidth])
    }

    /// `text` streamed whole into a view two rows high, at each width and policy: the
    /// new rows written straight, through cells and from a frame are the diffed frame's.
    static func expectNewRowsAreTheDiffedBytes(_ text: String, widths: ClosedRange<Int>, policies: [WidthPolicy]) {
        for width in widths {
            for policy in policies {
                let run = { (how: InlineView.NewRows) in
                    Self.frames([text], width: width, height: 2, policy: policy, capabilities: .full, markdown: nil,
                                how: how, frameAt: [0])
                }
                let diffed = run(.diffed)
                for how in [InlineView.NewRows.direct, .cells, .fromFrame] {
                    #expect(run(how) == diffed, "width \(width) \(policy) \(how)")
                }
            }
        }
    }

    /// A mark that starts a line (a spacing vowel sign, a combining accent, after a
    /// zero width space) is drawn on a space, a flag and a family are one cell under
    /// `wcwidth`: rows written straight from their bytes (lines whose bytes are their
    /// cells) are the diffed frames' under each policy; nor is a cell ending in a space
    /// (GB9b) taken for a blank.
    @Test func rowsOfClustersWrittenStraightAreTheDiffedBytes() {
        Self.expectNewRowsAreTheDiffedBytes(
            "\u{093E}ab \u{0903}cd नमस्ते\n\u{0301}x y\n\u{200B}\u{093E}z 👍🏽 🇯🇵 👩‍👩‍👧\n\u{0903}\u{0903} ok\nमा \u{0600} \nक्षत्रिय ❤️ 1️⃣ e\u{301}\n",
            widths: 2...12, policies: [.grapheme, .wcwidth, .scalars])
    }

    @Test func finalRowsWrittenWithoutAFrameAreTheDiffedBytes() {
        let seed = TestSeed.base(0x4E52_0002)
        var rng = SeededGenerator(seed: seed)
        var documents = [
            "answers/coding-answer.md", "answers/multilingual.md", "answers/sqlite-wal.md",
            "real/markdown/glamour--table_wrap.md", "real/markdown/marco--03_edge_cases.md",
            "real/markdown/art-of-command-line--README-zh.md",
        ].map { (name: $0, text: String(decoding: Fixtures.data($0), as: UTF8.self)) }
        for k in 0..<4 { documents.append(("random \(k)", RandomDocument.make(using: &rng, pieces: 300))) }

        for (name, text) in documents {
            for round in 0..<4 {
                let width = [3, 8, 24, 41, 80].randomElement(using: &rng)!
                let height = [2, 5, 24].randomElement(using: &rng)!
                let policy = [WidthPolicy.grapheme, .wcwidth].randomElement(using: &rng)!
                let capabilities = [TerminalCapabilities.full, .full.withoutHyperlinks, TerminalCapabilities()].randomElement(using: &rng)!
                let markdown = name.hasPrefix("random") && Bool.random(using: &rng)
                    ? nil : MarkdownOptions(theme: [MarkdownTheme.dark, .monochrome].randomElement(using: &rng)!, hyperlinks: Bool.random(using: &rng),
                                            codeWrapsLikeTerminal: Bool.random(using: &rng))
                let pieces = randomPieces(text, using: &rng, maxScalars: [12, 400, 4000].randomElement(using: &rng)!)
                let frameAt = Set(pieces.indices.filter { _ in Int.random(in: 0...3, using: &rng) == 0 })
                // A status line below the region, a resize while it streams.
                let status = Bool.random(using: &rng) ? "⠋ 1.2 s · 40 tok/s" : nil
                let resize = Bool.random(using: &rng)
                    ? (at: Int.random(in: 0..<pieces.count, using: &rng), width: [5, 30, 61].randomElement(using: &rng)!) : nil
                let run = { (how: InlineView.NewRows) in
                    Self.frames(pieces, width: width, height: height, policy: policy, capabilities: capabilities,
                                markdown: markdown, how: how, frameAt: frameAt, status: status, resize: resize)
                }
                let diffed = run(.diffed)
                for how in [InlineView.NewRows.fromFrame, .cells, .direct] {
                    let got = run(how)
                    let first = zip(got, diffed).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    #expect(first == nil && got.count == diffed.count,
                            "\(name) seed \(seed) round \(round) \(how) at \(width)x\(height): frame \(first ?? -1) differs")
                }
            }
        }
    }
}
