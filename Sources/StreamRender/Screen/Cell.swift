/// One terminal cell: a grapheme cluster, its width and its style.
///
/// A wide cluster occupies its cell (``width`` 2) and the next one, a
/// **continuation** cell (``width`` 0, no text) that carries the same style. The
/// cluster is a `String`, which Swift stores inline (no allocation) up to 15 UTF-8
/// bytes: every ASCII character, CJK ideograph and most emoji sequences.
public struct Cell: Hashable, Sendable, CustomStringConvertible {
    /// The cluster shown; empty for a continuation cell.
    public var text: String
    /// 1 or 2 for a cluster, 0 for the continuation of a wide one.
    public var width: UInt8
    public var style: StyleID

    public init(_ text: String, width: Int = 1, style: StyleID = .plain) {
        precondition(width == 1 || width == 2, "a cell holds a cluster of width 1 or 2")
        self.text = text
        self.width = UInt8(width)
        self.style = style
    }

    private init(continuationOf style: StyleID) {
        text = ""
        width = 0
        self.style = style
    }

    /// A space in the default style: what a cleared cell shows.
    public static let blank = Cell(" ")

    /// A cell the terminal was never sent (see ``Frame/markUnwritten(row:column:)``);
    /// never drawn, only compared against.
    static let unwritten = Cell("\u{0}")

    /// The continuation cell of a wide cluster in `style`.
    public static func continuation(_ style: StyleID) -> Cell { Cell(continuationOf: style) }

    public var isContinuation: Bool { width == 0 }
    /// A space in the plain style (what erase-to-end-of-line produces).
    public var isPlainBlank: Bool { Self.isPlainBlank(text, style: style) }

    /// Whether a cell of `text` in `style` is a plain blank (see ``isPlainBlank``).
    ///
    /// - Complexity: O(1).
    static func isPlainBlank(_ text: String, style: StyleID) -> Bool {
        guard style == .plain else { return false }
        if sameStorage(text, blank.text) { return true }
        return text.utf8.count == 1 && text.utf8.first == 0x20
    }

    /// Whether two strings are the same value bit for bit: a small string's bytes are
    /// stored in it, a large one's storage is shared, so equal bits mean equal bytes
    /// (unequal bits prove nothing). Frame diffs compare mostly unchanged cells; this
    /// answers them without reading the bytes.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    static func sameStorage(_ a: String, _ b: String) -> Bool {
        guard MemoryLayout<String>.size == 16 else { return false }
        let x = unsafeBitCast(a, to: (UInt64, UInt64).self), y = unsafeBitCast(b, to: (UInt64, UInt64).self)
        return x.0 == y.0 && x.1 == y.1
    }

    public var description: String { isContinuation ? "▸" : text }

    /// Cells are equal when they send the terminal the same bytes: their clusters
    /// compare byte for byte, not by canonical equivalence (`String`'s `==`, which
    /// normalises text that is not known to be NFC: a frame diff of a row of
    /// combining marks spent a tenth of its time there).
    ///
    /// - Complexity: O(n) in the clusters' bytes.
    public static func == (a: Cell, b: Cell) -> Bool {
        guard a.width == b.width && a.style == b.style else { return false }
        if sameStorage(a.text, b.text) { return true }
        let x = a.text.utf8, y = b.text.utf8
        guard x.count == y.count else { return false }
        // (Most clusters are stored in the string itself: read them in place.)
        if x.count <= 15 { return x.elementsEqual(y) }
        return x.withContiguousStorageIfAvailable { xb in
            y.withContiguousStorageIfAvailable { yb in xb.elementsEqual(yb) }
        }.flatMap { $0 } ?? x.elementsEqual(y)
    }
}
