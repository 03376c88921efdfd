import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Fenced code with a known language is highlighted as it streams.
@Suite struct CodeHighlightTests {
    static let answer = Fixtures.text("answers/coding-answer.md")

    /// Lines inside top-level fences with a language we know.
    static func highlightableLines(_ text: String) -> Int {
        var count = 0
        var open: Bool? = nil  // nil outside a fence; whether the open fence is highlighted
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                open = open == nil ? HighlightLanguage.named(String(line.dropFirst(3))) != nil : nil
            } else if open == true {
                count += 1
            }
        }
        return count
    }

    /// Without highlighting (plain text shows no style), code is the same text in the
    /// same lines and formats, in one style a line, and nothing is lexed.
    @Test func withoutHighlightingCodeIsTheSameTextUnlexed() {
        var coloured = MarkdownStream(), plain = MarkdownStream(options: MarkdownOptions(highlightsCode: false))
        var colouredLines: [StyledLine] = [], plainLines: [StyledLine] = []
        var rng = SeededGenerator(seed: TestSeed.base(0xC0DE_0001))
        for piece in randomPieces(Self.answer, using: &rng, maxScalars: 40) {
            colouredLines += coloured.append(piece)
            plainLines += plain.append(piece)
        }
        colouredLines += coloured.finish()
        plainLines += plain.finish()
        #expect(coloured.highlightedLines > 60 && plain.highlightedLines == 0)
        #expect(colouredLines.map(\.bytes) == plainLines.map(\.bytes))
        #expect(colouredLines.map(\.format) == plainLines.map(\.format))
        // The code lines were the ones with several styles.
        let multiStyled = { (lines: [StyledLine]) in lines.filter { Set($0.runs.map(\.look)).count > 1 }.count }
        #expect(multiStyled(plainLines) + 30 < multiStyled(colouredLines), "\(multiStyled(plainLines)) and \(multiStyled(colouredLines))")
    }

    /// Streamed byte by byte with the open block rendered after every byte (as
    /// frames do), each finished code line is lexed once.
    @Test func aFinishedCodeLineIsNeverLexedAgain() {
        var stream = MarkdownStream()
        for scalar in Self.answer.unicodeScalars {
            _ = stream.append(String(Character(scalar)))
            _ = stream.provisionalLines()
        }
        _ = stream.finish()
        let want = Self.highlightableLines(Self.answer)
        #expect(want > 60)
        #expect(stream.highlightedLines == want)
    }

    /// The fence's lines carry the theme's token styles, equal to the one-shot render.
    @Test func fencedCodeIsColouredByItsTokens() throws {
        let theme = MarkdownTheme.dark
        let lines = streamMarkdown(["```swift\nlet x = \"a\\n\" // note\n", "```\n"])
        let code = try #require(lines.first { $0.plainText.hasPrefix("let") })
        let styles = code.spans.map { ($0.text, $0.style) }
        let base = theme.codeBlock
        #expect(styles.contains { $0.0 == "let" && $0.1 == base.merged(with: theme.code[.keyword]) } || styles.contains {
            $0.0.hasPrefix("let") && $0.1 == base.merged(with: theme.code[.keyword]) }, "\(styles)")
        #expect(styles.contains { $0.0.contains("\\n") && $0.1 == base.merged(with: theme.code[.stringEscape]) }, "\(styles)")
        #expect(styles.contains { $0.0 == "// note" && $0.1 == base.merged(with: theme.code[.comment]) }, "\(styles)")
        #expect(lines == MarkdownRenderer().render("```swift\nlet x = \"a\\n\" // note\n```\n"))
    }

    /// A fence of a language seen before is lexed afresh (the stream keeps a highlighter
    /// per language to copy): a string the first fence left open colours nothing after it.
    @Test func aLanguageSeenBeforeIsLexedAfreshInTheNextFence() throws {
        let second = "```python\ny = 1  # two\n```\n"
        let alone = streamMarkdown([second])
        let after = streamMarkdown(["```python\nx = \"\"\"open\n```\n\n```js\nlet z\n```\n\n", second])
        let want = try #require(alone.first { $0.plainText.hasPrefix("y = 1") })
        let got = try #require(after.first { $0.plainText.hasPrefix("y = 1") })
        #expect(got.spans == want.spans)
        #expect(got.spans.contains { $0.text == "# two" && $0.style == MarkdownTheme.dark.codeBlock.merged(with: MarkdownTheme.dark.code[.comment]) },
                "\(got.spans)")
        let open = try #require(after.first { $0.plainText.hasPrefix("x = ") })
        #expect(open.spans.contains { $0.text.hasPrefix("\"\"\"open") && $0.style == MarkdownTheme.dark.codeBlock.merged(with: MarkdownTheme.dark.code[.string]) },
                "\(open.spans)")
    }

    @Test func unknownOrMissingLanguagesArePlainCode() {
        for fence in ["```\nlet x = 1\n```\n", "```brainfuck\nlet x = 1\n```\n"] {
            let lines = streamMarkdown([fence])
            let code = lines.first { $0.plainText == "let x = 1" }
            #expect(code?.spans.count == 1 && code?.spans[0].style == MarkdownTheme.dark.codeBlock, "\(lines)")
        }
    }

    /// A lexer's token boundary inside a character never splits the character.
    @Test func tokensNeverSplitACharacter() {
        let renderer = MarkdownRenderer()
        let line = renderer.codeLine("aé中😀b", tokens: [Token(start: 0, end: 2, kind: .keyword), Token(start: 4, end: 6, kind: .string)])
        #expect(line.plainText == "aé中😀b")
        #expect(!line.spans.contains { $0.text.contains("\u{FFFD}") })
        // A boundary between a letter and its combining mark keeps both; controls are sanitised.
        let combining = renderer.codeLine("e\u{301}x\u{1B}y", tokens: [Token(start: 0, end: 1, kind: .keyword), Token(start: 4, end: 6, kind: .string)])
        #expect(combining.plainText == "e\u{301}x\u{241B}y")
        #expect(combining.spans.first?.text.unicodeScalars.first == "e")
    }
}

