/// What a layout depends on besides the text: the width in cells, how tabs expand
/// and how clusters are measured.
public struct LayoutSettings: Hashable, Sendable {
    /// Columns per visual line (at least 1).
    public var width: Int
    /// Tabs expand to the next multiple of this many columns (at least 1).
    public var tabSize: Int
    public var policy: WidthPolicy

    public init(width: Int, tabSize: Int = 8, policy: WidthPolicy = .grapheme) {
        precondition(width >= 1, "a layout is at least one column wide")
        precondition(tabSize >= 1, "a tab stop is at least one column")
        self.width = width
        self.tabSize = tabSize
        self.policy = policy
    }

    /// The width of a tab that starts at `column` on a line: to the next tab stop,
    /// cut at the line's end; 0 when the line is full.
    @inline(__always)
    func tabWidth(at column: Int) -> Int {
        min(tabSize - column % tabSize, width - column)
    }

    /// Walks `text[range]`, which starts at `startColumn`, as a line shows it: each
    /// run without tabs as it is (its width from `measure`), each tab as the spaces to
    /// the next tab stop, cut at the edge. `body` gets a run's bytes or a tab's space
    /// count, with the offset in `text` they come from. Returns the column after.
    ///
    /// - Complexity: O(n) in the bytes, plus `measure`.
    func expandingTabs(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, startColumn: Int,
                       measure: (UnsafeBufferPointer<UInt8>) -> Int,
                       _ body: (_ run: UnsafeBufferPointer<UInt8>?, _ spaces: Int, _ origin: Int) -> Void) -> Int {
        var column = startColumn
        var position = range.lowerBound
        while position < range.upperBound {
            if text[position] == 0x09 {
                let spaces = max(0, tabWidth(at: column))
                body(nil, spaces, position)
                column += spaces
                position += 1
                continue
            }
            var end = position
            while end < range.upperBound && text[end] != 0x09 { end += 1 }
            let run = UnsafeBufferPointer(rebasing: text[position..<end])
            column += measure(run)
            body(run, 0, position)
            position = end
        }
        return column
    }
}

/// One line of a layout: a byte range of a paragraph shown on one terminal row.
@_spi(Benchmarks) public struct VisualLine: Hashable, Sendable, CustomStringConvertible {
    /// The paragraph's number in the document.
    public var paragraph: Int
    /// The UTF-8 offset in the paragraph where the line starts.
    public var start: Int { didSet { clearHints() } }
    /// Where the line's shown text ends. Spaces between `end` and the next line's
    /// `start` are the spaces dropped at a wrap (or that did not fit at the end).
    public var end: Int { didSet { clearHints() } }
    /// The width of the shown text in columns (never more than the layout's width).
    public var width: Int { didSet { clearHints() } }
    /// The line is a single cluster wider than the layout; it is shown as a
    /// replacement filling the width (U+FFFD then spaces) instead of overflowing.
    public var isReplacement: Bool
    /// Every scalar of the shown text is a cell of its own whose width all policies
    /// agree on (`SimpleText`), and `width` is their sum: the drawer does not measure
    /// the line again. Set by the layout's simple paths; a change of `start`, `end` or
    /// `width` clears it (a clipped line). A hint, not part of the line's identity
    /// (`==` and `hash(into:)` ignore it).
    var isSimple: Bool {
        get { hints & 1 != 0 }
        set { hints = newValue ? hints | 1 : hints & ~1 }
    }
    /// The cells a terminal of the layout's policy makes of the shown text are its
    /// bytes as they are, and `width` is theirs
    /// (`DisplayWidth.cellsAreBytes(ofCluster:width:policy:startsRow:)` of each cluster):
    /// a view writes them without cutting them again. Set by the one-pass layout of
    /// clusters where a view asks for it; cleared as ``isSimple`` is, and as much a hint.
    var cellsAreBytes: Bool {
        get { hints & 2 != 0 }
        set { hints = newValue ? hints | 2 : hints & ~2 }
    }
    /// ``isSimple`` (bit 0) and ``cellsAreBytes`` (bit 1) in one byte: a line passed
    /// by value stays as small as before the second (a field more slowed plain output
    /// by 0.8%, every line passed through the layout's closures).
    private var hints: UInt8 = 0

