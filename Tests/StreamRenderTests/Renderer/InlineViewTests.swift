import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct InlineViewTests {
    static func trimmed(_ s: String) -> String {
        var t = s
        while t.hasSuffix(" ") { t.removeLast() }
        return t
    }

    /// Streams `pieces` through an inline view into a model terminal; returns the
    /// transcript (scrollback, then the screen down to the cursor) and the model.
    static func stream(_ pieces: [String], width: Int, height: Int, policy: WidthPolicy = .grapheme,
                       frameEvery: Int = 1, resize: (at: Int, width: Int)? = nil, limits: HistoryLimits = .standard,
                       markdown: MarkdownOptions? = nil, observe: (InlineView) -> Void = { _ in })
        -> (transcript: [String], model: ModelTerminal, view: InlineView) {
        var view = InlineView(settings: LayoutSettings(width: width, policy: policy), height: height,
                              capabilities: .full, limits: limits, markdown: markdown)
        var model = ModelTerminal(width: width, height: height, policy: policy)
        drive(&view, pieces, policy: policy, height: height, frameAt: { $0 % frameEvery == 0 }, resize: resize,
              // The terminal changes width (re-wrapping its rows) before the view hears of it.
              beforeResize: { model.resize(width: $0) }, observe: observe) { model.apply($0) }
        let transcript = (model.scrollback + model.rows.prefix(model.row)).map(trimmed)
        return (transcript, model, view)
    }

    /// Streams `pieces` through `view`: after piece `k`, a resize to `resize.width` if
    /// `k` is `resize.at` (`beforeResize` told first), else a frame if `frameAt(k)`;
    /// then the end and its frame. `written` gets the bytes of each write.
    static func drive(_ view: inout InlineView, _ pieces: [String], policy: WidthPolicy, height: Int,
                      frameAt: (Int) -> Bool, resize: (at: Int, width: Int)? = nil, beforeResize: (Int) -> Void = { _ in },
                      observe: (InlineView) -> Void = { _ in }, written: ([UInt8]) -> Void) {
        for (k, piece) in pieces.enumerated() {
            view.append(piece)
            observe(view)
            var out: [UInt8] = []
            if let resize, k == resize.at {
                beforeResize(resize.width)
                view.resize(to: LayoutSettings(width: resize.width, policy: policy), height: height, into: &out)
            } else if frameAt(k) {
                view.frame(into: &out)
            } else {
                continue
            }
            written(out)
        }
        view.finish()
        var out: [UInt8] = []
        view.frame(into: &out)
        written(out)
    }

    /// The final layout's lines as a terminal shows them (cells joined: zero-width
    /// text before a line's first cell shows nothing).
    /// `drawn`: as the live views draw cells (a leading combining mark on a space);
    /// false: as plain text is written (the fullscreen view's end).
    static func expected(_ text: String, width: Int, policy: WidthPolicy = .grapheme, drawn: Bool = true) -> [String] {
        let result = layOut([text], settings: LayoutSettings(width: width, policy: policy), check: false)
        let splitter = CellSplitter(policy: policy)
        // A cell that starts with a combining mark is drawn on a space (LineDrawer.standalone).
        return texts(result.lines, result.view).map { trimmed(splitter.cells(of: $0).map { drawn ? LineDrawer.standalone($0.text, policy: splitter.policy) : $0.text }.joined()) }
    }

    @Test func theFinalTextIsInTheScrollbackExactlyOnce() {
        let seed = TestSeed.base(555)
        var rng = SeededGenerator(seed: seed)
        for doc in 0..<60 {
            // Tabs and controls aside (the transcript compares shown text).
            let text = RandomDocument.make(using: &rng, pieces: Int.random(in: 1...60, using: &rng))
            let width = [2, 3, 7, 20, 40].randomElement(using: &rng)!
            let height = [2, 3, 5, 24].randomElement(using: &rng)!
            let policy: WidthPolicy = Bool.random(using: &rng) ? .grapheme : .wcwidth
            let pieces = randomPieces(text, using: &rng)
            let result = Self.stream(pieces, width: width, height: height, policy: policy,
                                     frameEvery: Int.random(in: 1...4, using: &rng))
            let want = Self.expected(text, width: width, policy: policy)
            if result.transcript != want {
                let i = (0..<min(want.count, result.transcript.count)).first { want[$0] != result.transcript[$0] } ?? min(want.count, result.transcript.count)
                Issue.record("seed \(seed) doc \(doc) \(width)x\(height) \(policy): line \(i): \(i < result.transcript.count ? result.transcript[i].debugDescription : "none") vs \(i < want.count ? want[i].debugDescription : "none")")
            }
            #expect(result.model.unknown.isEmpty && result.model.violations.isEmpty,
                    "seed \(seed) doc \(doc): \(result.model.unknown.prefix(3)) \(result.model.violations.prefix(3))")
            if result.transcript != want { return }
        }
    }

    /// A history limit below what one read makes final evicts no line the scrollback
    /// has yet to get: what is written is what is written without the limit (lines were
    /// lost once, and a code block wrapping like a terminal trapped on an evicted line).
    @Test func aHistoryLimitLosesNoLineNotYetWritten() {
        let seed = TestSeed.base(0x4157_0001)
        var rng = SeededGenerator(seed: seed)
        var evicted = 0
        for doc in 0..<40 {
            var text = RandomDocument.make(using: &rng, pieces: Int.random(in: 20...80, using: &rng))
            let markdown = Bool.random(using: &rng) ? MarkdownOptions(codeWrapsLikeTerminal: Bool.random(using: &rng)) : nil
            if markdown != nil {
                text += "\n\n```\n" + String(repeating: "let wide = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n", count: 9) + "```\n"
                text += Array(repeating: "- an item of a list\n", count: 6).joined() + "\nlast words\n"
            }
            let width = [3, 7, 20, 40].randomElement(using: &rng)!
            let height = [2, 5, 24].randomElement(using: &rng)!
            let pieces = randomPieces(text, using: &rng, maxScalars: [40, 400, 4000].randomElement(using: &rng)!)
            let frameEvery = Int.random(in: 1...8, using: &rng)
            let limited = Self.stream(pieces, width: width, height: height, frameEvery: frameEvery,
                                      limits: HistoryLimits(maximumLines: Int.random(in: 1...4, using: &rng)), markdown: markdown)
            let unlimited = Self.stream(pieces, width: width, height: height, frameEvery: frameEvery, markdown: markdown)
            evicted += limited.view.view.evictedLines
            #expect(limited.transcript == unlimited.transcript,
                    "seed \(seed) doc \(doc) \(width)x\(height) markdown \(markdown != nil): \(limited.transcript.count) lines vs \(unlimited.transcript.count)")
            #expect(limited.model.unknown.isEmpty && limited.model.violations.isEmpty, "seed \(seed) doc \(doc)")
        }
        #expect(evicted > 1_000, "the limit evicted \(evicted) lines: it is not what is tested")
    }

    /// What the inline view has written is the terminal's: however long the answer, it
    /// holds only a little history (as plain output does), and the scrollback still has
    /// every line once.
    @Test func theViewHoldsLittleHistoryAndTheScrollbackAll() {
        let text = (0..<3_000).map { "paragraph \($0) of a long answer, wrapped at forty columns here" }.joined(separator: "\n")
        var rng = SeededGenerator(seed: TestSeed.base(0x4157_0002))
        let pieces = randomPieces(text, using: &rng, maxScalars: 400)
        var held = 0
        let result = Self.stream(pieces, width: 40, height: 5, frameEvery: 3) { view in
            held = max(held, view.view.layout.lineCount)
        }
        #expect(result.transcript == Self.expected(text, width: 40))
        #expect(result.view.view.evictedLines > 5_000, "\(result.view.view.evictedLines) lines evicted")
        #expect(held < 2 * PlainView.heldLines, "\(held) lines held at most")
    }

    @Test func aRegionGrowingPastTheViewportThenChangingItsFirstLine() {
        // At width 3 the unfinished tail of a word spans more rows than the screen;
        // the rows that do not fit are held back until final, so the first live row
        // can still change on screen, and nothing is written twice.
        let text = "abcdefghijklmnopq rstu e\u{301}\u{301} vwxyz"
        var maxLive = 0
        let result = Self.stream(text.unicodeScalars.map { String($0) }, width: 3, height: 3) { view in
            maxLive = max(maxLive, view.view.layout.provisionalLines(in: view.view.document).count)
        }
        #expect(maxLive > 3, "the live tail never outgrew the screen; the test does not test it")
        #expect(result.transcript == Self.expected(text, width: 3))
    }

    @Test func onlyTheLiveTailIsRedrawn() {
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 40)
        let pieces = text.map { String($0) }
        let result = Self.stream(pieces, width: 40, height: 10)
        #expect(result.transcript == Self.expected(text, width: 40))
        // Each character is written about once: the bytes stay close to the text's.
        #expect(result.view.bytesWritten < text.utf8.count * 3, "\(result.view.bytesWritten) bytes for \(text.utf8.count)")
    }
}

