/// The live view in **fullscreen** mode: the alternate screen shows the last rows
/// of the answer and follows the tail.
///
/// Each frame is diffed against what the screen shows. When the tail has moved down
/// by fewer rows than the screen has, the terminal scrolls (`SU` inside a scroll
/// region covering the screen) and only the rows that came in are drawn, instead of
/// repainting every row. ``end(into:)`` leaves the alternate screen and writes the
/// whole answer into the normal screen, so it stays in the scrollback.
struct FullscreenView {
    private(set) var view: WrappedDocument
    private(set) var encoder: ANSIEncoder
    private(set) var height: Int
    private var splitter: CellSplitter
    private var shown: Frame
    /// The index (counting every line since the start) of the first row shown.
    private var shownTop = 0
    private var diff = FrameDiff()
    private var entered = false
    private(set) var bytesWritten = 0
    private(set) var framesWritten = 0
    /// The pacer's reveal position: text after it is not shown yet (nil: all of it).
    var revealLimit: TextPosition?
    /// Not drawn: the screen is the answer's.
    var status: String?

    /// `markdown`: render the answer as markdown with these options.
    init(settings: LayoutSettings, height: Int, capabilities: TerminalCapabilities,
                limits: HistoryLimits = .standard, markdown: MarkdownOptions? = nil) {
        view = WrappedDocument(settings: settings, limits: limits, markdown: markdown)
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: true)
        self.height = max(1, height)
        splitter = CellSplitter(policy: settings.policy)
        shown = Frame(width: settings.width, height: self.height)
    }

    /// Brings markdown's rendering of the open block up to date.
    ///
    /// - Complexity: O(r) in the open block's bytes (see `WrappedDocument.updateProvisional()`).
    mutating func updateProvisional() { view.updateProvisional() }

    /// Appends answer text in `style`.
    ///
    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    mutating func append(_ text: String, style: Style = .plain) {
        view.append(text, style: style)
    }

    /// The text so far ends a block: markdown's open block becomes final.
    ///
    /// - Complexity: one parse of the open block.
    mutating func endBlock() {
        view.endBlock()
    }

    /// Ends the answer.
    ///
    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    mutating func finish() {
        view.finish()
    }

    /// Appends the bytes of the next frame.
    ///
    /// - Complexity: O(W x H) for the diff, plus the rows drawn.
    mutating func frame(into out: inout [UInt8]) {
        let start = out.count
        let width = view.layout.settings.width
        if !entered {
            // Alternate screen, cleared, cursor hidden, one scroll region: the screen.
            out.append(contentsOf: ANSIEncoder.enterAlternateScreen(height: height))
            encoder.cursor = nil
            entered = true
        }
        view.updateProvisional()
        let (lines, total) = view.tail(height, revealedTo: revealLimit)
        let top = max(0, total - lines.count)
        var next = Frame(width: width, height: height)
        for (k, line) in lines.enumerated() {
            LineDrawer.draw(line, row: k, in: &next, view: view,
                            splitter: splitter, revealedTo: revealLimit)
        }
        ANSIEncoder.synchronized(encoder.capabilities.synchronizedOutput, &out) { out in
            let scroll = top - shownTop
            if scroll > 0 && scroll < height && shown.height == height {
                // Let the terminal move the rows up; draw only what changed after that.
                out.append(contentsOf: ANSIEncoder.scrollUp(scroll))
                shown = shown.scrolledUp(by: scroll)
            }
            diff.compute(from: shown, to: next)
            encoder.encode(diff.changes, of: next, styles: view.document.styles, into: &out)
        }
        shown = next
        shownTop = top
        bytesWritten += out.count - start
        framesWritten += 1
    }

    /// Re-wraps at a new size and repaints the screen.
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)` plus one frame.
    mutating func resize(to settings: LayoutSettings, height: Int, into out: inout [UInt8]) {
        relayout(to: settings, height: height, screenRows: nil, into: &out)
        frame(into: &out)
    }

    /// ``resize(to:height:into:)`` without the repaint (the next ``frame(into:)`` draws).
    ///
    /// - Complexity: as `WrappedDocument.resize(to:)`.
    mutating func relayout(to settings: LayoutSettings, height: Int, screenRows: Int?, into out: inout [UInt8]) {
        self.height = max(1, height)
        view.resize(to: settings)
        if settings.policy != splitter.policy { splitter = CellSplitter(policy: settings.policy) }
        // Off the alternate screen (suspended), the next frame enters and clears it.
        if entered { out.append(contentsOf: ANSIEncoder.resetScreen(height: self.height)) }
        encoder.cursor = nil
        shown = Frame(width: settings.width, height: self.height)
        shownTop = Int.min / 2  // no scrolling into a repaint
    }

    /// Leaves the alternate screen for now (before the process stops on Ctrl-Z); the
    /// next frame enters it again and repaints everything.
    ///
    /// - Complexity: O(W x H) (the screen is forgotten).
    mutating func suspend(into out: inout [UInt8]) {
        guard entered else { return }
        encoder.endFrame(into: &out)
        out.append(contentsOf: ANSIEncoder.leaveAlternateScreen)
        entered = false
        shown = Frame(width: view.layout.settings.width, height: height)
        shownTop = Int.min / 2
    }

    /// Leaves the alternate screen (scroll region reset, cursor shown) and writes the
    /// whole answer held as plain lines, so it stays in the normal scrollback.
    ///
    /// - Complexity: O(n) in the text held.
    mutating func end(into out: inout [UInt8]) {
        end(into: &out, messagesAt: []) { _, _ in }
    }

    /// The answer into the normal screen with each message between the lines it
    /// arrived between (see `LiveView.end(into:messagesAt:_:)`).
    ///
    /// - Complexity: O(n) in the bytes of the held answer.
    mutating func end(into out: inout [UInt8], messagesAt positions: [TextPosition],
                             _ pause: (_ upTo: Int, _ out: inout [UInt8]) -> Void) {
        if entered {
            out.append(contentsOf: ANSIEncoder.leaveAlternateScreen)
            entered = false
        }
        var k = 0
        for line in view.allLines() {
            let start = TextPosition(paragraph: line.paragraph, offset: line.start)
            let before = k
            while k < positions.count && positions[k] <= start { k += 1 }
            if k > before { pause(k, &out) }
            out.append(contentsOf: view.plainText(of: line).utf8)
            out.append(contentsOf: [0x0D, 0x0A])  // CR too: the tty may not add it (raw mode)
        }
        pause(positions.count, &out)
    }
}
