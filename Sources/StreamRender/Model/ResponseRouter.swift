/// Decoding and routing of one response: bytes in; the answer's text, the ends of its
/// text blocks, typed side events and the lines that describe them out; and what an
/// ``ResponseOutcome`` reports. ``StreamRenderer`` and ``AnswerModel`` both
/// route through it, so there is one copy of the routing rules (text after a tool
/// call starts a paragraph, thinking is marked, errors are placed).
///
/// Not `Sendable`: it reads time through a closure; one router per response.
struct ResponseRouter {
    /// What the routing asks of whoever shows the response, in order.
    enum Action {
        /// Text for the answer: deltas, the paragraph break before text that follows a
        /// tool call or thinking, thinking when it is shown in the answer.
        case answer(String)
        /// The answer's text block ended (a tool call or thinking follows): markdown's
        /// open block is final, so that what follows is shown after it.
        case endBlock
        /// Answer text resumes after side output (plain output writes the side text it
        /// held back until then).
        case resumeText
        /// Side text for the message channel (thinking, tool call and result lines);
        /// `afterAnswer`: some answer text came before it.
        case side(String, afterAnswer: Bool)
        /// A warning or an error line.
        case message(String, isError: Bool)
        /// The same things, typed.
        case event(SideEvent)
    }

    struct Settings {
        /// Thinking goes into the answer (marked) instead of the side text.
        var showThinking = false
        /// The answer is rendered in blocks (markdown, wrapped): a text block's end ends one.
        var rendersBlocks = true
        /// Thinking in the answer is markdown (its marks are blocks of their own).
        var thinkingInMarkdown = false
        /// How messages name the event size limit.
        var eventLimitName = "maximumEventBytes"
    }

    let settings: Settings
    private(set) var decoder: ResponseDecoder
    private let now: () -> Duration

    /// A block other than text (thinking, a tool call) came since the answer's last text.
    private var nonTextSinceText = false
    /// The answer's last two bytes (where the next text starts a paragraph) and how
    /// many it has (at most 2), kept without an allocation per delta.
    private var answerLast: UInt8 = 0
    private var answerBeforeLast: UInt8 = 0
    private var answerBytes = 0
    var answerIsEmpty: Bool { answerBytes == 0 }
    private var errorsHandled = 0
    private var thinkingSanitizer = ControlSanitizer()
    private(set) var thinkingOpen = false
    private var thinkingEndsInNewline = true
    /// The input is being cut short: an event cut by it is not worth a warning.
    private var interrupting = false
    private var scratch: [ResponseDecoder.Output] = []

    // What the outcome reports.
    private(set) var deltaCount = 0
    private(set) var firstText: Duration?
    private(set) var lastText: Duration?
    private(set) var model: String?
    private(set) var apiError: (type: String, message: String)?
    private var firstInvalid: StreamDiagnostic?
    private var textDropped = false
    private var diagnostics: [StreamDiagnostic] = []
    /// The clock when the outputs being routed were read (taken at their first text).
    private var readTime: Duration?

    /// A router decoding `format`; the answer's owner holds its text (with bounded
    /// history), so the decoder does not assemble it.
    init(format: ResponseDecoder.Format, maximumEventBytes: Int, settings: Settings, now: @escaping () -> Duration) {
        decoder = ResponseDecoder(format: format, maximumEventBytes: maximumEventBytes, assemblesText: false)
        self.settings = settings
        self.now = now
    }

