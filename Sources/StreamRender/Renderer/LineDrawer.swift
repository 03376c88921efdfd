/// Draws visual lines into frames (shared by the inline and fullscreen views).
enum LineDrawer {
    /// One-character strings of the ASCII bytes: most cells, made without decoding.
    private static let asciiCells = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    /// Draws `line` on `row` of `frame`: its cells cut by `splitter`, tabs as spaces,
    /// each cell in the style of its first byte; a replacement line as U+FFFD.
    ///
    /// - Complexity: O(n) in the line's bytes.
    /// With `revealedTo`, the line was cut at the pacer's reveal position (see
    /// `VisualLine.clipped(revealedTo:)`): its fill starts after the text drawn.
    /// With `terminalWraps`, a row of a paragraph that wraps like a terminal is marked
    /// to go on in the next row by the terminal's own wrap (``Frame/wraps(row:)``).
    static func draw<Sink: CellSink>(_ line: VisualLine, row: Int, in frame: inout Sink, view: WrappedDocument,
                                     splitter: CellSplitter, revealedTo limit: TextPosition? = nil,
                                     terminalWraps: Bool = false) {
        let document = view.document, settings = view.layout.settings
        guard document.paragraphNumbers.contains(line.paragraph) else { return }
        let decoration = view.decoration(of: line)
        var column = 0
        for piece in decoration.prefix {
            column = put(piece, at: column, row: row, in: &frame, document: document, splitter: splitter)
        }
        column = decoration.textColumn
        if line.isReplacement {
            _ = frame.put("\u{FFFD}", width: 1, style: .plain, row: row, column: column)
            return
        }
        let start = line.start
        let paragraph = document[paragraph: line.paragraph]
        paragraph.text.withUnsafeBufferPointer { buf in
            let text = UnsafeBufferPointer(rebasing: buf[start..<line.end])
            guard ByteSearch.contains(0x09, in: text) else {
                return cells(text, from: start, paragraph: paragraph, row: row, in: &frame, column: &column, splitter: splitter,
                             simpleWidth: line.isSimple ? line.width : nil)
            }
            let (expanded, origin) = expandingTabs(buf, start..<line.end, textColumn: decoration.textColumn,
                                                   settings: settings, splitter: splitter)
            expanded.withUnsafeBufferPointer { expanded in
                cells(expanded, origin: origin, paragraph: paragraph, row: row, in: &frame, column: &column, splitter: splitter)
            }
        }
        // A full row cut where the terminal wraps goes on in the next one by that wrap.
        if terminalWraps && column == frame.width && view.continuesByTerminalWrap(line) {
            frame.setWraps(row: row, true)
        }
        if let fill = decoration.fill {
            var fillCount = decoration.fillCount
            if let limit, limit.paragraph == line.paragraph {
                fillCount = max(0, settings.width - column) / max(1, view.layout.measure([fill]))
            }
            column = putFill(fill, count: fillCount, at: column, row: row, in: &frame, document: document, splitter: splitter)
        }
    }

    /// Draws `count` copies of the fill `piece` from `column`; returns the column after
    /// them. A simple piece (a rule's `─`) is drawn as one run of all its copies: a rule
    /// is 80 of them, each interned, measured and put alone cost 400 instructions.
    ///
    /// - Complexity: O(n) in the bytes drawn.
    private static func putFill<Sink: CellSink>(_ piece: ParagraphFormat.Piece, count: Int, at column: Int, row: Int,
                                                in frame: inout Sink, document: StyledDocument, splitter: CellSplitter) -> Int {
        var column = column, text = piece.text
        let simple = count < 2 || splitter.policy.ambiguousIsWide ? nil : text.withUTF8 { SimpleText.width($0, ambiguousIsWide: false) }
        guard let width = simple, width > 0 else {
            for _ in 0..<count { column = put(piece, at: column, row: row, in: &frame, document: document, splitter: splitter) }
            return column
        }
        // (The cells are the copies' cells in turn, each put where it fits as before.)
        let copies = text.withUTF8 { bytes in
            [UInt8](unsafeUninitializedCapacity: bytes.count * count) { buffer, made in
                for k in 0..<count { _ = buffer[(k * bytes.count)...].initialize(fromContentsOf: bytes) }
                made = bytes.count * count
            }
        }
        let style = document.styles.id(of: piece.style)
        copies.withUnsafeBufferPointer { buf in
            simpleRuns(buf, from: 0, paragraph: nil, style: style, columns: width * count, row: row, in: &frame, column: &column)
        }
        return column
    }

