/// One streamed answer as data, for a host that owns its screen: response bytes in;
/// the answer laid out (``answer``), how much of it the pacer reveals
/// (``revealLimit``), typed side events (``onSideEvent``: thinking, tool calls,
/// errors), finished code blocks and the ``ResponseOutcome`` out. It writes
/// nothing anywhere: a presenter draws it (``PanePresenter`` into any rectangle of a
/// ``Frame``), as often as the host likes.
///
/// ```swift
/// let model = AnswerModel(configuration: .init(layout: LayoutSettings(width: 40)))
/// model.onSideEvent = { event in if case .toolCall(let name, _, _, _) = event { print("calls", name) } }
/// model.feed(Array("data: ...".utf8))          // any chunking; SSE or text, detected
/// model.tick(now: model.currentTime)           // the pacer reveals what is due
/// var presenter = PanePresenter()
/// var frame = Frame(width: 80, height: 24), styles = StyleTable()
/// presenter.render(model, into: &frame, area: Rect(top: 0, left: 0, width: 40, height: 23), styles: &styles)
/// ```
///
/// The routing (text after a tool call starts a paragraph, thinking marked or kept
/// aside, errors placed) is ``StreamRenderer``'s, shared. Ending: ``finish()`` ends
/// the input and lets the pacer drain what is left (keep ticking while
/// ``nextFrameTime`` is set); ``interrupt()`` shows everything at once.
///
/// Not `Sendable`: every call changes its state (decoder, document, pacer); one model
/// belongs to the thread or actor that draws it (see MainActorHostTests).
public final class AnswerModel: ResponseRouting {
    public struct Configuration: Sendable {
        /// Width, tab size and width policy (a presenter re-wraps at its area's width).
        public var layout: LayoutSettings
        public var format: ResponseDecoder.Format
        public var maximumEventBytes: Int
        public var limits: HistoryLimits
        /// Markdown options (nil: the text as it arrived).
        public var markdown: MarkdownOptions?
        /// The typewriter pacer (nil: text is revealed as it arrives).
        public var pacing: Pacer.Settings?
        /// Thinking goes into the answer (marked `[thinking]`); else only to ``AnswerModel/onSideEvent``.
        public var showThinking: Bool
        /// The pacer's tick rate (the host's frame rate).
        public var framesPerSecond: Int

        public init(layout: LayoutSettings = LayoutSettings(width: 80), format: ResponseDecoder.Format = .auto,
                    maximumEventBytes: Int = 16 << 20, limits: HistoryLimits = .standard,
                    markdown: MarkdownOptions? = MarkdownOptions(), pacing: Pacer.Settings? = .reading,
                    showThinking: Bool = false, framesPerSecond: Int = 60) {
            self.layout = layout
            self.format = format
            self.maximumEventBytes = maximumEventBytes
            self.limits = limits
            self.markdown = markdown
            self.pacing = pacing
            self.showThinking = showThinking
            self.framesPerSecond = framesPerSecond
        }
    }

    public let configuration: Configuration
    /// The answer laid out: document, layout and bounded history.
    @_spi(Benchmarks) public private(set) var answer: WrappedDocument
    /// Where the revealed text ends (nil: all of it is shown).
    @_spi(Benchmarks) public private(set) var revealLimit: TextPosition?
    /// Called with what the stream says besides the answer, typed, as it is decoded.
    public var onSideEvent: ((SideEvent) -> Void)?
    /// Called with each fenced code block once its block is final, numbered as its
    /// label shows it (markdown only). Set it before the first input.
    public var onCodeBlock: ((CodeBlock) -> Void)?
    /// The outcome, once ``finish()`` or ``interrupt()`` ended the stream.
    public private(set) var outcome: ResponseOutcome?

    var router: ResponseRouter
    private var paced: PacedReveal
    private var codeBlocks = CodeBlockReporter()
    var routedActions: [ResponseRouter.Action] = []
    private let now: () -> Duration
    private var inputEnded = false
    /// Something changed since the last ``tick(now:)``.
    private var dirty = true

    /// A model reading time from `clock` (for the outcome's times and the status).
    public init<C: Clock>(configuration: Configuration, clock: C) where C.Duration == Duration {
        self.configuration = configuration
        let start = clock.now
        let now: () -> Duration = { start.duration(to: clock.now) }
        self.now = now
        paced = PacedReveal(settings: configuration.pacing, frameInterval: .seconds(1) / max(1, configuration.framesPerSecond),
                            limits: configuration.limits)
        answer = WrappedDocument(settings: configuration.layout, limits: configuration.limits, markdown: configuration.markdown)
        let routing = ResponseRouter.Settings(showThinking: configuration.showThinking,
                                              rendersBlocks: configuration.markdown != nil,
                                              thinkingInMarkdown: configuration.showThinking && configuration.markdown != nil)
        router = ResponseRouter(format: configuration.format, maximumEventBytes: configuration.maximumEventBytes,
                                settings: routing, now: now)
    }

