/// Turns a stream of text into wrapped plain-text output for a pipe or a dumb
/// terminal: each visual line is printed once it is final, and the part of the
/// current line that can no longer move to the next line is printed as it grows,
/// so output never waits for a line end and never needs erasing.
///
/// What it prints, concatenated, is every line of the final layout followed by LF
/// (tabs expanded, a too-wide cluster as its replacement), whatever the chunking.
///
/// Not `Sendable`: its layout shares ICU iterators between copies; one printer per
/// output.
@_spi(Benchmarks) public struct PlainTextPrinter {
    public private(set) var view: WrappedDocument
    /// The current line's start and how much of it is printed (bytes and columns).
    private var partial: (paragraph: Int, start: Int, printedEnd: Int, column: Int)?
    private var out: [UInt8] = []
    /// The lines a call committed, kept between calls (a file's first read commits
    /// thousands: the array grew by doubling every time).
    private var committed: [VisualLine] = []
    /// Styled output: each run of text is preceded by what switches to its style,
    /// and each line ends with the style reset before its LF.
    private let pen: StylePen?
    /// The pen, where it can write into ``assembly``: a paragraph printed straight is
    /// put together there and appended to the output once.
    private let linePen: LinePen?
    private let assembly = LineAssembly()
    private let hasMarkdown: Bool
    /// Lays out markdown's complete paragraphs that go straight from their rendered
    /// lines to the output (``printStraight(_:)``).
    private var straight: ParagraphWrapper
    /// Whether complete paragraphs go straight to the output (tests turn it off to
    /// compare with the document's way).
    var printsStraight = true

    /// `markdown`: print the text's markdown structure (final blocks only). `pen`:
    /// print styled lines (see ``StylePen``); what is printed, without what the pen
    /// writes, is the same plain text.
    public init(settings: LayoutSettings, limits: HistoryLimits = .standard, markdown: MarkdownOptions? = nil,
                pen: StylePen? = nil) {
        self.init(settings: settings, limits: limits, markdown: markdown, pen: pen, linePen: pen as? LinePen)
    }

    /// A printer whose pen is a ``LinePen`` already (the renderer's: the cast above had
    /// the runtime look for the conformance among every one of the binary, at each start).
    package init(settings: LayoutSettings, limits: HistoryLimits = .standard, markdown: MarkdownOptions? = nil,
                 linePen: LinePen?) {
        self.init(settings: settings, limits: limits, markdown: markdown, pen: linePen, linePen: linePen)
    }

    private init(settings: LayoutSettings, limits: HistoryLimits, markdown: MarkdownOptions?, pen: StylePen?,
                 linePen: LinePen?) {
        view = WrappedDocument(settings: settings, limits: limits, markdown: markdown)
        self.pen = pen
        self.linePen = linePen
        hasMarkdown = markdown != nil
        straight = ParagraphWrapper(settings: settings)
    }

    /// Appends `text` and returns what can be printed now.
    ///
    /// - Complexity: amortized O(n + c) in the bytes of `text` and the current line.
    public mutating func append(_ text: String) -> String {
        Self.string { append(text, into: &$0) }
    }

    /// Appends `text`; what can be printed now goes to `output`.
    ///
    /// - Complexity: amortized O(n + c) in the bytes of `text` and the current line.
    public mutating func append(_ text: String, into output: inout [UInt8]) {
        guard hasMarkdown && printsStraight else {
            return printing(into: &output, tail: true) { view, commit in view.append(text, commit: commit) }
        }
        // Markdown's final lines: a complete paragraph after laid-out text is printed
        // straight from its rendered line (nothing re-wraps printed text: the document
        // would hold it only to print it), the others go through the document.
        swap(&out, &output)
        defer { swap(&out, &output) }
        var lines = view.renderedLines(text)
        var committed: [VisualLine] = []
        swap(&committed, &self.committed)
        // (The references a line printed straight uses, taken once for all the lines:
        // taken a line at a time, each was an atomic retain and release.)
        let breakers = view.layout.breakers
        var sink = linePen.map { AssemblySink(pen: $0, line: assembly) }
        for k in lines.indices {
            if view.isLaidOut && printStraight(&lines[k], visuals: &committed, breakers: breakers, sink: &sink) {
                continue
            }
            // (Lines printed straight wait in the assembly: one append for a run of them.)
            sink?.line.move(into: &out)
            committed.removeAll(keepingCapacity: true)
            view.appendRendered(&lines, k..<(k + 1)) { committed.append($0) }
            for line in committed { printFinal(line) }
        }
        sink?.line.move(into: &out)
        swap(&committed, &self.committed)
        view.recycle(&lines)
        printCertainTail()
    }

