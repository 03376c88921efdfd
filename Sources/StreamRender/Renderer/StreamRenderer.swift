#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole pipeline behind one object: response bytes (SSE or text, detected) in,
/// terminal bytes out to a ``RenderSink``.
///
/// It owns decoding, event routing (answer, thinking, tool calls, refusals, errors,
/// stop reason, usage), the document and its view, and the frame clock. The core is
/// synchronous and has no global state, so several renderers run side by side:
///
/// - ``feed(_:)-(UnsafeBufferPointer<UInt8>)`` decodes bytes and lays the text out
///   (plain output is written at once: pipes are never paced);
/// - ``tick(now:)`` draws a frame of a live view when something changed and the
///   frame clock allows one (at most ``Configuration/framesPerSecond``);
///   ``nextFrameTime`` says when the next tick has work;
/// - ``resize(width:height:)`` re-wraps and repaints at once;
/// - ``finish()`` ends the stream and returns its ``Outcome``.
///
/// ``render(_:)`` is the asynchronous layer over any `AsyncSequence` of bytes.
/// Time is read from the clock given at creation (a test clock in tests), as a
/// `Duration` since the renderer was made.
///
/// Not `Sendable`: every call changes its state (decoder, document, view, clock); drive
/// one renderer from one thread or task (several renderers may run side by side, with
/// no shared state).
public final class StreamRenderer: ResponseRouting {
    /// What a renderer does, grouped by concern: where it writes (``output``, the
    /// terminal's ``capabilities``), how it lays out (``layout``), what it reads
    /// (``input``), what it shows of the answer (``content``), how plain output and the
    /// live views behave (``plainText``, ``live``), how much history it keeps
    /// (``limits``). Each group's fields are also reachable directly
    /// (`configuration.height` is `configuration.live.height`).
    /// ``forTerminal(_:environment:choices:)`` fills one in from a terminal and a user's choices.
    public struct Configuration: Sendable {
        public enum Output: String, Sendable, CaseIterable {
            /// Final lines into the terminal's scrollback, the live tail redrawn.
            case inline
            /// The alternate screen, following the tail.
            case fullscreen
            /// Text lines, never an escape sequence (pipes, dumb terminals).
            case plain
        }

        /// What the renderer reads.
        public struct Input: Hashable, Sendable {
            public var format: ResponseDecoder.Format
            /// An event (or line) larger than this is reported and skipped.
            public var maximumEventBytes: Int
            /// How messages name that limit (the CLI says `--max-event-bytes`).
            public var eventLimitName: String

            public init(format: ResponseDecoder.Format = .auto, maximumEventBytes: Int = 16 << 20,
                        eventLimitName: String = "maximumEventBytes") {
                self.format = format
                self.maximumEventBytes = maximumEventBytes
                self.eventLimitName = eventLimitName
            }
        }

        /// What is shown of the answer.
        public struct Content: Hashable, Sendable {
            /// Render the answer as markdown (headings, lists, code blocks, tables...);
            /// false shows the text as it arrived.
            public var markdown: Bool
            /// The markdown styles.
            public var theme: MarkdownTheme
            /// Thinking goes into the answer (marked `[thinking]`) instead of the messages.
            public var showThinking: Bool
            /// LaTeX math drawn with Unicode (``MathText``); false shows it as written.
            public var math: Bool

            public init(markdown: Bool = true, theme: MarkdownTheme = .dark, showThinking: Bool = false, math: Bool = true) {
                self.markdown = markdown
                self.theme = theme
                self.showThinking = showThinking
                self.math = math
            }
        }

        /// Plain output (pipes, dumb terminals).
        public struct PlainText: Hashable, Sendable {
            /// False prints the text exactly as it arrived (sanitised), without wrapping.
            public var wraps: Bool
            /// Lines in their styles (SGR for the capabilities' colours), without cursor
            /// movement: the `--color always` into a pipe convention (`| less -R`). Links
            /// stay `text (url)`: a pager or a file shows no OSC 8.
            public var styles: Bool

            public init(wraps: Bool = true, styles: Bool = false) {
                self.wraps = wraps
                self.styles = styles
            }
        }

