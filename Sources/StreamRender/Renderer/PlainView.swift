/// Plain text output, for pipes and dumb terminals: the answer wrapped at a width as
/// text lines (see `PlainTextPrinter`), or with width 0 exactly as it arrived
/// (sanitised). No cursor movement is ever written; with a pen (`--color always` into
/// a pipe) the lines are styled, else no escape sequence is written at all.
struct PlainView: LiveView {
    private var printer: PlainTextPrinter
    private var raw: ControlSanitizer?
    private var pending: [UInt8] = []
    private(set) var bytesWritten = 0
    private(set) var framesWritten = 0

    /// `wraps` false: the text exactly as it arrived (sanitised), unwrapped.
    /// `markdown`: render the answer's markdown structure as text (when `wraps`).
    /// `pen`: styled lines (when `wraps`; see ``SGRPen``).
    init(settings: LayoutSettings, wraps: Bool = true, limits: HistoryLimits = .standard,
                markdown: MarkdownOptions? = nil, pen: SGRPen? = nil) {
        printer = PlainTextPrinter(settings: settings, limits: Self.held(limits), markdown: markdown, linePen: pen)
        raw = wraps ? nil : ControlSanitizer()
    }

    /// The history plain output holds at most (see ``HistoryLimits``); the inline view
    /// too, besides the lines it has yet to write.
    static let heldLines = 512, heldBytes = 64 << 10

    /// `limits`, at most ``heldLines`` and ``heldBytes``: written lines are never shown
    /// again (nothing re-wraps them), so whatever `limits` allow, only a little history
    /// is held and memory stays flat.
    ///
    /// - Complexity: O(1).
    static func held(_ limits: HistoryLimits) -> HistoryLimits {
        HistoryLimits(maximumLines: min(limits.maximumLines ?? .max, heldLines),
                      maximumBytes: min(limits.maximumBytes ?? .max, heldBytes))
    }

    var view: WrappedDocument { printer.view }
    var isPaced: Bool { false }
    var showsMessagesBetweenFrames: Bool { true }
    /// Ignored: plain output is never paced.
    var revealLimit: TextPosition?
    /// Ignored: plain output has no status line.
    var status: String?

    /// Nothing: plain output prints final lines only.
    ///
    /// - Complexity: O(1).
    mutating func updateProvisional() {}

    /// - Complexity: amortized O(n + c) in the bytes and the current line.
    mutating func append(_ text: String, style: Style) {
        if raw != nil {
            raw!.sanitize(text, into: &pending)
        } else {
            printer.append(text, into: &pending)
        }
    }

    /// Markdown's open block is printed (text exactly as it arrived has none).
    ///
    /// - Complexity: one parse of the open block.
    mutating func endBlock() {
        if raw == nil { printer.endBlock(into: &pending) }
    }

    /// - Complexity: O(c + t) in the current line and the unfinished tail.
    mutating func finish() {
        if raw != nil {
            raw!.finish(into: &pending)
        } else {
            printer.finish(into: &pending)
        }
    }

    /// The text printed since the last frame.
    ///
    /// - Complexity: O(1) when `out` is empty (the bytes are handed over), else O(n) in
    ///   the bytes written.
    mutating func frame(into out: inout [UInt8]) {
        guard !pending.isEmpty else { return }
        bytesWritten += pending.count
        framesWritten += 1
        // Handed over when `out` is empty (it mostly is), not copied.
        if out.isEmpty { swap(&out, &pending) } else { out.append(contentsOf: pending) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Text already printed stays; what follows is wrapped at the new width.
    ///
    /// - Complexity: O(1); nothing is re-printed.
    mutating func resize(to settings: LayoutSettings, height: Int, into out: inout [UInt8]) {}

    /// - Complexity: O(1).
    mutating func relayout(to settings: LayoutSettings, height: Int, screenRows: Int?, into out: inout [UInt8]) {}

    /// - Complexity: O(1).
    mutating func suspend(into out: inout [UInt8]) {}

    /// - Complexity: O(1).
    mutating func end(into out: inout [UInt8]) {}
}
