import DequeModule

/// The visual lines of a `StyledDocument` at a width, kept up to date
/// incrementally.
///
/// Closed paragraphs keep their lines. The open (last) paragraph is laid out by a
/// `ParagraphWrapper` that only looks at what each update added, so an update
/// costs time proportional to the new text (plus at most the current line),
/// whatever the document's length. The lines of the open paragraph that are final
/// are ``committedLineCount``; its unfinished tail is laid out on demand by
/// ``provisionalLines(in:)``.
///
/// **Resize** re-wraps the open paragraph at once and marks the closed ones stale;
/// they are re-wrapped from the end backwards as lines are asked for
/// (``tailLines(_:in:)``), so the first frame after a resize costs what the viewport
/// shows, not the whole history. ``rewrapStale(in:budget:)`` finishes the rest.
///
/// Not thread-safe (it owns ICU iterators).
struct DocumentLayout {
    private(set) var settings: LayoutSettings

    /// The lines of one closed paragraph. Most paragraphs are one line: that line is
    /// stored inline, so they cost no allocation of their own.
    struct ParagraphLines {
        private var first: LineRecord?
        private var rest: [LineRecord]
        /// The settings generation the lines were made for; another means stale.
        var generation: Int

        init(lines: [LineRecord], generation: Int) {
            first = lines.first
            rest = lines.count > 1 ? Array(lines.dropFirst()) : []
            self.generation = generation
        }

        init(line: LineRecord, generation: Int) {
            first = line
            rest = []
            self.generation = generation
        }

        var count: Int { first == nil ? 0 : 1 + rest.count }

        /// The lines, in order.
        var lines: [LineRecord] {
            guard let first else { return [] }
            return [first] + rest
        }
    }

    let breakers = LayoutBreakers()
    private let prefixes = PrefixWidths()
    /// Lines of closed paragraphs, from `firstParagraph`.
    private var closed: Deque<ParagraphLines> = []
    private(set) var firstParagraph = 0
    /// The paragraph being laid out incrementally (the document's open one).
    private(set) var openParagraph = 0
    private var open: ParagraphWrapper
    /// Whether `open` is as made or reset: nothing advanced, the layout's line widths.
    private var openIsFresh = true
    /// Re-wraps closed paragraphs after a resize (kept to reuse its buffers).
    private var rewrapper: ParagraphWrapper
    private var openLines: [LineRecord] = []
    private var sawProvisional = false
    private var staleCount = 0
    /// Bumped by every resize: paragraphs laid out under an older one are stale.
    private var generation = 0

    /// Visual lines held: closed paragraphs' (stale ones counted at their old width)
    /// plus the open paragraph's final ones.
    private(set) var lineCount = 0
    /// Visual lines reported final since the start (evicted ones included).
    private(set) var committedLineCount = 0

    init(settings: LayoutSettings) {
        self.settings = settings
        open = ParagraphWrapper(settings: settings)
        rewrapper = ParagraphWrapper(settings: settings)
    }

    /// Lines are marked when their bytes are their cells (``VisualLine/cellsAreBytes``),
    /// for a view that draws cells; set before the first update.
    var marksCells = false {
        didSet {
            open.marksCells = marksCells
            rewrapper.marksCells = marksCells
        }
    }

    /// A wrapper at the layout's settings that marks lines as the layout does.
    private func newWrapper() -> ParagraphWrapper {
        var wrapper = ParagraphWrapper(settings: settings)
        wrapper.marksCells = marksCells
        return wrapper
    }

    var graphemeBreaker: ICUBreaker { breakers.grapheme }

    /// Whether every closed paragraph is laid out at the current width.
    var isRewrapComplete: Bool { staleCount == 0 }