        /// The live views (inline, fullscreen).
        public struct Live: Hashable, Sendable {
            /// Rows of the live views.
            public var height: Int
            /// The frame clock's limit.
            public var framesPerSecond: Int
            /// The typewriter pacer (nil: text is shown as it arrives).
            public var pacing: Pacer.Settings?
            /// The inline view shows a one-line status below the answer while it streams:
            /// a spinner until the first text and during stalls, the elapsed time and the
            /// deltas (about tokens) a second. It disappears at the end. It animates, so
            /// the renderer then wants a frame about every 100 ms until it ends.
            public var showsStatus: Bool

            public init(height: Int = 24, framesPerSecond: Int = 60, pacing: Pacer.Settings? = .reading,
                        showsStatus: Bool = false) {
                self.height = height
                self.framesPerSecond = framesPerSecond
                self.pacing = pacing
                self.showsStatus = showsStatus
            }
        }

        public var output: Output
        /// Width, tab size and width policy.
        public var layout: LayoutSettings
        public var input: Input
        public var content: Content
        public var plainText: PlainText
        public var live: Live
        public var limits: HistoryLimits
        public var capabilities: TerminalCapabilities
        /// At the end, a line feed is added when the output does not end with one
        /// (on a terminal, so the shell's prompt starts on its own line).
        public var endsOnFreshLine: Bool

        public init(output: Output = .inline, layout: LayoutSettings = LayoutSettings(width: 80), input: Input = Input(),
                    content: Content = Content(), plainText: PlainText = PlainText(), live: Live = Live(),
                    limits: HistoryLimits = .standard, capabilities: TerminalCapabilities = TerminalCapabilities(),
                    endsOnFreshLine: Bool = false) {
            self.output = output
            self.layout = layout
            self.input = input
            self.content = content
            self.plainText = plainText
            self.live = live
            self.limits = limits
            self.capabilities = capabilities
            self.endsOnFreshLine = endsOnFreshLine
        }

        // The groups' fields, directly.
        public var format: ResponseDecoder.Format { get { input.format } set { input.format = newValue } }
        public var maximumEventBytes: Int { get { input.maximumEventBytes } set { input.maximumEventBytes = newValue } }
        public var eventLimitName: String { get { input.eventLimitName } set { input.eventLimitName = newValue } }
        public var markdown: Bool { get { content.markdown } set { content.markdown = newValue } }
        public var theme: MarkdownTheme { get { content.theme } set { content.theme = newValue } }
        public var showThinking: Bool { get { content.showThinking } set { content.showThinking = newValue } }
        public var math: Bool { get { content.math } set { content.math = newValue } }
        public var wrapsPlainText: Bool { get { plainText.wraps } set { plainText.wraps = newValue } }
        public var stylesPlainText: Bool { get { plainText.styles } set { plainText.styles = newValue } }
        public var height: Int { get { live.height } set { live.height = newValue } }
        public var framesPerSecond: Int { get { live.framesPerSecond } set { live.framesPerSecond = newValue } }
        public var pacing: Pacer.Settings? { get { live.pacing } set { live.pacing = newValue } }
        public var showsStatus: Bool { get { live.showsStatus } set { live.showsStatus = newValue } }
    }

    /// How a stream ended (the name the renderer's API has always used).
    public typealias Outcome = ResponseOutcome

    public let configuration: Configuration
    public let sink: any RenderSink
    /// Decoding and routing (shared with ``AnswerModel``).
    var router: ResponseRouter
    /// The view, mutated in place (never copied out and back).
    private var live: any LiveView
    private var out: [UInt8] = []
    private let now: () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void
    /// On the real clocks, ``finish()`` waits out the pacer's drain (nil: a test clock).
    private let blockingSleep: ((Duration) -> Void)?
    private let frameInterval: Duration
    private var height: Int

    // The frame clock.
    private var lastFrame: Duration?
    private var dirty = false
    private var cursorHidden = false
    private var ended = false
    private var lastByteWritten: UInt8?