    /// Prints `line`, a complete paragraph, laid out as the document would lay it out
    /// alone, without putting it in the document. False, printing nothing, for a
    /// line the document must take: part of a paragraph, or text to sanitise or
    /// split (over the paragraph limit), or tabs in text that is not ASCII (expanded
    /// here, they need each line's columns, which ASCII's bytes are).
    private mutating func printStraight(_ line: inout StyledLine, visuals: inout [VisualLine], breakers: LayoutBreakers,
                                        sink assemblySink: inout AssemblySink?) -> Bool {
        guard !line.continues && !line.joinsPrevious else { return false }
        let limit = view.document.maximumParagraphBytes
        var hasTab = false
        guard line.bytes.withUnsafeBufferPointer({ bytes in
            guard bytes.count <= limit else { return false }
            // (Most lines hold no control, tab or line feed: one pass tells, not three.)
            if ControlSanitizer.isClean(bytes, tabs: false, lineFeeds: false) { return true }
            hasTab = ByteSearch.contains(0x09, in: bytes)
            return ControlSanitizer.isClean(bytes) && !ByteSearch.contains(0x0A, in: bytes) && (!hasTab || DisplayWidth.isASCII(bytes))
        }), line.bytes.isEmpty || line.runs.last?.end == line.bytes.count else { return false }
        let decoration = view.unretainedDecoration(of: line.format)
        let settings = view.layout.settings
        // The visual lines first, then their bytes: a closure that printed them as they
        // came held the pen, the assembly and the decoration, retained and released
        // (atomically) at each call into the layout.
        visuals.removeAll(keepingCapacity: true)
        if line.bytes.isEmpty && decoration == nil {
            // A blank line (half the lines of short paragraphs): the one empty line the
            // wrapper gives it, without the wrapper.
            visuals.append(ParagraphWrapper.blankLine(paragraph: 0))
        } else {
            if straight.settings != settings { straight = ParagraphWrapper(settings: settings) }
            straight.reset()
            if let columns = decoration?._withUnsafeGuaranteedRef({ $0.columns }) {
                straight.setLineWidths(first: settings.width - columns.first, other: settings.width - columns.other,
                                       cutsAnywhere: line.format.wrapsLikeTerminal)
            }
            line.bytes.withUnsafeBufferPointer { text in
                straight.advance(text, closed: true, breakers: breakers) { visuals.append($0) }
            }
        }
        let tabSize = hasTab ? settings.tabSize : 0
        line.bytes.withUnsafeBufferPointer { text in
            line.linkTargets.withUnsafeBufferPointer { targets in
                line.runs.withUnsafeBufferPointer { runs in
                    visuals.withUnsafeBufferPointer { visuals in
                        if assemblySink != nil {
                            for visual in visuals {
                                Self.printVisualLine(visual, of: text, runs: runs, targets: targets, decoration: decoration,
                                                     width: settings.width, tabSize: tabSize, into: &assemblySink!)
                            }
                            // (A long run of lines goes out in parts: the assembly stays small.)
                            if assemblySink!.line.count >= 16_384 { assemblySink!.line.move(into: &out) }
                        } else {
                            var sink = ArraySink(pen: pen)
                            swap(&sink.out, &out)
                            for visual in visuals {
                                Self.printVisualLine(visual, of: text, runs: runs, targets: targets, decoration: decoration,
                                                     width: settings.width, tabSize: tabSize, into: &sink)
                            }
                            swap(&sink.out, &out)
                        }
                    }
                }
            }
        }
        view.unheldLines += visuals.count
        partial = nil
        return true
    }