    /// Tabs in `range` of `buf` made spaces (as `plainText` shows them), so zero-width
    /// text after a tab joins its last space as it would join any other cell; a tab is
    /// cut where the layout cut it, at the width left after the prefix. `origin[k]`: the
    /// offset the byte at `k` came from.
    ///
    /// - Complexity: O(n) in the bytes.
    private static func expandingTabs(_ buf: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, textColumn: Int,
                                      settings: LayoutSettings, splitter: CellSplitter) -> (bytes: [UInt8], origin: [Int]) {
        var textSettings = settings
        textSettings.width = max(1, settings.width - textColumn)
        var expanded: [UInt8] = []
        var origin: [Int] = []
        _ = textSettings.expandingTabs(buf, range, startColumn: 0, measure: { run in
            var width = 0
            splitter.forEachCell(in: run) { _, w in width += w }
            return width
        }) { run, spaces, from in
            if let run {
                expanded.append(contentsOf: run)
                origin.append(contentsOf: from..<(from + run.count))
            } else {
                expanded.append(contentsOf: repeatElement(0x20, count: spaces))
                origin.append(contentsOf: repeatElement(from, count: spaces))
            }
        }
        return (expanded, origin)
    }

    /// Where in its paragraph the first cell ``draw(_:row:in:view:splitter:revealedTo:terminalWraps:)``
    /// put at `target` or after it starts (the columns of a wide cell are not split),
    /// the line's text having started at column `textColumn`; `line.end` when the text
    /// ends before `target`, `line.start` when `target` is in the prefix.
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func offset(ofColumn target: Int, in line: VisualLine, textColumn: Int, view: WrappedDocument,
                       splitter: CellSplitter) -> Int {
        guard !line.isReplacement, target > textColumn,
              view.document.paragraphNumbers.contains(line.paragraph),
              line.end <= view.document[paragraph: line.paragraph].text.count else { return line.start }
        var column = textColumn, found = line.end
        view.document[paragraph: line.paragraph].text.withUnsafeBufferPointer { buf in
            // (Cells past the width are not drawn, as in `cells`.)
            func walk(_ text: UnsafeBufferPointer<UInt8>, origin: (Int) -> Int) {
                splitter.forEachCell(in: text) { range, width in
                    guard found == line.end, column + width <= view.layout.settings.width else { return }
                    if column >= target { found = origin(range.lowerBound) }
                    column += width
                }
            }
            guard ByteSearch.contains(0x09, in: UnsafeBufferPointer(rebasing: buf[line.start..<line.end])) else {
                return walk(UnsafeBufferPointer(rebasing: buf[line.start..<line.end])) { line.start + $0 }
            }
            let (expanded, origin) = expandingTabs(buf, line.start..<line.end, textColumn: textColumn,
                                                   settings: view.layout.settings, splitter: splitter)
            expanded.withUnsafeBufferPointer { walk($0) { origin[$0] } }
        }
        return found
    }