    /// Brings the layout up to date with `document`: drops lines of evicted
    /// paragraphs and lays out what was appended. `commit` is called with each line
    /// that became final, in order.
    ///
    /// - Complexity: amortized O(n + c) in the bytes appended since the last update
    ///   and the current line's clusters, plus O(k) in paragraphs evicted.
    mutating func update(from document: StyledDocument, commit: (VisualLine) -> Void = { _ in }) {
        while firstParagraph < document.firstParagraph && firstParagraph < openParagraph {
            let dropped = closed.removeFirst()
            lineCount -= dropped.count
            if dropped.generation != generation { staleCount -= 1 }
            firstParagraph += 1
        }
        let numbers = document.paragraphNumbers
        // Provisional paragraphs are never laid out here: they may still be replaced.
        let end = document.provisionalStart ?? numbers.upperBound
        sawProvisional = document.provisionalStart != nil
        // Provisional text may continue the open paragraph: its final part is laid
        // out here (as an open paragraph's text), the rest only on demand.
        let finalPart = document.provisionalOffset > 0 && numbers.contains(end) ? document.provisionalOffset : nil
        // (Read once: read in the loop, it was retained and released per paragraph.)
        let breakers = breakers
        while openParagraph < end || (openParagraph == end && finalPart != nil) {
            let number = openParagraph
            let part = number == end ? finalPart : nil
            // A blank line (half the paragraphs of short ones) is the one empty line the
            // wrapper would give it, in any format: laid out without the wrapper (but the
            // empty paragraph after the text's last line end, which shows none).
            if openIsFresh && part == nil && document.withText(ofParagraph: number, { text, isClosed in isClosed && text.isEmpty })
                && !Self.showsNoLines(number, in: document) {
                let line = ParagraphWrapper.blankLine(paragraph: number)
                lineCount += 1
                committedLineCount += 1
                commit(line)
                closed.append(ParagraphLines(line: LineRecord(line), generation: generation))
                openParagraph += 1
                continue
            }
            openIsFresh = false
            if open.segmented == 0 && !open.isDone { setWidthsOfOpen(for: number, in: document) }
            let isClosed = document.withText(ofParagraph: number) { text, isClosed in
                let closedNow = isClosed && part == nil
                if !closedNow || !Self.showsNoLines(number, in: document) {
                    let text = part.map { UnsafeBufferPointer(rebasing: text[..<$0]) } ?? text
                    open.advance(text, closed: closedNow, breakers: breakers) { line in
                        var line = line
                        line.paragraph = number
                        openLines.append(LineRecord(line))
                        lineCount += 1
                        committedLineCount += 1
                        commit(line)
                    }
                }
                return closedNow
            }
            guard isClosed else { break }
            closed.append(ParagraphLines(lines: openLines, generation: generation))
            openLines.removeAllKeepingCapacity()
            openParagraph += 1
            open.reset()
            openIsFresh = true
        }
    }

    /// Lays the open paragraph's unfinished tail out as if it ended now: the lines
    /// a viewport shows after the final ones. Nothing is kept.
    ///
    /// - Complexity: O(c + t) in the current line's clusters and the text not yet final.
    func provisionalLines(in document: StyledDocument) -> [VisualLine] {
        guard document.paragraphNumbers.contains(openParagraph) else { return [] }
        if document.provisionalStart != nil {
            // Markdown's open block: every paragraph from here is laid out afresh.
            var lines: [VisualLine] = []
            var wrapper = newWrapper()
            var first = openParagraph
            if document.provisionalOffset > 0 {
                // The open paragraph's final part goes on in provisional text.
                var copy = open
                document.withText(ofParagraph: first) { text, _ in
                    copy.advance(text, closed: true, breakers: breakers) { line in
                        var line = line
                        line.paragraph = first
                        lines.append(line)
                    }
                }
                first += 1
            }
            for number in first..<document.paragraphNumbers.upperBound {
                if number == document.paragraphNumbers.upperBound - 1 && document[paragraph: number].text.isEmpty { break }
                wrapper.reset()
                setWidths(&wrapper, for: number, in: document)
                document.withText(ofParagraph: number) { text, _ in
                    wrapper.advance(text, closed: true, breakers: breakers) { line in
                        var line = line
                        line.paragraph = number
                        lines.append(line)
                    }
                }
            }
            return lines
        }
        let paragraph = document[paragraph: openParagraph]
        if paragraph.text.isEmpty { return [] }
        var copy = open
        var lines: [VisualLine] = []
        let number = openParagraph
        paragraph.text.withUnsafeBufferPointer { text in
            copy.advance(text, closed: true, breakers: breakers) { line in
                var line = line
                line.paragraph = number
                lines.append(line)
            }
        }
        return lines
    }