    // Messages wait here while a live view owns the screen, each until the text that
    // came before it is revealed (`after`: the answer's units when it arrived).
    // `at`: where the document ended then (the fullscreen view prints them there at the end).
    private var pendingMessages: [(text: String, kind: RenderMessageKind, after: Int, at: TextPosition?)] = []

    // The pacer (live views only) and where its counts fall in the document.
    private var paced: PacedReveal

    /// Called with each fenced code block of the answer (in lists and quotes too) once
    /// its block is final, numbered as its label shows it; nil: code is not collected.
    /// Set it before the first input.
    public var onCodeBlock: ((CodeBlock) -> Void)?
    /// Called with what the stream says besides the answer (thinking, tool calls and
    /// results, errors, problems with the input), typed, as it is decoded; the same
    /// things are also written to the sink as message lines.
    public var onSideEvent: ((SideEvent) -> Void)?
    private var codeBlocks = CodeBlockReporter()
    private var inputEnded = false

    var routedActions: [ResponseRouter.Action] = []

    /// A renderer reading time from `clock`.
    public init<C: Clock>(configuration: Configuration, sink: any RenderSink, clock: C) where C.Duration == Duration {
        self.configuration = configuration
        self.sink = sink
        let start = clock.now
        let now: () -> Duration = { start.duration(to: clock.now) }
        self.now = now
        sleep = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
        if C.self == ContinuousClock.self || C.self == SuspendingClock.self {
            blockingSleep = { duration in
                guard duration > .zero else { return }
                let (seconds, attoseconds) = duration.components
                var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
                var left = timespec()
                while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
            }
        } else {
            blockingSleep = nil
        }
        frameInterval = .seconds(1) / max(1, configuration.framesPerSecond)
        height = max(1, configuration.height)
        paced = PacedReveal(settings: configuration.output == .plain ? nil : configuration.pacing,
                            frameInterval: frameInterval, limits: configuration.limits)
        let routing = ResponseRouter.Settings(
            showThinking: configuration.showThinking,
            // The answer is rendered in blocks (markdown, wrapped): a text block's end ends one.
            rendersBlocks: configuration.markdown && (configuration.output != .plain || configuration.wrapsPlainText),
            thinkingInMarkdown: configuration.showThinking && configuration.markdown && configuration.wrapsPlainText,
            eventLimitName: configuration.eventLimitName)
        router = ResponseRouter(format: configuration.format, maximumEventBytes: configuration.maximumEventBytes,
                                settings: routing, now: now)
        let settings = configuration.layout
        var markdown: MarkdownOptions?
        if configuration.markdown {
            // The inline view lets the terminal wrap long code lines (they copy as one line).
            // Plain text without styles has no use for code's colours (its lexing was a
            // tenth of plain output of LLM answers).
            markdown = MarkdownOptions(theme: configuration.theme,
                                       hyperlinks: configuration.output != .plain && configuration.capabilities.hyperlinks,
                                       math: configuration.math, codeWrapsLikeTerminal: configuration.output == .inline,
                                       highlightsCode: configuration.output != .plain || configuration.stylesPlainText)
        }
        switch configuration.output {
        case .plain:
            live = PlainView(settings: settings, wraps: configuration.wrapsPlainText, limits: configuration.limits,
                             markdown: markdown,
                             pen: configuration.stylesPlainText ? SGRPen(capabilities: configuration.capabilities.withoutHyperlinks) : nil)
        case .inline:
            live = InlineView(settings: settings, height: configuration.height, capabilities: configuration.capabilities,
                              limits: configuration.limits, markdown: markdown)
        case .fullscreen:
            live = FullscreenView(settings: settings, height: configuration.height,
                                  capabilities: configuration.capabilities, limits: configuration.limits,
                                  markdown: markdown)
        }
    }

    /// A renderer on the continuous clock.
    public convenience init(configuration: Configuration, sink: any RenderSink) {
        self.init(configuration: configuration, sink: sink, clock: ContinuousClock())
    }

    // MARK: - Input

