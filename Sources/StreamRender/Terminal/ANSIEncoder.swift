/// Turns frame changes into the fewest bytes that make an ANSI terminal match.
///
/// It tracks the terminal's cursor and pen (style and link) and, for each change:
///
/// - moves the cursor the cheapest way: not at all when it is already there; CR,
///   relative moves (`CUF`/`CUB`/`CUU`/`CUD`), absolute `CUP` (when rows are
///   absolute), or rewriting the few unchanged cells in between when that is shorter;
/// - emits only the SGR changes needed (knowing that SGR 22 clears both bold and dim),
///   colours downgraded to what the terminal shows; OSC 8 links opened and closed;
/// - erases to the end of the line (`CSI K`) only over plain blank cells, with the
///   pen reset first so the cleared cells get the default background;
/// - never writes a wide cluster in the last column (frames cannot hold one), and
///   after writing the last column forgets the column (terminals differ in how they
///   defer the wrap) so the next move starts with CR or CUP.
///
/// Every frame ends with the pen and link reset, and is wrapped in synchronized
/// output (`CSI ? 2026 h` ... `l`) when the terminal supports it.
public struct ANSIEncoder: Sendable {
    public var capabilities: TerminalCapabilities {
        // (What was downgraded for other colours is not, nor are changes to looks asked
        // for, which are downgraded.)
        didSet {
            downgradedLooks = Self.noDowngrades()
            recentChanges = Self.noChanges()
            askedLook = .max
        }
    }
    /// Whether rows are screen rows (fullscreen: CUP allowed) or only relative to a
    /// region whose place on the screen is unknown (inline).
    public var absoluteRows: Bool

    /// Where the cursor is, if known: row and column (a column equal to the width
    /// means "after the last column, wrap pending"). The views keep it in step with
    /// what they write; it is not part of the public API.
    @_spi(Benchmarks) public var cursor: (row: Int, column: Int)?
    /// With relative rows: how many rows of the region exist on the screen. Moving to
    /// a row below them first creates rows with CR LF from the last one (the screen
    /// scrolls at its bottom), with the pen reset so new rows get the default
    /// background. Nil: every row exists (fullscreen). 0 with the cursor on row -1:
    /// the cursor is on the line above the region (the last line written).
    var existingRows: Int?
    /// The pen the terminal has (a ``Style/look``: links are tracked apart), nil while
    /// unknown (at the start: whatever ran before may have left attributes on, so the
    /// first SGR is a full reset).
    private var pen: UInt64? = nil
    /// The style id of the cell last written in ``encode(_:of:styles:into:)`` when nothing
    /// has changed the pen since: the next cell of that style needs no pen change (a
    /// row's cells mostly share one; looking the style up and comparing it was a third
    /// of encoding).
    private var penCellStyle: StyleID? = nil
    /// The look ``setPen(look:link:)`` was last asked for (`.max`, which no look is:
    /// none yet): the pen is its downgrade.
    private var askedLook = UInt64.max
    private var link: String? = nil

    public init(capabilities: TerminalCapabilities, absoluteRows: Bool) {
        self.capabilities = capabilities
        self.absoluteRows = absoluteRows
    }

    // MARK: - Frames

    /// Appends the bytes that apply `changes` (from ``FrameDiff``) of `frame`, with
    /// styles from `styles`, ending with the pen and link reset. Rows are frame rows:
    /// screen rows when rows are absolute, else rows from the region's top.
    ///
    /// - Complexity: O(c) in the changes plus the bytes written.
    public mutating func encode(_ changes: [FrameDiff.Change], of frame: Frame, styles: StyleTable,
                                into out: inout [UInt8]) {
        penCellStyle = nil  // (ids name styles of this call's table)
        var k = 0
        var blankTail = (row: -1, from: 0)  // where the row's trailing plain blanks start
        while k < changes.count {
            let change = changes[k]
            let row = change.row, column = change.column
            if blankTail.row != row { blankTail = (row, Self.plainBlankTail(of: frame, row: row)) }
            // Erase to the end of the line when every cell from here on is a plain blank.
            if column >= blankTail.from && frame.width - column >= 4 {
                move(to: row, column, frame: frame, styles: styles, into: &out)
                eraseToLineEnd(into: &out)
                while k < changes.count && changes[k].row == row { k += 1 }
                continue
            }
            if column == 0 && frame.wraps(row: row - 1) { takeTerminalWrap(to: row, width: frame.width) }
            move(to: row, column, frame: frame, styles: styles, into: &out)
            write(frame[row, column], frame: frame, styles: styles, into: &out)
            k += 1
        }
        endFrame(into: &out)
    }

    /// Erases from the cursor to the end of its line, with the pen reset first so the
    /// cleared cells get the default background.
    private mutating func eraseToLineEnd(into out: inout [UInt8]) {
        setPen(.plain, link: nil, into: &out)
        out.append(contentsOf: [0x1B, 0x5B, 0x4B])  // CSI K
    }

