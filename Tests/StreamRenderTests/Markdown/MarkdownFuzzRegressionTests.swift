import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Inputs `fuzz-markdown` found (Fuzz/RESULTS.md), fed as the exact bytes, and inputs
/// that crashed the renderer the same way, found otherwise.
@Suite struct MarkdownFuzzRegressionTests {
    /// md4c 0.4.8 leaves a strikethrough span it never entered when a link's
    /// destination holds a `~` and a later `~` follows (its callbacks: enter link,
    /// leave link, enter link, leave link, leave span 5). The builder popped the base
    /// style with it and the next text crashed (index out of range). Streamed, a link
    /// like `[ncdu](https://dev.yorhel.nl/ncdu)` with a `~` in its URL and an
    /// unclosed `[` after it was enough: the open block's speculation closed the `[`
    /// as `[…]()` and the `~` it took for an open run with a `~` (found streaming the
    /// Chinese README of the-art-of-command-line). md4c still drops that last `~`
    /// (it closes the span it leaves); the scanner no longer reads delimiters inside
    /// a destination, so the open block speculates no `~`.
    @Test func aSpanLeftThatWasNeverEnteredIsIgnored() {
        var printer = PlainTextPrinter(settings: LayoutSettings(width: 80), markdown: MarkdownOptions())
        let text = printer.append("[i](~) [n]()~) and **bold ~x~** after\n") + printer.finish()
        #expect(text == "i (~) n) and bold x after\n", "\(text.debugDescription)")
        var stream = MarkdownStream(options: MarkdownOptions(width: 80))
        _ = stream.append("- use [`iftop`](http://www.ex-parrot.com/~pdw/iftop/) or [`nethog")
        #expect(stream.provisionalLines().map(\.plainText) == ["• use iftop (http://www.ex-parrot.com/~pdw/iftop/) or nethog"])
        // A space ends a destination: what follows it is scanned (and closed) again.
        var spaced = MarkdownStream(options: MarkdownOptions(width: 80))
        _ = spaced.append("Read [Note](this is **impor")
        #expect(spaced.provisionalLines().map(\.plainText) == ["Read [Note](this is impor"])
    }

    /// The mirror image: md4c enters a span it never leaves when its closer is in a
    /// link destination (`~300 ms … (http://h.org/~u/)` enters a strikethrough). The
    /// spans around it end when they are left, and a block's end ends what is still
    /// open: no style leaks past the emphasis that held it, nor into the next block.
    @Test func aSpanEnteredAndNeverLeftEndsWithItsBlock() {
        let renderer = MarkdownRenderer(options: MarkdownOptions(width: 80))
        let lines = renderer.render("**about ~300 ms, see [docs](http://h.org/~u/) now** then\n\n- next **b** item\n\nlast")
        func style(of text: String) -> Style? {
            lines.lazy.flatMap(\.spans).first { $0.text.contains(text) }?.style
        }
        let theme = MarkdownTheme.dark
        #expect(style(of: "about")?.attributes.contains(theme.strong.attributes) == true)
        #expect(style(of: " then") == .plain, "\(String(describing: style(of: " then")))")
        #expect(style(of: "next") == .plain && style(of: "last") == .plain)
        #expect(style(of: "b")?.attributes.contains(.strikethrough) == false)
        #expect(lines.map(\.plainText).joined(separator: "|").contains("now then"))
    }

    /// Finding 7: a table md4c accepted whose header row has more cells than its
    /// delimiter row (so GFM says it is a paragraph), with a NUL in a cell. md4c hands
    /// the NUL's replacement (and a soft break's "\n") from its own constants, not the
    /// input; their addresses were taken for input offsets and the table's source range
    /// ran past the input (index out of range).
    @Test func aTextFromOutsideTheInputDoesNotMoveATablesExtent() {
        let bytes: [UInt8] = [
            0x23, 0x23, 0x20, 0xC3, 0x9C, 0x6E, 0xC3, 0xAF, 0x63, 0xC3, 0xB6, 0x64, 0xC3, 0xA9, 0x0A, 0x0A, 0x45, 0x6E,
            0x67, 0x6C, 0x69, 0x73, 0x68, 0x2C, 0x20, 0x46, 0x72, 0x61, 0x6E, 0xC3, 0xA7, 0x61, 0x69, 0x73, 0x2C, 0x20,
            0x44, 0x65, 0x75, 0x74, 0x73, 0x63, 0x68, 0x7C, 0x20, 0x4E, 0x61, 0x6D, 0x65, 0x20, 0x7C, 0x20, 0x57, 0x69,
            0x64, 0x74, 0x68, 0x20, 0x7C, 0x20, 0x4E, 0x6F, 0x74, 0x65, 0x73, 0x20, 0x7C, 0x0A, 0x7C, 0x20, 0x3A, 0x2D,
            0x2D, 0x2D, 0x20, 0x7C, 0x20, 0x2D, 0x2D, 0x2D, 0x3A, 0x20, 0x7C, 0x20, 0x3A, 0x2D, 0x2D, 0x2D, 0x3A, 0x20,
            0x7C, 0x0A, 0x7C, 0x20, 0xE4, 0xB8, 0xAD, 0xE6, 0x96, 0x87, 0x20, 0x7C, 0x20, 0xFF, 0x04, 0x00, 0x00, 0x01,
            0x1E, 0xCE, 0xBB, 0xCE, 0xBB, 0xCE, 0xB7, 0xCE, 0xBD, 0xCE, 0xB9, 0xCE, 0xBA, 0x31, 0x20, 0x7C, 0x20, 0xCE,
        ]
        var view = WrappedDocument(settings: LayoutSettings(width: 40), markdown: MarkdownOptions())
        view.append(String(decoding: bytes, as: UTF8.self))
        view.finish()
        let text = view.allLines().map { view.plainText(of: $0) }.joined(separator: "\n")
        for word in ["Deutsch|", "Name", "Width", "Notes", ":---:", "中文", "λληνικ1"] {
            #expect(text.contains(word), "a paragraph, every word kept: \(text)")
        }
        // The same shape, readable: a NUL in a cell of a table that is no table.
        var small = WrappedDocument(settings: LayoutSettings(width: 40), markdown: MarkdownOptions())
        small.append("a | b | c\n| --- | --- |\n| x\u{0}y |\n")
        small.finish()
        #expect(small.allLines().map { small.plainText(of: $0) }.joined(separator: " ").contains("a | b | c"))
    }
}