    /// Feeds response bytes in any chunking: decodes them and lays out their text.
    /// Plain output is written at once; a live view draws on the next ``tick(now:)``.
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    public func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !ended else { return }
        route { $0.feed(bytes, $1) }
        if !live.isPaced { drawFrame() } else if !pendingMessages.isEmpty { dirty = true }
    }

    /// Feeds response bytes (any collection).
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    public func feed<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ feed($0) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { feed($0) }
    }

    // MARK: - Frames

    /// When the next ``tick(now:)`` has a frame to draw (time since the renderer was
    /// made), or nil when nothing changed: an idle renderer needs no ticks.
    public var nextFrameTime: Duration? {
        guard !ended else { return nil }
        // A view without a pacer holding many final lines writes them now, not at the
        // clock's next frame: a file read at full speed made half a megabyte of answer
        // final per frame, and the history kept for it and the frame's bytes were most
        // of the live view's memory (first touching those pages cost a 1 MiB answer a
        // tenth of its CPU time).
        let holdsMany = paced.pacer == nil && live.unwrittenFinalLines >= Self.finalLinesWorthAFrame
        let earliest = holdsMany ? .zero : lastFrame.map { $0 + frameInterval } ?? .zero
        var due: Duration? = dirty ? earliest : nil
        if let tick = paced.pacer?.nextTick { due = min(due ?? .seconds(Int64.max / 2), max(tick, earliest)) }
        if showsStatus {
            // Animated: from the start (the spinner shows before the first text).
            let next = lastFrame.map { max(earliest, $0 + Self.statusInterval) } ?? .zero
            due = min(due ?? next, next)
        }
        return due
    }

    /// Final lines an unpaced view holds before it draws a frame without waiting for
    /// the frame clock (see ``nextFrameTime``).
    static let finalLinesWorthAFrame = 1024

    /// Whether everything that arrived is shown (the pacer has no backlog).
    public var isRevealComplete: Bool { paced.isComplete }

    /// Units (grapheme clusters and paragraph breaks of the answer as shown) received
    /// and revealed so far by the pacer; nil without one.
    public var revealProgress: (received: Int, revealed: Int)? {
        paced.pacer.map { ($0.received, $0.revealed) }
    }

    /// Draws a frame if something changed and the frame clock allows one at `now`
    /// (time since the renderer was made). Returns whether it drew.
    ///
    /// - Complexity: O(W x H) for the diff plus the bytes written.
    @discardableResult
    public func tick(now: Duration) -> Bool {
        guard let due = nextFrameTime, now >= due else { return false }
        drawFrame(at: now)
        return true
    }

    /// ``tick(now:)`` at the clock's time.
    @discardableResult
    public func tick() -> Bool { tick(now: now()) }

    /// The terminal changed size: re-wraps and repaints at once. `screenRows`: the
    /// terminal's rows, when the view is asked to be shorter (nil: `height`).
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)`, plus finding the reveal position
    ///   again in markdown's open block (O(t) in its text), plus one frame.
    public func resize(width: Int, height: Int, screenRows: Int? = nil) {
        guard !ended, configuration.output != .plain else { return }
        var settings = live.view.layout.settings
        settings.width = max(1, width)
        self.height = max(1, height)
        live.relayout(to: settings, height: self.height, screenRows: screenRows, into: &out)
        // The open block is rendered again at the new width: the reveal position is
        // found again in its new text before the frame draws up to it.
        if live.revealLimit != nil {
            live.updateProvisional()
            live.revealLimit = paced.limitAgain(in: live.view.document, inputEnded: inputEnded)
        }
        live.frame(into: &out)
        flushOut()
        lastFrame = now()
    }

    /// Gives the normal screen back (before the process stops on Ctrl-Z): the live
    /// view is cleared or left, the cursor shown. The next frame draws it again.
    ///
    /// - Complexity: O(W x H).
    public func suspend() {
        guard !ended, live.isPaced else { return }
        live.suspend(into: &out)
        showCursor()
        flushOut()
        dirty = true
    }

    private func drawFrame(at time: Duration? = nil) {
        let time = live.isPaced ? time ?? now() : .zero
        if live.isPaced {
            if !cursorHidden {
                out.append(contentsOf: ANSIEncoder.hideCursor)
                cursorHidden = true
            }
            advanceReveal(at: time)
            if configuration.showsStatus { live.status = showsStatus ? statusLine(at: time) : nil }
        }
        live.frame(into: &out)
        // Messages go out once the text before them is shown: the region is cleared
        // for them and drawn again below.
        if live.isPaced, live.showsMessagesBetweenFrames, dueMessages.contains(where: { $0.text.hasSuffix("\n") }) {
            live.suspend(into: &out)
            flushOut()
            releaseMessages(wholeLinesOnly: true, upTo: revealedUnits)
            live.frame(into: &out)
        }
        flushOut()
        dirty = false
        if live.isPaced { lastFrame = time }
    }

    /// The pacer learns what there is to show and says how much is revealed; the view
    /// is told where that ends. Messages (thinking, tool calls) that arrived before the
    /// end of what this frame shows go out first, each where it arrived: the text
    /// before it is drawn, the region cleared, the message written (so text that came
    /// after a message is never drawn, nor put in the scrollback, before it).
    private func advanceReveal(at time: Duration) {
        guard paced.pacer != nil || pendingMessages.contains(where: { $0.text.hasSuffix("\n") }) else { return }
        live.updateProvisional()
        let document = live.view.document
        let units = paced.units(at: time, in: document)
        releaseMessagesInPlace(before: units, in: document)
        live.revealLimit = paced.limit(after: units, in: document, inputEnded: inputEnded)
    }

    /// Writes each waiting message that arrived before `units` units of the answer
    /// where it arrived: the text before it drawn (final lines into the scrollback),
    /// the live region cleared, the message written.
    private func releaseMessagesInPlace(before units: Int, in document: StyledDocument) {
        guard live.showsMessagesBetweenFrames else { return }
        while let next = pendingMessages.first, next.after < units, next.text.hasSuffix("\n") {
            live.revealLimit = paced.tracker.position(after: next.after, wholeWords: false, in: document).0
            live.frame(into: &out)
            live.suspend(into: &out)
            flushOut()
            releaseMessages(wholeLinesOnly: true, upTo: next.after)
        }
    }

    /// How often an animated status line is redrawn.
    static let statusInterval = Duration.milliseconds(100)

    private var showsStatus: Bool { configuration.showsStatus && configuration.output == .inline && !inputEnded }

    /// The status line at `time`: a spinner before the first text and when none came
    /// for half a second; the elapsed time and the deltas a second since the first.
    private func statusLine(at time: Duration) -> String {
        let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        let spin = spinner[Int(time / Self.statusInterval) % spinner.count]
        func seconds(_ d: Duration) -> String {
            let tenths = Int(d / .milliseconds(100))
            return "\(tenths / 10).\(tenths % 10) s"
        }
        guard let firstText = router.firstText else {
            return "\(spin) \(router.thinkingOpen ? "thinking" : "waiting for the answer") · \(seconds(time))"
        }
        let streaming = time - firstText
        let rate = streaming > .milliseconds(200) ? Int((Double(router.deltaCount) / (streaming / .seconds(1))).rounded()) : nil
        let stalled = router.lastText.map { time - $0 > .milliseconds(500) } ?? false
        return (stalled ? "\(spin) " : "") + seconds(time) + (rate.map { " · \($0) tokens/s" } ?? "")
    }

    /// Units revealed (all of them without a pacer).
    private var revealedUnits: Int {
        guard let pacer = paced.pacer else { return .max }
        return pacer.backlog == 0 ? .max : pacer.revealed
    }

    /// The waiting messages whose text before them is shown.
    private var dueMessages: ArraySlice<(text: String, kind: RenderMessageKind, after: Int, at: TextPosition?)> {
        let units = revealedUnits
        return pendingMessages.prefix { $0.after <= units }
    }

    private func flushOut() {
        guard !out.isEmpty else { return }
        lastByteWritten = out.last
        out.withUnsafeBufferPointer { sink.write($0) }
        out.removeAll(keepingCapacity: true)
    }

    private func showCursor() {
        guard cursorHidden else { return }
        out.append(contentsOf: ANSIEncoder.showCursor)
        cursorHidden = false
    }

    // MARK: - Messages

    private func message(_ text: String, _ kind: RenderMessageKind, afterAnswer: Bool = false) {
        if !live.isPaced && kind == .side && afterAnswer && !router.settings.rendersBlocks {
            // Plain text output may still hold the end of the line before it: the side
            // text waits for the next text block, or the end, so standard error and
            // output interleave in order. (Markdown's open block was printed when the
            // text block ended.)
            pendingMessages.append((text, kind, 0, nil))
            return
        }
        if !live.isPaced {
            live.frame(into: &out)  // the text that came before the message goes first
            flushOut()
            sink.writeMessage(text, kind: kind)
            return
        }
        if kind != .side, var printer = sidePrinter {
            // Side text still held back for wrapping goes first: a warning or an error
            // never lands inside a thinking line.
            let rest = printer.finish()
            sidePrinter = nil
            if !rest.isEmpty { message(rest, .side) }
        }
        // Where in the answer it arrived (in units), so that it is shown there.
        live.updateProvisional()
        let after = paced.tracker.total(in: live.view.document)
        pendingMessages.append((text, kind, after, live.view.document.endPosition))
        dirty = true
    }

    /// Writes the waiting messages that came after no more than `units` units of the
    /// answer; with `wholeLinesOnly`, a side text that does not end its line yet stays
    /// (the view must not be drawn into the middle of a line).
    private func releaseMessages(wholeLinesOnly: Bool, upTo units: Int = .max) {
        var count = pendingMessages.prefix { $0.after <= units }.count
        if wholeLinesOnly {
            count = pendingMessages[..<count].lastIndex { $0.text.hasSuffix("\n") }.map { $0 + 1 } ?? 0
        }
        for m in pendingMessages[..<count] { sink.writeMessage(m.text, kind: m.kind) }
        pendingMessages.removeFirst(count)
    }

    // MARK: - The end

    /// Ends the stream: the input ends, the pacer reveals what it still holds (on the
    /// real clocks, frames drawn over at most its drain time, 200 ms by default; on
    /// another clock, at once), then the view ends: everything held back is written,
    /// the terminal left with the cursor on a fresh line, waiting messages written.
    /// The one way to end a stream besides ``interrupt()``; a host with a frame loop of
    /// its own may call ``endInput()`` and tick until ``nextFrameTime`` is nil first
    /// (so signals are handled during the drain), then ``finish()`` has nothing to wait for.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail, plus the
    ///   drain's frames and the last frame (fullscreen: O(n) to write the answer into
    ///   the normal screen).
    @discardableResult
    public func finish() -> Outcome {
        guard !ended else { return outcome() }
        endInput()
        if let blockingSleep, live.isPaced, let drain = paced.pacer?.settings.drainTime {
            // Bounded whatever the frame clock says: the drain time and a second more.
            let limit = now() + drain + .seconds(1)
            while let due = nextFrameTime, now() < limit {
                blockingSleep(min(due, limit) - now())
                tick()
            }
        }
        return end(interrupted: false)
    }

    /// The input ended: what the decoder holds is decoded and the answer finished,
    /// but the view stays open while the pacer reveals the rest (within its drain
    /// time). Keep ticking until ``nextFrameTime`` is nil (``isRevealComplete``), then
    /// call ``finish()``. Without a pacer it only saves ``finish()`` that work.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    public func endInput() {
        guard !ended, !inputEnded else { return }
        finishDecoder()
        route { $0.closeThinking($1) }
        finishAnswer()
        paced.pacer?.end(at: now())
        dirty = true
    }

    private func finishAnswer() {
        live.finish()
        inputEnded = true
        codeBlocks.endBlock()
        reportCodeBlocks()
    }

    private func finishDecoder(interrupted: Bool = false) {
        route { $0.finishInput(interrupted: interrupted, $1) }
    }

    /// Stops before the input ended (Ctrl-C, cancellation): what arrived is shown and
    /// the terminal restored, as ``finish()`` does; the outcome is
    /// ``Outcome/Ending/interrupted``.
    ///
    /// - Complexity: as ``finish()``.
    @discardableResult
    public func interrupt() -> Outcome {
        guard !ended else { return outcome() }
        // Bytes the decoder holds (a format not yet detected, text still arriving) are
        // shown too; an event cut short by the interrupt is not worth a warning.
        if !inputEnded { finishDecoder(interrupted: true) }
        return end(interrupted: true)
    }

    /// Reading the input failed: what arrived is shown; the outcome is
    /// ``Outcome/Ending/readFailed(message:)``.
    ///
    /// - Complexity: as ``finish()``.
    @discardableResult
    public func finish(readError message: String) -> Outcome {
        guard !ended else { return outcome() }
        readError = message
        if !inputEnded { finishDecoder() }
        return end(interrupted: false)
    }

    private var readError: String?
    private var wasInterrupted = false
    private var idleTimeout: Duration?

    /// The input stalled for longer than `idle` (the caller's timeout): what arrived is
    /// shown; the outcome is ``Outcome/Ending/timedOut(idle:)``.
    ///
    /// - Complexity: as ``finish()``.
    @discardableResult
    public func finish(idleTimeout idle: Duration) -> Outcome {
        guard !ended else { return outcome() }
        idleTimeout = idle
        if !inputEnded { finishDecoder() }
        return end(interrupted: false)
    }

    private func end(interrupted: Bool) -> Outcome {
        wasInterrupted = interrupted
        if !inputEnded {
            route { $0.closeThinking($1) }
            finishAnswer()
        }
        // Whatever the pacer still holds is shown now; the status line goes. Messages
        // still waiting go where they arrived.
        paced.pacer?.revealAll()
        live.status = nil
        if live.isPaced && !pendingMessages.isEmpty {
            live.updateProvisional()
            releaseMessagesInPlace(before: .max, in: live.view.document)
        }
        live.revealLimit = nil
        live.frame(into: &out)
        var printed = 0
        live.end(into: &out, messagesAt: pendingMessages.prefix { $0.at != nil }.map { $0.at! }) { upTo, bytes in
            // The fullscreen view prints the answer into the normal screen: each message
            // between the lines it came between.
            lastByteWritten = bytes.last ?? lastByteWritten
            bytes.withUnsafeBufferPointer { sink.write($0) }
            bytes.removeAll(keepingCapacity: true)
            for m in pendingMessages[printed..<upTo] { sink.writeMessage(m.text, kind: m.kind) }
            printed = upTo
        }
        pendingMessages.removeFirst(printed)
        // The live views leave the cursor on a fresh line; plain text may not end one.
        if configuration.endsOnFreshLine, !live.isPaced, let last = out.last ?? lastByteWritten, last != 0x0A {
            out.append(0x0A)  // the shell's prompt starts on its own line
        }
        showCursor()
        flushOut()
        ended = true
        let result = outcome()
        switch result.ending {
        case .truncated, .empty, .readFailed, .timedOut:
            pendingMessages.append((result.endingMessage! + "\n", .error, 0, nil))
        default:
            break
        }
        if var printer = sidePrinter {
            let rest = printer.finish()
            sidePrinter = nil
            if !rest.isEmpty { pendingMessages.append((rest, .side, 0, nil)) }
        }
        releaseMessages(wholeLinesOnly: false)
        return result
    }

    private func outcome() -> Outcome {
        router.outcome(interrupted: wasInterrupted, idleTimeout: idleTimeout, readError: readError, elapsed: now())
    }

    /// Lines for a statistics report: the view's frames and bytes, and the history.
    public var statistics: [String] {
        let v = live.view
        var lines: [String] = []
        switch configuration.output {
        case .inline:
            lines.append("live view: inline, \(live.framesWritten) frames, \(live.bytesWritten) bytes")
            if case let repeated = live.rowsRepeatedByResizes, repeated > 0 {
                lines.append("resizes: \(repeated) rows left in the scrollback twice (an open block taller than the live region narrowed)")
            }
        case .fullscreen: lines.append("live view: fullscreen, \(live.framesWritten) frames, \(live.bytesWritten) bytes")
        case .plain: lines.append("plain output: \(live.bytesWritten) bytes in \(live.framesWritten) writes")
        }
        if configuration.output != .plain || configuration.wrapsPlainText {
            var history = "history: \(v.layout.lineCount) lines held; evicted \(v.evictedParagraphs) paragraphs, \(v.evictedLines) lines, \(v.evictedBytes) bytes"
            if v.unheldLines > 0 { history += "; \(v.unheldLines) lines printed straight, never held" }
            lines.append(history)
        }
        return lines
    }

    /// Bytes fed so far.
    public var bytesIn: Int { router.decoder.bytesIn }

    /// The clock's time since the renderer was made (what ``tick()`` uses).
    public var currentTime: Duration { now() }

    /// The width and height the view draws at.
    public var viewSize: (width: Int, height: Int) {
        (live.view.layout.settings.width, height)
    }

    // MARK: - Routing

    func perform(_ action: ResponseRouter.Action) {
        switch action {
        case .answer(let text):
            append(text)
        case .endBlock:
            live.endBlock()
            codeBlocks.endBlock()
            reportCodeBlocks()
            if !live.isPaced { drawFrame() } else { dirty = true }
        case .resumeText:
            if !live.isPaced && !pendingMessages.isEmpty {
                // Plain text output held side text until the line before it ended.
                live.frame(into: &out)
                flushOut()
                releaseMessages(wholeLinesOnly: false)
            }
        case .side(let text, let afterAnswer):
            sideText(text, afterAnswer: afterAnswer)
        case .message(let text, let isError):
            message(text, isError ? .error : .warning)
        case .event(let event):
            onSideEvent?(event)
        }
    }

    /// A delta longer than this is taken in pieces of at most this many bytes.
    static let maximumPieceBytes = 1 << 16
    /// The same for plain output: a 64 KiB read of a document as one piece held its
    /// 1,800 lines at once, each a paragraph allocated afresh; in 8 KiB pieces they
    /// reuse the buffers of lines printed and evicted (0.98x the instructions, a
    /// smaller peak). A view keeps its lines, so reused buffers only stay in its history.
    static let maximumPlainPieceBytes = 1 << 13

    /// Appends answer text. A long delta (a read of a file, an event accepted under a
    /// raised event limit) goes in pieces, as if it had arrived in several deltas (every
    /// stage gives the same result in any chunking), and plain output is written after
    /// each: the document's history limits then apply within the delta, and the printed
    /// text is never held whole. One 100 MB delta held about five times its size in the
    /// view's buffers.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`, plus the work of the view.
    private func append(_ text: String) {
        let pieceBytes = configuration.output == .plain ? Self.maximumPlainPieceBytes : Self.maximumPieceBytes
        if text.utf8.count <= pieceBytes { return appendPiece(text) }
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start != utf8.endIndex {
            var end = utf8.index(start, offsetBy: pieceBytes, limitedBy: utf8.endIndex) ?? utf8.endIndex
            while end != utf8.endIndex && UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
            appendPiece(String(text.unicodeScalars[start..<end]))
            if configuration.output == .plain {
                live.frame(into: &out)
                flushOut()
            }
            start = end
        }
    }

    private func appendPiece(_ text: String) {
        if onCodeBlock != nil && configuration.markdown && !codeBlocks.isStarted {
            codeBlocks.start(shown: live.view.markdown?.renderer)
        }
        live.append(text, style: .plain)
        dirty = true
        codeBlocks.append(text)
        reportCodeBlocks()
    }

    private func reportCodeBlocks() {
        guard let onCodeBlock else { return }
        for block in codeBlocks.take() { onCodeBlock(block) }
    }

    /// Side text (thinking, tool calls) for standard error: above a live view it is
    /// wrapped at the view's width between words, as the answer is (the terminal would
    /// break it anywhere); elsewhere it is written as it came.
    private var sidePrinter: PlainTextPrinter?

    private func sideText(_ text: String, afterAnswer: Bool) {
        guard live.isPaced else { return message(text, .side, afterAnswer: afterAnswer) }
        if sidePrinter == nil { sidePrinter = PlainTextPrinter(settings: live.view.layout.settings) }
        let wrapped = sidePrinter!.append(text)
        if !wrapped.isEmpty { message(wrapped, .side) }
    }
}
