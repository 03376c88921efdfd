import StreamRender

/// Streams side by side on one screen, composed without a terminal: each stream is
/// decoded (`ResponseDecoder`: SSE or text) into its own `PaneView`, the panes are
/// separated by vertical rules, and a status bar on the last row shows each stream's
/// bytes, frames and state. One `Frame` with one `StyleTable` holds it all; the
/// program diffs and encodes it (see SamplePanes.swift).
struct PaneScreen {
    enum State: Equatable, CustomStringConvertible {
        case streaming, done
        /// The stream reported an error or ended without its terminal event.
        case failed(String)

        var description: String {
            switch self {
            case .streaming: "streaming"
            case .done: "done"
            case .failed(let why): "failed: \(why)"
            }
        }
    }

    struct Stream {
        var name: String
        var bytes: [UInt8]
        /// Bytes fed to the decoder so far.
        var fed = 0
        var decoder = ResponseDecoder(assemblesText: false)
        /// Frames in which the pane was drawn.
        var frames = 0
        var state = State.streaming
        /// Text arrived (or the layout changed) since the pane was last drawn.
        var changed = true
    }

    private(set) var streams: [Stream]
    private(set) var panes: [PaneView] = []
    private(set) var frame: Frame
    /// The styles of `frame` (the panes' styles are interned into it as they draw).
    private(set) var styles = StyleTable()
    /// How many bytes of each stream arrive per frame: the steady rate.
    var bytesPerFrame: Int
    /// Appended to the status bar (e.g. how to quit).
    var hint = "" {
        didSet { statusChanged = true }
    }
    private let policy: WidthPolicy
    private let theme: MarkdownTheme
    private let splitter: CellSplitter
    private let ruleStyle: StyleID
    private let statusStyle: StyleID
    private var statusChanged = true

    init(streams: [(name: String, bytes: [UInt8])], width: Int, height: Int, policy: WidthPolicy = .grapheme,
         theme: MarkdownTheme = .dark, bytesPerFrame: Int = 12) {
        precondition(!streams.isEmpty)
        self.streams = streams.map { Stream(name: $0.name, bytes: $0.bytes) }
        self.policy = policy
        self.theme = theme
        self.bytesPerFrame = max(1, bytesPerFrame)
        splitter = CellSplitter(policy: policy)
        ruleStyle = styles.intern(Style(attributes: .dim))
        statusStyle = styles.intern(Style(attributes: .inverse))
        frame = Frame(width: max(1, width), height: max(1, height))
        panes = Self.rectangles(count: streams.count, width: frame.width, height: frame.height).map {
            PaneView(settings: LayoutSettings(width: $0.width, policy: policy), height: $0.height, left: $0.left,
                     markdown: MarkdownOptions(theme: theme))
        }
    }

    /// Whether every stream has ended.
    var isDone: Bool { streams.allSatisfy { $0.state != .streaming } }

    /// Whether a stream failed.
    var hasFailure: Bool { streams.contains { if case .failed = $0.state { true } else { false } } }

    /// The panes' rectangles: equal widths (the last takes what is left) with a rule
    /// column between neighbours, every row but the status bar's.
    static func rectangles(count: Int, width: Int, height: Int) -> [(left: Int, width: Int, height: Int)] {
        let each = max(1, (width - (count - 1)) / count)
        return (0..<count).map { k in
            let left = k * (each + 1)
            return (left, k == count - 1 ? max(1, width - left) : each, max(1, height - 1))
        }
    }

    // MARK: - Input

    /// Feeds each stream still streaming its next `bytesPerFrame` bytes; a stream that
    /// reaches its end is finished (done, or failed if it was cut short or reported
    /// an error).
    ///
    /// - Complexity: O(b + c) per stream in the bytes fed and its current line.
    mutating func advance() {
        for k in streams.indices where streams[k].state == .streaming {
            let end = min(streams[k].bytes.count, streams[k].fed + bytesPerFrame)
            let slice = streams[k].bytes[streams[k].fed..<end]
            var outputs: [ResponseDecoder.Output] = []
            streams[k].decoder.feed(slice) { outputs.append($0) }
            if end == streams[k].bytes.count { streams[k].decoder.finish { outputs.append($0) } }
            var failure: String?
            for output in outputs { route(output, to: k, failure: &failure) }
            streams[k].fed = end
            streams[k].changed = true
            // The stream ends at its last byte, or at an error event.
            if end == streams[k].bytes.count || failure != nil {
                panes[k].finish()
                if failure == nil && !streams[k].decoder.isComplete { failure = "truncated" }
                streams[k].state = failure.map { .failed($0) } ?? .done
            }
            statusChanged = true
        }
    }

    /// Answer text goes into the pane; an error event or undecodable input is a failure.
    private mutating func route(_ output: ResponseDecoder.Output, to k: Int, failure: inout String?) {
        switch output {
        case .event(.delta(_, .text, let text)), .event(.delta(_, .refusal, let text)):
            panes[k].append(text)
        case .event(.error(let type, _)):
            failure = failure ?? type
        case .diagnostic(let d) where d.kind != .truncatedEvent:
            failure = failure ?? "invalid input"
        default:
            break  // thinking, tool calls, pings, usage
        }
    }

    // MARK: - Drawing

    /// Draws what changed into ``frame``: panes that received text, and the status bar.
    ///
    /// - Complexity: O(W x H) in the changed panes' cells plus O(W) for the status bar.
    mutating func compose() {
        for k in panes.indices where streams[k].changed {
            panes[k].draw(into: &frame, styles: &styles)
            streams[k].frames += 1
            streams[k].changed = false
        }
        for pane in panes.dropLast() where pane.left + pane.width < frame.width {
            for row in 0..<min(pane.height, frame.height) {
                frame.put("│", width: 1, style: ruleStyle, row: row, column: pane.left + pane.width)
            }
        }
        if statusChanged, frame.height > 1 {
            drawStatus()
            statusChanged = false
        }
    }

    /// The status bar's text: each stream's name, bytes, frames and state.
    var status: String {
        let parts = streams.map { "\($0.name) \($0.fed) B · \($0.frames) frame\($0.frames == 1 ? "" : "s") · \($0.state)" }
        return " " + parts.joined(separator: " │ ") + (hint.isEmpty ? "" : " │ " + hint)
    }

    private mutating func drawStatus() {
        let row = frame.height - 1
        var column = 0
        for cell in splitter.cells(of: status) where column + cell.width <= frame.width {
            column = frame.put(cell.text, width: cell.width, style: statusStyle, row: row, column: column)
        }
        while column < frame.width {
            column = frame.put(" ", width: 1, style: statusStyle, row: row, column: column)
        }
    }

    /// A new screen size: the panes are re-wrapped at their new widths and everything
    /// is drawn again.
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)` per pane.
    mutating func resize(width: Int, height: Int) {
        frame = Frame(width: max(1, width), height: max(1, height))
        for (k, rectangle) in Self.rectangles(count: panes.count, width: frame.width, height: frame.height).enumerated() {
            panes[k].resize(to: LayoutSettings(width: rectangle.width, policy: policy), height: rectangle.height)
            panes[k].left = rectangle.left
            streams[k].changed = true
        }
        statusChanged = true
    }
}
