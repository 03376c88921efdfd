/// The live view in **inline** mode: the answer is written into the terminal's own
/// scrollback, below the prompt, and only its live tail is redrawn.
///
/// Lines that are final (committed by the layout) are written once and then left
/// alone: the terminal scrolls them into its scrollback, where search, selection and
/// copy keep working. The live region is the unfinished tail (at most `height - 1`
/// rows, so all of it stays on screen); each frame is diffed against what the region
/// shows and only the changed cells are written. When the stream finishes, every line
/// of the answer is in the scrollback exactly once.
///
/// The region's rows are relative to its top (its place on the screen is unknown), so
/// the encoder uses relative moves and creates rows with CR LF as the region grows.
///
/// Not `Sendable`: its document's layout shares ICU iterators between copies; a view
/// belongs to the one thread that draws it.
public struct InlineView {
    @_spi(Benchmarks) public private(set) var view: WrappedDocument
    public private(set) var encoder: ANSIEncoder
    /// The terminal's height in rows.
    public private(set) var height: Int
    private var splitter: CellSplitter
    /// What the live region shows (its rows are the region's rows from the top).
    private var shown: Frame
    /// Frames of the last write, reset and reused by the next (see ``Frame/reset(width:height:)``).
    private var spareNext = Frame(width: 1, height: 0)
    private var sparePrevious = Frame(width: 1, height: 0)
    /// Per row of the region: the terminal was sent characters for columns `0..<n`
    /// (beyond, cells are erased or were never written). Blanks before a row's text
    /// are written as spaces, not skipped with cursor moves, so text copied from the
    /// scrollback keeps its indentation.
    private var written: [Int] = []
    private var diff = FrameDiff()
    /// Lines committed by the layout and not yet written as final.
    private var pendingFinal: [VisualLine] = []
    /// The room of the final lines the last frame wrote, emptied: the next frame takes
    /// its final lines into it (``takeFinal(_:)``).
    private var spareFinal: [VisualLine] = []
    /// Where the final text written so far ends (lines are clipped to start here,
    /// which matters only after a resize re-wrapped a paragraph half written).
    private var finalEnd: TextPosition? = nil
    /// Text a terminal narrowed on a resize pushed into its scrollback from the top of
    /// the live region (the region re-wrapped taller than the screen): it cannot be
    /// erased, so it is not drawn again. Lines are clipped to start here until the final
    /// text written reaches it.
    private var pushedOut: TextPosition? = nil
    /// The lines drawn on the live region's rows (from its top), as clipped; the column
    /// the text started at of each of the first whose text never changes (final, plain
    /// text's open paragraph, which only grows, or a fenced code block's last line: not
    /// markdown's other open blocks, rendered again as they grow and at each width; a
    /// line's prefix may change after); whether the first follows the text written (no
    /// line between them is held back, as the top of an open block taller than the
    /// region is).
    private var regionLines: [VisualLine] = []
    private var regionSettledTextColumns: [Int] = []
    private var regionFollowsWritten = true
    /// How the rows of an empty region (every batch of final rows after a frame's
    /// first) are written; tests compare the bytes of the three.
    enum NewRows {
        /// Diffed against a blank frame, like any frame (for tests: the bytes to match).
        case diffed
        /// Drawn in a frame and written cell by cell (``ANSIEncoder/encodeNewRows(of:from:at:wrapsAbove:styles:into:)``;
        /// for tests).
        case fromFrame
        /// Final rows drawn straight into bytes (``RowCells``), live rows as `fromFrame`
        /// (for tests: what `direct` writes a row of simple text as).
        case cells
        /// As `cells`, but a final row of simple text alone (no prefix, fill or tab) is
        /// written from its paragraph's bytes and runs, without gathering its cells.
        case direct
    }
    var newRows = NewRows.direct
    /// A final row's cells, and a frame for a row they cannot hold (reused).
    private var rowCells = RowCells(width: 1)
    private var spareRow = Frame(width: 1, height: 0)
    /// Bytes written so far.
    public private(set) var bytesWritten = 0
    /// Frames written so far.
    public private(set) var framesWritten = 0
    /// Rows a terminal narrowed on a resize pushed into its scrollback that are written
    /// again later: the top of the live region showed the end of an open block taller
    /// than the region, whose beginning is written (before them) when it is final.
    public private(set) var rowsRepeatedByResizes = 0
    /// Final lines the next frame writes (those the reveal limit allows).
    public var unwrittenFinalLines: Int { pendingFinal.count }
    private var finished = false
    /// The pacer's reveal position: text after it is not shown yet (nil: all of it).
    /// Final lines not wholly revealed wait in the live region.
    @_spi(Benchmarks) public var revealLimit: TextPosition?
    /// A one-line status drawn dim on the row below the live region while the answer
    /// streams (cut to the width); it disappears with the last frame.
    public var status: String?