    /// Prints `visual`, a line of `text` in `runs` (their links' `targets`), as
    /// ``printFinal(_:)`` prints the line of a paragraph with that text and decoration.
    /// With `tabSize` above 0, the text is ASCII with tabs (a byte a column), each
    /// expanded to its stop as the document expands it.
    private static func printVisualLine<Sink: LineSink>(_ visual: VisualLine, of text: UnsafeBufferPointer<UInt8>,
                                                        runs: UnsafeBufferPointer<StyledLine.Run>,
                                                        targets: UnsafeBufferPointer<String>,
                                                        decoration: Unmanaged<PrefixWidths.Decoration>?, width: Int,
                                                        tabSize: Int, into sink: inout Sink) {
        var textColumn = 0
        // The text's column on the line, where tabs are expanded.
        var column = 0
        decoration?._withUnsafeGuaranteedRef { decoration in
            let isFirst = visual.start == 0
            textColumn = isFirst ? decoration.columns.first : decoration.columns.other
            // (Through the pieces' buffer: iterating the array retained it.)
            (isFirst ? decoration.first : decoration.other).withUnsafeBufferPointer { pieces in
                for piece in pieces {
                    sink.setStyle(piece.style)
                    var text = piece.text
                    text.withUTF8 { sink.append($0) }
                }
            }
        }
        if visual.isReplacement {
            sink.setStyle(.plain)
            let replacement: StaticString = "\u{FFFD}"
            replacement.withUTF8Buffer { sink.append($0) }
            for _ in 0..<(max(1, width - textColumn) - 1) { sink.append(0x20) }
        } else if sink.isStyled {
            // (The runs cover the text: the last ends at its end.)
            var k = 0, start = visual.start
            while start < visual.end {
                while runs[k].end <= start { k += 1 }
                let end = min(runs[k].end, visual.end)
                if runs[k].link == 0 { sink.setLook(runs[k].look) } else { sink.setStyle(runs[k].style(targets)) }
                if tabSize > 0 {
                    appendExpandingTabs(text, start..<end, column: &column, tabSize: tabSize, lineWidth: max(1, width - textColumn),
                                        into: &sink)
                } else {
                    sink.append(UnsafeBufferPointer(rebasing: text[start..<end]))
                }
                start = end
            }
        } else if tabSize > 0 {
            appendExpandingTabs(text, visual.start..<visual.end, column: &column, tabSize: tabSize,
                                lineWidth: max(1, width - textColumn), into: &sink)
        } else {
            sink.append(UnsafeBufferPointer(rebasing: text[visual.start..<visual.end]))
        }
        decoration?._withUnsafeGuaranteedRef { decoration in
            guard let fill = decoration.fill else { return }
            let count = max(0, width - textColumn - visual.width) / decoration.fillWidth
            if count > 0 {
                sink.setStyle(fill.style)
                sink.appendRepeated(fill.text, count: count)
            }
        }
        sink.setStyle(.plain)
        sink.append(0x0A)
    }

    /// Appends `text[range]`, ASCII starting at `column` of a line of `lineWidth` text
    /// columns, each tab as the spaces `LayoutSettings.expandingTabs` gives it (the
    /// document's expansion: to the next stop, cut at the line's end).
    /// (Out of line: inlined, it made the layout's closure too large to inline, a call
    /// a line that cost plain output 2% of its instructions.)
    @inline(never)
    private static func appendExpandingTabs<Sink: LineSink>(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                                            column: inout Int, tabSize: Int, lineWidth: Int,
                                                            into sink: inout Sink) {
        column = LayoutSettings(width: lineWidth, tabSize: tabSize).expandingTabs(text, range, startColumn: column,
                                                                                   measure: { $0.count }) { run, spaces, _ in
            if let run { sink.append(run) } else { for _ in 0..<spaces { sink.append(0x20) } }
        }
    }

    /// The text so far ends a block (see `WrappedDocument.endBlock(commit:)`);
    /// returns what can be printed now.
    ///
    /// - Complexity: one parse of markdown's open block, plus the lines printed.
    public mutating func endBlock() -> String {
        Self.string { endBlock(into: &$0) }
    }

    /// ``endBlock()`` into `output`.
    ///
    /// - Complexity: one parse of markdown's open block, plus the lines printed.
    public mutating func endBlock(into output: inout [UInt8]) {
        printing(into: &output, tail: true) { view, commit in view.endBlock(commit: commit) }
    }