    /// Column 0 of `row`, which the row before goes on in by the terminal's wrap: right
    /// after that full row (wrap pending) the terminal's own wrap takes the text on and
    /// marks the row wrapped, so the cursor is taken there without a move. (A row one
    /// short of a wide cluster is reached by a move: terminals disagree on a wide
    /// cluster written in the last column.)
    private mutating func takeTerminalWrap(to row: Int, width: Int) {
        guard let at = cursor, at.row == row - 1, at.column == width else { return }
        cursor = (row, 0)
        if let existing = existingRows, row >= existing { existingRows = row + 1 }
    }

    /// Appends the bytes that draw `frame` on rows that show nothing of it yet (an
    /// inline region that starts empty): for each row, every cell up to its text end,
    /// blanks inside the text written as spaces (copied text keeps its indentation),
    /// and all of a row the terminal's wrap continues; then the pen and link reset.
    /// The bytes are those of ``encode(_:of:styles:into:)`` applied to a diff against a
    /// blank frame with those cells marked unwritten, made without the diff and the
    /// list of changes (a frame of final rows, the most cells a view writes, went
    /// through both).
    ///
    /// Rows before `first` were written already (``writeNewRow(_:_:wrapsAbove:styles:into:)``),
    /// the last of them going on in row `first` by the terminal's wrap if `wrapsAbove`.
    /// `offset`: the frame's row 0 is the region's row `offset` (the rows above it were
    /// written already too).
    ///
    /// - Complexity: O(c) in the cells up to each row's text end, plus the bytes written.
    mutating func encodeNewRows(of frame: Frame, from first: Int = 0, at offset: Int = 0, wrapsAbove: Bool = false,
                                styles: StyleTable, into out: inout [UInt8]) {
        if first + offset == 0 { startNewRows() }
        var cells = RowCells(width: frame.width)
        for row in first..<frame.height {
            cells.take(row: row, of: frame)
            writeNewRow(offset + row, cells, wrapsAbove: row == first ? wrapsAbove : frame.wraps(row: row - 1), styles: styles,
                        into: &out)
        }
        endFrame(into: &out)
    }

    /// Starts writing rows with ``writeNewRow(_:_:wrapsAbove:styles:into:)``: the pen is
    /// looked up again for the first style (ids name styles of the table the rows give).
    ///
    /// - Complexity: O(1).
    mutating func startNewRows() {
        penCellStyle = nil
    }

