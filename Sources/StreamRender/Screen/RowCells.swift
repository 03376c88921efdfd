/// What cells are drawn into: a ``Frame``, or the cells of one row as bytes
/// (``RowCells``).
protocol CellSink {
    /// Columns of a row.
    var width: Int { get }
    /// Whether ``putRun(_:columns:style:row:column:)`` takes runs (else cells come one
    /// at a time through ``put(_:width:style:row:column:)``).
    static var takesRuns: Bool { get }
    /// Puts one cluster of `width` 1 or 2 at `row`, `column`; returns the column after it.
    ///
    /// - Complexity: O(n) in the cluster's bytes.
    mutating func put(_ text: String, width: Int, style: StyleID, row: Int, column: Int) -> Int
    /// Puts one cluster as ``put(_:width:style:row:column:)`` does, given as its UTF-8
    /// bytes (a sink that writes bytes makes no `String` of it).
    ///
    /// - Complexity: O(n) in the cluster's bytes.
    mutating func put(bytes: UnsafeBufferPointer<UInt8>, width: Int, style: StyleID, row: Int, column: Int) -> Int
    /// Puts `text`, cells that each stand alone (none starts with a mark: see
    /// `LineDrawer.standalone`) and end in a space only if they are one, `columns`
    /// wide in all and all of them fitting, in `style` from `column`. False when the
    /// sink takes no runs.
    ///
    /// - Complexity: O(n) in the run's bytes.
    mutating func putRun(_ text: UnsafeBufferPointer<UInt8>, columns: Int, style: StyleID, row: Int, column: Int) -> Bool
    /// Marks `row` as going on in the next row by the terminal's wrap.
    ///
    /// - Complexity: O(1).
    mutating func setWraps(row: Int, _ wraps: Bool)
}

extension Frame: CellSink {
    static var takesRuns: Bool { false }

    /// - Complexity: O(n) in the cluster's bytes.
    mutating func put(bytes: UnsafeBufferPointer<UInt8>, width: Int, style: StyleID, row: Int, column: Int) -> Int {
        put(String(decoding: bytes, as: UTF8.self), width: width, style: style, row: row, column: column)
    }

    /// - Complexity: O(1).
    func putRun(_ text: UnsafeBufferPointer<UInt8>, columns: Int, style: StyleID, row: Int, column: Int) -> Bool {
        false
    }
}

/// The cells of one row of a region the terminal shows nothing of yet, as the bytes
/// they are written with: their UTF-8 in runs of one style, and where the last cell
/// that is not a plain blank ends (what follows is not written, unless the row goes
/// on by the terminal's wrap). A row drawn so is written without a frame, a diff or
/// a `String` per cell (``ANSIEncoder/writeNewRow(_:_:wrapsAbove:styles:into:)``).
struct RowCells: CellSink {
    private(set) var width: Int
    /// The cells' bytes, left to right (a gap between cells drawn apart is spaces).
    private(set) var bytes: [UInt8] = []
    /// Runs of one style: each ends at a byte offset (the last at `bytes.count`).
    private(set) var runs: [(end: Int, style: StyleID)] = []
    /// The column after the last cell.
    private(set) var column = 0
    /// Where the last cell that is not a plain blank ends: byte offset and column.
    private(set) var content = (bytes: 0, column: 0)
    /// The row goes on in the next one by the terminal's wrap.
    var wraps = false
    /// A cell was drawn left of one drawn before (a prefix wider than the indent): the
    /// row must be drawn in a frame, which keeps the later cell.
    private(set) var failed = false

    static var takesRuns: Bool { true }

    init(width: Int) {
        self.width = width
    }

    /// Empties the row (capacity kept) for `width` columns.
    ///
    /// - Complexity: O(1).
    mutating func reset(width: Int) {
        self.width = width
        bytes.removeAll(keepingCapacity: true)
        runs.removeAllKeepingCapacity()
        column = 0
        content = (0, 0)
        wraps = false
        failed = false
    }

    /// The cells of `row` of `frame` up to its text end, and to the end of the row if
    /// it goes on by the terminal's wrap.
    ///
    /// - Complexity: O(W).
    init(row: Int, of frame: Frame) {
        width = frame.width
        take(row: row, of: frame)
    }

    /// Empties the row and puts in it the cells of `row` of `frame` (see ``init(row:of:)``).
    ///
    /// - Complexity: O(W).
    mutating func take(row: Int, of frame: Frame) {
        reset(width: frame.width)
        wraps = frame.wraps(row: row)
        let end = wraps ? frame.width : frame.textEnd(row: row)
        var c = 0
        while c < end {
            let cell = frame[row, c]
            c = put(cell.text, width: Int(cell.width), style: cell.style, row: row, column: c)
        }
    }

    /// Moves to `at` (spaces over a gap); false if that is left of the row's end.
    private mutating func start(at: Int) -> Bool {
        if at < column {
            failed = true
            return false
        }
        if at > column {
            append(repeatElement(0x20, count: at - column), style: .plain)
            column = at
        }
        return true
    }

    private mutating func append(_ text: some Collection<UInt8>, style: StyleID) {
        if text.isEmpty { return }  // (a run of no text would change the pen for nothing)
        bytes.append(contentsOf: text)
        if let last = runs.last, last.style == style {
            runs[runs.count - 1].end = bytes.count
        } else {
            runs.append((bytes.count, style))
        }
    }

    /// - Complexity: O(n) in the cluster's bytes.
    mutating func put(_ text: String, width: Int, style: StyleID, row: Int, column at: Int) -> Int {
        var text = text
        return text.withUTF8 { put(bytes: $0, width: width, style: style, row: row, column: at) }
    }

    /// - Complexity: O(n) in the cluster's bytes.
    mutating func put(bytes text: UnsafeBufferPointer<UInt8>, width: Int, style: StyleID, row: Int, column at: Int) -> Int {
        precondition(at + width <= self.width, "a cell past the row's end")
        guard start(at: at) else { return at + width }
        append(text, style: style)
        column += width
        // (A plain blank, as `Cell.isPlainBlank` says of a string.)
        if !(style == .plain && text.count == 1 && text[0] == 0x20) { content = (bytes.count, column) }
        return column
    }

    /// Takes every run: true even when the row has failed (the run is dropped then).
    ///
    /// - Complexity: O(n) in the run's bytes.
    mutating func putRun(_ text: UnsafeBufferPointer<UInt8>, columns: Int, style: StyleID, row: Int, column at: Int) -> Bool {
        precondition(at + columns <= width, "a run past the row's end")
        guard start(at: at) else { return true }
        append(text, style: style)
        column += columns
        // Trailing spaces of the plain style are blank cells (no cell of a run ends in
        // a space but a space).
        var blanks = 0
        if style == .plain { while blanks < text.count && text[text.count - 1 - blanks] == 0x20 { blanks += 1 } }
        if blanks < text.count { content = (bytes.count - blanks, column - blanks) }
        return true
    }

    /// - Complexity: O(1).
    mutating func setWraps(row: Int, _ wraps: Bool) {
        self.wraps = wraps
    }
}
