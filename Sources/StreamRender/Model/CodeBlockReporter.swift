/// Reports an answer's fenced code blocks as their blocks become final, with the
/// numbers their labels show: it takes them from the markdown renderer that draws
/// the answer, or, when the answer is shown raw (`--width 0`), from a markdown stream
/// of its own fed the same text.
///
/// Not `Sendable`: it holds a `MarkdownRenderer` (a class) shared with a view.
struct CodeBlockReporter {
    private var renderer: MarkdownRenderer?
    private var stream: MarkdownStream?

    /// Whether blocks are being collected.
    var isStarted: Bool { renderer != nil }

    /// Starts collecting from `shown` (the renderer of the view's markdown), or from a
    /// stream of its own when the view renders none. Call before the first text.
    mutating func start(shown: MarkdownRenderer?) {
        guard renderer == nil else { return }
        if let shown {
            renderer = shown
        } else {
            // (Its lines are not shown: the code's colours would be thrown away.)
            stream = MarkdownStream(options: MarkdownOptions(highlightsCode: false))
            renderer = stream!.renderer
        }
        renderer!.collectsCodeBlocks = true
    }

    /// The answer's text, as the view got it.
    ///
    /// - Complexity: O(n) in the bytes of `text` when it keeps a stream; else O(1).
    mutating func append(_ text: String) {
        if stream != nil { _ = stream!.append(text) }
    }

    /// The answer's text block ended (as `WrappedDocument.endBlock(commit:)`), or
    /// the answer did (`finish`).
    mutating func endBlock() {
        if stream != nil { _ = stream!.finish() }
    }

    /// The blocks finished since the last call, in order.
    func take() -> [CodeBlock] {
        renderer?.takeCodeBlocks() ?? []
    }
}
