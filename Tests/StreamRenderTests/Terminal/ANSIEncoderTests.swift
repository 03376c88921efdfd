import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Frames built from text the way the live view builds them (cells cut by policy).
struct FrameBuilder {
    var styles = StyleTable()
    let splitter: CellSplitter

    init(policy: WidthPolicy) { splitter = CellSplitter(policy: policy) }

    /// Writes `text` in `style` on `row` from `column`; stops at the edge.
    @discardableResult
    mutating func write(_ text: String, style: Style = .plain, row: Int, column: Int, in frame: inout Frame) -> Int {
        let id = styles.intern(style)
        var c = column
        for (cell, w) in splitter.cells(of: text) {
            if c + w > frame.width { break }
            c = frame.put(cell, width: w, style: id, row: row, column: c)
        }
        return c
    }
}

/// Applies frame after frame through FrameDiff and ANSIEncoder to a model terminal.
struct Harness {
    var model: ModelTerminal
    var encoder: ANSIEncoder
    var shown: Frame
    var diff = FrameDiff()
    var bytesWritten = 0

    init(width: Int, height: Int, policy: WidthPolicy, capabilities: TerminalCapabilities = .full, absolute: Bool = true) {
        model = ModelTerminal(width: width, height: height, policy: policy)
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: absolute)
        encoder.cursor = (0, 0)
        shown = Frame(width: width, height: height)
    }

    /// Shows `frame`; returns the bytes written and the first mismatch, if any.
    @discardableResult
    mutating func show(_ frame: Frame, styles: StyleTable) -> (bytes: [UInt8], mismatch: String?) {
        diff.compute(from: shown, to: frame)
        var out: [UInt8] = []
        encoder.synchronized(&out) { encoder.encode(diff.changes, of: frame, styles: styles, into: &$0) }
        model.apply(out)
        shown = frame
        bytesWritten += out.count
        var problem = model.mismatch(with: frame, styles: styles, encoder: encoder)
        if problem == nil, let v = model.violations.first { problem = v }
        if problem == nil, let u = model.unknown.first { problem = "unknown sequence: \(u)" }
        if problem == nil, !model.scrollback.isEmpty { problem = "the screen scrolled" }
        return (out, problem)
    }
}

@Suite struct ANSIEncoderTests {
    static let pool = ["a", "b", "Z", " ", " ", "中", "日", "❤️", "👨‍👩", "🇫🇷", "e\u{301}", "👍🏽", "1️⃣", "ｆ", "-", "é"]
    static let palette: [Style] = [
        .plain, Style(attributes: .bold), Style(attributes: .dim), Style(attributes: [.bold, .dim]),
        Style(foreground: .red), Style(foreground: .ansi(12), background: .blue, attributes: .italic),
        Style(foreground: .palette(208), attributes: .underline), Style(foreground: .rgb(10, 200, 30), background: .rgb(40, 40, 40)),
        Style(background: .yellow), Style(attributes: [.inverse, .strikethrough]),
        Style(foreground: .cyan, hyperlink: "https://example.com/a"), Style(hyperlink: "https://example.com/b\u{1B}x"),
    ]