    /// Draws the cells of `buf` from `column` on; the byte at `k` came from offset
    /// `origin[k]` of `paragraph` (`from + k` without `origin`), whose style it takes.
    /// `simpleWidth`: `buf` is known to be simple text this wide (``VisualLine/isSimple``).
    /// (A function of its own: a closure capturing the column and style run checked
    /// each access to them at run time.)
    private static func cells<Sink: CellSink>(_ buf: UnsafeBufferPointer<UInt8>, from: Int = 0, origin: [Int]? = nil,
                                              paragraph: StyledDocument.Paragraph, row: Int, in frame: inout Sink,
                                              column: inout Int, splitter: CellSplitter, simpleWidth: Int? = nil) {
        // Offsets rise along the line: the style run is looked up only past its end.
        var run: (style: StyleID, end: Int) = (.plain, Int.min)
        let policy = splitter.policy
        assert(simpleWidth == nil || simpleWidth == SimpleText.width(buf, ambiguousIsWide: false), "a simple line's width is not its text's")
        if !policy.ambiguousIsWide, let total = simpleWidth ?? SimpleText.width(buf, ambiguousIsWide: false) {
            // Every scalar a cell of its own of a width all modes agree on, none a mark:
            // no segmenting (most lines of prose, tables and CJK text).
            if origin == nil {
                simpleRuns(buf, from: from, paragraph: paragraph, columns: total, row: row, in: &frame, column: &column)
            } else {
                simpleCells(buf, from: from, origin: origin, paragraph: paragraph, row: row, in: &frame, column: &column)
            }
            return
        }
        // A sink that takes runs gets the cells that follow each other in one style as
        // one run (`pending`: its bytes in `buf` and columns), not a cell at a time.
        var pending = (start: 0, end: 0, columns: 0, style: StyleID.plain)
        splitter.forEachCell(in: buf) { range, width in
            guard column + width <= frame.width else { return }
            let first = buf[range.lowerBound]
            let offset = origin.map { $0[range.lowerBound] } ?? from + range.lowerBound
            if offset >= run.end { run = paragraph.styleRun(at: offset) }
            let needsBase = DisplayWidth.needsBase(UnsafeBufferPointer(rebasing: buf[range]), policy: policy)
            // (A run's trailing spaces are taken for blank cells: a cell that ends in a
            // space after a prepended mark (GB9b) is put alone.)
            let endsInSpace = range.count > 1 && buf[range.upperBound - 1] == 0x20
            if Sink.takesRuns && !needsBase && !endsInSpace {
                if pending.end != range.lowerBound || pending.style != run.style {
                    flush(buf, &pending, row: row, in: &frame, column: column)
                    pending = (range.lowerBound, range.lowerBound, 0, run.style)
                }
                pending.end = range.upperBound
                pending.columns += width
                column += width
                return
            }
            flush(buf, &pending, row: row, in: &frame, column: column)
            if range.count == 1 && first < 0x80 {
                column = frame.put(asciiCells[Int(first)], width: width, style: run.style, row: row, column: column)
            } else if needsBase {
                let text = " " + String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self)
                column = frame.put(text, width: width, style: run.style, row: row, column: column)
            } else {
                column = frame.put(bytes: UnsafeBufferPointer(rebasing: buf[range]), width: width, style: run.style, row: row, column: column)
            }
        }
        flush(buf, &pending, row: row, in: &frame, column: column)
    }

    /// Puts the run of cells `pending` gathered, which ends at `column`, and empties it.
    private static func flush<Sink: CellSink>(_ buf: UnsafeBufferPointer<UInt8>, _ pending: inout (start: Int, end: Int, columns: Int, style: StyleID),
                                              row: Int, in frame: inout Sink, column: Int) {
        guard pending.end > pending.start else { return }
        let taken = frame.putRun(UnsafeBufferPointer(rebasing: buf[pending.start..<pending.end]), columns: pending.columns,
                                 style: pending.style, row: row, column: column - pending.columns)
        precondition(taken, "a sink that takes runs took none")
        pending.start = pending.end
    }

    /// Draws `buf`, every scalar a cell of a width all modes agree on, in the styles of
    /// `paragraph` from its offset `from` (or `style` without a paragraph): into a sink
    /// that takes runs, a run of one style at a time, as bytes; else (or for a run that
    /// does not fit) as ``simpleCells(_:from:origin:paragraph:style:row:in:column:)``.
    ///
    /// - Complexity: O(n) in the bytes.
    private static func simpleRuns<Sink: CellSink>(_ buf: UnsafeBufferPointer<UInt8>, from: Int,
                                                   paragraph: StyledDocument.Paragraph?, style: StyleID = .plain,
                                                   columns total: Int, row: Int, in frame: inout Sink, column: inout Int) {
        guard Sink.takesRuns else {
            return simpleCells(buf, from: from, paragraph: paragraph, style: style, row: row, in: &frame, column: &column)
        }
        var run: (style: StyleID, end: Int) = (style, paragraph == nil ? from + buf.count : Int.min)
        var i = 0
        while i < buf.count {
            if from + i >= run.end, let paragraph { run = paragraph.styleRun(at: from + i) }
            let end = min(buf.count, run.end - from)
            assert(end == buf.count || buf[end] & 0xC0 != 0x80, "a style run ends inside a character")
            let text = UnsafeBufferPointer(rebasing: buf[i..<end])
            // (One run over all of `buf`, the most common, is not measured again; nor a
            // run of a `buf` that is all ASCII, as its width in bytes says: every other
            // simple character has more bytes than columns.)
            if let columns = i == 0 && end == buf.count ? total : total == buf.count ? text.count
                : SimpleText.width(text, ambiguousIsWide: false),
               column + columns <= frame.width,
               frame.putRun(text, columns: columns, style: run.style, row: row, column: column) {
                column += columns
            } else {
                simpleCells(text, from: from + i, paragraph: paragraph, style: run.style, row: row, in: &frame, column: &column)
            }
            i = end
        }
    }

    /// Draws the cells of `buf`, every scalar a cell of a width all modes agree on
    /// (`SimpleText.width`), one at a time; cells that do not fit are left
    /// out. Styles as in ``cells(_:from:origin:paragraph:row:in:column:splitter:simpleWidth:)``, or
    /// `style` without a paragraph.
    ///
    /// - Complexity: O(n) in the bytes.
    private static func simpleCells<Sink: CellSink>(_ buf: UnsafeBufferPointer<UInt8>, from: Int, origin: [Int]? = nil,
                                                    paragraph: StyledDocument.Paragraph?, style: StyleID = .plain,
                                                    row: Int, in frame: inout Sink, column: inout Int) {
        var run: (style: StyleID, end: Int) = (style, paragraph == nil ? Int.max : Int.min)
        var i = 0
        while i < buf.count {
            let first = buf[i]
            let (scalar, next) = DisplayWidth.decodeScalar(buf, at: i)
            defer { i = next }
            let width = SimpleText.width(of: scalar)!
            guard column + width <= frame.width else { continue }
            let text = first < 0x80 ? asciiCells[Int(first)]
                : String(decoding: UnsafeBufferPointer(rebasing: buf[i..<next]), as: UTF8.self)
            let offset = origin.map { $0[i] } ?? from + i
            if offset >= run.end, let paragraph { run = paragraph.styleRun(at: offset) }
            column = frame.put(text, width: width, style: run.style, row: row, column: column)
        }
    }

    /// A cell's text as it can be written after any other cell: a cell that starts
    /// with a combining mark (a paragraph that starts with one, in grapheme mode, is
    /// such a cell of width 1) is put on a space. Written alone, a terminal would add
    /// the mark to the cell on its left (a prefix's, a neighbouring pane's) and the
    /// rest of the row would land one column to the left of where the frame has it.
    /// Under `wcwidth` a spacing mark (Mc) is a cell of its own that terminals drawing
    /// per code point give a column: it is written as it is.
    ///
    /// - Complexity: O(1).
    static func standalone(_ text: String, policy: WidthPolicy = .grapheme) -> String {
        guard let first = text.unicodeScalars.first, DisplayWidth.needsBase(first.value, policy: policy) else { return text }
        return " " + text
    }

    /// Draws a prefix or fill piece from `column`; returns the column after it.
    private static func put<Sink: CellSink>(_ piece: ParagraphFormat.Piece, at column: Int, row: Int, in frame: inout Sink,
                                            document: StyledDocument, splitter: CellSplitter) -> Int {
        let style = document.styles.id(of: piece.style)
        var column = column
        var text = piece.text
        text.withUTF8 { buf in
            // Bullets, quote bars and rules are mostly simple cells: no segmenting (see `cells`).
            if !splitter.policy.ambiguousIsWide, let total = SimpleText.width(buf, ambiguousIsWide: false) {
                return simpleRuns(buf, from: 0, paragraph: nil, style: style, columns: total, row: row, in: &frame, column: &column)
            }
            splitter.forEachCell(in: buf) { range, width in
                guard column + width <= frame.width else { return }
                column = frame.put(String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self),
                                   width: width, style: style, row: row, column: column)
            }
        }
        return column
    }
}
