import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// Plain and styled output print markdown's complete paragraphs straight from their
/// rendered lines, never putting them in the document (`PlainTextPrinter.printStraight`):
/// what they print is what the document's way prints, in every chunking.
@Suite struct StraightPrintingTests {
    /// Blocks of every kind the renderer draws: prefixes (quotes, nested lists,
    /// numbered items), fills (rules, headings), code (fenced, with tabs, wrapped like
    /// a terminal or not), tables, links, math, tabs in prose and prefixed blocks, and
    /// prose with wide, combining and control characters (``RandomDocument``), some
    /// long enough to be made final in parts.
    static let blocks: [String] = [
        "# A heading with `code` in it\n", "## Second level, a longer heading that wraps at narrow widths\n",
        "> a quote whose line is long enough to wrap at most widths, with **bold** text\n> and a second line\n",
        "- an item\n  - a nested item with *emphasis* and more words after it\n- another item\n",
        "1. first\n2. second, with a [link](https://example.com/a/long/path) in it\n",
        "```swift\nlet x = [1, 2, 3].map { $0 * 2 }  // a comment long enough to wrap\n\tlet tabbed = true\n```\n",
        "```\nplain code line that is rather long and has no language at all\n```\n",
        "| name | value |\n|---|---:|\n| alpha | 1 |\n| 日本語 | 22 |\n| a long cell with words | 333 |\n",
        "---\n", "    indented code line\n", "Inline math $x^2 + y^2$ and a footnote[^1].\n\n[^1]: the note\n",
        "Term\n: its definition\n", "<div>html block</div>\n", "a line\\\nafter a hard break\n",
        // Tabs, several a line, after text and in prefixed blocks (expanded as printed
        // straight when the line is ASCII, by the document otherwise).
        "```go\nfunc f() {\n\tx := 1\t// one\ttwo\t\tthree\n\t\treturn\t\n}\n```\n",
        "a\tb\tcc\tddd\teeee\tfffff paragraph with tabs\tin it and words to wrap\tat most widths\n",
        "- item\twith\ttabs\n  - nested\t\tdeep\tx\n", "> quote\twith\ttabs\tand more\n", "caf\u{E9}\tnot ASCII\ttabs\n",
    ]

    static func document(using rng: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 4...14, using: &rng) {
            if Bool.random(using: &rng) {
                text += blocks.randomElement(using: &rng)!
            } else {
                // Prose: short lines, or long paragraphs (streamed in parts).
                text += RandomDocument.make(using: &rng, pieces: [6, 60, 600].randomElement(using: &rng)!) + "\n"
            }
            text += Bool.random(using: &rng) ? "\n" : ""
        }
        return text
    }

    static func printed(_ pieces: [String], width: Int, styled: Bool, codeWraps: Bool, straight: Bool)
        -> (output: [UInt8], unheld: Int) {
        var printer = PlainTextPrinter(settings: LayoutSettings(width: width),
                                       markdown: MarkdownOptions(hyperlinks: true, codeWrapsLikeTerminal: codeWraps),
                                       pen: styled ? SGRPen(capabilities: .full) : nil)
        printer.printsStraight = straight
        var out: [UInt8] = []
        for piece in pieces { printer.append(piece, into: &out) }
        printer.finish(into: &out)
        return (out, printer.view.unheldLines)
    }

    @Test func paragraphsPrintedStraightAreWhatTheDocumentPrints() {
        let seed = TestSeed.base(0x5724_0001)
        var rng = SeededGenerator(seed: seed)
        var unheld = 0, documents = [Fixtures.text("answers/coding-answer.md"), Fixtures.text("answers/multilingual.md")]
        for _ in 0..<60 { documents.append(Self.document(using: &rng)) }
        for (k, text) in documents.enumerated() {
            let width = [1, 3, 7, 20, 40, 80].randomElement(using: &rng)!
            let styled = Bool.random(using: &rng), codeWraps = Bool.random(using: &rng)
            let pieces = randomPieces(text, using: &rng, maxScalars: [4, 40, 4000].randomElement(using: &rng)!)
            let held = Self.printed([text], width: width, styled: styled, codeWraps: codeWraps, straight: false)
            let straight = Self.printed(pieces, width: width, styled: styled, codeWraps: codeWraps, straight: true)
            #expect(held.unheld == 0)
            #expect(straight.output == held.output,
                    "seed \(seed) document \(k) width \(width) styled \(styled): \(String(decoding: straight.output, as: UTF8.self))")
            unheld += straight.unheld
        }
        #expect(unheld > 1_000, "\(unheld) lines printed straight: it is not what is tested")
    }
}
