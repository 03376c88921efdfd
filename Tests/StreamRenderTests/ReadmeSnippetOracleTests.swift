import Testing
@_spi(Benchmarks) @testable import StreamRender

// Apart from ReadmeSnippetTests.swift, whose plain import keeps the snippets to the
// public API: the oracle here is the document printer itself, not the renderer.
extension ReadmeSnippetTests {
    @Test func theSnippetShowsTheWholeAnswer() {
        let bytes = Fixtures.data("sse/coding-answer.anthropic.sse")
        let chunks = stride(from: 0, to: bytes.count, by: 97).map { Array(bytes[$0..<min(bytes.count, $0 + 97)]) }
        let (text, outcome) = Self.snippet(chunks)
        var printer = PlainTextPrinter(settings: LayoutSettings(width: 60), markdown: MarkdownOptions())
        let answer = Fixtures.text("answers/coding-answer.md")
        #expect(text == printer.append(answer) + printer.finish(), "the end of the answer is missing")
        #expect(outcome.ending == .complete)
    }
}