    @Test func randomFrameSequencesReachTheModelTerminalExactly() {
        let seed = TestSeed.base(2026)
        var rng = SeededGenerator(seed: seed)
        var frames = 0
        for sequence in 0..<150 {
            let policy: WidthPolicy = Bool.random(using: &rng) ? .grapheme : .wcwidth
            var width = Int.random(in: 1...14, using: &rng)
            var height = Int.random(in: 1...5, using: &rng)
            let absolute = Bool.random(using: &rng)
            var caps = TerminalCapabilities.full
            caps.colors = TerminalCapabilities.ColorSupport.allCases.randomElement(using: &rng)!
            caps.hyperlinks = Bool.random(using: &rng)
            caps.synchronizedOutput = Bool.random(using: &rng)
            var builder = FrameBuilder(policy: policy)
            var harness = Harness(width: width, height: height, policy: policy, capabilities: caps, absolute: absolute)
            var current = Frame(width: width, height: height)
            for step in 0..<25 {
                if absolute && Int.random(in: 0..<12, using: &rng) == 0 {
                    // A resize: the screen is cleared and everything repainted.
                    width = Int.random(in: 1...14, using: &rng)
                    height = Int.random(in: 1...5, using: &rng)
                    harness = Harness(width: width, height: height, policy: policy, capabilities: caps, absolute: true)
                    harness.encoder.cursor = nil
                    current = Frame(width: width, height: height)
                }
                // Change a few random spans of the current frame (or all of it).
                let edits = Int.random(in: 0..<6, using: &rng) == 0 ? height * 3 : Int.random(in: 1...3, using: &rng)
                for _ in 0..<edits {
                    let row = Int.random(in: 0..<height, using: &rng)
                    let column = Int.random(in: 0..<width, using: &rng)
                    var text = ""
                    for _ in 0..<Int.random(in: 1...6, using: &rng) { text += Self.pool.randomElement(using: &rng)! }
                    builder.write(text, style: Self.palette.randomElement(using: &rng)!, row: row, column: column, in: &current)
                    if Int.random(in: 0..<8, using: &rng) == 0 { current.clear(row: row) }
                }
                current._invariantCheck()
                let result = harness.show(current, styles: builder.styles)
                #expect(result.mismatch == nil, "seed \(seed) sequence \(sequence) step \(step) \(policy) \(width)x\(height) absolute \(absolute): \(result.mismatch ?? "")")
                if result.mismatch != nil { return }
                frames += 1
            }
        }
        #expect(frames > 3000)
    }

    @Test(arguments: [WidthPolicy.grapheme, .wcwidth])
    func aWideCharReplacedByNarrowTextLeavesNoResidue(_ policy: WidthPolicy) {
        var b = FrameBuilder(policy: policy)
        var h = Harness(width: 6, height: 1, policy: policy)
        var f = Frame(width: 6, height: 1)
        b.write("中文字", row: 0, column: 0, in: &f)
        #expect(h.show(f, styles: b.styles).mismatch == nil)
        b.write("abc", row: 0, column: 1, in: &f)  // over the right half of 中 and the left of 文
        #expect(f.text(row: 0) == " abc字")
        #expect(h.show(f, styles: b.styles).mismatch == nil)
        #expect(h.model.rows == [" abc字"])
    }

    @Test func aStyleOnlyChangeOnAWideCharRepaintsItWhole() {
        var b = FrameBuilder(policy: .grapheme)
        var h = Harness(width: 4, height: 1, policy: .grapheme)
        var f = Frame(width: 4, height: 1)
        b.write("x中y", row: 0, column: 0, in: &f)
        h.show(f, styles: b.styles)
        b.write("中", style: Style(attributes: .bold), row: 0, column: 1, in: &f)
        var diff = FrameDiff()
        diff.compute(from: h.shown, to: f)
        #expect(diff.changes == [FrameDiff.Change(row: 0, column: 1)])
        let r = h.show(f, styles: b.styles)
        #expect(r.mismatch == nil)
        #expect(String(decoding: r.bytes, as: UTF8.self).contains("中"))
    }

    /// Cells are equal when they send the same bytes: a cluster replaced by its
    /// canonical equivalent (é precomposed, then as e + U+0301) is a change, and long
    /// clusters (marks cut from an endless stack) compare byte for byte too.
    @Test func cellsCompareByteForByte() {
        #expect(Cell("\u{E9}") != Cell("e\u{301}"))
        #expect(Cell("e\u{301}") == Cell("e" + "\u{301}"))
        let marks = String(repeating: "\u{301}\u{302}", count: 40)
        #expect(Cell("a" + marks) == Cell("a" + String(repeating: "\u{301}\u{302}", count: 40)))
        // (The same length, the last mark differs.)
        let other = String(String.UnicodeScalarView(marks.unicodeScalars.dropLast())) + "\u{303}"
        #expect(other.utf8.count == marks.utf8.count && Cell("a" + marks) != Cell("a" + other))
        #expect(Cell("a" + marks) != Cell("a" + marks, style: StyleID(rawValue: 3)))
        var b = FrameBuilder(policy: .grapheme)
        var h = Harness(width: 4, height: 1, policy: .grapheme)
        var f = Frame(width: 4, height: 1)
        b.write("\u{E9}x", row: 0, column: 0, in: &f)
        h.show(f, styles: b.styles)
        b.write("e\u{301}", row: 0, column: 0, in: &f)
        var diff = FrameDiff()
        diff.compute(from: h.shown, to: f)
        #expect(diff.changes == [FrameDiff.Change(row: 0, column: 0)])
    }

