/// How much history a `WrappedDocument` keeps. When a limit is passed the oldest
/// paragraphs are evicted whole (the open paragraph never is, nor any from
/// `WrappedDocument.keptFrom` on; a paragraph is at most
/// `StyledDocument.maximumParagraphBytes` long, so memory stays bounded). Limits are
/// applied at the start of each mutation: the history may exceed them by what the
/// latest mutation added, and by what a view has yet to write (the inline view: what
/// became final since its last frame).
public struct HistoryLimits: Hashable, Sendable {
    /// Keep at most about this many visual lines (nil: no limit).
    public var maximumLines: Int?
    /// Keep at most about this many bytes of text (nil: no limit).
    public var maximumBytes: Int?

    public init(maximumLines: Int? = nil, maximumBytes: Int? = nil) {
        self.maximumLines = maximumLines
        self.maximumBytes = maximumBytes
    }

    /// 100,000 lines and 32 MiB: far more than a screen's scrollback, flat for
    /// endless streams.
    public static let standard = HistoryLimits(maximumLines: 100_000, maximumBytes: 32 << 20)
    /// Keep everything (memory grows with the stream).
    public static let unlimited = HistoryLimits()
}

/// The streamed answer, styled and laid out at a width, with bounded history: the
/// document and its layout kept in step.
///
/// ```swift
/// var view = WrappedDocument(settings: LayoutSettings(width: 80))
/// view.append("Hello, ") { line in print(view.plainText(of: line)) }
/// ```
///
/// Every mutation costs time proportional to its own size (plus at most the
/// current line), whatever the document's length.
///
/// Not `Sendable`: its layout keeps ICU iterators and a prefix cache in classes shared
/// between copies; a document belongs to one thread.
@_spi(Benchmarks) public struct WrappedDocument {
    package private(set) var document: StyledDocument
    private(set) var layout: DocumentLayout
    public var limits: HistoryLimits
    /// Paragraphs from this number on are not evicted, whatever the limits: a view has
    /// yet to write lines of them (nil: the limits alone decide). A view that sets it
    /// must write them (and move it on) for the limits to hold.
    public var keptFrom: Int?
    /// Visual lines evicted so far (as they were laid out when evicted).
    public private(set) var evictedLines = 0
    /// Visual lines printed straight from markdown's rendered lines, never held
    /// (plain output's complete paragraphs: `PlainTextPrinter`).
    public internal(set) var unheldLines = 0
    /// With markdown, text goes through this stream: its final lines become closed
    /// paragraphs (with their formats), the open block provisional paragraphs that
    /// ``updateProvisional()`` replaces.
    public private(set) var markdown: MarkdownStream?
    private var provisionalStale = false
    /// `markdown != nil`, kept apart: comparing the optional copied the whole stream
    /// (a retain of each of its buffers) on every append.
    private let hasMarkdown: Bool

    /// Whether the text the provisional paragraphs show now keeps its place as more
    /// arrives and at any width (only a fenced code block's last line is provisional).
    ///
    /// - Complexity: O(1).
    var provisionalTextOnlyGrows: Bool {
        guard hasMarkdown else { return true }
        return markdown!.isInFence
    }

    /// Whether lines are marked when their bytes are their cells
    /// (``VisualLine/cellsAreBytes``): views that draw cells set it before any text.
    var marksCells: Bool {
        get { layout.marksCells }
        set { layout.marksCells = newValue }
    }

    /// `markdown`: render the text as markdown with these options (their width and
    /// policy are taken from `settings`).
    public init(settings: LayoutSettings, limits: HistoryLimits = .standard,
                maximumParagraphBytes: Int = 1 << 20, markdown: MarkdownOptions? = nil) {
        document = StyledDocument(maximumParagraphBytes: maximumParagraphBytes)
        if (limits.maximumLines ?? .max) <= 4096 { document.spareLimit = 2048 }  // (see `spareLimit`)
        layout = DocumentLayout(settings: settings)
        self.limits = limits
        hasMarkdown = markdown != nil
        if var options = markdown {
            options.width = settings.width
            options.policy = settings.policy
            self.markdown = MarkdownStream(options: options)
        }
    }