    /// The end of the text of the open paragraph's current line that can no longer
    /// move to another line, as (paragraph, line start, certain end); nil when every
    /// paragraph is closed.
    var certainTail: (paragraph: Int, start: Int, end: Int)? {
        if open.isDone || hasProvisionalParagraphs { return nil }
        return (openParagraph, open.lineStart, open.certainEnd)
    }

    /// Changes the width (or tab size, or policy). The open paragraph is re-wrapped
    /// now; closed paragraphs are re-wrapped lazily.
    ///
    /// - Complexity: O(p) in the paragraphs held plus O(n) in the open paragraph's bytes.
    mutating func resize(to settings: LayoutSettings, in document: StyledDocument) {
        guard settings != self.settings else { return }
        self.settings = settings
        generation += 1
        staleCount = closed.count
        lineCount -= openLines.count
        openLines = []
        open = newWrapper()
        openIsFresh = true
        rewrapper = newWrapper()
        update(from: document)
    }

    /// Re-wraps stale paragraphs, newest first, until `budget` bytes of text were
    /// re-wrapped (at least one paragraph). Returns whether any stale paragraph remains.
    ///
    /// - Complexity: O(b) in the bytes re-wrapped.
    @discardableResult
    mutating func rewrapStale(in document: StyledDocument, budget: Int = .max) -> Bool {
        var spent = 0
        var k = closed.count - 1
        while k >= 0 && staleCount > 0 && spent < budget {
            if closed[k].generation != generation {
                spent += rewrap(closedIndex: k, document)
            }
            k -= 1
        }
        return staleCount > 0
    }

    private mutating func rewrap(closedIndex k: Int, _ document: StyledDocument) -> Int {
        let number = firstParagraph + k
        let paragraph = document[paragraph: number]
        var lines: [LineRecord] = []
        if !Self.showsNoLines(number, in: document) {
            rewrapper.reset()
            setWidths(&rewrapper, for: number, in: document)
            paragraph.text.withUnsafeBufferPointer { text in
                rewrapper.advance(text, closed: true, breakers: breakers) { lines.append(LineRecord($0)) }
            }
        }
        lineCount += lines.count - closed[k].count
        closed[k] = ParagraphLines(lines: lines, generation: generation)
        staleCount -= 1
        return max(1, paragraph.text.count)
    }

    /// The last `count` lines (final and provisional), re-wrapping stale paragraphs
    /// on the way back: what a viewport at the tail shows.
    ///
    /// - Complexity: O(v + c + t) in the bytes of the paragraphs visited, the current
    ///   line and the unfinished tail.
    mutating func tailLines(_ count: Int, in document: StyledDocument) -> [VisualLine] {
        tail(count, in: document).lines
    }

    /// The last `count` lines, as ``tailLines(_:in:)``, and the number of lines
    /// reported final since the start plus the provisional ones (the index after the
    /// last line), laying the unfinished tail out once for both.
    ///
    /// With `limit` (the pacer's reveal position), only what is revealed counts: lines
    /// after it are skipped, the line it falls in is cut there (see
    /// `VisualLine.clipped(revealedTo:)`), and the index is that of the line after the
    /// last one shown.
    ///
    /// - Complexity: as ``tailLines(_:in:)``, plus O(u) in the lines after `limit`.
    mutating func tail(_ count: Int, revealedTo limit: TextPosition? = nil,
                              in document: StyledDocument) -> (lines: [VisualLine], end: Int) {
        let provisional = provisionalLines(in: document)
        var hidden = 0
        // Lines newest first; those not yet revealed are skipped (counted in `hidden`).
        var reversed: [VisualLine] = []
        func take(_ line: VisualLine) -> Bool {
            if let limit, !line.isVisible(revealedTo: limit) {
                hidden += 1
                return true
            }
            reversed.append(limit.map { line.clipped(revealedTo: $0) } ?? line)
            return reversed.count < count
        }
        var more = count > 0
        for line in provisional.reversed() where more { more = take(line) }
        for record in openLines.reversed() where more { more = take(record.line(paragraph: openParagraph)) }
        var k = closed.count - 1
        while more && k >= 0 {
            if closed[k].generation != generation { _ = rewrap(closedIndex: k, document) }
            let number = firstParagraph + k
            for record in closed[k].lines.reversed() where more { more = take(record.line(paragraph: number)) }
            k -= 1
        }
        return (reversed.reversed(), committedLineCount + provisional.count - hidden)
    }