    /// Appends the bytes that draw `cells` on `row`, which shows nothing yet, as
    /// ``encodeNewRows(of:from:at:wrapsAbove:styles:into:)`` draws a row of a frame.
    /// `wrapsAbove`: the row before goes on in this one by the terminal's wrap. After
    /// ``startNewRows()``; ``endFrame(into:)`` after the last row.
    ///
    /// - Complexity: O(n) in the row's bytes and style runs.
    mutating func writeNewRow(_ row: Int, _ cells: RowCells, wrapsAbove: Bool, styles: StyleTable,
                              into out: inout [UInt8]) {
        let width = cells.width
        let content = cells.content
        // Every cell is written, from column 0, up to the last that is not a plain blank
        // (a row going on by the wrap: up to the row's end, or erased from there).
        if content.column > 0 || (cells.wraps && width < 4) {
            if wrapsAbove { takeTerminalWrap(to: row, width: width) }
            moveToNewRow(row, width: width, styles: styles, into: &out)
        }
        var from = 0
        for run in cells.runs where from < content.bytes {
            let end = min(run.end, content.bytes)
            setCellPen(run.style, styles: styles, into: &out)
            cells.bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[from..<end])) }
            from = end
        }
        if content.column > 0 { cursor = (row, min(width, content.column)) }
        guard cells.wraps && content.column < width else { return }
        if width - content.column >= 4 {
            moveToNewRow(row, column: content.column, width: width, styles: styles, into: &out)
            eraseToLineEnd(into: &out)
            return
        }
        setCellPen(.plain, styles: styles, into: &out)
        out.append(contentsOf: repeatElement(0x20, count: width - content.column))
        cursor = (row, width)
    }

    /// ``writeNewRow(_:_:wrapsAbove:styles:into:)`` for a row of `text` after `prefix`
    /// (pieces of simple text, `textColumn` wide in all), from column 0:
    /// bytes of a paragraph starting at its offset `origin`, in the styles of its
    /// `runs`, up to the row's last cell that is not a plain blank (`columns` wide
    /// after the prefix); the row does not go on by the terminal's wrap. The bytes are
    /// those of the row's cells (a final row of simple text, written without gathering
    /// its cells first).
    ///
    /// - Complexity: O(n + log r) in the bytes and the paragraph's runs.
    mutating func writeNewTextRow(_ row: Int, width: Int, prefix: [ParagraphFormat.Piece] = [], textColumn: Int = 0,
                                  text: UnsafeBufferPointer<UInt8>, origin: Int, runs: UnsafeBufferPointer<StyledDocument.StyleRun>,
                                  columns: Int, wrapsAbove: Bool, styles: StyleTable, into out: inout [UInt8]) {
        guard !prefix.isEmpty || columns > 0 else { return }
        if wrapsAbove { takeTerminalWrap(to: row, width: width) }
        moveToNewRow(row, width: width, styles: styles, into: &out)
        for piece in prefix {
            var bytes = piece.text
            bytes.withUTF8 { bytes in
                guard !bytes.isEmpty else { return }
                setCellPen(styles.id(of: piece.style), styles: styles, into: &out)
                out.append(contentsOf: bytes)
            }
        }
        StyledDocument.StyleRun.forEachPiece(of: origin..<origin + text.count, in: runs) { piece, style in
            setCellPen(style, styles: styles, into: &out)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[(piece.lowerBound - origin)..<(piece.upperBound - origin)]))
        }
        cursor = (row, min(width, textColumn + columns))
    }

    /// Moves to `column` of `row` unless the cursor is there (it mostly is).
    ///
    /// - Complexity: O(1) plus the bytes written.
    private mutating func moveToNewRow(_ row: Int, column: Int = 0, width: Int, styles: StyleTable, into out: inout [UInt8]) {
        if let at = cursor, at.row == row, at.column == column, column < width, existingRows.map({ row < $0 }) ?? true {
            return
        }
        // Only `width` is read of the frame: a move to a row's start, or to where the
        // cursor is, rewrites no cells (which a frame without rows does not have).
        assert(column == 0 || cursor.map { $0.row == row && $0.column == column } == true, "a new row's move rewrites cells")
        move(to: row, column, frame: Frame(width: width, height: 0), styles: styles, into: &out)
    }

    /// Resets the pen and closes any link (every frame ends so).
    ///
    /// - Complexity: O(1).
    public mutating func endFrame(into out: inout [UInt8]) {
        setPen(.plain, link: nil, into: &out)
    }

    /// Wraps `body`'s bytes in synchronized output when supported and needed: a frame
    /// that only appends text at the cursor cannot show a torn state, so it is not
    /// wrapped (16 bytes a frame would outweigh a streamed token).
    ///
    /// - Complexity: O(n) in the bytes `body` appends (they are scanned for an escape).
    public func synchronized(_ out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        Self.synchronized(capabilities.synchronizedOutput, &out, body)
    }

    /// ``synchronized(_:_:)`` where the terminal supports synchronized output or not:
    /// for a body that uses the encoder itself (called on the encoder, the call held a
    /// copy of it, and each change to its caches in `body` copied them).
    ///
    /// - Complexity: O(n) in the bytes `body` appends.
    static func synchronized(_ supported: Bool, _ out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        guard supported else { return body(&out) }
        var frame: [UInt8] = []
        body(&frame)
        if ByteSearch.contains(0x1B, in: frame) {
            out.append(contentsOf: Array("\u{1B}[?2026h".utf8))
            out.append(contentsOf: frame)
            out.append(contentsOf: Array("\u{1B}[?2026l".utf8))
        } else {
            out.append(contentsOf: frame)
        }
    }

    /// The column from which every cell of `row` is a plain blank (the width if none is).
    private static func plainBlankTail(of frame: Frame, row: Int) -> Int {
        frame.textEnd(row: row)
    }

    /// Writes one cell's cluster in its style; the cursor moves past it.
    private mutating func write(_ cell: Cell, frame: Frame, styles: StyleTable, into out: inout [UInt8]) {
        precondition(!cell.isContinuation, "a continuation is written by its wide cluster")
        guard let at = cursor else { preconditionFailure("write with an unknown cursor") }
        precondition(!(cell.width == 2 && at.column == frame.width - 1), "a wide cluster in the last column")
        setCellPen(cell.style, styles: styles, into: &out)
        var text = cell.text  // (its bytes in place: appending the UTF-8 view went a byte at a time)
        text.withUTF8 { out.append(contentsOf: $0) }
        cursor = (at.row, min(frame.width, at.column + Int(cell.width)))
    }

    /// Sets the pen for a cell in style `id` of `styles`, unless the last cell written
    /// had that style and nothing changed the pen since.
    ///
    /// - Complexity: O(1) plus the bytes written.
    private mutating func setCellPen(_ id: StyleID, styles: StyleTable, into out: inout [UInt8]) {
        guard id != penCellStyle else { return }
        setStyle(id, styles: styles, into: &out)
        penCellStyle = id
    }

    // MARK: - Cursor

    /// Moves the cursor to `row`, `column` the cheapest way.
    ///
    /// - Complexity: O(1) plus the bytes written (at most 8 cells are compared for a rewrite).
    public mutating func move(to row: Int, _ column: Int, frame: Frame, styles: StyleTable,
                              into out: inout [UInt8]) {
        if let existing = existingRows, row >= existing, let at = cursor {
            // Go to the last existing row, then make the new ones.
            setPen(.plain, link: nil, into: &out)
            let last = existing - 1  // -1: not even the region's first row exists yet
            if at.row < last { out.append(contentsOf: Self.csi(Self.count(last - at.row) + "B")) }
            if at.row > last { out.append(contentsOf: Self.csi(Self.count(at.row - last) + "A")) }
            // (Byte by byte: an array literal here was an allocation per new row.)
            for _ in 0..<(row - last) {
                out.append(0x0D)
                out.append(0x0A)
            }
            existingRows = row + 1
            cursor = (row, 0)
        }
        if let at = cursor, at.row == row, at.column == column, column < frame.width { return }
        var best: [UInt8]? = nil
        func consider(_ bytes: [UInt8]) {
            if best == nil || bytes.count < best!.count { best = bytes }
        }
        if absoluteRows {
            consider(Self.csi("\(row + 1);\(column + 1)H"))
        }
        if let at = cursor {
            let knownColumn = at.column < frame.width  // else a wrap is pending
            var vertical: [UInt8] = []
            if row < at.row { vertical = Self.csi(Self.count(at.row - row) + "A") }
            if row > at.row { vertical = Self.csi(Self.count(row - at.row) + "B") }
            // From the same column (CUU/CUD keep it), then sideways.
            if knownColumn {
                consider(vertical + Self.horizontal(from: at.column, to: column))
                // Rewriting the cells in between is shorter for small gaps on the same row.
                if row == at.row && column > at.column, let bytes = rewriteBytes(frame, styles, row, at.column, column) {
                    consider(bytes)
                }
            }
            // From column 0 (CR).
            consider(vertical + [0x0D] + Self.horizontal(from: 0, to: column))
        }
        guard let bytes = best else { preconditionFailure("the cursor is unknown and rows are relative") }
        out.append(contentsOf: bytes)
        cursor = (row, column)
    }

    /// The bytes of the cells between `from` and `to` on `row` if they can be written
    /// as they are with the current pen (single-width, same style and link), else nil.
    private func rewriteBytes(_ frame: Frame, _ styles: StyleTable, _ row: Int, _ from: Int, _ to: Int) -> [UInt8]? {
        guard to - from <= 8, let pen else { return nil }
        var bytes: [UInt8] = []
        for c in from..<to {
            let cell = frame[row, c]
            guard cell.width == 1 else { return nil }
            let style = styles[cell.style]
            guard look(of: style).look == pen, (capabilities.hyperlinks ? style.hyperlink : nil) == link else { return nil }
            bytes.append(contentsOf: cell.text.utf8)
        }
        return bytes
    }

    /// `style` as the pen shows it: colours downgraded, no link (links are tracked apart).
    func look(of style: Style) -> Style {
        // Mostly nothing to downgrade: the look as it is (it was made anew per cell drawn).
        switch capabilities.colors {
        case .none: return Style(look: style.look & Style.attributeBits)
        case .truecolor: return Style(look: style.look)
        case .palette256 where style.richestColorKind < 3, .ansi16 where style.richestColorKind < 2:
            return Style(look: style.look)
        default:
            return Style(foreground: downgrade(style.foreground), background: downgrade(style.background),
                         attributes: style.attributes)
        }
    }

    private static func horizontal(from: Int, to: Int) -> [UInt8] {
        if to > from { return csi(count(to - from) + "C") }
        if to < from { return csi(count(from - to) + "D") }
        return []
    }

    private static func count(_ n: Int) -> String { n == 1 ? "" : String(n) }

    private static func csi(_ tail: String) -> [UInt8] { [0x1B, 0x5B] + Array(tail.utf8) }

    // MARK: - Pen

    /// Emits what sets the pen to `style`, and the link to its hyperlink where the
    /// terminal shows links (text written outside frames: styled lines into a pipe).
    ///
    /// - Complexity: O(1) plus the bytes written.
    public mutating func setStyle(_ style: Style, into out: inout [UInt8]) {
        setPen(style, link: capabilities.hyperlinks ? style.hyperlink : nil, into: &out)
    }

    /// ``setStyle(_:into:)`` for the style `id` names in `styles`.
    ///
    /// - Complexity: O(1) plus the bytes written.
    package mutating func setStyle(_ id: StyleID, styles: StyleTable, into out: inout [UInt8]) {
        // (A style without a link, as most are, is set by its look: no copy of it.)
        let (look, linked) = styles.look(of: id)
        if linked && capabilities.hyperlinks {
            setPen(look: look, link: styles[id].hyperlink, into: &out)
        } else {
            setPen(look: look, link: nil, into: &out)
        }
    }

    /// Emits what changes the pen to `style` (colours downgraded) and the link to `link`.
    private mutating func setPen(_ style: Style, link target: String?, into out: inout [UInt8]) {
        setPen(look: style.look, link: target, into: &out)
    }

    /// ``setPen(_:link:into:)`` for the style whose ``Style/look`` is `key`.
    private mutating func setPen(look key: UInt64, link target: String?, into out: inout [UInt8]) {
        penCellStyle = nil
        var linked = false
        if target != nil || link != nil {
            if target != link {
                if link != nil { out.append(contentsOf: Array("\u{1B}]8;;\u{1B}\\".utf8)) }
                if let target { out.append(contentsOf: Array("\u{1B}]8;;\(Self.cleanURL(target))\u{1B}\\".utf8)) }
                link = target
            }
            linked = true
        }
        switch penStep(look: key, linked: linked) {
        case .none: return
        case .remembered(let bytes): bytes.append(to: &out)
        case .workOut(let change, let slot): workOutPen(look: key, change: change, slot: slot, into: &out)
        }
    }

    /// ``setStyle(_:into:)`` for a style of look `key` without a link, into `line`
    /// (a printer's line put together before it is appended to its output).
    ///
    /// - Complexity: O(1) plus the bytes written.
    package mutating func setLook(_ key: UInt64, into line: LineAssembly) {
        guard link == nil else {
            // (Closing a link: not a printer's line's way, which has none.)
            var bytes: [UInt8] = []
            setPen(look: key, link: nil, into: &bytes)
            return bytes.withUnsafeBufferPointer { line.append($0) }
        }
        penCellStyle = nil
        switch penStep(look: key, linked: false) {
        case .none: return
        case .remembered(let bytes):
            bytes.store(to: line.room(32))
            line.advance(by: bytes.byteCount)
        case .workOut(let change, let slot):
            var bytes: [UInt8] = []
            swap(&bytes, &workedOut)
            bytes.removeAll(keepingCapacity: true)
            workOutPen(look: key, change: change, slot: slot, into: &bytes)
            bytes.withUnsafeBufferPointer { line.append($0) }
            swap(&bytes, &workedOut)
        }
    }

    /// What a pen change to the look `key` takes, and the pen after it where that is
    /// known already.
    private enum PenStep {
        /// Nothing: the pen is the look's downgrade.
        case none
        /// The bytes of the same change made before (the pen is set).
        case remembered(ShortBytes)
        /// Working out (``workOutPen(look:change:slot:into:)``).
        case workOut(PenChange?, slot: Int)
    }

    /// The first steps of a change to the look `key`; `linked`: the change writes or
    /// closes a link, so the look asked for last time does not settle it.
    @inline(__always)
    private mutating func penStep(look key: UInt64, linked: Bool) -> PenStep {
        if !linked && key == askedLook {
            // The look asked for last time (a line's end and the next line's start are
            // both plain): the pen is its downgrade already.
            return .none
        }
        // (Every way out below leaves the pen at this look's downgrade.)
        askedLook = key
        // A few looks alternate (code tokens, bold, links): their changes are written
        // as they were the last time, by the pen and the look asked for (not
        // downgraded again first), not worked out again.
        guard let pen else { return .workOut(nil, slot: 0) }
        let change = PenChange(from: pen, to: key)
        let set = Self.firstSlot(of: change)
        if recentChanges[set].change == change {
            self.pen = recentChanges[set].pen
            return .remembered(recentChanges[set].bytes)
        }
        for way in 1..<Self.ways where recentChanges[set + way].change == change {
            let hit = recentChanges[set + way]
            putFirst(hit, inSetAt: set, over: way)
            self.pen = hit.pen
            return .remembered(hit.bytes)
        }
        return .workOut(change, slot: set)
    }

    /// The first slot of the set of ``recentChanges`` that holds `change`. A styled
    /// answer makes a few dozen changes: with a slot a set, two of them shared one in
    /// most answers and evicted each other every line; with two a set, three did.
    @inline(__always)
    private static func firstSlot(of change: PenChange) -> Int {
        // (Both looks mixed: their bits are few and in the same places.)
        var mixed = (change.from &* 0x9E37_79B9_7F4A_7C15) ^ change.to
        mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> (64 - slotBits)) & ~(ways - 1)
    }

    /// The ways of each set of ``recentChanges``.
    private static let ways = 4

    /// A pen change to the look `key` not remembered: its SGR, remembered in the set
    /// whose first slot is `slot`.
    private mutating func workOutPen(look key: UInt64, change: PenChange?, slot: Int, into out: inout [UInt8]) {
        let wanted = cachedLook(of: key)
        if let pen, pen == wanted { return }
        let start = out.count
        changesWorkedOut &+= 1
        // Built in the encoder's own buffers: a change allocated five arrays (styled
        // output changes style a few times a line).
        var reset = SGRCodes(), delta = SGRCodes()
        swap(&reset, &resetCodes)
        swap(&delta, &deltaCodes)
        Self.sgr(from: pen.map { Style(look: $0) }, to: Style(look: wanted), reset: &reset, delta: &delta, into: &out)
        swap(&reset, &resetCodes)
        swap(&delta, &deltaCodes)
        pen = wanted
        // (The set's way used longest ago goes.)
        if let change, let bytes = ShortBytes(out[start...]) {
            putFirst((change, bytes, wanted), inSetAt: slot, over: Self.ways - 1)
        }
    }

    /// Puts `entry` in the first way of the set at `set`, the ways before `way` moved one
    /// on over it: a set's ways stay in the order they were last used.
    private mutating func putFirst(_ entry: (change: PenChange, bytes: ShortBytes, pen: UInt64), inSetAt set: Int, over way: Int) {
        var k = set + way
        while k > set {
            recentChanges[k] = recentChanges[k - 1]
            k -= 1
        }
        recentChanges[set] = entry
    }

    /// Pen changes worked out so far (not remembered): tests count what the cache misses.
    private(set) var changesWorkedOut = 0

    /// ``setLook(_:into:)``'s bytes of a change worked out, kept between changes.
    private var workedOut: [UInt8] = []

    /// ``look(of:)``, remembered by look: downgrading a style's colours for each pen
    /// change was a third of the cost of styled output.
    private mutating func cachedLook(of key: UInt64) -> UInt64 {
        let slot = Self.slot(key)
        if downgradedLooks[slot].from == key { return downgradedLooks[slot].to }
        let made = look(of: Style(look: key)).look
        downgradedLooks[slot] = (key, made)
        return made
    }

    /// A slot of the encoder's caches for a key made of looks.
    @inline(__always)
    private static func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> (64 - slotBits))
    }

    /// The slots of each cache: 1024 (with 64, the few dozen changes of a styled
    /// answer evicted each other).
    private static let slotBits = 10, slots = 1 << slotBits

    /// Buffers of ``setPen(_:link:into:)`` kept between changes.
    private var resetCodes = SGRCodes(), deltaCodes = SGRCodes()

    /// A pen change from the pen's look to the look of a style asked for (``Style/look``,
    /// before ``look(of:)`` downgrades it).
    private struct PenChange: Equatable {
        var from: UInt64
        var to: UInt64
    }

    /// Changes written, their bytes and the pen after them, in sets of ``ways`` slots
    /// (``firstSlot(of:)``; a later change of a set replaces the one used longest
    /// ago). No look is `.max` (its top bits are unused): empty slots.
    /// (Each encoder makes its own: a shared empty one was copied at the first change,
    /// 64 KiB made twice.)
    private var recentChanges = noChanges()
    private static func noChanges() -> [(change: PenChange, bytes: ShortBytes, pen: UInt64)] {
        .init(repeating: (PenChange(from: .max, to: .max), ShortBytes(), 0), count: slots)
    }
    /// Looks downgraded to the capabilities' colours (``cachedLook(of:)``), by slot.
    private var downgradedLooks = noDowngrades()
    private static func noDowngrades() -> [(from: UInt64, to: UInt64)] { .init(repeating: (.max, 0), count: slots) }

    /// The shortest SGR from `current` (nil: unknown) to `target`.
    func sgr(from current: Style?, to target: Style) -> [UInt8] {
        var reset = SGRCodes(), delta = SGRCodes(), out: [UInt8] = []
        Self.sgr(from: current, to: target, reset: &reset, delta: &delta, into: &out)
        return out
    }

    /// Appends the shortest SGR from `current` (nil: unknown) to `target`, built in
    /// `reset` and `delta` (emptied first).
    private static func sgr(from current: Style?, to target: Style, reset: inout SGRCodes, delta: inout SGRCodes,
                            into out: inout [UInt8]) {
        // Either a full reset and everything of the target...
        reset.bytes.removeAll(keepingCapacity: true)
        delta.bytes.removeAll(keepingCapacity: true)
        reset.add(0)
        if target != .plain {
            reset.add(target.attributes)
            if target.foreground != .default { reset.add(target.foreground, background: false) }
            if target.background != .default { reset.add(target.background, background: true) }
        }
        guard let current else { return reset.append(to: &out) }
        // ...or only the differences.
        let removed = current.attributes.subtracting(target.attributes)
        var adding = target.attributes.subtracting(current.attributes)
        if removed.contains(.bold) || removed.contains(.dim) {
            delta.add(22)  // clears both bold and dim: put back the one kept
            adding.formUnion(target.attributes.intersection([.bold, .dim]))
        }
        if removed.contains(.italic) { delta.add(23) }
        if removed.contains(.underline) { delta.add(24) }
        if removed.contains(.inverse) { delta.add(27) }
        if removed.contains(.strikethrough) { delta.add(29) }
        delta.add(adding)
        if current.foreground != target.foreground { delta.add(target.foreground, background: false) }
        if current.background != target.background { delta.add(target.background, background: true) }
        if delta.bytes.count <= reset.bytes.count { delta.append(to: &out) } else { reset.append(to: &out) }
    }

    /// SGR parameters written as bytes (`;`-separated), without the strings and arrays
    /// a style change used to allocate.
    private struct SGRCodes {
        var bytes: [UInt8] = []

        /// Appends `ESC [ parameters m`.
        func append(to out: inout [UInt8]) {
            out.append(0x1B)
            out.append(0x5B)
            out.append(contentsOf: bytes)
            out.append(0x6D)
        }

        mutating func add(_ code: Int) {
            if !bytes.isEmpty { bytes.append(0x3B) }
            number(code)
        }

        private mutating func number(_ n: Int) {
            if n >= 100 { bytes.append(UInt8(0x30 + n / 100)) }
            if n >= 10 { bytes.append(UInt8(0x30 + n / 10 % 10)) }
            bytes.append(UInt8(0x30 + n % 10))
        }

        mutating func add(_ a: Style.Attributes) {
            if a.contains(.bold) { add(1) }
            if a.contains(.dim) { add(2) }
            if a.contains(.italic) { add(3) }
            if a.contains(.underline) { add(4) }
            if a.contains(.inverse) { add(7) }
            if a.contains(.strikethrough) { add(9) }
        }

        mutating func add(_ color: StyleColor, background: Bool) {
            switch color {
            case .default: add(background ? 49 : 39)
            case .ansi(let n):
                let n = Int(n & 15)
                add(n < 8 ? (background ? 40 : 30) + n : (background ? 100 : 90) + n - 8)
            case .palette(let n):
                add(background ? 48 : 38); add(5); add(Int(n))
            case .rgb(let r, let g, let b):
                add(background ? 48 : 38); add(2); add(Int(r)); add(Int(g)); add(Int(b))
            }
        }
    }

    /// `color` as the terminal can show it.
    func downgrade(_ color: StyleColor) -> StyleColor {
        switch (color, capabilities.colors) {
        case (.default, _): return .default
        case (_, .none): return .default
        case (.rgb(let r, let g, let b), .palette256): return .palette(Self.palette(r, g, b))
        case (.rgb(let r, let g, let b), .ansi16): return .ansi(Self.nearest16(Self.rgb(ofPalette: Self.palette(r, g, b))))
        case (.palette(let n), .ansi16): return .ansi(n < 16 ? n : Self.nearest16(Self.rgb(ofPalette: n)))
        default: return color
        }
    }

    /// The xterm 256-colour entry nearest `r, g, b` (the 6x6x6 cube or the grey ramp).
    static func palette(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cube = 16 + 36 * lr + 6 * lg + lb
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grey = average > 238 ? 255 : 232 + max(0, (average - 3) / 10)
        let c = rgb(ofPalette: UInt8(cube)), gr = rgb(ofPalette: UInt8(grey))
        func distance(_ p: (Int, Int, Int)) -> Int {
            let dr = p.0 - Int(r), dg = p.1 - Int(g), db = p.2 - Int(b)
            return dr * dr + dg * dg + db * db
        }
        return UInt8(distance(gr) < distance(c) ? grey : cube)
    }

    /// The RGB of a 256-colour palette entry (xterm's defaults).
    static func rgb(ofPalette n: UInt8) -> (Int, Int, Int) {
        let n = Int(n)
        if n < 16 { return ansi16[n] }
        if n >= 232 { let v = 8 + (n - 232) * 10; return (v, v, v) }
        let i = n - 16
        func value(_ l: Int) -> Int { l == 0 ? 0 : 55 + l * 40 }
        return (value(i / 36), value(i / 6 % 6), value(i % 6))
    }

    static let ansi16: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    static func nearest16(_ p: (Int, Int, Int)) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (k, q) in ansi16.enumerated() {
            let d = (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)
            if d < bestDistance { best = k; bestDistance = d }
        }
        return UInt8(best)
    }

    /// A link target as it may appear inside OSC 8: no control characters, no `ESC \`.
    static func cleanURL(_ url: String) -> String {
        String(url.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !($0.value >= 0x80 && $0.value < 0xA0) }
            .map(Character.init))
    }
}