    /// Ends the text and returns the rest of the output.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public mutating func finish() -> String {
        Self.string { finish(into: &$0) }
    }

    /// ``finish()`` into `output`.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public mutating func finish(into output: inout [UInt8]) {
        printing(into: &output, tail: false) { view, commit in view.finish(commit: commit) }
    }

    private static func string(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `mutate` on the view, then prints the lines it committed (and the certain
    /// part of the current line when `tail`) into `output`.
    private mutating func printing(into output: inout [UInt8], tail: Bool,
                                   _ mutate: (inout WrappedDocument, (VisualLine) -> Void) -> Void) {
        swap(&out, &output)
        defer { swap(&out, &output) }
        var committed: [VisualLine] = []
        swap(&committed, &self.committed)
        committed.removeAll(keepingCapacity: true)
        mutate(&view) { committed.append($0) }
        for line in committed { printFinal(line) }
        swap(&committed, &self.committed)
        if tail { printCertainTail() }
    }

    private mutating func printFinal(_ line: VisualLine) {
        if let p = partial, p.paragraph == line.paragraph, p.start == line.start, !line.isReplacement {
            _ = view.appendText(paragraph: line.paragraph, from: p.printedEnd, to: line.end, startColumn: p.column,
                                into: &out, pen: pen, measures: false)
        } else {
            view.appendLine(line, into: &out, pen: pen)
        }
        pen?.change(to: .plain, into: &out)
        out.append(0x0A)
        partial = nil
    }

    private mutating func printCertainTail() {
        guard let tail = view.layout.certainTail, tail.end > tail.start else { return }
        if partial == nil || partial!.paragraph != tail.paragraph || partial!.start != tail.start {
            partial = (tail.paragraph, tail.start, tail.start, 0)
        }
        guard var p = partial, tail.end > p.printedEnd else { return }
        p.column = view.appendText(paragraph: p.paragraph, from: p.printedEnd, to: tail.end, startColumn: p.column,
                                   into: &out, pen: pen)
        p.printedEnd = tail.end
        partial = p
        // A pipe's reader may stop here a while (`less -R`): leave no style open.
        pen?.change(to: .plain, into: &out)
    }
}

/// Where ``PlainTextPrinter`` prints a line straight: a ``LineAssembly`` through a
/// ``LinePen`` (``AssemblySink``), or the output array through another pen or none
/// (``ArraySink``: plain lines are a few appends each, and copying them twice cost
/// more than it saved).
private protocol LineSink {
    /// Whether styles are written (with no pen, ``setStyle(_:)`` writes nothing).
    var isStyled: Bool { get }
    mutating func setStyle(_ style: Style)
    /// ``setStyle(_:)`` for a style without a link, by its ``Style/look``.
    mutating func setLook(_ look: UInt64)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(_ byte: UInt8)
    mutating func appendRepeated(_ text: String, count: Int)
}

private struct ArraySink: LineSink {
    var out: [UInt8] = []
    let pen: StylePen?

    init(pen: StylePen?) { self.pen = pen }

    var isStyled: Bool { pen != nil }
    mutating func setStyle(_ style: Style) { pen?.change(to: style, into: &out) }
    mutating func setLook(_ look: UInt64) { pen?.change(to: Style(look: look), into: &out) }
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { out.append(contentsOf: bytes) }
    mutating func append(_ byte: UInt8) { out.append(byte) }
    mutating func appendRepeated(_ text: String, count: Int) { WrappedDocument.appendRepeated(text, count: count, into: &out) }
}

private struct AssemblySink: LineSink {
    let pen: LinePen
    let line: LineAssembly

    var isStyled: Bool { true }
    func setStyle(_ style: Style) { pen.change(to: style, into: line) }
    func setLook(_ look: UInt64) { pen.change(toLook: look, into: line) }
    func append(_ bytes: UnsafeBufferPointer<UInt8>) { line.append(bytes) }
    func append(_ byte: UInt8) { line.append(byte) }
    func appendRepeated(_ text: String, count: Int) {
        var text = text
        text.withUTF8 { bytes in for _ in 0..<count { line.append(bytes) } }
    }
}