    /// A model on the continuous clock.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, clock: ContinuousClock())
    }

    // MARK: - Input

    /// Feeds response bytes in any chunking: decodes them, routes what they hold.
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !inputEnded else { return }
        route { $0.feed(bytes, $1) }
    }

    /// Feeds response bytes (any collection).
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    public func feed<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ feed($0) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { feed($0) }
    }

    /// The input ended: the answer is final and the outcome known; the pacer goes on
    /// revealing the rest (within its drain time) as the host ticks.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    @discardableResult
    public func finish() -> ResponseOutcome {
        end(interrupted: false)
        paced.pacer?.end(at: now())
        return outcome!
    }

    /// Stops before the input ended: what arrived is final and shown at once; the
    /// outcome is ``ResponseOutcome/Ending/interrupted``.
    ///
    /// - Complexity: as ``finish()``.
    @discardableResult
    public func interrupt() -> ResponseOutcome {
        end(interrupted: true)
        paced.pacer?.revealAll()
        revealLimit = nil
        return outcome!
    }

    private func end(interrupted: Bool) {
        guard !inputEnded else { return }
        route { $0.finishInput(interrupted: interrupted, $1) }
        route { $0.closeThinking($1) }
        answer.finish()
        reportCodeBlocks()
        inputEnded = true
        dirty = true
        outcome = router.outcome(interrupted: interrupted, idleTimeout: nil, readError: nil, elapsed: now())
    }

    private func reportCodeBlocks() {
        guard let onCodeBlock else { return }
        for block in codeBlocks.take() { onCodeBlock(block) }
    }

    func perform(_ action: ResponseRouter.Action) {
        switch action {
        case .answer(let text):
            if onCodeBlock != nil && !codeBlocks.isStarted, let renderer = answer.markdown?.renderer {
                codeBlocks.start(shown: renderer)
            }
            answer.append(text, style: StyleID.plain)
            dirty = true
            reportCodeBlocks()
        case .endBlock:
            answer.endBlock()
            reportCodeBlocks()
            dirty = true
        case .event(let event):
            onSideEvent?(event)
        case .resumeText, .side, .message:
            break  // lines for a message channel: a host gets the typed events
        }
    }

    // MARK: - Time

    /// Advances the reveal to `now` (time since the model was made): returns whether
    /// what a presenter draws changed since the last tick.
    ///
    /// - Complexity: O(t) in the text that is not final, plus the units revealed.
    @discardableResult
    public func tick(now: Duration) -> Bool {
        let before = revealLimit
        let changed = dirty
        dirty = false
        answer.updateProvisional()
        let document = answer.document
        let units = paced.units(at: now, in: document)
        revealLimit = paced.limit(after: units, in: document, inputEnded: inputEnded)
        return changed || revealLimit != before
    }

    /// When a ``tick(now:)`` has something to reveal (time since the model was made),
    /// or nil when nothing is waiting.
    public var nextFrameTime: Duration? {
        if dirty { return .zero }
        return paced.pacer?.nextTick
    }

    /// Whether everything that arrived is shown.
    public var isRevealComplete: Bool { paced.isComplete }

    /// Whether the stream ended and everything is shown.
    public var isDone: Bool { inputEnded && !dirty && paced.isComplete && revealLimit == nil }

    /// The clock's time since the model was made.
    public var currentTime: Duration { now() }

    /// Bytes fed so far.
    public var bytesIn: Int { router.decoder.bytesIn }

    /// Whether a thinking block is open (the model is thinking, not answering).
    public var isThinking: Bool { router.thinkingOpen }

    /// Deltas received so far (about tokens).
    public var deltaCount: Int { router.deltaCount }

    // MARK: - Layout

    /// Re-wraps the answer at a new width (presenters call it when their area's width
    /// changed).
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)`; while the pacer holds text back,
    ///   plus rendering markdown's open block again and finding the reveal position in
    ///   it (O(t) in its text).
    public func resize(width: Int) {
        guard width != answer.layout.settings.width else { return }
        var settings = answer.layout.settings
        settings.width = max(1, width)
        answer.resize(to: settings)
        // The open block is rendered again at the new width: the reveal position is
        // found again in its new text before a presenter draws.
        if revealLimit != nil {
            answer.updateProvisional()
            revealLimit = paced.limitAgain(in: answer.document, inputEnded: inputEnded)
        }
        dirty = true
    }

    /// The last `count` lines revealed, for a presenter.
    func tail(_ count: Int) -> [VisualLine] {
        answer.tail(count, revealedTo: revealLimit).lines
    }
}
