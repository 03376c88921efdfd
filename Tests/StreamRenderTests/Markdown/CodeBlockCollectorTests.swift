import Testing
@testable import StreamRender

@Suite struct CodeBlockCollectorTests {
    static func collect(_ pieces: [String]) -> [CodeBlock] {
        var collector = CodeBlockCollector()
        var blocks: [CodeBlock] = []
        for piece in pieces { blocks += collector.feed(piece) }
        return blocks + collector.finish()
    }

    @Test func findsTopLevelFencesWithTheirInfoAndCode() {
        let text = "Intro\n\n```swift\nlet x = 1\n  indented\n```\n\n  ~~~~ py extra\n  a = [\n  ~~~\n  ~~~~\nafter\n```\nunclosed at the end"
        let blocks = Self.collect([text])
        #expect(blocks == [
            CodeBlock(info: "swift", code: "let x = 1\n  indented\n"),
            CodeBlock(info: "py", code: "a = [\n~~~\n"),
            CodeBlock(info: "", code: "unclosed at the end\n"),
        ])
        #expect(blocks.map(\.fileExtension) == ["swift", "py", "txt"])
        // Not fences: an inline code span, four spaces of indentation.
        #expect(Self.collect(["``` code span ``` here\n    ```\n    x\n"]).isEmpty)
    }

    @Test func everyChunkingFindsTheSameBlocks() {
        let seed = TestSeed.base(1301)
        var rng = SeededGenerator(seed: seed)
        let text = Fixtures.text("answers/coding-answer.md")
        let whole = Self.collect([text])
        #expect(whole.count == 6)
        let bytes = Array(text.utf8)
        #expect(Self.collect(bytes.map { String(decoding: [$0], as: UTF8.self) }).count == whole.count)
        for round in 0..<200 {
            // Cut at random character boundaries (the renderer hands over whole characters).
            var pieces: [String] = []
            var current = ""
            for c in text {
                current.append(c)
                if Int.random(in: 0..<8, using: &rng) == 0 { pieces.append(current); current = "" }
            }
            pieces.append(current)
            #expect(Self.collect(pieces) == whole, "seed \(seed) round \(round)")
        }
    }
}