    /// `markdown`: render the answer as markdown with these options. `limits`: the
    /// history held at most; the view holds no more than plain output does (written
    /// lines are the terminal's), and every line it has yet to write.
    public init(settings: LayoutSettings, height: Int, capabilities: TerminalCapabilities,
                limits: HistoryLimits = .standard, markdown: MarkdownOptions? = nil) {
        // Written lines are the terminal's: the view holds plain output's history
        // besides what is still to be written (`keptFrom`). (The history was most of its
        // memory, 38 MB at 10 MiB, and its cache misses.)
        view = WrappedDocument(settings: settings, limits: PlainView.held(limits), markdown: markdown)
        view.marksCells = true
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: false)
        encoder.cursor = (0, 0)
        encoder.existingRows = 1
        self.height = max(1, height)
        splitter = CellSplitter(policy: settings.policy)
        shown = Frame(width: settings.width, height: 0)
    }

    /// Brings markdown's rendering of the open block up to date.
    ///
    /// - Complexity: O(r) in the open block's bytes (see `WrappedDocument.updateProvisional()`).
    public mutating func updateProvisional() { view.updateProvisional() }

    /// Appends answer text in `style` (nothing is written until ``frame(into:)``).
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    public mutating func append(_ text: String, style: Style = .plain) {
        keepUnwritten()
        view.append(text, style: style) { pendingFinal.append($0) }
    }

    /// The history limit evicts no paragraph with a line not yet written: those lines
    /// would be lost from the scrollback (a read can make more lines final than the
    /// limit before the next frame writes them).
    private mutating func keepUnwritten() {
        view.keptFrom = pendingFinal.first?.paragraph ?? view.layout.openParagraph
    }

    /// The text so far ends a block: markdown's open block becomes final (written by
    /// the next frame).
    ///
    /// - Complexity: one parse of the open block.
    public mutating func endBlock() {
        keepUnwritten()
        view.endBlock { pendingFinal.append($0) }
    }

    /// Ends the answer: everything becomes final (written by the next frame).
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public mutating func finish() {
        keepUnwritten()
        view.finish { pendingFinal.append($0) }
        finished = true
    }

    /// Appends the bytes of the next frame: the new final lines, then the live
    /// region diffed against what it shows. After ``finish()``, the cursor is left at
    /// the start of the line after the answer.
    ///
    /// - Complexity: O(W x r) in the rows written, plus the diff of the live region.
    public mutating func frame(into out: inout [UInt8]) {
        view.updateProvisional()
        var finals: [VisualLine]
        var live: [VisualLine] = []
        var provisional = finished ? [] : view.layout.provisionalLines(in: view.document)
        if let pushedOut {
            // (In the scrollback already: the lines that end at it or before.)
            pendingFinal.removeAll { $0.isRevealed(to: pushedOut) }
            provisional.removeAll { $0.isRevealed(to: pushedOut) }
        }
        if let limit = revealLimit {
            // Final lines go into the scrollback once wholly revealed; the rest wait.
            let revealed = wholeRows(pendingFinal.firstIndex { !$0.isRevealed(to: limit) } ?? pendingFinal.count)
            finals = takeFinal(revealed)
            var shown: [VisualLine] = []
            for line in pendingFinal + provisional {
                guard line.isVisible(revealedTo: limit) else { break }
                shown.append(line.clipped(revealedTo: limit))
            }
            live = Array(shown.suffix(liveRows))
            regionFollowsWritten = shown.count <= liveRows
        } else {
            finals = takeFinal(wholeRows(pendingFinal.count))
            if !finished { live = Array((pendingFinal + provisional).suffix(liveRows)) }
            regionFollowsWritten = pendingFinal.count + provisional.count <= liveRows
        }
        // Done: everything is final and written.
        let done = finished && pendingFinal.isEmpty
        let start = out.count
        // Final lines are written a batch at a time: a frame of every line a read made
        // final (tens of thousands of short lines) cost its width in cells per line to
        // allocate and diff, all at once. The first batch takes the rows the region
        // shows (diffed against them); the rows below are new, written straight.
        do {
            var batch = finals[...]
            while case let first = shown.height > 0 ? shown.height : Self.finalBatchRows, batch.count > first {
                var size = first
                // Not between two rows the terminal's wrap joins (unless one line fills the
                // batch: then a batch of a screenful or more, each cut losing a join).
                while size > 1 && view.continuesByTerminalWrap(batch[batch.startIndex + size - 1]) { size -= 1 }
                if size == 1 && view.continuesByTerminalWrap(batch[batch.startIndex]) { size = max(shown.height, Self.finalBatchRows) }
                write(finals: batch.prefix(size), live: [], statusLine: nil, done: false, into: &out)
                batch = batch.dropFirst(size)
            }
            write(finals: batch, live: live, statusLine: done ? nil : status, done: done, into: &out)
        }
        finals.removeAll(keepingCapacity: true)
        spareFinal = finals
        bytesWritten += out.count - start
        framesWritten += 1
    }

    /// The first `count` pending final lines, taken out of ``pendingFinal`` into the
    /// room of ``spareFinal``. (A copy of them a frame, into a new array, was a tenth
    /// of the live view's page faults: a fast read makes a thousand lines final a frame.)
    private mutating func takeFinal(_ count: Int) -> [VisualLine] {
        var taken: [VisualLine] = []
        swap(&taken, &spareFinal)
        if count == pendingFinal.count {
            swap(&taken, &pendingFinal)
        } else {
            taken.append(contentsOf: pendingFinal[..<count])
            pendingFinal.removeFirst(count)
        }
        return taken
    }

    /// How many of the first `count` pending final lines go to the scrollback: not a
    /// line the terminal's wrap continues in the next one, until that one goes too
    /// (a wrapped line half in the scrollback would be re-wrapped by the terminal on a
    /// resize with its other half in the live region).
    private func wholeRows(_ count: Int) -> Int {
        var n = count
        while n > 0, case let line = pendingFinal[n - 1], view.continuesByTerminalWrap(line) { n -= 1 }
        return n
    }

    /// Final rows written at a time below an empty region (a frame writes as many
    /// batches as its final rows make; the first takes the rows the region shows).
    static let finalBatchRows = 48

    /// Writes `finals` (into the scrollback), then `live` and the status line below them,
    /// diffed against what the region shows.
    private mutating func write(finals: ArraySlice<VisualLine>, live: [VisualLine], statusLine: String?, done: Bool,
                                into out: inout [UInt8]) {
        let width = view.layout.settings.width
        let rows = max(shown.height, finals.count + live.count + (statusLine == nil ? 0 : 1))
        // Taken out of their slots (swapped, not copied: a second reference would copy
        // them whole at the first write) and given back at the end.
        var next = Frame(width: 1, height: 0), previous = Frame(width: 1, height: 0)
        swap(&next, &spareNext)
        swap(&previous, &sparePrevious)
        defer {
            swap(&next, &spareNext)
            swap(&previous, &sparePrevious)
        }
        // An empty region (every batch of final rows after the first of a frame): every
        // row is new, so its cells are written as they are, without a diff; final rows
        // without a frame.
        let fresh = shown.height == 0 && newRows != .diffed
        let direct = fresh && newRows == .direct
        assert(shown.height > 0 || written.allSatisfy { $0 == 0 }, "an empty region with written columns")
        // Final rows written straight are not drawn: the frame holds the rows after them
        // (a batch of final rows alone cleared a screenful of cells it never used).
        let skipped = direct ? finals.count : 0
        next.reset(width: width, height: rows - skipped)
        // Final rows only are left to the terminal's wrap: a live row the terminal marked
        // wrapped would stay marked when other text is drawn there later, and the
        // terminal would join it to the next row on a resize or a selection.
        if !direct {
            for (k, line) in finals.enumerated() { draw(line, row: k, in: &next, terminalWraps: true) }
        }
        regionLines.removeAll(keepingCapacity: true)
        regionSettledTextColumns.removeAll(keepingCapacity: true)
        var settled = true
        for (k, line) in live.enumerated() {
            let drawn = clipped(line)
            LineDrawer.draw(drawn, row: finals.count - skipped + k, in: &next, view: view, splitter: splitter, revealedTo: revealLimit)
            regionLines.append(drawn)
            settled = settled && (view.document.isSettled(paragraph: line.paragraph, upTo: line.end) || view.provisionalTextOnlyGrows)
            if settled { regionSettledTextColumns.append(view.decoration(of: line).textColumn) }
        }
        if let statusLine {
            let dim = view.intern(Style(attributes: .dim))
            drawStatus(statusLine, style: dim, row: finals.count - skipped + live.count, in: &next)
        }
        if written.count < rows { written += repeatElement(0, count: rows - written.count) }
        if fresh {
            for r in 0..<rows { written[r] = r < skipped ? 0 : next.textEnd(row: r - skipped) }
        } else {
            previous.reset(width: width, height: rows)
            previous.copyRows(of: shown, from: 0, count: min(rows, shown.height))
        }
        for r in 0..<rows where !fresh {
            let end = next.textEnd(row: r)
            // A row whose text is replaced (not only extended) is rewritten whole, from
            // its first column to its end: the terminal may have drawn the old text at
            // other widths than measured (scripts whose width terminals disagree on), so
            // a cell diff inside it could land at the wrong place or leave residue.
            if r < shown.height, case let old = previous.textEnd(row: r), old > 0, !previous.samePrefix(r, old, as: next) {
                previous.markRowUnwritten(r)
            }
            for c in written[r]..<max(written[r], end) where previous[r, c].isPlainBlank && next[r, c].isPlainBlank {
                previous.markUnwritten(row: r, column: c)
            }
            written[r] = end
            // A row the terminal's wrap continues gets its first cell from that wrap:
            // the row before is written again right before it, so nothing moves the
            // cursor in between (the terminal marks the row wrapped only so).
            if r > 0 && next.wraps(row: r - 1) {
                previous.markRowUnwritten(r - 1)
                if r < shown.height { previous.markRowUnwritten(r) }
            }
        }
        ANSIEncoder.synchronized(encoder.capabilities.synchronizedOutput, &out) { out in
            if direct {
                writeNewRows(finals: finals, below: next, into: &out)
            } else if fresh {
                encoder.encodeNewRows(of: next, styles: view.document.styles, into: &out)
            } else {
                diff.compute(from: previous, to: next)
                encoder.encode(diff.changes, of: next, styles: view.document.styles, into: &out)
            }
            if done {
                // Leave the cursor on a fresh line after the answer.
                let after = finals.count + live.count
                encoder.move(to: after, 0, frame: Frame(width: width, height: after + 1), styles: view.document.styles, into: &out)
            }
        }
        // (Set after the final rows are drawn: they are clipped to start there.)
        if let last = finals.last {
            finalEnd = TextPosition(paragraph: last.paragraph, offset: last.end)
            if let pushedOut, finalEnd! >= pushedOut { self.pushedOut = nil }
        }
        // The final rows are now history: the region starts after them.
        shown.reset(width: width, height: rows - finals.count)
        shown.copyRows(of: next, from: finals.count - skipped, count: rows - finals.count)
        written.removeFirst(finals.count)
        if let at = encoder.cursor { encoder.cursor = (at.row - finals.count, at.column) }
        if let existing = encoder.existingRows { encoder.existingRows = existing - finals.count }
        if done {
            shown = Frame(width: width, height: 0)
            written = []
            encoder.existingRows = 1
            encoder.cursor = (0, 0)
        }
    }

    /// Writes `finals` on the first rows of an empty region, each drawn straight into
    /// bytes, and the rows of `frame` below them (live rows, the status line; its row 0
    /// is the region's row `finals.count`).
    ///
    /// - Complexity: O(n) in the bytes of the lines, plus the frame's rows after them.
    private mutating func writeNewRows(finals: ArraySlice<VisualLine>, below frame: Frame, into out: inout [UInt8]) {
        var cells = RowCells(width: 1), spare = Frame(width: 1, height: 0)
        swap(&cells, &rowCells)
        swap(&spare, &spareRow)
        defer {
            swap(&cells, &rowCells)
            swap(&spare, &spareRow)
        }
        let width = frame.width, styles = view.document.styles
        var wrapsAbove = false
        encoder.startNewRows()
        for (k, line) in finals.enumerated() {
            if newRows == .direct && writeTextRow(line, row: k, width: width, wrapsAbove: wrapsAbove, styles: styles, into: &out) {
                wrapsAbove = false
                continue
            }
            cells.reset(width: width)
            draw(line, row: 0, in: &cells, terminalWraps: true)
            if cells.failed {
                spare.reset(width: width, height: 2)
                draw(line, row: 0, in: &spare, terminalWraps: true)
                cells.take(row: 0, of: spare)
            }
            // (As a frame marks it: not the region's last row.)
            cells.wraps = cells.wraps && k + 1 < finals.count + frame.height
            encoder.writeNewRow(k, cells, wrapsAbove: wrapsAbove, styles: styles, into: &out)
            wrapsAbove = cells.wraps
        }
        encoder.encodeNewRows(of: frame, at: finals.count, wrapsAbove: wrapsAbove, styles: styles, into: &out)
    }

    /// Writes final row `line` on `row` of an empty region straight from its paragraph's
    /// bytes and runs when it is simple text, or text whose bytes are its cells
    /// (``VisualLine/cellsAreBytes``), at its text column after a prefix of
    /// simple pieces (a bullet, a quote's bar, an indent) that fills the columns before
    /// it, or alone (no fill, tab or clipping; not continued by the terminal's wrap):
    /// the bytes its cells would make
    /// (``ANSIEncoder/writeNewTextRow(_:width:prefix:textColumn:text:origin:runs:columns:wrapsAbove:styles:into:)``).
    /// False, writing nothing, for any other line. (Gathering every final row's cells
    /// first cost the live view 8% more than styled output's printing of the same lines.)
    private mutating func writeTextRow(_ line: VisualLine, row: Int, width: Int, wrapsAbove: Bool, styles: StyleTable,
                                       into out: inout [UInt8]) -> Bool {
        guard line.isSimple || line.cellsAreBytes, !line.isReplacement, !splitter.policy.ambiguousIsWide,
              view.document.paragraphNumbers.contains(line.paragraph), clipped(line) == line else { return false }
        var prefix: [ParagraphFormat.Piece] = [], textColumn = 0
        // (The decoration made for the format, read in place: a `LineDecoration` per row
        // copied its pieces.)
        if let decoration = view.madeDecoration(of: line) {
            guard decoration.fill == nil, !view.continuesByTerminalWrap(line) else { return false }
            let isFirst = line.start == 0
            let pieces = isFirst ? decoration.first : decoration.other
            var columns = 0
            for piece in pieces {
                var text = piece.text
                guard let w = text.withUTF8({ SimpleText.width($0, ambiguousIsWide: false) }) else { return false }
                columns += w
            }
            // (A prefix short of the text column leaves blank cells between: not here.)
            guard columns == (isFirst ? decoration.columns.first : decoration.columns.other) else { return false }
            (prefix, textColumn) = (pieces, columns)
        }
        // (The document and the encoder passed apart: a closure here that wrote with
        // `self.encoder` while reading `self.view` copied the document per row.)
        return Self.writeTextRow(line, row: row, width: width, prefix: prefix, textColumn: textColumn, wrapsAbove: wrapsAbove,
                                 document: view.document, encoder: &encoder, styles: styles, into: &out)
    }

    /// ``writeTextRow(_:row:width:wrapsAbove:styles:into:)`` once the line is known to be
    /// simple text after `prefix`: false for one with a tab, or a prefix followed by
    /// blanks alone (the row's cells end in the prefix, trimmed as theirs are).
    private static func writeTextRow(_ line: VisualLine, row: Int, width: Int, prefix: [ParagraphFormat.Piece], textColumn: Int,
                                     wrapsAbove: Bool, document: StyledDocument, encoder: inout ANSIEncoder, styles: StyleTable,
                                     into out: inout [UInt8]) -> Bool {
        document.withTextAndRuns(ofParagraph: line.paragraph) { buf, runs in
            let text = UnsafeBufferPointer(rebasing: buf[line.start..<line.end])
            guard !ByteSearch.contains(0x09, in: text) else { return false }
            // Trailing spaces of the plain style are blank cells, not written.
            var end = text.count
            while end > 0 && text[end - 1] == 0x20 && StyledDocument.StyleRun.style(at: line.start + end - 1, in: runs) == .plain {
                end -= 1
            }
            guard end > 0 || prefix.isEmpty else { return false }
            encoder.writeNewTextRow(row, width: width, prefix: prefix, textColumn: textColumn, text: UnsafeBufferPointer(rebasing: text[..<end]),
                                    origin: line.start, runs: runs, columns: line.width - (text.count - end),
                                    wrapsAbove: wrapsAbove, styles: styles, into: &out)
            return true
        }
    }

    /// Re-wraps at a new width and height and repaints the live region; final lines
    /// already written stay as they are (the terminal owns them now).
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)` plus one frame.
    public mutating func resize(to settings: LayoutSettings, height: Int, into out: inout [UInt8]) {
        relayout(to: settings, height: height, into: &out)
        frame(into: &out)
    }

    /// ``resize(to:height:into:)`` without the repaint (the next ``frame(into:)`` draws).
    /// `screenRows`: the terminal's rows, when the view is asked to be shorter than the
    /// terminal (nil: `height`).
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)`, plus O(W x H) in the region's
    ///   cells when it narrows.
    public mutating func relayout(to settings: LayoutSettings, height: Int, screenRows: Int? = nil,
                                  into out: inout [UInt8]) {
        self.height = max(1, height)
        suspend(into: &out, reflowedTo: settings.width, screenRows: max(screenRows ?? self.height, self.height))
        view.resize(to: settings)
        if settings.policy != splitter.policy { splitter = CellSplitter(policy: settings.policy) }
        shown = Frame(width: settings.width, height: 0)
        written = []
        // Everything final after the written text is written at the new width (clipped
        // to start where the written text ended); the live tail is redrawn below it.
        pendingFinal = view.finalLines(after: writtenEnd)
    }

    /// Clears the live region so other text (messages on standard error) can be
    /// written where it was, starting a fresh line; the next frame repaints the
    /// region below that text.
    ///
    /// - Complexity: O(1).
    public mutating func suspend(into out: inout [UInt8]) {
        suspend(into: &out, reflowedTo: nil)
    }

    /// `reflowedTo`: the terminal has just become this many columns wide. Terminals
    /// (tmux, most emulators) re-wrap rows longer than a narrower width, so each row
    /// of the region above the cursor now takes as many rows as its text needs.
    /// `screenRows`: the terminal's rows (at least ``height``).
    private mutating func suspend(into out: inout [UInt8], reflowedTo newWidth: Int?, screenRows: Int? = nil) {
        encoder.endFrame(into: &out)
        if let at = encoder.cursor, at.row >= 0 {
            var up = at.row
            if let newWidth, newWidth < shown.width {
                up = 0
                for r in 0..<min(at.row, shown.height) { up += reflow(row: r, to: newWidth).count }
                if at.row < shown.height { up += reflow(row: at.row, to: newWidth, cursor: at.column).count - 1 }
                notePushedOut(reflowedTo: newWidth, screenRows: screenRows ?? height, cursor: at)
            }
            // (Moving up stops at the screen's top row: what the terminal pushed into
            // its scrollback stays there.)
            out.append(contentsOf: ANSIEncoder.eraseBelow(afterMovingUp: up))
        } else if let at = encoder.cursor {
            // The cursor is on a final row: blank final rows after it (a paragraph's
            // gap) are never drawn, so step over them too, or other text takes their place.
            out.append(0x0D)
            out += repeatElement(0x0A, count: -at.row)
        } else {
            out.append(contentsOf: [0x0D, 0x0A])
        }
        encoder.cursor = (0, 0)
        encoder.existingRows = 1
        shown = Frame(width: view.layout.settings.width, height: 0)
        written = []
        regionLines.removeAll(keepingCapacity: true)
        regionSettledTextColumns.removeAll(keepingCapacity: true)
    }

    /// The region narrowed to `newWidth` may re-wrap into more rows than the screen
    /// has (``height``): a terminal keeps the bottom rows (to the cursor's, or the last
    /// with text) on the screen and pushes the top ones into its scrollback (tmux does,
    /// as the tests' model terminal). The text of those rows is noted in ``pushedOut``.
    /// (Not when lines before the region are held back: they are written later, before
    /// the text pushed out, which is then in the scrollback twice, not out of order;
    /// ``rowsRepeatedByResizes`` counts them.)
    private mutating func notePushedOut(reflowedTo newWidth: Int, screenRows: Int, cursor: (row: Int, column: Int)) {
        guard shown.height > 0 else { return }
        var last = cursor.row
        for r in 0..<shown.height where shown.textEnd(row: r) > 0 { last = max(last, r) }
        // Each row's reflowed rows (the cursor's row reaches at least the cursor; rows
        // below the region down to the cursor are blank, one each).
        let rows = (0...last).map { r -> [Int] in
            guard r < shown.height else { return [0] }
            let text = reflow(row: r, to: newWidth)
            guard r == cursor.row, case let toCursor = reflow(row: r, to: newWidth, cursor: cursor.column),
                  toCursor.count > text.count else { return text }
            return toCursor
        }
        var lost = rows.reduce(0) { $0 + $1.count } - screenRows
        guard lost > 0 else { return }
        guard regionFollowsWritten else { return rowsRepeatedByResizes += lost }
        // Only text that never changes is known where it is (the open block's may be
        // rendered otherwise by the next frame: a table at a new width, a span closed).
        for (r, starts) in rows.enumerated() where lost > 0 && r < regionLines.count {  // (not the status line)
            guard r < regionSettledTextColumns.count else { return rowsRepeatedByResizes += lost }
            let line = regionLines[r]
            let whole = lost >= starts.count
            let end = whole ? line.end : LineDrawer.offset(ofColumn: starts[lost], in: line, textColumn: regionSettledTextColumns[r],
                                                           view: view, splitter: splitter)
            let position = TextPosition(paragraph: line.paragraph, offset: end)
            if (whole || end > line.start) && pushedOut.map({ position > $0 }) ?? true { pushedOut = position }
            lost -= starts.count
        }
    }

    /// Where the text in the terminal ends: the final text written, or what a resize
    /// pushed out, whichever goes further.
    private var writtenEnd: TextPosition? {
        guard let pushedOut else { return finalEnd }
        guard let finalEnd else { return pushedOut }
        return max(finalEnd, pushedOut)
    }

    /// How a terminal narrowed to `newWidth` re-wraps row `r` of the region (its text
    /// up to the last non-blank cell, a wide cell never split): the column each of the
    /// rows it takes starts at; with `cursor`, only up to the row that cell lands on.
    /// (The region's rows are never ones the terminal wrapped: only final rows are.)
    private func reflow(row r: Int, to newWidth: Int, cursor: Int? = nil) -> [Int] {
        var end = 0
        for c in 0..<shown.width where !shown[r, c].isPlainBlank { end = c + 1 }
        var starts = [0], used = 0
        for c in 0..<max(end, min(cursor ?? 0, shown.width)) {
            let w = c < shown.width ? Int(shown[r, c].width) : 1
            if w == 0 {
                if let cursor, c == cursor { return starts }  // (on a wide cell's second column)
                continue
            }
            // (A cell that goes on the next row takes the cursor on it there.)
            if used + w > newWidth { starts.append(c); used = 0 }
            if let cursor, c == cursor { return starts }
            used += w
        }
        return starts
    }

    /// Rows the live lines may take: the region is at most `height - 1` rows (all of it
    /// stays on screen), one of them the status line's when there is one.
    private var liveRows: Int { max(1, height - 1 - (status == nil ? 0 : 1)) }

    /// Draws the status line, dim, cut to the width (whole clusters).
    private func drawStatus(_ text: String, style: StyleID, row: Int, in frame: inout Frame) {
        var column = 0
        var text = text
        text.withUTF8 { buf in
            splitter.forEachCell(in: buf) { range, width in
                guard column + width <= frame.width else { return }
                column = frame.put(String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self),
                                   width: width, style: style, row: row, column: column)
            }
        }
    }

    /// Draws `line` (clipped to what was not yet written as final) on `row`.
    /// `terminalWraps`: a code row cut where the terminal wraps goes on in the next row
    /// by that wrap (final rows, written once).
    private func draw<Sink: CellSink>(_ line: VisualLine, row: Int, in frame: inout Sink, terminalWraps: Bool = false) {
        LineDrawer.draw(clipped(line), row: row, in: &frame, view: view,
                        splitter: splitter, revealedTo: revealLimit, terminalWraps: terminalWraps)
    }

    /// `line` from where the text already in the terminal (final, or pushed out by a
    /// resize) ends, if that is inside it.
    private func clipped(_ line: VisualLine) -> VisualLine {
        var clipped = line
        guard let from = writtenEnd, line.paragraph == from.paragraph && from.offset > line.start else { return line }
        clipped.start = min(from.offset, line.end)
        let text = view.document[paragraph: line.paragraph].text
        // (Never inside a character, should a position outlive the text it was found in.)
        while clipped.start < clipped.end && text[clipped.start] & 0xC0 == 0x80 { clipped.start += 1 }
        // The spaces the old wrap dropped do not start the rest of the line.
        while clipped.start < clipped.end && text[clipped.start] == 0x20 { clipped.start += 1 }
        return clipped
    }
}