    /// Paragraphs and bytes evicted so far.
    public var evictedParagraphs: Int { document.evictedParagraphs }
    public var evictedBytes: Int { document.evictedBytes }

    /// Appends `text` in `style`; `commit` sees each visual line that became final.
    ///
    /// - Complexity: amortized O(n + c) in the bytes of `text` and the current
    ///   line's clusters, plus O(k) in paragraphs evicted.
    public mutating func append(_ text: String, style: StyleID = .plain, commit: (VisualLine) -> Void = { _ in }) {
        if hasMarkdown {
            var lines = renderedLines(text)
            if !lines.isEmpty { appendRendered(&lines, lines.indices, commit: commit) }
            return recycle(&lines)
        }
        enforceLimits()
        document.append(text, style: style)
        layout.update(from: document, commit: commit)
    }

    /// Markdown's final lines for `text`, kept out of the document (``append(_:style:commit:)-(String,StyleID,_)``
    /// appends them all; plain output prints the lines it can straight, ``isLaidOut``,
    /// and gives the others to ``appendRendered(_:_:commit:)``), then all back to
    /// ``recycle(_:)``.
    ///
    /// - Complexity: as `MarkdownStream.append(_:)`.
    mutating func renderedLines(_ text: String) -> [StyledLine] {
        // Limits apply before the text goes in, so the lines the last mutation
        // committed stay readable (``plainText(of:)``) until the next one.
        enforceLimits()
        let lines = markdown!.append(text)
        provisionalStale = true
        return lines
    }

    /// Appends `lines[range]` (see ``renderedLines(_:)``); `commit` sees each visual
    /// line that became final.
    ///
    /// - Complexity: O(n + c) in the lines' bytes and the current line's clusters.
    mutating func appendRendered(_ lines: inout [StyledLine], _ range: Range<Int>, commit: (VisualLine) -> Void) {
        document.discardProvisional()
        appendLines(&lines, range)
        layout.update(from: document, commit: commit)
    }

    /// Gives lines of ``renderedLines(_:)`` back for reuse.
    mutating func recycle(_ lines: inout [StyledLine]) {
        markdown!.recycle(&lines)
    }

    /// Whether everything appended is laid out and its lines reported, with nothing
    /// open: a complete paragraph that came now would be laid out alone.
    ///
    /// - Complexity: O(1).
    var isLaidOut: Bool {
        !document.isFinished && document.provisionalStart == nil && layout.openParagraph == document.paragraphNumbers.upperBound - 1
            && document.withText(ofParagraph: layout.openParagraph) { text, _ in text.isEmpty }
    }

    /// What lines of `format` show around their text at the layout's width (nil for
    /// the plain format: nothing), the format interned in the document; unretained
    /// (see `DocumentLayout.unretainedDecoration(of:in:)`).
    ///
    /// - Complexity: O(p) in the format's prefixes (one hash; measured once).
    mutating func unretainedDecoration(of format: ParagraphFormat) -> Unmanaged<PrefixWidths.Decoration>? {
        if format.isPlain { return nil }
        return layout.unretainedDecoration(of: document.intern(format), in: document)
    }

    /// What `line`'s paragraph format shows around its text (nil for the plain format),
    /// as made once per width: ``decoration(of:)-(VisualLine)`` without the copies of
    /// its pieces (a view that writes a row reads them in place).
    ///
    /// - Complexity: O(1) once made.
    func madeDecoration(of line: VisualLine) -> PrefixWidths.Decoration? {
        let id = document.format(ofParagraph: line.paragraph)
        if id == 0 { return nil }
        // (Known, as it mostly is, without passing the document.)
        return layout.knownDecoration(of: id) ?? layout.decoration(of: id, in: document)
    }