    /// Decodes `bytes` and routes what they hold.
    ///
    /// - Complexity: amortized O(n) in the bytes, plus the actions' work.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ act: (Action) -> Void) {
        // Outputs are collected first: the routing reads the decoder (event numbers).
        var outputs = takeScratch()
        decoder.feed(bytes) { outputs.append($0) }
        routeAll(&outputs, act)
    }

    /// The input ended (or was cut short): what the decoder holds is decoded and routed.
    mutating func finishInput(interrupted: Bool = false, _ act: (Action) -> Void) {
        var outputs = takeScratch()
        if interrupted {
            interrupting = true
            decoder.interrupt { outputs.append($0) }
        } else {
            decoder.finish { outputs.append($0) }
        }
        routeAll(&outputs, act)
    }

    private mutating func takeScratch() -> [ResponseDecoder.Output] {
        var taken: [ResponseDecoder.Output] = []
        swap(&taken, &scratch)
        return taken
    }

    private mutating func routeAll(_ outputs: inout [ResponseDecoder.Output], _ act: (Action) -> Void) {
        readTime = nil
        for item in outputs { route(item, act) }
        outputs.removeAll(keepingCapacity: true)
        swap(&outputs, &scratch)
    }

    /// The outcome so far. The arguments are endings only the caller knows of, in
    /// order of precedence.
    func outcome(interrupted: Bool, idleTimeout: Duration?, readError: String?, elapsed: Duration) -> ResponseOutcome {
        let ending: ResponseOutcome.Ending
        if interrupted {
            ending = .interrupted
        } else if let idleTimeout {
            ending = .timedOut(idle: idleTimeout)
        } else if let readError {
            ending = .readFailed(message: readError)
        } else if let apiError {
            ending = .apiError(type: apiError.type, message: apiError.message)
        } else if let firstInvalid {
            ending = .invalidInput(firstInvalid)
        } else if decoder.bytesIn == 0 {
            ending = .empty
        } else if !decoder.isComplete {
            ending = .truncated
        } else {
            ending = .complete
        }
        return ResponseOutcome(
            ending: ending, textDropped: textDropped, format: decoder.format, model: model,
            stopReason: decoder.stopReason.map(Self.shownOnOneLine), usage: decoder.usage, timeToFirstToken: firstText,
            elapsed: elapsed, bytesIn: decoder.bytesIn, eventCount: decoder.sseEventCount, deltaCount: deltaCount,
            diagnostics: diagnostics)
    }

    // MARK: - Routing

    private mutating func route(_ item: ResponseDecoder.Output, _ act: (Action) -> Void) {
        switch item {
        case .diagnostic(var d):
            act(.event(.diagnostic(d)))
            d.message = Self.shownOnOneLine(d.message)  // it may quote the input (an event's type)
            if diagnostics.count < 100 { diagnostics.append(d) }
            switch d.kind {
            case .truncatedEvent:
                if !interrupting { act(.message("\(d)\n", isError: false)) }
            case .eventTooLarge:
                noteInvalid(d)
                act(.message("\(d) (raise \(settings.eventLimitName) to accept it)\n", isError: true))
            case .malformedEvent, .unrecognisedInput, .unhandledContent:
                noteInvalid(d)
                act(.message("\(d)\n", isError: true))
            }
        case .event(let event):
            route(event, act)
        }
    }

    private mutating func noteInvalid(_ d: StreamDiagnostic) {
        if firstInvalid == nil { firstInvalid = d }
        if d.kind != .unrecognisedInput { textDropped = true }
    }

    private mutating func route(_ event: StreamEvent, _ act: (Action) -> Void) {
        switch event {
        case .messageStart(_, let name, _):
            if let name { model = Self.shownOnOneLine(name) }
        case .blockStart(_, let kind):
            if kind != .text {
                // The answer's text block ended: markdown shows its open block now, so
                // the thinking or tool call after it comes after it in every view.
                if !nonTextSinceText && !answerIsEmpty && settings.rendersBlocks { act(.endBlock) }
                nonTextSinceText = true
            }
        case .delta(_, let kind, let text):
            deltaCount += 1
            switch kind {
            case .text, .refusal:
                if !text.isEmpty {
                    // One reading of the clock per read: its deltas arrived together.
                    let time = readTime ?? now()
                    readTime = time
                    if firstText == nil { firstText = time }
                    lastText = time
                }
                closeThinking(act)
                if nonTextSinceText && !text.isEmpty {
                    // Text after a tool call (or thinking) is a new paragraph, not the
                    // end of the sentence before it.
                    nonTextSinceText = false
                    if !answerIsEmpty && answerLast != 0x0A { answer("\n\n", act) }
                    else if answerBytes == 2 && answerBeforeLast != 0x0A { answer("\n", act) }
                    act(.resumeText)
                }
                answer(text, act)
            case .thinking:
                if !thinkingOpen {
                    thinkingOpen = true
                    // In the answer as markdown, blank lines keep the marks blocks of their own.
                    thinking(settings.thinkingInMarkdown ? "[thinking]\n\n" : "[thinking]\n", act)
                }
                act(.event(.thinking(text)))
                let clean = thinkingSanitizer.sanitize(text)
                if let last = clean.utf8.last { thinkingEndsInNewline = last == 0x0A }
                thinking(clean, act)
            default:
                break
            }
        case .blockStop(let block):
            switch block.kind {
            case .thinking:
                closeThinking(act)
            case .toolUse(let id, let name), .serverToolUse(let id, let name):
                act(.event(.toolCall(name: name, arguments: block.inputJSON, id: id, isComplete: block.isComplete)))
                let input = Self.clipped(block.inputJSON.isEmpty ? (block.isComplete ? "{}" : "") : block.inputJSON)
                let call = id.isEmpty ? "" : " (\(Self.shownOnOneLine(id)))"  // Gemini and Ollama calls have no id
                let label = block.isComplete ? "[tool call]" : "[tool call, cut short]"
                side("\(label) \(Self.shownOnOneLine(name)) \(input)\(call)\n", act)
            case .toolResult(let id, let type):
                act(.event(.toolResult(type: type, id: id, summary: block.text)))
                let summary = Self.clipped(block.text)
                let call = id.isEmpty ? "" : " (\(Self.shownOnOneLine(id)))"
                side("[tool result] \(Self.shownOnOneLine(type))\(call)\(summary.isEmpty ? "" : ": " + summary)\n", act)
            case .redactedThinking:
                act(.event(.redactedThinking))
                side("[redacted thinking]\n", act)
            case .unknown(let type) where type == "compaction":
                act(.event(.contextCompacted))
                side("[context compacted]\n", act)
            default:
                break
            }
        case .error(let type, let text):
            let clean = (type: Self.shownOnOneLine(type), message: Self.shownOnOneLine(text))
            if apiError == nil { apiError = clean }
            // The event that carried the error, whatever else the same read decoded.
            let recorded = errorsHandled < decoder.errorPlaces.count ? decoder.errorPlaces[errorsHandled] : nil
            errorsHandled += 1
            act(.event(.error(type: type, message: text, eventNumber: recorded?.eventNumber, byteOffset: recorded?.byteOffset)))
            let place = recorded.map { "event \($0.eventNumber), byte \($0.byteOffset)" } ?? "an error body"
            act(.message("the stream reported \(clean.type): \(clean.message) (\(place))\n", isError: true))
        default:
            break
        }
    }

    private mutating func answer(_ text: String, _ act: (Action) -> Void) {
        let utf8 = text.utf8
        var end = utf8.endIndex
        if end != utf8.startIndex {
            end = utf8.index(before: end)
            answerBeforeLast = end != utf8.startIndex ? utf8[utf8.index(before: end)] : answerLast
            answerLast = utf8[end]
            answerBytes = min(2, answerBytes + utf8.count)
        }
        act(.answer(text))
    }

    private mutating func side(_ text: String, _ act: (Action) -> Void) {
        act(.side(text, afterAnswer: !answerIsEmpty))
    }

    private mutating func thinking(_ text: String, _ act: (Action) -> Void) {
        if settings.showThinking { answer(text, act) } else { side(text, act) }
    }

    /// Ends an open thinking block: its closing mark, and the event.
    mutating func closeThinking(_ act: (Action) -> Void) {
        guard thinkingOpen else { return }
        thinkingOpen = false
        act(.event(.thinkingEnded))
        var tail = ""
        thinkingSanitizer.finish(into: &tail)
        let end = settings.thinkingInMarkdown ? "\n[/thinking]\n\n" : "[/thinking]\n"
        thinking(tail + (thinkingEndsInNewline || tail.hasSuffix("\n") ? "" : "\n") + end, act)
        thinkingEndsInNewline = true
    }

    /// Text from the stream shown outside the answer (a model's name, a stop reason, a
    /// diagnostic quoting an event's type): on one line, its controls made visible, like
    /// the answer's, so that `--stats` or an error line cannot set a title or write the
    /// clipboard.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    static func shownOnOneLine(_ text: String) -> String {
        var sanitizer = ControlSanitizer()
        return sanitizer.sanitize(String(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) }))
    }

    /// A tool call's input or a result's summary as one side line: on one line,
    /// controls visible, cut to 200 characters.
    static func clipped(_ text: String) -> String {
        let line = shownOnOneLine(text)
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}