/// The live view shows highlighted code: coloured with colours, attributes only
/// under NO_COLOR (read back from the model terminal).
@Suite struct CodeHighlightLiveViewTests {
    /// The coding answer streamed into a terminal tall enough to keep it on screen;
    /// the styles of the cells of `needle`'s first occurrence on a line containing `context`.
    static func cells(capabilities: TerminalCapabilities, theme: MarkdownTheme, line context: String, needle: String) -> [Style] {
        let configuration = StreamRenderer.Configuration(
            output: .inline, layout: LayoutSettings(width: 100, policy: .grapheme), input: .init(format: .auto),
            content: .init(markdown: true, theme: theme), live: .init(height: 200, framesPerSecond: 60),
            capabilities: capabilities)
        let sink = BufferSink()
        let clock = ManualClock()
        let r = StreamRenderer(configuration: configuration, sink: sink, clock: clock)
        var model = ModelTerminal(width: 100, height: 200, policy: .grapheme)
        let bytes = Fixtures.data("sse/coding-answer.anthropic.sse")
        var rng = SeededGenerator(seed: TestSeed.base(0x4849_0003))
        for (k, chunk) in randomChunks(bytes, using: &rng, maxChunk: 200).enumerated() {
            r.feed(chunk)
            r.tick(now: .milliseconds(20 * k))
            model.apply(sink.bytes)
            sink.removeAll()
        }
        r.finish()
        model.apply(sink.bytes)
        #expect(model.unknown.isEmpty && model.violations.isEmpty, "\(model.unknown)")
        for row in 0..<model.height {
            let text = model.screen.text(row: row)
            guard text.contains(context), let range = text.range(of: needle) else { continue }
            let column = text.distance(from: text.startIndex, to: range.lowerBound)  // ASCII rows
            return (column..<column + needle.count).map { model.styles[model.screen[row, $0].style] }
        }
        Issue.record("no row with \(context) and \(needle)")
        return []
    }

    @Test func aFenceShowsColouredTokens() {
        let theme = MarkdownTheme.dark
        let keyword = Self.cells(capabilities: .full, theme: theme, line: "struct StreamEvent", needle: "struct")
        #expect(!keyword.isEmpty && keyword.allSatisfy { $0.foreground == theme.code[.keyword].foreground }, "\(keyword)")
        let string = Self.cells(capabilities: .full, theme: theme, line: "hasPrefix(", needle: "\"data: \"")
        #expect(!string.isEmpty && string.allSatisfy { $0.foreground == theme.code[.string].foreground }, "\(string)")
        let comment = Self.cells(capabilities: .full, theme: theme, line: "present for", needle: "// present")
        #expect(!comment.isEmpty && comment.allSatisfy { $0.attributes.contains(.italic) }, "\(comment)")
        #expect(theme.code[.keyword].foreground != theme.code[.string].foreground)
    }

    @Test func noColorShowsOnlyMonochromeAttributes() {
        var capabilities = TerminalCapabilities.full
        capabilities.colors = .none
        let theme = MarkdownTheme.monochrome
        let keyword = Self.cells(capabilities: capabilities, theme: theme, line: "struct StreamEvent", needle: "struct")
        #expect(!keyword.isEmpty && keyword.allSatisfy { $0.attributes.contains(.bold) && $0.foreground == .default }, "\(keyword)")
        let string = Self.cells(capabilities: capabilities, theme: theme, line: "hasPrefix(", needle: "\"data: \"")
        #expect(!string.isEmpty && string.allSatisfy { $0.attributes.contains(.italic) && $0.foreground == .default }, "\(string)")
        let plain = Self.cells(capabilities: capabilities, theme: theme, line: "struct StreamEvent", needle: "StreamEvent")
        #expect(plain.allSatisfy { $0.foreground == .default && $0.background == .default }, "\(plain)")
    }
}