extension InlineViewTests {
    /// A resize mid-stream repaints the live region at the new width; the text read
    /// back is the whole answer, nothing lost and nothing written twice.
    @Test func aResizeMidStreamLosesAndRepeatsNothing() {
        let seed = TestSeed.base(9090)
        var rng = SeededGenerator(seed: seed)
        for doc in 0..<30 {
            let text = RandomDocument.make(using: &rng, pieces: Int.random(in: 20...80, using: &rng))
                .filter { $0 != "\t" }  // tab expansion differs between widths
            let pieces = randomPieces(text, using: &rng)
            let at = Int.random(in: 0..<pieces.count, using: &rng)
            let narrower = [13, 25, 40].randomElement(using: &rng)!
            let model = Self.stream(pieces, width: 40, height: 6, resize: (at, narrower)).model
            // Visible base characters only: marks and joiners at a line's start show
            // nothing on their own (and whitespace differs with the width).
            func visible(_ s: String) -> String {
                String(String.UnicodeScalarView(s.unicodeScalars.filter { scalar in
                    let p = scalar.properties
                    return !p.isWhitespace && ![.nonspacingMark, .enclosingMark, .spacingMark, .format, .control].contains(p.generalCategory)
                }))
            }
            let shown = visible((model.scrollback + model.rows.prefix(model.row)).joined())
            var sanitizer = ControlSanitizer()
            var clean = sanitizer.sanitize(text)
            sanitizer.finish(into: &clean)
            let splitter = CellSplitter(policy: .grapheme)
            let want = clean.split(separator: "\n", omittingEmptySubsequences: false)
                .map { splitter.cells(of: String($0)).map(\.text).joined() }.joined()
            #expect(shown == visible(want), "seed \(seed) doc \(doc) resized at piece \(at)")
        }
    }
}

