/// A W x H grid of cells: what the terminal should show.
///
/// Writing keeps the wide-character contract: a wide cluster never starts in the
/// last column (a blank is written there and the cluster is not placed), and
/// overwriting half of a wide cluster blanks its other half, so a frame never holds a
/// continuation without its head or a head without its continuation.
public struct Frame: Hashable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    private(set) var cells: [Cell]
    /// Rows whose text goes on in the next row by the terminal's own wrap (a long code
    /// line): written as one run, so the terminal marks them wrapped and a selection
    /// copies them as one line.
    private var wrapped: [Bool]
    /// Per row, a column from which every cell is a plain blank (each write past it
    /// moves it on): ``textEnd(row:)`` starts there, not at the row's end. A live
    /// region of short lines was mostly blank cells scanned four times a frame.
    private var blankFrom: [Int32]

    public init(width: Int, height: Int) {
        precondition(width >= 1 && height >= 0)
        self.width = width
        self.height = height
        cells = Array(repeating: .blank, count: width * height)
        wrapped = Array(repeating: false, count: height)
        blankFrom = Array(repeating: 0, count: height)
    }

    /// Frames are equal when they show the same: same size, cells and wrapped rows.
    public static func == (a: Frame, b: Frame) -> Bool {
        a.width == b.width && a.height == b.height && a.wrapped == b.wrapped && a.cells == b.cells
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cells)
        hasher.combine(wrapped)
    }

    /// Records a write of a cell that may not be a plain blank at `row`, `column`.
    @inline(__always)
    private mutating func touch(_ row: Int, _ column: Int) {
        if blankFrom[row] <= column { blankFrom[row] = Int32(column + 1) }
    }

    /// Whether `row`'s text goes on in the next row by the terminal's wrap.
    ///
    /// - Complexity: O(1).
    public func wraps(row: Int) -> Bool { row >= 0 && row < height && wrapped[row] }

    /// Marks `row` as going on in the next row by the terminal's wrap (its text
    /// reaches the last column, or the column before a wide cluster that moved on).
    ///
    /// - Complexity: O(1).
    public mutating func setWraps(row: Int, _ wraps: Bool = true) {
        guard row >= 0 && row + 1 < height else { return }
        wrapped[row] = wraps
    }

    /// The cell at `row`, `column`.
    ///
    /// - Complexity: O(1).
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Puts `text` (one cluster of `width` 1 or 2) at `row`, `column`; returns the
    /// column after it. A wide cluster that would start in the last column is not
    /// placed (the cell is blanked instead) and the column after the row is returned.
    ///
    /// - Complexity: O(1).
    @discardableResult
    public mutating func put(_ text: String, width: Int, style: StyleID = .plain, row: Int, column: Int) -> Int {
        precondition(row >= 0 && row < height && column >= 0 && column < self.width)
        if width == 2 && column == self.width - 1 {
            set(.blank, row, column)
            return self.width
        }
        set(Cell(text, width: width, style: style), row, column)
        if width == 2 { set(.continuation(style), row, column + 1) }
        return column + width
    }

    /// Writes `text` (a status line, a label: sanitised by the caller) into `width`
    /// columns of `row` from `column`, cut by `splitter` where the next cluster does not
    /// fit, the rest of the columns blank, all in `style`. Columns past the frame's
    /// right edge are dropped (a negative `column` starts at 0).
    ///
    /// - Complexity: O(n + width) in the bytes of `text`.
    public mutating func write(_ text: String, row: Int, column: Int, width: Int, style: StyleID = .plain,
                               splitter: CellSplitter) {
        guard row >= 0 && row < height else { return }
        let end = min(column + width, self.width)
        var x = max(0, column)
        for cell in splitter.cells(of: text) {
            guard x + cell.width <= end else { break }
            x = put(cell.text, width: cell.width, style: style, row: row, column: x)
        }
        while x < end { x = put(" ", width: 1, style: style, row: row, column: x) }
    }

    /// Writes `cell` keeping the pairs whole: the other half of a wide cluster it
    /// overwrites becomes a blank.
    private mutating func set(_ cell: Cell, _ row: Int, _ column: Int) {
        touch(row, column)
        let i = row * width + column
        let old = cells[i]
        if old.isContinuation && column > 0 && cell.width != 0 {
            cells[i - 1] = .blank
        }
        if old.width == 2 && column + 1 < width && !(cell.width == 2) {
            cells[i + 1] = .blank
        }
        cells[i] = cell
    }

    /// Marks a plain blank cell as one the terminal may not have: it compares unequal
    /// to every cell a frame draws, so a diff against this frame writes the cell
    /// (a space) instead of moving the cursor over it.
    ///
    /// - Complexity: O(1).
    mutating func markUnwritten(row: Int, column: Int) {
        precondition(self[row, column].isPlainBlank)
        touch(row, column)
        cells[row * width + column] = Cell.unwritten
    }

    /// Marks every cell of `row` as never sent, so that the next diff rewrites the
    /// whole row from its first column.
    ///
    /// - Complexity: O(W).
    mutating func markRowUnwritten(_ row: Int) {
        blankFrom[row] = Int32(width)
        for c in 0..<width { cells[row * width + c] = Cell.unwritten }
    }

    /// The column after the last cell of `row` that is not a plain blank (0 if none).
    ///
    /// - Complexity: O(W).
    func textEnd(row: Int) -> Int {
        var c = Int(blankFrom[row])
        while c > 0 && self[row, c - 1].isPlainBlank { c -= 1 }
        return c
    }

    /// Whether the first `count` cells of row `r` are those of row `r` of `other`
    /// (of the same width).
    ///
    /// - Complexity: O(count).
    func samePrefix(_ r: Int, _ count: Int, as other: Frame) -> Bool {
        guard width == other.width else { return false }
        for c in 0..<min(count, width) where self[r, c] != other[r, c] { return false }
        return true
    }

    /// Blanks a whole row.
    ///
    /// - Complexity: O(t) in the row's cells before its blank bound (at most W).
    public mutating func clear(row: Int) {
        // Past the row's blank bound every cell is blank already.
        let start = row * width, end = start + Int(blankFrom[row])
        cells.withUnsafeMutableBufferPointer { cells in
            for i in start..<end { cells[i] = .blank }
        }
        blankFrom[row] = 0
    }

    /// Makes the frame `width` x `height` and blank, keeping its storage: only the
    /// cells before each row's blank bound are cleared, so a frame reused for the next
    /// one costs its text, not its area (a frame of short lines was mostly blanks made
    /// and destroyed).
    ///
    /// - Complexity: O(t) in the cells written since the last reset, plus W for each row added.
    mutating func reset(width newWidth: Int, height newHeight: Int) {
        guard newWidth == width else {
            self = Frame(width: newWidth, height: newHeight)
            return
        }
        for r in 0..<min(height, newHeight) {
            clear(row: r)
            wrapped[r] = false
        }
        if newHeight < height {
            cells.removeSubrange((newHeight * width)...)
            wrapped.removeSubrange(newHeight...)
            blankFrom.removeSubrange(newHeight...)
        } else if newHeight > height {
            cells.append(contentsOf: repeatElement(.blank, count: (newHeight - height) * width))
            wrapped.append(contentsOf: repeatElement(false, count: newHeight - height))
            blankFrom.append(contentsOf: repeatElement(0, count: newHeight - height))
        }
        height = newHeight
    }

    /// Copies `count` rows of `source` (of the same width) from its row `first` into
    /// this frame's first rows, which must be blank (after ``reset(width:height:)``).
    ///
    /// - Complexity: O(t) in the copied rows' cells before their blank bounds.
    mutating func copyRows(of source: Frame, from first: Int, count: Int) {
        precondition(source.width == width && count <= height && first + count <= source.height)
        cells.withUnsafeMutableBufferPointer { cells in
            source.cells.withUnsafeBufferPointer { from in
                for k in 0..<count {
                    let end = Int(source.blankFrom[first + k])
                    for c in 0..<end { cells[k * width + c] = from[(first + k) * width + c] }
                }
            }
        }
        for k in 0..<count {
            blankFrom[k] = source.blankFrom[first + k]
            wrapped[k] = source.wrapped[first + k]
        }
    }

    /// `height` rows of `source` starting at its row `first`; rows it does not have are
    /// blank. Rows are copied to their blank bounds (what follows is blank in both), so
    /// wide pairs stay whole.
    ///
    /// - Complexity: O(W x height).
    public init(rowsOf source: Frame, from first: Int, height: Int) {
        self.init(width: source.width, height: height)
        let count = max(0, min(height, source.height - first))
        if count > 0 { copyRows(of: source, from: first, count: count) }
    }

    /// The frame's rows moved up by `count` (rows scrolled off the top are lost,
    /// blank rows enter at the bottom): what the terminal shows after scrolling.
    ///
    /// - Complexity: O(W x H).
    public func scrolledUp(by count: Int) -> Frame {
        Frame(rowsOf: self, from: min(max(0, count), height), height: height)
    }

    /// The text of a row (continuations skipped), for tests and debugging.
    public func text(row: Int) -> String {
        var s = ""
        for c in 0..<width where !self[row, c].isContinuation { s += self[row, c].text }
        return s
    }

    /// Checks the wide-character contract (tests call it).
    public func _invariantCheck() {
        #if STREAMRENDER_INVARIANT_CHECKS
        for r in 0..<height {
            for c in Int(blankFrom[r])..<width {
                precondition(self[r, c].isPlainBlank, "text past the row's blank bound")
            }
            for c in 0..<width {
                let cell = self[r, c]
                if cell.width == 2 {
                    precondition(c + 1 < width, "a wide cluster in the last column")
                    precondition(self[r, c + 1].isContinuation, "a wide cluster without its continuation")
                    precondition(self[r, c + 1].style == cell.style, "a continuation in another style")
                }
                if cell.isContinuation {
                    precondition(c > 0 && self[r, c - 1].width == 2, "a continuation without its wide cluster")
                }
            }
        }
        #endif
    }
}