// MARK: - Mode and screen sequences

/// Every escape sequence outside frames is made here too, so views, the renderer and
/// the CLI never write one by hand.
extension ANSIEncoder {
    public static let hideCursor: [UInt8] = csi("?25l")

    /// DECRQM for synchronized output (2026) and grapheme clustering (2027), then a
    /// primary device attributes request that every terminal answers (its reply marks
    /// the end: a terminal that ignores DECRQM says nothing).
    public static let probeQueries: [UInt8] = csi("?2026$p") + csi("?2027$p") + csi("c")

    /// Measures how far each of `texts` moves the cursor, out of sight: inside a
    /// synchronized update and with autowrap off (a cursor near the right edge then
    /// overwrites its last column instead of wrapping onto the next row or scrolling),
    /// the cursor saved (DECSC) and its position asked (CPR); for each text the cursor
    /// put back (which also restores the pen), the text written concealed (SGR 8), the
    /// position asked; at the end the cursor put back, the rest of its line erased,
    /// autowrap on again. One reply per query: `CSI row ; column R`.
    ///
    /// - Complexity: O(n) in the texts' bytes.
    public static func measuringQueries(_ texts: [String]) -> [UInt8] {
        let save: [UInt8] = [0x1B, 0x37], restore: [UInt8] = [0x1B, 0x38]
        var bytes = csi("?2026h") + csi("?7l") + save + csi("6n")
        for text in texts { bytes += restore + csi("8m") + Array(text.utf8) + csi("6n") }
        return bytes + restore + csi("K") + csi("?7h") + csi("?2026l")
    }
    public static let showCursor: [UInt8] = csi("?25h")

