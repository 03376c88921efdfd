import StreamRender

/// Where the answer's text goes on standard output.
protocol AnswerWriter {
    /// Writes (sanitised) answer text as it arrives.
    mutating func write(_ text: String)
    /// Ends the answer; whatever was held back is written.
    mutating func finish()
    /// Everything from one input read has been handed over: show it.
    mutating func frameReady()
    /// Lines for `--stats`.
    var statistics: [String] { get }
    /// Whether the output always ends on a fresh line (else one is added on a terminal).
    var endsOnFreshLine: Bool { get }
}

extension AnswerWriter {
    mutating func frameReady() {}
    var endsOnFreshLine: Bool { false }
}

/// The answer exactly as it arrived, sanitised, unwrapped (`--width 0`).
struct RawAnswerWriter: AnswerWriter {
    let output: OutputStreams
    private var sanitizer = ControlSanitizer()

    init(output: OutputStreams) { self.output = output }

    mutating func write(_ text: String) {
        output.answer(sanitizer.sanitize(text))
    }

    mutating func finish() {
        var tail = ""
        sanitizer.finish(into: &tail)
        output.answer(tail)
    }

    var statistics: [String] { [] }
}

/// The answer wrapped at a width, as plain text lines (see ``PlainTextPrinter``).
struct WrappedAnswerWriter: AnswerWriter {
    let output: OutputStreams
    private var printer: PlainTextPrinter

    init(output: OutputStreams, settings: LayoutSettings, limits: HistoryLimits) {
        self.output = output
        printer = PlainTextPrinter(settings: settings, limits: limits)
    }

    mutating func write(_ text: String) {
        output.answer(printer.append(text))
    }

    mutating func finish() {
        output.answer(printer.finish())
    }

    var statistics: [String] {
        let view = printer.view
        return ["history: \(view.layout.lineCount) lines held; evicted \(view.evictedParagraphs) paragraphs, \(view.evictedLines) lines, \(view.evictedBytes) bytes"]
    }
}

/// The live view on a terminal (or into a pipe with `--output ansi`): inline by
/// default, fullscreen with `--fullscreen`. One frame per input read.
struct LiveAnswerWriter: AnswerWriter {
    enum Mode { case inline(InlineView), fullscreen(FullscreenView) }
    var endsOnFreshLine: Bool { true }

    let output: OutputStreams
    private var mode: Mode
    private var settings: LayoutSettings

    init(output: OutputStreams, settings: LayoutSettings, height: Int, fullscreen: Bool,
         capabilities: TerminalCapabilities, limits: HistoryLimits) {
        self.output = output
        self.settings = settings
        mode = fullscreen
            ? .fullscreen(FullscreenView(settings: settings, height: height, capabilities: capabilities, limits: limits))
            : .inline(InlineView(settings: settings, height: height, capabilities: capabilities, limits: limits))
        output.liveViewActive = true
        // The cursor is hidden while the view draws (shown again at the end or on a signal).
        output.answerBytes(Array("\u{1B}[?25l".utf8))
        TerminalRestore.arm(fullscreen: fullscreen)
    }

    mutating func write(_ text: String) {
        switch mode {
        case .inline(var v): v.append(text); mode = .inline(v)
        case .fullscreen(var v): v.append(text); mode = .fullscreen(v)
        }
    }

    mutating func frameReady() {
        var bytes: [UInt8] = []
        if let size = TerminalRestore.takeResize() {
            settings.width = size.columns
            switch mode {
            case .inline(var v): v.resize(to: settings, height: size.rows, into: &bytes); mode = .inline(v)
            case .fullscreen(var v): v.resize(to: settings, height: size.rows, into: &bytes); mode = .fullscreen(v)
            }
        }
        switch mode {
        case .inline(var v):
            bytes += inlineFrame(&v)
            mode = .inline(v)
        case .fullscreen(var v):
            v.frame(into: &bytes)  // messages wait until the alternate screen is left
            mode = .fullscreen(v)
        }
        output.answerBytes(bytes)
    }

    /// The next inline frame; messages waiting for standard error go above the live
    /// region first (it is cleared, they are written, the frame repaints it below).
    private func inlineFrame(_ v: inout InlineView) -> [UInt8] {
        var bytes: [UInt8] = []
        if output.hasSideLines {
            v.suspend(into: &bytes)
            output.answerBytes(bytes)
            bytes = []
            output.flushWholeSideLines()
        }
        v.frame(into: &bytes)
        return bytes
    }

    mutating func finish() {
        var bytes: [UInt8] = []
        switch mode {
        case .inline(var v):
            v.finish()
            bytes += inlineFrame(&v)
            mode = .inline(v)
        case .fullscreen(var v):
            v.finish()
            v.frame(into: &bytes)
            v.end(into: &bytes)
            mode = .fullscreen(v)
        }
        bytes += Array("\u{1B}[?25h".utf8)
        output.answerBytes(bytes)
        output.liveViewActive = false
        TerminalRestore.disarm()
    }

    var statistics: [String] {
        switch mode {
        case .inline(let v):
            return ["live view: inline, \(v.framesWritten) frames, \(v.bytesWritten) bytes"]
        case .fullscreen(let v):
            return ["live view: fullscreen, \(v.framesWritten) frames, \(v.bytesWritten) bytes"]
        }
    }
}