    @Test(arguments: [WidthPolicy.grapheme, .wcwidth])
    func theCursorDoesNotDriftAfterEmojiFlagsAndCombiningMarks(_ policy: WidthPolicy) {
        for lead in ["❤️", "👨‍👩", "🇫🇷", "e\u{301}", "👍🏽", "1️⃣"] {
            var b = FrameBuilder(policy: policy)
            var h = Harness(width: 12, height: 2, policy: policy, absolute: false)
            var f = Frame(width: 12, height: 2)
            let after = b.write(lead, row: 0, column: 0, in: &f)
            b.write("ab", row: 0, column: after, in: &f)
            #expect(h.show(f, styles: b.styles).mismatch == nil, "\(lead) \(policy)")
            // Change only what follows the lead: the encoder moves relative to it.
            b.write("XY", row: 0, column: after, in: &f)
            b.write("z", row: 1, column: 0, in: &f)
            let r = h.show(f, styles: b.styles)
            #expect(r.mismatch == nil, "\(lead) \(policy): \(r.mismatch ?? "")")
        }
    }

    @Test func eraseAfterAColouredRowLeavesTheDefaultBackground() {
        var b = FrameBuilder(policy: .grapheme)
        var h = Harness(width: 10, height: 2, policy: .grapheme)
        var f = Frame(width: 10, height: 2)
        b.write("coloured  ", style: Style(background: .red), row: 0, column: 0, in: &f)
        b.write("second row", style: Style(background: .blue), row: 1, column: 0, in: &f)
        h.show(f, styles: b.styles)
        f.clear(row: 0)
        b.write("x", style: Style(background: .green), row: 0, column: 0, in: &f)
        let r = h.show(f, styles: b.styles)
        #expect(r.mismatch == nil, "\(r.mismatch ?? "")")
        #expect(String(decoding: r.bytes, as: UTF8.self).contains("\u{1B}[K"))
        #expect(h.model.styles[h.model.screen[0, 5].style].background == .default)
    }

    @Test func aFullBottomRowDoesNotScroll() {
        for absolute in [true, false] {
            var b = FrameBuilder(policy: .grapheme)
            var h = Harness(width: 5, height: 2, policy: .grapheme, absolute: absolute)
            var f = Frame(width: 5, height: 2)
            b.write("abcde", row: 1, column: 0, in: &f)
            b.write("12345", row: 0, column: 0, in: &f)
            #expect(h.show(f, styles: b.styles).mismatch == nil)
            b.write("v", row: 1, column: 4, in: &f)
            b.write("z", row: 0, column: 0, in: &f)
            let r = h.show(f, styles: b.styles)
            #expect(r.mismatch == nil, "absolute \(absolute): \(r.mismatch ?? "")")
            #expect(h.model.scrollback.isEmpty)
        }
    }

    @Test func aWideCharIsNeverWrittenInTheLastColumn() {
        var f = Frame(width: 3, height: 1)
        #expect(f.put("中", width: 2, row: 0, column: 2) == 3)
        #expect(f[0, 2] == .blank)
        var b = FrameBuilder(policy: .grapheme)
        var h = Harness(width: 3, height: 1, policy: .grapheme)
        b.write("a中中", row: 0, column: 0, in: &f)  // the second 中 does not fit
        #expect(f.text(row: 0) == "a中")
        let r = h.show(f, styles: b.styles)
        #expect(r.mismatch == nil && h.model.violations.isEmpty)
    }

    @Test func onlyTheNeededSGRIsEmitted() {
        let encoder = ANSIEncoder(capabilities: .full, absoluteRows: true)
        func sgr(_ a: Style, _ b: Style) -> String { String(decoding: encoder.sgr(from: a, to: b), as: UTF8.self) }
        #expect(sgr(Style(attributes: .bold), Style(attributes: [.bold, .italic])) == "\u{1B}[3m")
        // 22 clears bold and dim: dropping bold while keeping dim puts dim back.
        #expect(sgr(Style(foreground: .red, attributes: [.bold, .dim]), Style(foreground: .red, attributes: .dim)) == "\u{1B}[22;2m")
        // A full reset when that is shorter.
        #expect(sgr(Style(attributes: [.bold, .dim]), Style(attributes: .dim)) == "\u{1B}[0;2m")
        #expect(sgr(Style(foreground: .red, attributes: .underline), .plain) == "\u{1B}[0m")
        #expect(sgr(.plain, Style(foreground: .ansi(9))) == "\u{1B}[91m")
    }

