import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Where a block ends is found with few md4c parses: lines that can only continue
/// their block are not checked one by one (issue 24), and the rendering stays the
/// one-shot rendering.
@Suite struct MarkdownParseCountTests {
    /// Streams `text` a line at a time (no frames: as plain output does); returns the
    /// parses made and the final lines.
    static func streamed(_ text: String) -> (parses: Int, lines: [StyledLine]) {
        let (parses, _, lines) = streamedCounting(text)
        return (parses, lines)
    }

    /// ``streamed(_:)`` with the bytes md4c was given; `knowingItems: false` checks every
    /// line of a list that may start a block by parses (`MarkdownStream.knowsOpenItems`).
    static func streamedCounting(_ text: String, knowingItems: Bool = true) -> (parses: Int, bytes: Int, lines: [StyledLine]) {
        var stream = MarkdownStream()
        stream.knowsOpenItems = knowingItems
        var lines: [StyledLine] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += stream.append(String(line) + "\n")
        }
        lines += stream.finish()
        return (stream.renderer.parseCount, stream.renderer.parsedBytes, MarkdownStream.merged(lines))
    }

    static func oneShot(_ text: String) -> [StyledLine] {
        MarkdownRenderer(options: MarkdownOptions()).render(text + "\n")
    }

    /// 300 lines that can only continue their block (its name is the test's argument:
    /// the text is too long for a test log).
    static func longBlock(_ name: String) -> String {
        switch name {
        case "table":
            return "Intro line.\n\n| name | value | note |\n|---|--:|---|\n"
                + (1...300).map { "| row \($0) | value \($0 * 7) | a note with `code` |" }.joined(separator: "\n") + "\n\nAfter the table."
        case "angle":
            // Paragraph lines that start with `<` and one-line comments: each may start a
            // block, none does (a comment after a comment goes on in its HTML block).
            return "Before.\n\n" + (1...3000).map { ["<span a paragraph line \($0)", "<!-- comment \($0) -->"][($0 - 1) / 1500] }
                .joined(separator: "\n") + "\n\nAfter."
        case "setext":
            return "Before.\n\n" + (1...300).map { ["Heading \($0)\n===", "Another *one*\nover two lines\n---", "a\n- "][$0 % 3] }
                .joined(separator: "\n") + "\nAfter."
        case "list":
            // Setext headings and tables inside one list item: each line may start a
            // block, and the region is the whole item (15-18x the time for 4x the text
            // before regions were checked at each quarter more).
            return "Before.\n\n- item\n\n" + (1...300).map {
                ["  Heading \($0)\n  ===", "  | a | b |\n  |---|---|\n  | \($0) | x |", "  Text \($0)\n  ---"][$0 % 3]
            }.joined(separator: "\n") + "\n\nAfter."
        case "html":
            // Lines that would start blocks anywhere else (`#`, `-`, `>`, `<`) are the
            // block's, up to the blank line.
            return "Before.\n\n<div class=\"report\">\n" + (1...300).map {
                ["<p>line \($0)</p>", "# not a heading \($0)", "- not an item", "> not a quote", "<!-- \($0) -->"][$0 % 5]
            }.joined(separator: "\n") + "\n</div>\n\nAfter."
        default:
            return "Before.\n\n" + (1...300).map { "> line \($0) of a long quote, *still* quoting" }.joined(separator: "\n") + "\n\nAfter."
        }
    }

    /// A 300-row table or a 300-line quote: a parse per line of a growing region made
    /// them quadratic. A quote is parsed when it ends; a table's rows after its first
    /// ones are final one by one, each parsed with the header alone (a parse per row,
    /// each of a few lines: md4c reads about twice the text, not its square).
    @Test(arguments: ["table", "quote", "html", "setext", "angle", "list"])
    func aLongBlockCostsAFewParsesNotOnePerLine(_ name: String) {
        let text = Self.longBlock(name)
        let (parses, bytes, lines) = Self.streamedCounting(text)
        if name == "table" {
            #expect(parses <= 300 + 20, "\(parses) parses for a 300-row table")
        } else if name == "angle" || name == "list" {
            // (Every line checked until the region is 4 KB, then at each quarter more.)
            #expect(parses < 2 * 250 + 40, "\(parses) parses for \(name): lines that may start blocks")
        } else if name == "setext" {
            // (Two small parses per heading, its region without and with its underline,
            // which may be a paragraph's line: each of a few lines, not of all before.)
            #expect(parses <= 2 * 300 + 20, "\(parses) parses for 300 setext headings")
        } else {
            #expect(parses < 20, "\(parses) parses for a 300-line \(name)")
        }
        // (Below 4 KB every line of "angle" and "list" is checked: up to about 0.8 MB of parsing.)
        #expect(bytes < 4 * text.utf8.count + (name == "angle" || name == "list" ? 1_000_000 : 0),
                "md4c read \(bytes) bytes of a \(text.utf8.count)-byte \(name)")
        #expect(lines == Self.oneShot(text), "\(name)")
    }

    /// HTML blocks of every kind, and what follows them, render as one shot does: only a
    /// block tag's block (CommonMark's type 6) goes on without parses, and only while
    /// the parse agrees that the region ends in an HTML block.
    @Test func htmlBlocksOfEveryKindRenderAsOneShot() {
        let texts = [
            "<!-- a comment -->\n# A heading\n- an item",
            "<!--\n# inside\n-->\n# after\n<div>\n# inside\n</div>\n\n# after",
            "<pre>\n# inside\n</pre>\n# after",
            "<div>\n- inside\n\n- a list\n- item",
            "Text\n<div>\n# inside\n\nafter",
            "- item\n  <div>\n  # inside\n\n  more\n# top",
            "    <div>\n# heading",
            "<custom-tag>\n# inside\n\n# after",
            "<DIV CLASS=x>\n> inside\n|a|b|\n|-|-|\n\n> quote",
            "<divx>\n# heading",
            "</table>\n# inside\n<p/>\n\ntext",
            "<p\n# inside",
            "> <div>\n> # inside\n# heading",
            "a\n=\nb\n-\n- c\n---\n[x]\n===\n\n[x]: http://example.com\nd\n  ==  \ne\n= =\n|a|\n---\n",
            "- item\nlazy\n---\ntext\n***\n> q\n---\nx\n    ---\n",
        ]
        for text in texts {
            let (_, lines) = Self.streamed(text)
            #expect(lines == Self.oneShot(text), "\(text.debugDescription)")
        }
        #expect(MarkdownStream.opensHTMLBlockToBlankLine(Array("<div>".utf8)))
        #expect(MarkdownStream.opensHTMLBlockToBlankLine(Array("   </TD >".utf8)))
        #expect(MarkdownStream.opensHTMLBlockToBlankLine(Array("<hr/>".utf8)))
        #expect(!MarkdownStream.opensHTMLBlockToBlankLine(Array("<divx>".utf8)))
        #expect(!MarkdownStream.opensHTMLBlockToBlankLine(Array("<pre>".utf8)))
        #expect(!MarkdownStream.opensHTMLBlockToBlankLine(Array("    <div>".utf8)))
        #expect(!MarkdownStream.opensHTMLBlockToBlankLine(Array("<custom-tag>".utf8)))
    }

    /// An ATX heading is final as soon as its line ends, before the next line comes;
    /// one with a `[` waits (a link reference definition may follow and resolve it).
    @Test func anATXHeadingIsFinalAtItsLineEnd() {
        var stream = MarkdownStream()
        let heading = stream.append("## Results\n")
        #expect(heading.map(\.plainText) == ["Results"])
        var linked = MarkdownStream()
        #expect(linked.append("# [Foo]\n").isEmpty)
        let rest = linked.append("[foo]: /url\n") + linked.finish()
        #expect(MarkdownStream.merged(rest) == Self.oneShot("# [Foo]\n[foo]: /url"))
    }

    /// Blocks separated by blank lines (quotes, lists, tables, paragraphs, the
    /// answers' usual shape): after a blank line, a line in the first column starts a
    /// new block without a parse to confirm it, unless the region is a list (an item
    /// may continue it) or an HTML block. A loose list stays one list.
    @Test func blocksAfterBlankLinesCostAboutOneParseEach() {
        let block = """
        > A quote, *styled*,
        > on two lines.

        - an item
        - another item

        Then a paragraph.

        | a | b |
        |---|---|
        | 1 | 2 |

        - a loose list

        - goes on after a blank line
        """
        let text = Array(repeating: block, count: 20).joined(separator: "\n\n")
        let (parses, lines) = Self.streamed(text)
        // 5 blocks a copy (the loose list is one), 100 in all: 200 parses (a table's
        // delimiter row and a list's items are confirmed by the parser); 360 when each
        // block after a blank line was confirmed with three.
        #expect(parses <= 220, "\(parses) parses for 100 blocks")
        #expect(lines == Self.oneShot(text))
    }

    /// Blocks that become final in one read are parsed together (a parse's fixed cost
    /// was most of a one-line block's: 133 000 parses for a megabyte of one-word
    /// paragraphs), and render as they do read line by line, and in one shot.
    /// A list of a chat's size (eight items, 400 bytes) is made final once, not checked
    /// item by item (two parses an item once the region passed 256 bytes).
    @Test func aChatSizedListIsParsedOnce() {
        let items = (1...8).map { "- item \($0): a short point of an answer, in words" }
        let text = "Some points:\n\n" + items.joined(separator: "\n") + "\n\nAfter the list."
        #expect(items.joined(separator: "\n").utf8.count < MarkdownStream.listBatchBytes)
        let (parses, lines) = Self.streamed(text)
        #expect(parses <= 2, "\(parses) parses")
        #expect(lines == Self.oneShot(text))
    }

    @Test func shortBlocksOfOneReadShareAParse() {
        let text = (1...400).map { k in ["OK", "# Heading \(k)", "> quoted *\(k)*", "Done, `\(k)`."][k % 4] }
            .joined(separator: "\n\n") + "\n"
        var stream = MarkdownStream()
        let lines = MarkdownStream.merged(stream.append(text) + stream.finish())
        #expect(stream.renderer.parseCount <= 10, "\(stream.renderer.parseCount) parses for 400 blocks in one read")
        let (parses, byLine) = Self.streamed(text)
        #expect(parses > 200, "\(parses) parses read line by line (a block a read, mostly)")
        #expect(lines == byLine)
        #expect(lines == Self.oneShot(text))
    }

    /// A link reference definition applies to all the text it is parsed with: a region
    /// holding one is not parsed with the blocks before it, which render as they do
    /// alone (a reference before its definition stays text, as in any chunking).
    @Test func aDefinitionIsNotParsedWithTheBlocksBeforeIt() {
        let text = "See [a].\n\n> [a]: /url\n\nAfter.\n"
        var whole = MarkdownStream()
        let together = MarkdownStream.merged(whole.append(text) + whole.finish())
        #expect(together == Self.streamed(text).lines)
        #expect(together.first?.plainText == "See [a].")
        // After a definition, each block is parsed alone: md4c after 0.5.2 caps the text
        // references expand to per parse, so one parse of many could differ.
        let referencing = "[a]: https://example.com/\n\n" + String(repeating: "See [a].\n\n", count: 20)
        var stream = MarkdownStream()
        let lines = MarkdownStream.merged(stream.append(referencing) + stream.finish())
        #expect(stream.renderer.parseCount >= 20, "\(stream.renderer.parseCount) parses")
        #expect(lines == Self.streamed(referencing).lines)
    }

    /// md4c starts a fence or an HTML block that interrupts a paragraph however far its
    /// line is indented (CommonMark stops at three columns): a blank line does not end
    /// it, and a line in the first column after one is still in it. An HTML comment
    /// closed on its line, or a `<div>`'s block, ends at a blank line as usual.
    @Test func aBlockMd4cOpensPastThreeColumnsRunsPastBlankLines() {
        let texts = [
            "Text\n          ```\n\n- inside the fence",
            "003.    item\n    ```python\ncode\n\n**inside**",
            "10.    item\n     <!--\n\n| inside | the comment |",
            "  2)  item\n    ~~~\n\nstill code",
            "<!-- a comment closed on its line -->\n\n> A quote after it.",
            "<div>\n\n# A heading after the div's block",
        ]
        for text in texts {
            #expect(Self.streamed(text).lines == Self.oneShot(text), "\(text.debugDescription)")
        }
        // A comment closed on its line leaves the quote after it without the three parses
        // that confirm a block: each region is parsed once, read line by line.
        let comments = String(repeating: "<!-- note -->\n\n> quoted *text*\n\n", count: 50)
        let (parses, lines) = Self.streamed(comments)
        #expect(parses <= 2 * 50 + 10, "\(parses) parses for 50 comments and quotes")
        #expect(lines == Self.oneShot(comments))
    }

    /// An ATX heading in the first column right after a line (no blank line between)
    /// starts a new block without the parses that confirm one, after every kind of
    /// block; after a table (a `|` in the region) or an HTML block it is still checked.
    @Test func aHeadingRightAfterALineStartsABlockWithoutAParse() {
        let before = ["A paragraph, *styled*.", "- a list item\n  continued", "> a quote", "    indented code",
                      "| a | b |\n|---|---|\n| 1 | 2 |", "<div>\nhtml", "[x]: /url", "1. ordered\n2. items [x]"]
        for block in before {
            let text = block + "\n# Heading [x]\nAfter.\n"
            let (_, lines) = Self.streamed(text)
            #expect(lines == Self.oneShot(text), "\(block.debugDescription)")
        }
        let paragraphs = (1...50).map { "Paragraph \($0).\n## Heading \($0)" }.joined(separator: "\n")
        let (parses, lines) = Self.streamed(paragraphs)
        #expect(parses <= 110, "\(parses) parses for 50 paragraphs and headings")
        #expect(lines == Self.oneShot(paragraphs))
    }

    /// A paragraph of one line of text holding no markup (most of a chat's short
    /// replies) is final without a parse: md4c would give its text as it is.
    @Test func inertParagraphsAreFinalWithoutAParse() {
        let inert = ["OK", "Thanks, that works.", "Done!", "1", "See above (page 2).", "Ça marche — 好的 👍",
                     "100% sure? Yes, #1 + 2 = 3, 'quoted' \"too\"", "a.b www x.www ww.x"]
        let text = (0..<300).map { inert[$0 % inert.count] }.joined(separator: "\n\n") + "\n"
        let (parses, lines) = Self.streamed(text)
        #expect(parses == 0, "\(parses) parses for 300 inert paragraphs")
        #expect(lines == Self.oneShot(text))
        // In one read, after a block that is parsed: held after it, in order.
        let mixed = "- an item\n\n" + text + "\n> a quote\n\n" + text
        var stream = MarkdownStream()
        let together = MarkdownStream.merged(stream.append(mixed) + stream.finish())
        #expect(together == Self.oneShot(mixed))
        #expect(stream.renderer.parseCount <= 4, "\(stream.renderer.parseCount) parses")
    }

    /// A tight bullet list of one-line items of inert text (or none: `-` alone), between
    /// blank lines, is final without a parse too: each item a line in the list's format.
    @Test func inertListsAreFinalWithoutAParse() {
        // (A paragraph between lists: two lists of one marker would be one loose list.)
        let lists = ["-", "- Done!", "* Why?\n* Yes.", "+ a\n+\n+ Ça marche 好的", "- one apple\n- two"]
        let paragraphs = ["OK", "See above.", "1"]
        let blocks: [String] = (0..<300).map { k in k % 2 == 0 ? paragraphs[k / 2 % 3] : lists[k / 2 % 5] }
        let text = blocks.joined(separator: "\n\n") + "\n"
        let (parses, lines) = Self.streamed(text)
        #expect(parses == 0, "\(parses) parses for 300 inert paragraphs and lists")
        #expect(lines == Self.oneShot(text))
        let mixed = "**held** first\n\n" + text + "\n> a quote\n\n" + text
        var stream = MarkdownStream()
        #expect(MarkdownStream.merged(stream.append(mixed) + stream.finish()) == Self.oneShot(mixed))
    }

    /// Lists near the inert ones (loose, nested, indented, mixed markers, items with marks,
    /// lazy lines, rules and headings that look like items, items that start blocks)
    /// beside inert lists and paragraphs, in seeded random documents: streamed line by
    /// line, in one read and in random chunkings, they render as the stream renders them
    /// without its inert lists, which is md4c's rendering of the whole text in most. The
    /// seed is in every failure.
    @Test func listsNearInertOnesRenderAsInOneShot() {
        let lines = ["- OK", "-", "* Why?", "+ Done!", "- a", "- b  ", "- b ", "-  two spaces", "-\tx", " - indented",
                     "   * three", "    - code", "  nested", "- - x", "* * *", "- * x", "- 1. x", "- 2) y", "- # h", "- > q",
                     "- ```", "- [ ] task", "- [x] done", "- *em*", "- a|b", "- a: b", "- www.x.org", "- <b>", "- &amp;",
                     "- \\x", "-x", "--", "---", "- ---", "===", "lazy text", "OK", "1. one", "2) two", "# Head",
                     "- Ünïcödé 👍", "- \u{A0}nbsp", "- c1\u{85}x", "", "", ""]
        let seed = TestSeed.base(2412)
        var rng = SeededGenerator(seed: seed)
        var agreeing = 0
        for document in 0..<60 {
            var text = ""
            for _ in 0..<40 {
                text += lines.randomElement(using: &rng)! + "\n"
                if Int.random(in: 0..<3, using: &rng) == 0 { text += "\n" }
            }
            // Each way as the stream renders it without its inert lists (their parse), which is
            // md4c's rendering of the whole text in most documents (some of these lines are the
            // stream's documented deviations: setext underlines after a list or a split).
            // (Compared apart: a failure shows the document, not thousands of lines' fields.)
            if Self.streamed([text], inertLists: false) == Self.oneShot(text) { agreeing += 1 }
            // (The text ends in a line end: no piece after it.)
            let lines: [String] = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\n" }
            let ways: [(String, [String])] = [("line by line", lines), ("one read", [text]),
                        ("pieces", randomPieces(text, using: &rng))]
            for (way, pieces) in ways {
                let same = Self.streamed(pieces, inertLists: true) == Self.streamed(pieces, inertLists: false)
                #expect(same, "seed \(seed) document \(document): \(way)\n\(text)")
            }
        }
        #expect(agreeing >= 40, "\(agreeing) of 60 documents render as one shot: the oracle is hardly used")
    }

    /// `pieces` streamed with frames between them, with or without inert lists.
    static func streamed(_ pieces: [String], inertLists: Bool) -> [StyledLine] {
        var stream = MarkdownStream()
        stream.knowsInertLists = inertLists
        var lines: [StyledLine] = []
        for piece in pieces {
            lines += stream.append(piece)
            _ = stream.provisionalLines()
        }
        return MarkdownStream.merged(lines + stream.finish())
    }

    /// Paragraphs of one or a few lines that hold each mark md4c may read (every mark
    /// character, `www.` in any case, a tab, a control byte, spaces at an end) beside
    /// inert ones, in seeded random documents: streamed line by line, in one read and
    /// in random chunkings, they render as md4c renders the whole text. The seed is in
    /// every failure.
    @Test func paragraphsWithAndWithoutMarksRenderAsInOneShot() {
        let words = ["OK", "Done!", "*em*", "_u_", "~s~", "`c`", "a\\b", "&amp;", "&copy", "x;y", "<b>", "a>b", "$x$",
                     "a@b.co", "http://x.y", "ftp:z", "www.x.org", "WwW.y.com", "a.www", "[l](u)", "![i](u)", "a]b",
                     "a|b", "tab\there", "ctl\u{1}x", "del\u{7F}x", "nul\u{0}x", "c1\u{85}x", "csi\u{9B}31m", "©°\u{A0}é", "1.", "-", "+", "# H", "===", "---",
                     "> q", "1)", "x", ".", "!", "wow.", "Ünïcödé", "👍🏽"]
        let seed = TestSeed.base(2411)
        var rng = SeededGenerator(seed: seed)
        for document in 0..<40 {
            var text = ""
            for _ in 0..<30 {
                let count = Int.random(in: 1...3, using: &rng)
                var paragraph = (0..<count).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: paragraph = " " + paragraph
                case 1: paragraph += "  "
                case 2: paragraph += " "
                case 3: paragraph += "\n" + words.randomElement(using: &rng)!
                default: break
                }
                text += paragraph + (Int.random(in: 0..<4, using: &rng) == 0 ? "\n" : "\n\n")
            }
            let whole = Self.oneShot(text)
            #expect(Self.streamed(text).lines == whole, "seed \(seed) document \(document): line by line\n\(text)")
            var stream = MarkdownStream()
            #expect(MarkdownStream.merged(stream.append(text) + stream.finish()) == whole,
                    "seed \(seed) document \(document): one read\n\(text)")
            let pieces = randomPieces(text, using: &rng)
            #expect(streamMarkdown(pieces) == whole, "seed \(seed) document \(document): pieces \(pieces.debugDescription)")
        }
    }

    /// The inline scan's bytes that are not text are the delimiters it follows and
    /// the marks md4c may read or the renderer cleans (an oracle apart from its bit set);
    /// each mark makes `hasMarks` true (a C1 control too), and `!`, a `.` not after
    /// `www` or a Latin-1 letter does not.
    @Test func theInlineScanKnowsEveryMark() {
        let notText = Set("\\`*_~[]&;<>$@:|.".utf8).union(0..<0x20).union([0x7F, 0xC2])
        for b in 0...255 {
            #expect(InlineScanner.isText(UInt8(b)) == !notText.contains(UInt8(b)), "byte \(b)")
        }
        func marked(_ text: String) -> Bool {
            var scanner = InlineScanner()
            scanner.scan(Array(text.utf8), lineEnd: true)
            return scanner.hasMarks
        }
        for mark in "\\`*_~[]&;<>$@:|\t\u{1}\u{7F}\u{0}\u{85}\u{9B}" {
            #expect(marked("a \(mark)b c"), "\(mark.debugDescription)")
        }
        for text in ["www.x", "Www.x", "a wWw.b"] { #expect(marked(text), "\(text)") }
        for text in ["Done!", "a.b", "ww.x", "wwwx.y", "(a) #1 + 2 = 3, 'q' \"r\" ü 👍", "©°\u{A0}é"] { #expect(!marked(text), "\(text)") }
        // The check that stops at the first mark (inert list items) finds what the scan finds.
        let pieces = ["a", "w", "W", ".", " ", "!", "(", ")", "é", "\u{A0}", "\u{85}", "\t", "*", "`", "[", "]", "&", ":", "x", "好"]
        let seed = TestSeed.base(2413)
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let found = Array(text.utf8).withUnsafeBufferPointer { InlineScanner.hasMarks($0) }
            #expect(found == marked(text), "seed \(seed): \(text.debugDescription)")
        }
    }
}
