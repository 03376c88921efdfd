/// Turns a stream of text into wrapped plain-text output for a pipe or a dumb
/// terminal: each visual line is printed once it is final, and the part of the
/// current line that can no longer move to the next line is printed as it grows,
/// so output never waits for a line end and never needs erasing.
///
/// What it prints, concatenated, is every line of the final layout followed by LF
/// (tabs expanded, a too-wide cluster as its replacement), whatever the chunking.
public struct PlainTextPrinter {
    public private(set) var view: WrappedDocument
    /// The current line's start and how much of it is printed (bytes and columns).
    private var partial: (paragraph: Int, start: Int, printedEnd: Int, column: Int)?
    private var out = ""

    /// `markdown`: print the text's markdown structure (final blocks only).
    public init(settings: LayoutSettings, limits: HistoryLimits = .standard, markdown: MarkdownOptions? = nil) {
        view = WrappedDocument(settings: settings, limits: limits, markdown: markdown)
    }

    /// Appends `text` and returns what can be printed now.
    ///
    /// - Complexity: amortized O(n + c) in the bytes of `text` and the current line.
    public mutating func append(_ text: String) -> String {
        var committed: [VisualLine] = []
        view.append(text) { committed.append($0) }
        for line in committed { printFinal(line) }
        printCertainTail()
        return takeOutput()
    }

    /// The text so far ends a block (see ``WrappedDocument/endBlock(commit:)``);
    /// returns what can be printed now.
    ///
    /// - Complexity: one parse of markdown's open block, plus the lines printed.
    public mutating func endBlock() -> String {
        var committed: [VisualLine] = []
        view.endBlock { committed.append($0) }
        for line in committed { printFinal(line) }
        printCertainTail()
        return takeOutput()
    }

    /// Ends the text and returns the rest of the output.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public mutating func finish() -> String {
        var committed: [VisualLine] = []
        view.finish { committed.append($0) }
        for line in committed { printFinal(line) }
        return takeOutput()
    }

    private mutating func takeOutput() -> String {
        defer { out = "" }
        return out
    }

    private mutating func printFinal(_ line: VisualLine) {
        if let p = partial, p.paragraph == line.paragraph, p.start == line.start, !line.isReplacement {
            out += view.plainText(paragraph: line.paragraph, from: p.printedEnd, to: line.end, startColumn: p.column).text
        } else {
            out += view.plainText(of: line)
        }
        out += "\n"
        partial = nil
    }

    private mutating func printCertainTail() {
        guard let tail = view.layout.certainTail, tail.end > tail.start else { return }
        if partial == nil || partial!.paragraph != tail.paragraph || partial!.start != tail.start {
            partial = (tail.paragraph, tail.start, tail.start, 0)
        }
        guard var p = partial, tail.end > p.printedEnd else { return }
        let piece = view.plainText(paragraph: p.paragraph, from: p.printedEnd, to: tail.end, startColumn: p.column)
        out += piece.text
        p.printedEnd = tail.end
        p.column = piece.endColumn
        partial = p
    }
}