    /// The final lines whose text goes past `position` (all of them when `position`
    /// is nil), re-wrapping stale paragraphs on the way: after a resize, what a view
    /// that had written its text up to `position` still has to write.
    ///
    /// - Complexity: O(b + l) in the bytes re-wrapped and the lines returned.
    mutating func finalLines(after position: TextPosition?, in document: StyledDocument) -> [VisualLine] {
        func wanted(_ number: Int, _ line: LineRecord) -> Bool {
            guard let position else { return true }
            return number > position.paragraph || (number == position.paragraph && Int(line.end) > position.offset)
        }
        var result: [VisualLine] = []
        let from = max(position?.paragraph ?? firstParagraph, firstParagraph)
        if from < openParagraph {
            for number in from..<openParagraph {
                let k = number - firstParagraph
                if closed[k].generation != generation { _ = rewrap(closedIndex: k, document) }
                for line in closed[k].lines where wanted(number, line) { result.append(line.line(paragraph: number)) }
            }
        }
        for line in openLines where wanted(openParagraph, line) { result.append(line.line(paragraph: openParagraph)) }
        return result
    }

    /// Every line held, final then provisional, re-wrapping whatever is stale.
    ///
    /// - Complexity: O(l) in the lines, plus re-wrapping stale paragraphs.
    mutating func allLines(in document: StyledDocument) -> [VisualLine] {
        rewrapStale(in: document)
        var result: [VisualLine] = []
        for (k, p) in closed.enumerated() {
            result.append(contentsOf: p.lines.map { $0.line(paragraph: firstParagraph + k) })
        }
        result.append(contentsOf: openLines.map { $0.line(paragraph: openParagraph) })
        result.append(contentsOf: provisionalLines(in: document))
        return result
    }

    /// Whether the last update saw provisional paragraphs (markdown's open block).
    private var hasProvisionalParagraphs: Bool { sawProvisional }

    /// Gives `wrapper` the text widths of paragraph `number` (its prefixes taken off).
    private func setWidths(_ wrapper: inout ParagraphWrapper, for number: Int, in document: StyledDocument) {
        let format = document.format(ofParagraph: number)
        if format == 0 { return }
        let (first, other) = indents(of: format, in: document)
        wrapper.setLineWidths(first: settings.width - first, other: settings.width - other,
                              cutsAnywhere: document.formats[format].wrapsLikeTerminal)
    }

    /// ``setWidths(_:for:in:)`` for the open paragraph's wrapper. (Passing `&open` to a
    /// method of self copied self, 512 bytes, for every paragraph.)
    private mutating func setWidthsOfOpen(for number: Int, in document: StyledDocument) {
        let format = document.format(ofParagraph: number)
        if format == 0 { return }
        let (first, other) = indents(of: format, in: document)
        open.setLineWidths(first: settings.width - first, other: settings.width - other,
                           cutsAnywhere: document.formats[format].wrapsLikeTerminal)
    }

    /// The columns the prefixes of format `id` take (first line, other lines), cut
    /// so at least one column is left for text.
    ///
    /// - Complexity: O(p) in the prefixes' bytes the first time, O(1) after.
    func indents(of id: Int32, in document: StyledDocument) -> (first: Int, other: Int) {
        if id == 0 { return (0, 0) }
        let limit = max(0, settings.width - 1)
        let k = Int(id)
        if k < prefixes.widths.count, let known = prefixes.widths[k], known.policy == settings.policy {
            return (min(known.first, limit), min(known.other, limit))
        }
        let format = document.formats[id]
        let first = measure(format.firstPrefix), other = measure(format.continuationPrefix)
        if prefixes.widths.count <= k { prefixes.widths += repeatElement(nil, count: k + 1 - prefixes.widths.count) }
        prefixes.widths[k] = (settings.policy, first, other)
        return (min(first, limit), min(other, limit))
    }

