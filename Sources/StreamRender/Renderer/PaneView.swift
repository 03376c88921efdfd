/// A rectangle of a screen that shows the tail of one streamed answer, so that
/// several answers (and whatever else a program draws: a status bar, separators)
/// share one ``Frame``, one ``FrameDiff`` and one ``ANSIEncoder``.
///
/// ```swift
/// var styles = StyleTable()                  // the screen's styles
/// var left = PaneView(settings: LayoutSettings(width: 39), height: 23)
/// var right = PaneView(settings: LayoutSettings(width: 40), height: 23, left: 40)
/// left.append("Hello, ")
/// right.append("世界")
/// var screen = Frame(width: 80, height: 24)
/// left.draw(into: &screen, styles: &styles)
/// right.draw(into: &screen, styles: &styles)
/// ```
///
/// The answer is a `WrappedDocument` laid out at the pane's width (markdown
/// optional, history bounded) and drawn as the live views draw it: paragraph
/// prefixes and fills, tabs as spaces, cells cut by a ``CellSplitter`` of the
/// layout's width policy. Its last `height` visual lines fill the rectangle from
/// its top; the rows below them are blank.
///
/// A document interns its own styles, so the ids in two panes' documents collide;
/// ``draw(into:styles:)`` interns each style it draws into the screen's
/// ``StyleTable``, the one the frame is encoded with. A cell that starts with a
/// combining mark is drawn on a space, so that the terminal does not join it to the
/// cell on its left (another pane's). A pane is not paced (there is no reveal
/// position): what was appended is drawn.
///
/// Not `Sendable`: its document's layout shares ICU iterators between copies; a pane
/// belongs to the thread that draws the host's frame.
public struct PaneView {
    /// The answer laid out at the pane's width.
    @_spi(Benchmarks) public private(set) var view: WrappedDocument
    /// The frame row of the pane's first row.
    public var top: Int
    /// The frame column of the pane's first column.
    public var left: Int
    /// Rows of the pane (at least 1).
    public private(set) var height: Int
    private var splitter: CellSplitter

    /// A pane `settings.width` columns wide and `height` rows high whose top left
    /// cell is at `top`, `left` of the frames it draws into.
    /// `markdown`: render the answer as markdown with these options.
    ///
    /// - Complexity: O(1).
    public init(settings: LayoutSettings, height: Int, top: Int = 0, left: Int = 0,
                limits: HistoryLimits = .standard, markdown: MarkdownOptions? = nil) {
        view = WrappedDocument(settings: settings, limits: limits, markdown: markdown)
        self.height = max(1, height)
        self.top = top
        self.left = left
        splitter = CellSplitter(policy: settings.policy)
    }

    /// Columns of the pane.
    public var width: Int { view.layout.settings.width }

    /// Appends answer text (sanitised by the document) in `style`.
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    public mutating func append(_ text: String, style: Style = .plain) {
        view.append(text, style: style)
    }

    /// Ends the answer: what markdown or the layout held back becomes final.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public mutating func finish() {
        view.finish()
    }

    /// Re-wraps at a new width (and policy) and height (``top`` and ``left`` are
    /// plain properties). The next ``draw(into:styles:)`` draws the new rectangle.
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)`.
    public mutating func resize(to settings: LayoutSettings, height: Int) {
        self.height = max(1, height)
        view.resize(to: settings)
        if settings.policy != splitter.policy { splitter = CellSplitter(policy: settings.policy) }
    }

    /// Draws the pane into its rectangle of `frame`: every cell of the rectangle is
    /// written (the tail's lines, blanks below and after them), with its style
    /// interned into `styles`, the table `frame` is encoded with. Cells outside the
    /// frame are dropped; cells outside the rectangle are left alone, except the
    /// other half of a wide cluster that straddles the rectangle's edge, which
    /// ``Frame`` blanks.
    ///
    /// - Complexity: O(W x H) in the pane's cells, plus O(s) in the document's
    ///   styles and, with markdown, the open block's bytes
    ///   (`WrappedDocument.updateProvisional()`).
    public mutating func draw(into frame: inout Frame, styles: inout StyleTable) {
        view.updateProvisional()
        let lines = view.tail(height).lines
        Self.draw(lines, of: view, area: Rect(top: top, left: left, width: width, height: height),
                  splitter: splitter, into: &frame, styles: &styles)
    }

    /// Draws `lines` of `view` into `area` of `frame` (every cell of the area; see
    /// ``draw(into:styles:)``), the text before `limit` only. Shared by the pane
    /// presenter.
    static func draw(_ lines: [VisualLine], of view: WrappedDocument, area: Rect, revealedTo limit: TextPosition? = nil,
                     splitter: CellSplitter, into frame: inout Frame, styles: inout StyleTable) {
        let width = area.width, height = area.height
        guard width > 0 && height > 0 else { return }
        var pane = Frame(width: width, height: height)
        for (k, line) in lines.suffix(height).enumerated() {
            LineDrawer.draw(line, row: k, in: &pane, view: view, splitter: splitter, revealedTo: limit)
        }
        // Each of the document's styles is looked up in the screen's table once.
        let own = view.document.styles
        var ids = [StyleID?](repeating: nil, count: own.count)
        ids[0] = .plain
        for r in 0..<height {
            let row = area.top + r
            guard row >= 0 && row < frame.height else { continue }
            for c in 0..<width {
                let column = area.left + c
                let cell = pane[r, c]
                guard column >= 0 && column < frame.width else { continue }
                if cell.isContinuation {
                    // Written with its wide cluster, unless that is off the frame's left edge.
                    if column == 0 { frame.put(" ", width: 1, row: row, column: 0) }
                    continue
                }
                let k = Int(cell.style.rawValue)
                if ids[k] == nil { ids[k] = styles.intern(own[cell.style]) }
                frame.put(cell.text, width: Int(cell.width), style: ids[k]!, row: row, column: column)
            }
        }
    }
}
