import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Fenced code blocks are numbered as their labels show them (`1 · python`), in lists
/// and quotes too, and reported with their exact source once their block is final.
@Suite struct CodeBlockTests {
    /// Streams `pieces`, drawing the open block after each (as a live view does);
    /// returns the final lines and the blocks reported.
    static func stream(_ pieces: [String], drawEach: Bool = true) -> (lines: [StyledLine], blocks: [CodeBlock]) {
        var stream = MarkdownStream(options: MarkdownOptions())
        stream.renderer.collectsCodeBlocks = true
        var lines: [StyledLine] = [], blocks: [CodeBlock] = []
        for piece in pieces {
            lines += stream.append(piece)
            if drawEach { _ = stream.provisionalLines() }
            blocks += stream.renderer.takeCodeBlocks()
        }
        lines += stream.finish()
        blocks += stream.renderer.takeCodeBlocks()
        return (lines, blocks)
    }

    static func labels(_ lines: [StyledLine]) -> [String] {
        let style = MarkdownTheme.dark.codeLanguage
        return lines.filter { $0.spans.count == 1 && $0.spans[0].style == style }.map(\.plainText)
    }

    /// A code or HTML block's text goes to lines by its bytes as `String.split` at LF
    /// keeping empty ones cut it, a last LF ending the last line: the lines of a code
    /// block in a list are its source's lines, CR and all.
    @Test func blockTextSplitsIntoItsLines() {
        let texts = ["", "a", "a\n", "a\nb", "a\n\nb\n", "\n", "\n\n", "x\r\ny\r\n", "\ta\n  b\n\n", "é\n日本\n"]
        for text in texts {
            var got: [String] = []
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                MarkdownRenderer.forEachLine(of: bytes) { got.append(String(decoding: $0, as: UTF8.self)) }
            }
            let body = text.utf8.last == 0x0A ? String(text.utf8.dropLast())! : text
            let want = body.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { String($0)! }
            #expect(got == want, "\(text.debugDescription)")
        }
        // In a list (rendered from the tree, not the fence bypass), each line of the
        // block, the empty one too, under the item's indent.
        let (lines, _) = Self.stream(["- item\n\n  ```python\n  a = 1\n\n  b = 2\n  ```\n"])
        #expect(Array(lines.map(\.plainText).suffix(3)) == ["  a = 1", "  ", "  b = 2"], "\(lines.map(\.plainText))")
    }

    @Test func topLevelFencesAreNumberedWithTheirInfoAndExactCode() {
        let text = "Intro\n\n```swift\nlet x = 1\n  indented\n```\n\n  ~~~~ py extra\n  a = [\n  ~~~\n  ~~~~\nafter\n```\nunclosed at the end"
        let (lines, blocks) = Self.stream([text])
        #expect(blocks == [
            CodeBlock(number: 1, info: "swift", code: "let x = 1\n  indented\n"),
            CodeBlock(number: 2, info: "py", code: "a = [\n~~~\n"),
            CodeBlock(number: 3, info: "", code: "unclosed at the end\n"),
        ])
        #expect(blocks.map(\.fileExtension) == ["swift", "py", "txt"])
        #expect(Self.labels(lines) == ["1 · swift", "2 · py", "3"])
        #expect(lines == MarkdownRenderer().render(text))
        // Not fences: an inline code span; four spaces of indentation (an indented
        // block: shown as code, not numbered, not reported).
        let notFenced = Self.stream(["``` code span ``` here\n\n    ```\n    x\n"])
        #expect(notFenced.blocks.isEmpty)
        #expect(Self.labels(notFenced.lines).isEmpty)
    }

    /// Models put commands in list items and quotes: those blocks count too, their
    /// code without the item's indentation or the quote's `>`.
    static let nested = """
        Steps:

        1. Install:

           ```bash
           pip install x
           ```
        2. Run it:
           ```sh
           x --go
             --fast
           ```

        > ```py
        > print(1)
        > ```

        ```
        last
        ```
        """

    @Test func blocksInListsAndQuotesAreNumberedInOrder() {
        let (lines, blocks) = Self.stream([Self.nested])
        #expect(blocks == [
            CodeBlock(number: 1, info: "bash", code: "pip install x\n"),
            CodeBlock(number: 2, info: "sh", code: "x --go\n  --fast\n"),
            CodeBlock(number: 3, info: "py", code: "print(1)\n"),
            CodeBlock(number: 4, info: "", code: "last\n"),
        ])
        #expect(lines == MarkdownRenderer().render(Self.nested))
        let shown = lines.map(\.plainText)
        #expect(shown.contains { $0.hasSuffix("1 · bash") } && shown.contains { $0.hasSuffix("2 · sh") })
        #expect(shown.contains { $0.hasSuffix("3 · py") } && shown.contains("4"))
    }

    @Test func numbersCanBeTurnedOff() {
        let renderer = MarkdownRenderer(options: MarkdownOptions(numbersCodeBlocks: false))
        let lines = renderer.render("```swift\nx\n```\n\n```\ny\n```\n")
        #expect(Self.labels(lines) == ["swift"])
    }

    @Test func theOpenBlockShowsTheNumberItWillHave() {
        var stream = MarkdownStream(options: MarkdownOptions())
        _ = stream.append("```a\n1\n```\n\n- item\n\n  ```b\n  2\n")
        // The list is open: its block is drawn provisionally, as number 2, every time.
        for _ in 0..<3 {
            #expect(Self.labels(stream.provisionalLines()).contains { $0.hasSuffix("2 · b") })
        }
        let final = stream.append("  ```\n\nafter\n\n```c\n3\n```\n") + stream.finish()
        #expect(final.map(\.plainText).contains { $0.hasSuffix("2 · b") })
        #expect(Self.labels(final).contains("3 · c"))
    }

    @Test(arguments: ["answers/coding-answer.md", "nested"])
    func everyChunkingReportsTheSameBlocks(_ name: String) {
        let seed = TestSeed.base(1301)
        var rng = SeededGenerator(seed: seed)
        let text = name == "nested" ? Self.nested : Fixtures.text(name)
        let whole = Self.stream([text], drawEach: false)
        #expect(whole.blocks.count == (name == "nested" ? 4 : 6))
        #expect(whole.blocks.map(\.number) == Array(1...whole.blocks.count))
        #expect(Self.stream(text.unicodeScalars.map { String($0) }).blocks == whole.blocks)
        for round in 0..<100 {
            let pieces = randomPieces(text, using: &rng)
            let chunked = Self.stream(pieces, drawEach: round % 2 == 0)
            #expect(chunked.blocks == whole.blocks, "seed \(seed) round \(round)")
            #expect(chunked.lines == whole.lines, "seed \(seed) round \(round)")
        }
    }
}