    /// The prefix a line of format `id` shows (the first line's or the others'), cut
    /// to its column (``indents(of:in:)``) cluster by cluster, padded with spaces to it
    /// (kept by ``decoration(of:in:)``).
    ///
    /// - Complexity: O(p) in the prefix's bytes.
    private func shownPrefix(of id: Int32, isFirst: Bool, in document: StyledDocument) -> [ParagraphFormat.Piece] {
        let indents = indents(of: id, in: document)
        let column = isFirst ? indents.first : indents.other
        let format = document.formats[id]
        var prefix: [ParagraphFormat.Piece] = []
        var used = 0
        for piece in isFirst ? format.firstPrefix : format.continuationPrefix where used < column {
            // Printable ASCII (an ordered item's number, indentation) is a column a byte:
            // a piece that fits is kept whole, not measured a character at a time (each
            // item of an ordered list has a prefix of its own: 9,000 instructions a item).
            let count = piece.text.utf8.count
            if used + count <= column, DisplayWidth.isPrintableASCII(piece.text) {
                prefix.append(piece)
                used += count
                continue
            }
            var kept = ""
            for character in piece.text {
                let w = measure([ParagraphFormat.Piece(String(character))])
                if used + w > column { break }
                kept.append(character)
                used += w
            }
            if !kept.isEmpty { prefix.append(ParagraphFormat.Piece(kept, style: piece.style)) }
        }
        if used < column { prefix.append(ParagraphFormat.Piece(String(repeating: " ", count: column - used))) }
        return prefix
    }

    /// The columns, shown prefixes and fill of format `id` (``indents(of:in:)``,
    /// ``shownPrefix(of:isFirst:in:)``), made once per width and policy.
    ///
    /// - Complexity: O(p) in the prefixes' bytes the first time at a width, O(1) after.
    func decoration(of id: Int32, in document: StyledDocument) -> PrefixWidths.Decoration {
        if let known = knownDecoration(of: id) { return known }
        let k = Int(id)
        let fill = document.formats[id].fill
        let made = PrefixWidths.Decoration(policy: settings.policy, width: settings.width, columns: indents(of: id, in: document),
                                           first: shownPrefix(of: id, isFirst: true, in: document),
                                           other: shownPrefix(of: id, isFirst: false, in: document),
                                           fill: fill, fillWidth: fill.map { max(1, measure([$0])) } ?? 1)
        if prefixes.decorations.count <= k {
            prefixes.decorations += repeatElement(nil, count: k + 1 - prefixes.decorations.count)
        }
        prefixes.decorations[k] = made
        if prefixes.unretainedDecorations.count <= k {
            prefixes.unretainedDecorations += repeatElement(nil, count: k + 1 - prefixes.unretainedDecorations.count)
        }
        prefixes.unretainedDecorations[k] = Unmanaged.passUnretained(made)
        return made
    }

    /// ``decoration(of:in:)`` unretained, for a line printed at once: the layout's table
    /// holds it until the format's decoration is made again (at another width or
    /// policy). Taken retained, it was an atomic retain and release a line.
    ///
    /// - Complexity: as ``decoration(of:in:)``.
    func unretainedDecoration(of id: Int32, in document: StyledDocument) -> Unmanaged<PrefixWidths.Decoration> {
        let k = Int(id)
        if k < prefixes.unretainedDecorations.count, let made = prefixes.unretainedDecorations[k],
           made._withUnsafeGuaranteedRef({ isCurrent($0) }) {
            return made
        }
        return Unmanaged.passUnretained(decoration(of: id, in: document))
    }