/// An owner of a router that performs what it asks (``StreamRenderer``, ``AnswerModel``).
protocol ResponseRouting: AnyObject {
    var router: ResponseRouter { get set }
    /// The last step's actions, kept to reuse their storage.
    var routedActions: [ResponseRouter.Action] { get set }
    func perform(_ action: ResponseRouter.Action)
}

extension ResponseRouting {
    /// Runs `step` on the router, then performs what it asked, in order: once the
    /// router is no longer being changed, so a callback may read the owner.
    ///
    /// Answer text decoded in a row (the deltas of one read) is performed as one text:
    /// every stage after the router gives the same result in any chunking, and each
    /// delta handed on alone cost as much as a third of rendering it.
    func route(_ step: (inout ResponseRouter, (ResponseRouter.Action) -> Void) -> Void) {
        var taken: [ResponseRouter.Action] = []
        swap(&taken, &routedActions)
        var text = ""
        var joining = false  // (empty deltas alone are still performed, as "")
        step(&router) { action in
            if case .answer(let delta) = action {
                text += delta
                joining = true
                return
            }
            if joining {
                taken.append(.answer(text))
                text = ""
                joining = false
            }
            taken.append(action)
        }
        if joining { taken.append(.answer(text)) }
        for action in taken { perform(action) }
        taken.removeAll(keepingCapacity: true)
        swap(&taken, &routedActions)
    }
}