    @Test func coloursAreDowngradedToWhatTheTerminalShows() {
        var e = ANSIEncoder(capabilities: .full, absoluteRows: true)
        #expect(e.downgrade(.rgb(255, 0, 0)) == .rgb(255, 0, 0))
        e.capabilities.colors = .palette256
        #expect(e.downgrade(.rgb(255, 0, 0)) == .palette(196))
        #expect(e.downgrade(.rgb(128, 128, 128)) == .palette(244))
        e.capabilities.colors = .ansi16
        #expect(e.downgrade(.rgb(250, 0, 0)) == .ansi(9))
        #expect(e.downgrade(.palette(2)) == .ansi(2))
        e.capabilities.colors = .none
        #expect(e.downgrade(.red) == .default)
    }

    /// The pen's look of a style (taken as it is where nothing needs downgrading) is
    /// the style's colours downgraded, its attributes, no link: every capability, every
    /// kind of colour in either place.
    @Test func aLookIsTheStyleDowngraded() {
        let colors: [StyleColor] = [.default, .ansi(3), .ansi(12), .palette(7), .palette(200), .rgb(250, 0, 0), .rgb(1, 2, 3)]
        for support in TerminalCapabilities.ColorSupport.allCases {
            var e = ANSIEncoder(capabilities: .full, absoluteRows: true)
            e.capabilities.colors = support
            for fg in colors {
                for bg in colors {
                    let style = Style(foreground: fg, background: bg, attributes: [.bold, .underline], hyperlink: "https://x")
                    let expected = Style(foreground: e.downgrade(fg), background: e.downgrade(bg), attributes: [.bold, .underline])
                    #expect(e.look(of: style) == expected, "\(support) \(fg) \(bg)")
                }
            }
        }
    }

    /// Pen changes come from the encoder's caches (looks downgraded, changes written
    /// before): in a long random walk over styles, with the colours the terminal shows
    /// changed on the way, each change writes the SGR worked out afresh from the look
    /// before to the style downgraded now. The style asked for last is asked for again
    /// right after each change of colours (its downgrade may differ now).
    @Test func cachedPenChangesWriteWhatIsWorkedOutAfresh() {
        let seed = TestSeed.base(0xA45E_0001)
        var rng = SeededGenerator(seed: seed)
        let colors: [StyleColor] = [.default, .ansi(3), .ansi(12), .palette(7), .palette(200), .rgb(250, 0, 0), .rgb(1, 2, 3)]
        let styles = (0..<40).map { _ in
            Style(foreground: colors.randomElement(using: &rng)!, background: colors.randomElement(using: &rng)!,
                  attributes: Style.Attributes(rawValue: UInt8.random(in: 0...63, using: &rng)))
        }
        var e = ANSIEncoder(capabilities: .full.withoutHyperlinks, absoluteRows: true)
        var previous: Style?, asked: Style?
        for step in 0..<3000 {
            var style = styles.randomElement(using: &rng)!
            if step % 500 == 499 {
                e.capabilities.colors = TerminalCapabilities.ColorSupport.allCases.randomElement(using: &rng)!
                style = asked ?? style
            }
            asked = style
            let wanted = e.look(of: style)
            var out: [UInt8] = []
            e.setStyle(style, into: &out)
            let expected = previous.map { $0.look == wanted.look ? [] : e.sgr(from: $0, to: wanted) } ?? e.sgr(from: nil, to: wanted)
            #expect(out == expected, "seed \(seed) step \(step)")
            if out != expected { return }
            previous = wanted
        }
    }