    /// ``decoration(of:in:)`` when it is made already at this width and policy.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    func knownDecoration(of id: Int32) -> PrefixWidths.Decoration? {
        let k = Int(id)
        guard k < prefixes.decorations.count, let known = prefixes.decorations[k], isCurrent(known) else { return nil }
        return known
    }

    /// Whether `decoration` was made at the layout's width and policy.
    @inline(__always)
    private func isCurrent(_ decoration: PrefixWidths.Decoration) -> Bool {
        decoration.width == settings.width && decoration.policy == settings.policy
    }

    /// The width of `pieces` in columns.
    func measure(_ pieces: [ParagraphFormat.Piece]) -> Int {
        var width = 0
        for piece in pieces {
            var text = piece.text
            text.withUTF8 { bytes in
                _ = GraphemeSegmenter.segment(bytes, final: true, fast: true, policy: settings.policy,
                                              breaker: breakers.grapheme) { _, w, _ in width += w }
            }
        }
        return width
    }

    /// The empty paragraph after the text's last line end shows nothing (the text
    /// "a\n" is one line, "" none).
    static func showsNoLines(_ number: Int, in document: StyledDocument) -> Bool {
        // (The cheap tests first, the text read in place: a copy of the paragraph, made
        // for every closed one, retained and released its buffers.)
        document.isFinished && number == document.paragraphNumbers.upperBound - 1
            && document.withText(ofParagraph: number) { text, isClosed in isClosed && text.isEmpty }
    }

    /// The number of lines held for closed paragraph `number` (0 if it is not held).
    func lineCount(ofParagraph number: Int) -> Int {
        let k = number - firstParagraph
        return k >= 0 && k < closed.count ? closed[k].count : 0
    }

    /// Checks the layout's invariants against `document` (tests call it after every
    /// mutation): lines are in order, cover each paragraph with only spaces between
    /// them, and are never wider than the width.
    func _invariantCheck(_ document: StyledDocument) {
        #if STREAMRENDER_INVARIANT_CHECKS
        precondition(firstParagraph >= document.firstParagraph || firstParagraph == openParagraph)
        precondition(closed.count == openParagraph - firstParagraph)
        var total = openLines.count
        var stale = 0
        for (k, p) in closed.enumerated() {
            total += p.count
            if p.generation != generation { stale += 1; continue }
            Self.check(p.lines, document[paragraph: firstParagraph + k].text, width: settings.width, complete: true)
        }
        precondition(stale == staleCount)
        precondition(total == lineCount)
        if document.paragraphNumbers.contains(openParagraph) {
            Self.check(openLines, document[paragraph: openParagraph].text, width: settings.width, complete: false)
        }
        #endif
    }

    static func check(_ lines: [LineRecord], _ text: [UInt8], width: Int, complete: Bool) {
        var position = 0
        for line in lines {
            precondition(Int(line.start) >= position && line.start <= line.end, "lines are ordered")
            for b in text[position..<Int(line.start)] { precondition(b == 0x20, "only spaces are dropped between lines") }
            precondition(line.width <= width && line.width >= 0, "no line is wider than the layout")
            position = Int(line.end)
        }
        if complete, !lines.isEmpty {
            for b in text[position...] { precondition(b == 0x20, "only spaces are dropped at the end") }
        }
    }
}

/// The prefix widths of paragraph formats, measured once per format and policy
/// (shared by copies of a layout: formats never change once interned).
final class PrefixWidths {
    // (Used by one thread at a time and never re-entrantly, also where copies of a
    // layout share them: not checked for exclusive access at run time, which cost
    // more than their lookups.)
    /// By format number (dense: an index, not a hash; and no dictionary type made at
    /// run time for the first format).
    @exclusivity(unchecked) var widths: [(policy: WidthPolicy, first: Int, other: Int)?] = []

    /// What lines of a format show around their text (prefixes cut to their columns,
    /// the fill), by format number, for the width and policy they were made at (dense:
    /// a line's lookup is an index, not two hashes and a format's copy).
    @exclusivity(unchecked) var decorations: [Decoration?] = []
    /// ``decorations`` unretained (a line printed at once reads one without reference
    /// counting); set with them.
    @exclusivity(unchecked) var unretainedDecorations: [Unmanaged<Decoration>?] = []

    /// A class: a printed line's lookup takes one reference, not a copy of two arrays
    /// and a piece (issue 24).
    final class Decoration {
        let policy: WidthPolicy
        let width: Int
        let columns: (first: Int, other: Int)
        let first: [ParagraphFormat.Piece]
        let other: [ParagraphFormat.Piece]
        let fill: ParagraphFormat.Piece?
        /// The fill's columns (at least 1).
        let fillWidth: Int

        init(policy: WidthPolicy, width: Int, columns: (first: Int, other: Int), first: [ParagraphFormat.Piece],
             other: [ParagraphFormat.Piece], fill: ParagraphFormat.Piece?, fillWidth: Int) {
            self.policy = policy
            self.width = width
            self.columns = columns
            self.first = first
            self.other = other
            self.fill = fill
            self.fillWidth = fillWidth
        }
    }
}
