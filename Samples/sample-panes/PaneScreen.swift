import StreamRender

/// Streams side by side on one screen the program owns: each is an `AnswerModel`
/// (decoding, routing, pacing) drawn by a `PanePresenter` into its column of one
/// `Frame`; under each pane a status row the program writes from the model's typed
/// side events (thinking, tool calls, errors); a bar on the last row.
final class PaneScreen {
    struct Stream {
        var name: String
        var bytes: [UInt8]
        var fed = 0
        let model: AnswerModel
        /// What the stream is doing, from its side events; how it ended, at the end.
        var status = "waiting"
    }

    private(set) var streams: [Stream] = []
    private(set) var frame: Frame
    private(set) var styles = StyleTable()
    /// Bytes of each stream that arrive per frame: the network's rate.
    let bytesPerFrame: Int
    var hint = ""
    private var presenter: PanePresenter
    private let splitter = CellSplitter(policy: .grapheme)
    private let rule: StyleID, bar: StyleID, note: StyleID

    init(streams: [(name: String, bytes: [UInt8])], width: Int, height: Int, policy: WidthPolicy = .grapheme,
         theme: MarkdownTheme = .dark, bytesPerFrame: Int = 12, framesPerSecond: Int = 30) {
        frame = Frame(width: max(1, width), height: max(3, height))
        self.bytesPerFrame = max(1, bytesPerFrame)
        presenter = PanePresenter(policy: policy)
        (rule, bar, note) = (styles.intern(Style(attributes: .dim)), styles.intern(Style(attributes: .inverse)),
                             styles.intern(Style(foreground: .yellow)))
        let column = Rect(top: 0, left: 0, width: frame.width, height: 1).columns(streams.count).first?.width ?? 1
        let configuration = AnswerModel.Configuration(layout: LayoutSettings(width: column, policy: policy),
                                                      markdown: MarkdownOptions(theme: theme), framesPerSecond: framesPerSecond)
        for (k, stream) in streams.enumerated() {
            self.streams.append(Stream(name: stream.name, bytes: stream.bytes, model: AnswerModel(configuration: configuration)))
            self.streams[k].model.onSideEvent = { [unowned self] in self.streams[k].status = Self.status(of: $0) ?? self.streams[k].status }
        }
    }

    /// A side event as a status line (nil: no change).
    static func status(of event: SideEvent) -> String? {
        var clean = ControlSanitizer()  // the stream's strings may hold escape sequences
        switch event {
        case .thinking: return "thinking…"
        case .thinkingEnded: return "answering"
        case .toolCall(let name, let arguments, _, _): return clean.sanitize("⚙ \(name) \(arguments)")
        case .toolResult(let type, _, _): return clean.sanitize("⚙ result: \(type)")
        case .error(let type, _, _, _): return clean.sanitize("error: \(type)")
        default: return nil
        }
    }

    var isDone: Bool { streams.allSatisfy(\.model.isDone) }
    var hasFailure: Bool { streams.contains { $0.model.outcome.map { !$0.isComplete } ?? false } }

    /// Each stream gets its next bytes (and ends at its last one); the pacers move to `now`.
    func advance(now: Duration) {
        for k in streams.indices {
            if streams[k].model.outcome == nil {
                let end = min(streams[k].bytes.count, streams[k].fed + bytesPerFrame)
                streams[k].model.feed(streams[k].bytes[streams[k].fed..<end])
                streams[k].fed = end
                if end == streams[k].bytes.count {
                    let outcome = streams[k].model.finish()
                    streams[k].status = outcome.endingMessage ?? "done · \(outcome.deltaCount) deltas"
                }
            }
            streams[k].model.tick(now: now)
        }
    }

    /// The panes, their status rows, the rules between them and the bar, into `frame`.
    func compose() {
        let areas = Rect(top: 0, left: 0, width: frame.width, height: frame.height - 2).columns(streams.count)
        for (stream, area) in zip(streams, areas) {
            presenter.render(stream.model, into: &frame, area: area, styles: &styles)
            frame.write(stream.status, row: frame.height - 2, column: area.left, width: area.width, style: note, splitter: splitter)
            for row in 0..<(frame.height - 1) where area.left + area.width < frame.width {
                frame.put("│", width: 1, style: rule, row: row, column: area.left + area.width)
            }
        }
        let parts = streams.map { "\($0.name) \($0.fed) B\($0.model.isDone ? " ✓" : "")" } + (hint.isEmpty ? [] : [hint])
        frame.write(" " + parts.joined(separator: " │ "), row: frame.height - 1, column: 0, width: frame.width, style: bar,
                    splitter: splitter)
    }

    /// A new screen size: the panes re-wrap at their new widths when next drawn.
    func resize(width: Int, height: Int) {
        frame = Frame(width: max(1, width), height: max(3, height))
    }
}