    /// The alternate screen, cleared, the cursor hidden, a scroll region of `height` rows.
    ///
    /// - Complexity: O(1).
    public static func enterAlternateScreen(height: Int) -> [UInt8] {
        csi("?1049h") + csi("2J") + hideCursor + csi("1;\(height)r")
    }

    /// Pen reset, scroll region reset, the normal screen back, the cursor shown.
    public static let leaveAlternateScreen: [UInt8] = csi("0m") + csi("r") + csi("?1049l") + showCursor

    /// A new scroll region of `height` rows and the screen cleared (after a resize).
    ///
    /// - Complexity: O(1).
    public static func resetScreen(height: Int) -> [UInt8] { csi("1;\(height)r") + csi("2J") }

    /// Scrolls the scroll region up by `count` rows (SU).
    ///
    /// - Complexity: O(1).
    public static func scrollUp(_ count: Int) -> [UInt8] { csi(count == 1 ? "S" : "\(count)S") }

    /// Moves the cursor up `count` rows (nothing for 0), then to column 0 and erases
    /// from there to the end of the screen, leaving the cursor there.
    ///
    /// Never an erase-below from the top-left corner: tmux 3.3 and later (its
    /// `scroll-on-clear`) then push the whole screen into the scrollback, so a live
    /// view that started at the top of a pane left its text there twice. The row is
    /// erased with EL, the rest from the row below (cursor saved and restored).
    ///
    /// - Complexity: O(1).
    public static func eraseBelow(afterMovingUp count: Int) -> [UInt8] {
        (count > 0 ? csi(count == 1 ? "A" : "\(count)A") : []) + [0x0D] + csi("K")
            + [0x1B, UInt8(ascii: "7")] + csi("B") + [0x0D] + csi("J") + [0x1B, UInt8(ascii: "8")]
    }