    @Test func framesEndWithThePenAndLinkResetAndAreSynchronized() {
        var b = FrameBuilder(policy: .grapheme)
        var h = Harness(width: 8, height: 1, policy: .grapheme)
        var f = Frame(width: 8, height: 1)
        b.write("link", style: Style(foreground: .green, hyperlink: "https://x.test"), row: 0, column: 0, in: &f)
        let r = h.show(f, styles: b.styles)
        let text = String(decoding: r.bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[?2026h") && text.hasSuffix("\u{1B}[?2026l"))
        #expect(text.contains("\u{1B}]8;;https://x.test\u{1B}\\"))
        #expect(text.hasSuffix("\u{1B}]8;;\u{1B}\\\u{1B}[0m\u{1B}[?2026l"))
        #expect(h.model.pen == .plain && h.model.link == nil)
    }

    @Test func identicalFramesYieldNoChanges() {
        var b = FrameBuilder(policy: .grapheme)
        var f = Frame(width: 5, height: 2)
        b.write("ab中", row: 0, column: 0, in: &f)
        var diff = FrameDiff()
        diff.compute(from: f, to: f)
        #expect(diff.changes.isEmpty)
    }
}

extension ANSIEncoderTests {
    /// OSC 52 carries the bytes base64-encoded: RFC 4648's test vectors, and every
    /// byte value decoded back by a decoder written here; no control in the payload.
    @Test func clipboardSequenceIsBase64OfTheExactBytes() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(String(decoding: ANSIEncoder.base64(Array(text.utf8)), as: UTF8.self) == encoded, "\(text)")
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        func decode(_ text: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [], bits: UInt32 = 0, count = 0
            for c in text where c != UInt8(ascii: "=") {
                bits = bits << 6 | UInt32(alphabet.firstIndex(of: c)!)
                count += 6
                if count >= 8 { count -= 8; out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count))) }
            }
            return out
        }
        for length in 0..<300 {
            let bytes = (0..<length).map { UInt8(($0 * 7 + length) % 256) }
            let sequence = ANSIEncoder.setClipboard(bytes)
            let prefix = Array("\u{1B}]52;c;".utf8)
            #expect(Array(sequence.prefix(prefix.count)) == prefix && sequence.last == 0x07)
            let payload = Array(sequence.dropFirst(prefix.count).dropLast())
            #expect(payload.allSatisfy { alphabet.contains($0) || $0 == UInt8(ascii: "=") })
            #expect(payload.count == (length + 2) / 3 * 4)
            #expect(decode(payload) == bytes, "length \(length)")
        }
    }
}

extension ANSIEncoderTests {
    /// A full row marked to go on by the terminal's wrap is followed by the next row's
    /// text with no cursor movement in between (the terminal wraps it and marks the row),
    /// and the model terminal, which wraps as terminals do, ends up with the frame. A row
    /// one short of a wide cluster is reached by a move (terminals disagree on a wide
    /// cluster written in the last column).
    @Test(arguments: [false, true])
    func aWrappedRowIsContinuedWithoutACursorMove(_ wideAtTheEdge: Bool) {
        var frame = Frame(width: 10, height: 3)
        let first = wideAtTheEdge ? "abcdefghi" : "abcdefghij"
        var column = 0
        for ch in first { column = frame.put(String(ch), width: 1, row: 0, column: column) }
        frame.setWraps(row: 0)
        column = frame.put(wideAtTheEdge ? "日" : "k", width: wideAtTheEdge ? 2 : 1, row: 1, column: 0)
        for ch in "lm" { column = frame.put(String(ch), width: 1, row: 1, column: column) }
        var harness = Harness(width: 10, height: 3, policy: .grapheme, absolute: false)
        harness.encoder.existingRows = 1
        let (bytes, mismatch) = harness.show(frame, styles: StyleTable())
        #expect(mismatch == nil, "\(mismatch ?? "")")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(first + (wideAtTheEdge ? "日lm" : "klm")) == !wideAtTheEdge, "\(text.debugDescription)")
        // Unmarked, the same rows are reached by a cursor movement.
        var plain = frame
        plain.setWraps(row: 0, false)
        var other = Harness(width: 10, height: 3, policy: .grapheme, absolute: false)
        other.encoder.existingRows = 1
        let moved = String(decoding: other.show(plain, styles: StyleTable()).bytes, as: UTF8.self)
        #expect(!moved.contains(first + (wideAtTheEdge ? "日" : "k")), "\(moved.debugDescription)")
    }
}