extension InlineViewTests {
    /// A code line wider than the screen streams in a fenced block: its rows wait in the
    /// live region until it is whole. A narrowing by more than half re-wraps them into
    /// more rows than the screen has, and the terminal pushes the first into its
    /// scrollback; they are not drawn again (a code line's text keeps its place as it
    /// grows). Every letter ends in the terminal once, at every moment of the resize.
    /// (Ending in `é`, the whole line is no longer printable ASCII: it is then drawn with
    /// a continuation mark's prefix, where its rows waited without one.)
    @Test(arguments: ["", " é"])
    func aCodeLinePushedOutByANarrowingIsNotDrawnAgain(ending: String) {
        let long = (0..<60).map { "tok\($0)" }.joined(separator: " ") + ending
        let head = "Intro.\n\n```swift\nlet a = 1\n" + long
        let text = head + "\nlet b = 2\n```\n\nEnd.\n"
        let pieces = text.map { String($0) }
        func letters(_ rows: [String]) -> [Character] {
            rows.joined().filter { c in
                !c.isWhitespace && c != "↪" && !c.unicodeScalars.contains { (0x2500...0x257F).contains($0.value) }
            }.sorted()
        }
        // `screen`: the terminal's rows (a view asked to be 12 rows high in a taller
        // terminal: nothing is pushed out, and everything is drawn again).
        func run(resizeAt at: Int?, to width: Int, screen: Int = 12) -> (letters: [Character], repeated: Int) {
            var view = InlineView(settings: LayoutSettings(width: 50), height: 12, capabilities: .full, markdown: MarkdownOptions())
            var model = ModelTerminal(width: 50, height: screen, policy: .grapheme)
            for (k, piece) in pieces.enumerated() {
                view.append(piece)
                var out: [UInt8] = []
                if k == at {
                    model.resize(width: width)
                    view.relayout(to: LayoutSettings(width: width), height: 12, screenRows: screen, into: &out)
                }
                view.frame(into: &out)
                model.apply(out)
            }
            view.finish()
            var out: [UInt8] = []
            view.frame(into: &out)
            model.apply(out)
            #expect(model.unknown.isEmpty && model.violations.isEmpty)
            return (letters(model.scrollback + model.rows.prefix(model.row)), view.rowsRepeatedByResizes)
        }
        let want = run(resizeAt: nil, to: 50).letters
        // (Also as the line ends: made whole, its format may change before the resize.)
        let points = Array(stride(from: 20, to: pieces.count, by: 13)) + [head.count - 1, head.count, head.count + 1]
        for (width, screen) in [(20, 12), (24, 12), (20, 40)] {
            for at in points {
                let (got, repeated) = run(resizeAt: at, to: width, screen: screen)
                #expect(repeated == 0 && got == want,
                        "resized to \(width) (\(screen) rows) at piece \(at): \(got.count) letters, \(want.count) wanted")
            }
        }
    }
}