    @inline(__always)
    private mutating func clearHints() {
        hints = 0
    }

    public init(paragraph: Int, start: Int, end: Int, width: Int, isReplacement: Bool = false) {
        self.paragraph = paragraph
        self.start = start
        self.end = end
        self.width = width
        self.isReplacement = isReplacement
    }

    init(paragraph: Int, start: Int, end: Int, width: Int, isReplacement: Bool, isSimple: Bool, cellsAreBytes: Bool = false) {
        self.init(paragraph: paragraph, start: start, end: end, width: width, isReplacement: isReplacement)
        hints = (isSimple ? 1 : 0) | (cellsAreBytes ? 2 : 0)
    }

    /// The same line of the same paragraph, as wide (``isSimple`` aside).
    ///
    /// - Complexity: O(1).
    public static func == (l: VisualLine, r: VisualLine) -> Bool {
        l.paragraph == r.paragraph && l.start == r.start && l.end == r.end && l.width == r.width
            && l.isReplacement == r.isReplacement
    }

    /// Hashes what `==` compares.
    ///
    /// - Complexity: O(1).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(paragraph)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(width)
        hasher.combine(isReplacement)
    }

    public var description: String {
        "¶\(paragraph)[\(start)..<\(end)] w\(width)\(isReplacement ? " replacement" : "")"
    }
}

/// A laid-out line without its paragraph number (a paragraph stores its own).
extension VisualLine {
    /// Whether any of the line shows when the text before `limit` is revealed (the
    /// pacer's reveal position): its start is before the limit, or it is the first
    /// line of the paragraph the limit has just entered (shown empty, with its
    /// paragraph's prefix).
    ///
    /// - Complexity: O(1).
    public func isVisible(revealedTo limit: TextPosition) -> Bool {
        let start = TextPosition(paragraph: paragraph, offset: self.start)
        return start < limit || (self.start == 0 && start == limit)
    }

    /// Whether all of the line's text is revealed by `limit`.
    ///
    /// - Complexity: O(1).
    public func isRevealed(to limit: TextPosition) -> Bool {
        TextPosition(paragraph: paragraph, offset: end) <= limit
    }

    /// The line cut at `limit` when the limit falls inside it (its `width` is then
    /// the full line's: drawers measure what they draw).
    ///
    /// - Complexity: O(1).
    public func clipped(revealedTo limit: TextPosition) -> VisualLine {
        guard limit.paragraph == paragraph, limit.offset < end else { return self }
        var line = self
        line.end = max(start, limit.offset)
        return line
    }
}

struct LineRecord: Sendable {
    var start: Int32
    var end: Int32
    var width: Int32
    /// ``VisualLine/isReplacement`` (bit 0) and ``VisualLine/isSimple`` (bit 1) in one
    /// byte: the record stays 13 bytes (a 14th slowed the paragraphs' arrays of lines
    /// by half a percent of plain output). (Not ``VisualLine/cellsAreBytes``: a view
    /// reads it from the lines the layout commits.)
    private var flags: UInt8

    var isReplacement: Bool { flags & 1 != 0 }
    var isSimple: Bool { flags & 2 != 0 }

    init(_ line: VisualLine) {
        start = Int32(line.start)
        end = Int32(line.end)
        width = Int32(line.width)
        flags = (line.isReplacement ? 1 : 0) | (line.isSimple ? 2 : 0)
    }

    func line(paragraph: Int) -> VisualLine {
        VisualLine(paragraph: paragraph, start: Int(start), end: Int(end), width: Int(width), isReplacement: isReplacement,
                   isSimple: isSimple)
    }
}

/// The ICU iterators a layout reuses (opening one per paragraph would dominate).
final class LayoutBreakers {
    let grapheme = ICUBreaker(.character)
    let line = LineBreaker()
}