    /// Appends rendered lines as paragraphs, each with its format.
    private mutating func appendLines(_ lines: inout [StyledLine]) {
        appendLines(&lines, lines.indices)
    }

    private mutating func appendLines(_ lines: inout [StyledLine], _ range: Range<Int>) {
        // By index: a loop variable was a copy of each line.
        for k in range {
            // A line that joins the one before goes on in its paragraph (and format).
            // (Plain, the most common, is set without passing the format: that copied it.)
            if !lines[k].joinsPrevious {
                if lines[k].format.isPlain { document.setPlainFormat() } else { document.setFormat(lines[k].format) }
            }
            // A blank line (every other line, between blocks) has nothing to append.
            if lines[k].bytes.isEmpty {
                if !lines[k].continues { document.endLine() }
                continue
            }
            // Mostly the line goes in as it is: checked once, not run by run; and mostly
            // it starts its paragraph, which takes its buffer.
            let asIs = lines[k].bytes.withUnsafeBufferPointer { document.takesAsIs($0) }
            if asIs && lines[k].moveText(into: &document) {
                if !lines[k].continues { document.endLine() }
                continue
            }
            if lines[k].runs.count > 1 { document.reserveOpenParagraph(lines[k].bytes.count) }
            // (The line's fields, not the line: calling a method of `lines[k]` copied it.)
            let runs = lines[k].runs, targets = lines[k].linkTargets
            lines[k].bytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for run in runs {
                    let piece = UnsafeBufferPointer(rebasing: bytes[start..<run.end])
                    let style = run.style(targets)
                    if asIs { document.appendAsIs(piece, style: style) } else { document.append(piece, style: style) }
                    start = run.end
                }
            }
            if !lines[k].continues { document.endLine() }
        }
    }

    /// With markdown: shows the open block as it would render now (replacing what
    /// was shown of it). Views call it before drawing a frame; plain output never
    /// does (it prints final lines only).
    ///
    /// - Complexity: O(r) in the open block's bytes (see `MarkdownStream.provisionalLines()`).
    public mutating func updateProvisional() {
        guard hasMarkdown, provisionalStale, !document.isFinished else { return }
        provisionalStale = false
        var lines = markdown!.provisionalLines()
        document.discardProvisional()
        document.markProvisional()
        appendLines(&lines)
        markdown!.recycle(&lines)
        layout.update(from: document)
    }

    /// Appends `text` in `style`, interning the style.
    ///
    /// - Complexity: as ``append(_:style:commit:)-(String,StyleID,_)``, plus one hash of the style.
    public mutating func append(_ text: String, style: Style, commit: (VisualLine) -> Void = { _ in }) {
        append(text, style: document.styles.intern(style), commit: commit)
    }

    /// The text so far ends a block (the answer's text block ended: a tool call or
    /// thinking follows): with markdown, the open block is rendered final now, and the
    /// text that follows starts a new block. Without markdown nothing changes.
    ///
    /// - Complexity: one parse of the open block.
    public mutating func endBlock(commit: (VisualLine) -> Void = { _ in }) {
        guard hasMarkdown, !document.isFinished else { return }
        enforceLimits()
        var lines = markdown!.finish()
        provisionalStale = true
        guard !lines.isEmpty else { return }
        document.discardProvisional()
        appendLines(&lines)
        markdown!.recycle(&lines)
        layout.update(from: document, commit: commit)
    }

    /// Ends the text: the last lines become final.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public mutating func finish(commit: (VisualLine) -> Void = { _ in }) {
        enforceLimits()
        if hasMarkdown, !document.isFinished {
            var lines = markdown!.finish()
            document.discardProvisional()
            appendLines(&lines)
            markdown!.recycle(&lines)
        }
        document.finish()
        layout.update(from: document, commit: commit)
    }

    /// Restyles `range` (layout does not depend on style, so nothing is re-wrapped).
    ///
    /// - Complexity: as `StyledDocument.restyle(_:to:)`.
    public mutating func restyle(_ range: Range<TextPosition>, to style: StyleID) {
        document.restyle(range, to: style)
    }

    /// Interns `style` in the document's style table.
    ///
    /// - Complexity: O(1) on average.
    public mutating func intern(_ style: Style) -> StyleID {
        document.styles.intern(style)
    }

    /// Whether `line` goes on in the next one by the terminal's own wrap: a line of a
    /// paragraph that wraps like a terminal (`ParagraphFormat.wrapsLikeTerminal`), not
    /// its last. False for a line of an evicted paragraph.
    ///
    /// - Complexity: O(1).
    func continuesByTerminalWrap(_ line: VisualLine) -> Bool {
        guard document.paragraphNumbers.contains(line.paragraph) else { return false }
        let paragraph = document[paragraph: line.paragraph]
        return line.end < paragraph.text.count && document.formats[paragraph.format].wrapsLikeTerminal
    }

    /// Re-wraps at new settings, viewport first.
    ///
    /// - Complexity: O(p + n) in the paragraphs held and the open paragraph's bytes.
    public mutating func resize(to settings: LayoutSettings) {
        markdown?.width = settings.width
        provisionalStale = true
        layout.resize(to: settings, in: document)
    }

    /// The last `count` lines, re-wrapping only what they need after a resize.
    ///
    /// - Complexity: O(v + c + t): the bytes of the paragraphs visited, the current
    ///   line and the unfinished tail.
    public mutating func tailLines(_ count: Int) -> [VisualLine] {
        layout.tailLines(count, in: document)
    }

    /// The last `count` lines and the index after the last line; with `limit`, of the
    /// text revealed up to it.
    ///
    /// - Complexity: as ``tailLines(_:)``, plus O(u) in the lines after `limit`.
    public mutating func tail(_ count: Int, revealedTo limit: TextPosition? = nil) -> (lines: [VisualLine], end: Int) {
        layout.tail(count, revealedTo: limit, in: document)
    }

    /// The final lines whose text goes past `position`.
    ///
    /// - Complexity: O(b + l) in the bytes re-wrapped and the lines returned.
    public mutating func finalLines(after position: TextPosition?) -> [VisualLine] {
        layout.finalLines(after: position, in: document)
    }

    /// Every line held, final then provisional.
    ///
    /// - Complexity: O(l) in the lines held, plus re-wrapping stale paragraphs.
    public mutating func allLines() -> [VisualLine] {
        layout.allLines(in: document)
    }

    private mutating func enforceLimits() {
        let maximumLines = limits.maximumLines ?? .max
        let maximumBytes = limits.maximumBytes ?? .max
        guard layout.lineCount > maximumLines || document.byteCount > maximumBytes else { return }
        var evict = document.firstParagraph
        var lines = layout.lineCount, bytes = document.byteCount
        // Oldest closed paragraphs first, never the one being laid out nor any a view
        // has yet to write (`keptFrom`).
        let kept = min(layout.openParagraph, keptFrom ?? .max)
        while (lines > maximumLines || bytes > maximumBytes) && evict < kept
                && evict + 1 < document.paragraphNumbers.upperBound {
            let count = layout.lineCount(ofParagraph: evict)
            lines -= count
            evictedLines += count
            bytes -= document[paragraph: evict].text.count
            evict += 1
        }
        if evict > document.firstParagraph {
            document.evictParagraphs(before: evict)
            layout.update(from: document)
        }
    }

    /// What a line shows besides its text: its paragraph's prefix (the first or the
    /// continuation one, cut to leave a column for text), the column the text starts
    /// at, and the fill after the text (a piece and how many times it repeats).
    public struct LineDecoration: Sendable {
        public var prefix: [ParagraphFormat.Piece]
        public var textColumn: Int
        public var fill: ParagraphFormat.Piece?
        public var fillCount: Int
    }

    /// The prefix and fill of `line` (see `ParagraphFormat`).
    ///
    /// - Complexity: O(p) in the prefix's bytes.
    public func decoration(of line: VisualLine) -> LineDecoration {
        guard let made = madeDecoration(of: line) else { return LineDecoration(prefix: [], textColumn: 0, fill: nil, fillCount: 0) }
        let isFirst = line.start == 0
        let column = isFirst ? made.columns.first : made.columns.other
        let fillCount = made.fill == nil ? 0 : max(0, layout.settings.width - column - line.width) / made.fillWidth
        return LineDecoration(prefix: isFirst ? made.first : made.other, textColumn: column, fill: made.fill, fillCount: fillCount)
    }

    /// The text of `line` as plain characters: its prefix, tabs expanded to spaces, a
    /// replacement line as U+FFFD and spaces, and its fill. Empty if its paragraph
    /// was evicted.
    ///
    /// - Complexity: O(n) in the line's bytes.
    public func plainText(of line: VisualLine) -> String {
        var out: [UInt8] = []
        appendLine(line, into: &out, pen: nil)
        return String(decoding: out, as: UTF8.self)
    }

    /// The plain characters of part of a line: bytes `from..<to` of a paragraph
    /// starting at `startColumn`, tabs expanded as the layout expands them.
    /// `textColumn` is where the line's text starts (after its prefix): columns count
    /// from there, and a tab is cut at the width left after it, as the layout cut it.
    ///
    /// - Complexity: O(n) in the bytes.
    public func plainText(paragraph number: Int, from: Int, to: Int, startColumn: Int,
                          isReplacement: Bool = false, textColumn: Int = 0) -> (text: String, endColumn: Int) {
        var out: [UInt8] = []
        let end = appendText(paragraph: number, from: from, to: to, startColumn: startColumn, isReplacement: isReplacement,
                             textColumn: textColumn, into: &out, pen: nil)
        return (String(decoding: out, as: UTF8.self), end)
    }

    /// Appends the bytes ``plainText(paragraph:from:to:startColumn:isReplacement:textColumn:)``
    /// gives; with `pen`, each run of one style is preceded by what switches to its style.
    /// Returns the column after them; with `measures` false, `startColumn` unless the
    /// bytes hold a tab (printing text without one needs no measuring: a final line's
    /// end column is never used).
    ///
    /// - Complexity: O(n + s log r) in the bytes, the style changes among them and the
    ///   paragraph's style runs.
    public func appendText(paragraph number: Int, from: Int, to: Int, startColumn: Int,
                           isReplacement: Bool = false, textColumn: Int = 0,
                           into out: inout [UInt8], pen: StylePen?, measures: Bool = true) -> Int {
        var settings = layout.settings
        settings.width = max(1, settings.width - textColumn)
        if isReplacement {
            pen?.change(to: .plain, into: &out)
            out.append(contentsOf: "\u{FFFD}".utf8)
            out.append(contentsOf: repeatElement(0x20, count: settings.width - 1))
            return settings.width
        }
        guard document.paragraphNumbers.contains(number), from < to else { return startColumn }
        // Mostly plain output's line without a tab: its bytes read in place (a copy of
        // the paragraph and of the style table retained and released their arrays per line).
        if !measures && pen == nil && document.withText(ofParagraph: number, { buf, _ in
            let text = UnsafeBufferPointer(rebasing: buf[from..<min(to, buf.count)])
            guard !ByteSearch.contains(0x09, in: text) else { return false }
            out.append(contentsOf: text)
            return true
        }) {
            return startColumn
        }
        // Styled output's line without a tab: the same, its runs walked in order (not
        // looked up per run), with the style table read in place.
        if !measures, let pen, document.withTextAndRuns(ofParagraph: number, { buf, runs in
            let end = min(to, buf.count)
            guard !ByteSearch.contains(0x09, in: UnsafeBufferPointer(rebasing: buf[from..<end])) else { return false }
            Self.appendStyled(buf, from..<end, runs: runs, styles: document.styles, into: &out, pen: pen)
            return true
        }) {
            return startColumn
        }
        let paragraph = document[paragraph: number]
        let styles = document.styles
        return paragraph.text.withUnsafeBufferPointer { buf in
            let range = from..<min(to, buf.count)
            // (Text without a tab that needs no measuring went out above.)
            return settings.expandingTabs(buf, range, startColumn: startColumn, measure: { run in
                var width = 0
                _ = GraphemeSegmenter.segment(run, final: true, fast: true, policy: settings.policy,
                                              breaker: layout.graphemeBreaker) { _, w, _ in width += w }
                return width
            }) { run, spaces, origin in
                guard let pen else {
                    if let run { out.append(contentsOf: run) } else { out.append(contentsOf: repeatElement(0x20, count: spaces)) }
                    return
                }
                guard let run else {
                    pen.change(to: styles[paragraph.style(at: origin)], into: &out)
                    out.append(contentsOf: repeatElement(0x20, count: spaces))
                    return
                }
                paragraph.runs.withUnsafeBufferPointer {
                    Self.appendStyled(run, 0..<run.count, runs: $0, origin: origin, styles: styles, into: &out, pen: pen)
                }
            }
        }
    }

    /// Appends `text[range]`, each run of one style after what switches to it: `text`
    /// holds the bytes of a paragraph with `runs` from its offset `origin`.
    private static func appendStyled(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, runs: UnsafeBufferPointer<StyledDocument.StyleRun>,
                                     origin: Int = 0, styles: StyleTable, into out: inout [UInt8], pen: StylePen) {
        StyledDocument.StyleRun.forEachPiece(of: (origin + range.lowerBound)..<(origin + range.upperBound), in: runs) { piece, style in
            pen.change(to: style, in: styles, into: &out)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[(piece.lowerBound - origin)..<(piece.upperBound - origin)]))
        }
    }

    /// Appends `line` as ``plainText(of:)`` gives it; with `pen`, in its styles (its
    /// prefix's and fill's too), the pen left as the last piece set it.
    ///
    /// - Complexity: O(n + s log r) in the line's bytes and style changes.
    public func appendLine(_ line: VisualLine, into out: inout [UInt8], pen: StylePen?) {
        // Mostly a plain paragraph's line: no prefix, no fill (no decoration made).
        if document.format(ofParagraph: line.paragraph) == 0 {
            _ = appendText(paragraph: line.paragraph, from: line.start, to: line.end, startColumn: 0,
                           isReplacement: line.isReplacement, into: &out, pen: pen, measures: false)
            return
        }
        let decoration = decoration(of: line)
        for piece in decoration.prefix {
            pen?.change(to: piece.style, into: &out)
            // (Through its contiguous bytes: appending a string's UTF-8 view went a
            // byte at a time.)
            var text = piece.text
            text.withUTF8 { out.append(contentsOf: $0) }
        }
        _ = appendText(paragraph: line.paragraph, from: line.start, to: line.end, startColumn: 0,
                       isReplacement: line.isReplacement, textColumn: decoration.textColumn, into: &out, pen: pen,
                       measures: false)
        if let fill = decoration.fill, decoration.fillCount > 0 {
            pen?.change(to: fill.style, into: &out)
            Self.appendRepeated(fill.text, count: decoration.fillCount, into: &out)
        }
    }

    /// Appends `text` `count` times.
    static func appendRepeated(_ text: String, count: Int, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            // Room for all of it, the first copy, then what is there doubled (a rule
            // is 80 fills: an append each cost more than their bytes).
            guard let source = bytes.baseAddress else { return }
            let start = out.count, total = bytes.count * count
            out.append(contentsOf: repeatElement(0, count: total))
            out.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress! + start
                base.update(from: source, count: bytes.count)
                var have = bytes.count
                while have < total {
                    let more = min(have, total - have)
                    (base + have).update(from: base, count: more)
                    have += more
                }
            }
        }
    }

    /// Checks the document's and the layout's invariants (tests call it after every
    /// mutation; the limits are checked by the tests, as they lag one mutation).
    public func _invariantCheck() {
        document._invariantCheck()
        layout._invariantCheck(document)
    }
}
