import Foundation
import Testing
import StreamRender

/// The README's library snippet is compiled here, line for line, and run.
@Suite struct ReadmeSnippetTests {
    // README snippet begin
    static func snippet(_ chunks: [[UInt8]]) -> (String, StreamRenderer.Outcome) {
        let sink = BufferSink()                          // FileDescriptorSink() writes to standard output
        let renderer = StreamRenderer(
            configuration: .init(output: .plain, layout: LayoutSettings(width: 60)), sink: sink)
        for chunk in chunks { renderer.feed(chunk) }     // SSE or text bytes, cut anywhere
        let outcome = renderer.finish()                  // writes what was held back; says how it ended
        let text = String(decoding: sink.bytes, as: UTF8.self)
        // README snippet end
        return (text, outcome)
    }

    // README snippet 2 begin
    static func highlightSnippet() -> [Token] {
        var highlighter = Highlighter(language: HighlightLanguage.named("py")!)
        let tokens = highlighter.finishLine("def greet(name):")  // a finished line: lexed once
        for token in tokens { print(token) }                     // "0 3 keyword", "4 9 function", ...
        // README snippet 2 end
        return tokens
    }

    // README snippet 3 begin
    static func asyncSnippet<Body: AsyncSequence & Sendable>(_ body: Body) async
    where Body.Element == [UInt8], Body.AsyncIterator: SendableMetatype {
        let renderer = StreamRenderer(configuration: .init(output: .inline), sink: FileDescriptorSink())
        let outcome = await renderer.render(chunks: body)   // body: any AsyncSequence of [UInt8] chunks
        if let message = outcome.endingMessage { print("stream-render: \(message)") }
        // README snippet 3 end
    }

    // README snippet 4 begin
    static func paneSnippet() -> (AnswerModel, PanePresenter, Frame, StyleTable) {
        let model = AnswerModel()                        // SSE or text, detected; paced
        model.onSideEvent = { event in /* .thinking, .toolCall(name:arguments:id:isComplete:), .error... */ }
        var presenter = PanePresenter()
        var frame = Frame(width: 80, height: 24), styles = StyleTable()
        model.feed(Array("Hello, **world**.".utf8))      // as bytes arrive
        model.tick(now: model.currentTime)               // each frame: the pacer reveals what is due
        presenter.render(model, into: &frame, area: Rect(top: 0, left: 0, width: 40, height: 23), styles: &styles)
        // README snippet 4 end
        return (model, presenter, frame, styles)
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `block`-th Swift block of the README and the snippet between this file's
    /// `// README snippet<name> begin` and `end` markers, each as trimmed non-empty lines
    /// (the snippet without its first `signatureLines`, the function's own).
    static func documentedAndCompiled(block: Int, snippet name: String, signatureLines: Int = 1,
                                      ignoring ignored: Set<String> = []) throws -> (documented: [String], compiled: [String]) {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let text = try #require(readme.components(separatedBy: "```swift\n").dropFirst(block).first?.components(separatedBy: "```").first)
        let documented = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !ignored.contains($0) }
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let body = source.components(separatedBy: "// README snippet\(name) begin\n")[1]
            .components(separatedBy: "// README snippet\(name) end")[0]
        let compiled = body.split(separator: "\n").dropFirst(signatureLines).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return (documented, compiled)
    }

    @Test func theReadmeSnippetIsTheCompiledOne() throws {
        let (documented, compiled) = try Self.documentedAndCompiled(block: 1, snippet: "", ignoring: ["import StreamRender"])
        #expect(documented == compiled)
    }

    @Test func theHighlighterSnippetIsTheCompiledOneAndPrintsWhatItSays() throws {
        let (documented, compiled) = try Self.documentedAndCompiled(block: 4, snippet: " 2")
        #expect(documented == compiled)
        let tokens = Self.highlightSnippet().map(\.description)
        #expect(tokens.prefix(2) == ["0 3 keyword", "4 9 function"], "\(tokens)")
    }

    /// The async snippet compiles here (it is not run: it draws on standard output).
    @Test func theAsyncSnippetIsTheCompiledOne() throws {
        let (documented, compiled) = try Self.documentedAndCompiled(block: 2, snippet: " 3", signatureLines: 2)
        #expect(documented == compiled)
    }

    @Test func thePaneSnippetIsTheCompiledOneAndDrawsTheAnswer() throws {
        let (documented, compiled) = try Self.documentedAndCompiled(block: 3, snippet: " 4")
        #expect(documented == compiled)
        var (model, presenter, frame, styles) = Self.paneSnippet()
        model.finish()
        var now = model.currentTime
        while !model.isDone && now < .seconds(10) {
            model.tick(now: now)
            now += .milliseconds(16)
        }
        presenter.render(model, into: &frame, area: Rect(top: 0, left: 0, width: 40, height: 23), styles: &styles)
        #expect(frame.text(row: 0).hasPrefix("Hello, world."), "\(frame.text(row: 0))")
    }
}