    /// OSC 52: puts `bytes` on the system clipboard (selection `c`), base64-encoded,
    /// so nothing in them reaches the terminal as a control. Terminals that allow it
    /// (xterm with `allowWindowOps`, kitty, WezTerm, iTerm2, foot; tmux with
    /// `set-clipboard on`, which also forwards it) set the clipboard; others ignore it.
    ///
    /// - Complexity: O(n) in the bytes.
    public static func setClipboard(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array("\u{1B}]52;c;".utf8) + base64(bytes) + [0x07]
    }

    /// Standard base64 (RFC 4648, with padding).
    ///
    /// - Complexity: O(n) in the bytes.
    static func base64(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i < input.count {
            let n = min(3, input.count - i)
            let word = UInt32(input[i]) << 16 | (n > 1 ? UInt32(input[i + 1]) << 8 : 0) | (n > 2 ? UInt32(input[i + 2]) : 0)
            for k in 0..<4 {
                out.append(k <= n ? alphabet[Int(word >> UInt32(18 - 6 * k) & 0x3F)] : UInt8(ascii: "="))
            }
            i += 3
        }
        return out
    }

    /// What restores a terminal a view may have left in any state: link closed, pen
    /// reset, synchronized output ended, (fullscreen) scroll region reset and the
    /// normal screen back, the cursor shown, a fresh line.
    ///
    /// - Complexity: O(1).
    public static func restoreSequence(fullscreen: Bool) -> [UInt8] {
        var bytes = Array("\u{1B}]8;;\u{1B}\\".utf8) + csi("0m") + csi("?2026l")
        if fullscreen { bytes += csi("r") + csi("?1049l") }
        return bytes + showCursor + [0x0D, 0x0A]
    }
}

/// At most 32 bytes held in place (a pen change's SGR, most under 16): kept and
/// appended without an array's allocation and reference counting.
struct ShortBytes {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0

    init() {}

    /// Nil when `bytes` are more than 32.
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count <= MemoryLayout.size(ofValue: words) else { return nil }
        count = bytes.count
        withUnsafeMutableBytes(of: &words) { raw in bytes.withUnsafeBytes { raw.copyMemory(from: $0) } }
    }

    /// The bytes held.
    var byteCount: Int { count }

    /// Writes all 32 bytes of room at `target` (the first ``byteCount`` are these).
    @inline(__always)
    func store(to target: UnsafeMutableRawPointer) {
        target.storeBytes(of: words, as: (UInt64, UInt64, UInt64, UInt64).self)
    }

    /// - Complexity: O(n) in the bytes.
    func append(to out: inout [UInt8]) {
        var words = words
        withUnsafeBytes(of: &words) { raw in
            raw.withMemoryRebound(to: UInt8.self) { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
