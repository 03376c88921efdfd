import StreamRender

/// Where the answer's text goes on standard output.
protocol AnswerWriter {
    /// Writes (sanitised) answer text as it arrives.
    mutating func write(_ text: String)
    /// Ends the answer; whatever was held back is written.
    mutating func finish()
    /// Lines for `--stats`.
    var statistics: [String] { get }
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
