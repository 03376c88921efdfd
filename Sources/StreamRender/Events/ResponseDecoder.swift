/// Bytes of a response body (or a pipe) in, typed ``StreamEvent``s out: the SSE
/// parser and the provider decoder behind one incremental interface, with format
/// detection.
///
/// With ``Format/auto`` the first bytes decide: a first line that is an SSE field
/// (`event:`, `data:`, `id:`, `retry:`) or comment (`:`) means server-sent events,
/// and the first event tells Anthropic (`message_start`, `content_block_*`, `ping`,
/// `error`...) from OpenAI (`choices`, `chat.completion.chunk`, `response.*`,
/// `[DONE]`) from Gemini (`candidates`, an error with a `status`). A first event
/// whose data is not a JSON object or array is plain-text SSE once a second event
/// is complete with every line before it an SSE field or comment (or the input ends
/// so). Detection never throws text away: until the format is recognised the bytes
/// are kept, and text that only looked like SSE (`event: launch party`, `:) smile`,
/// `data: 5 rows` followed by prose) is decoded as text after all. Input that starts
/// with `{` is held as a JSON document: an Ollama stream line (`model`, `done`, and
/// `message` or `response`) makes the input Ollama NDJSON from its first byte; an
/// API error body (`{"type":"error",...}`, `{"error":{...}}`, Ollama's
/// `{"error":"..."}`) becomes an ``StreamEvent/error(type:message:)``, a whole
/// (non-streamed) Messages response, chat completion or Gemini response becomes its
/// events, and anything else is text. Text with a NUL byte in its first 512 bytes,
/// or whose first 512 bytes are mostly invalid UTF-8 or controls, is binary: the text
/// before that point is shown, the rest reported and ignored. Text deltas
/// come out as ``StreamEvent/delta(index:kind:text:)`` on block 0.
public struct ResponseDecoder: Sendable {
    /// The input formats; the raw values are what `stream-render --format` takes.
    public enum Format: String, Sendable, CaseIterable {
        /// Detected from the first bytes (see ``ResponseDecoder``).
        case auto
        /// Anthropic Messages SSE.
        case anthropic
        /// OpenAI Chat Completions or Responses SSE.
        case openai
        /// Google Gemini `streamGenerateContent?alt=sse`.
        case gemini
        /// Ollama `/api/chat` or `/api/generate` NDJSON.
        case ollama
        /// SSE whose data is the text itself.
        case sseText = "sse-text"
        /// Plain text.
        case text
    }

    public enum Output: Sendable, Equatable {
        case event(StreamEvent)
        case diagnostic(StreamDiagnostic)
    }

    private enum Mode { case undecided, sse, ndjson, text, binary, json, afterJSON }

    public let requestedFormat: Format
    /// The format in use: the requested one, or what auto-detection decided (nil
    /// while undecided).
    public private(set) var format: Format?
    private var mode: Mode
    private var sse: SSEParser
    private var anthropic: AnthropicDecoder
    private var openai: OpenAIDecoder
    private var gemini: GeminiDecoder
    private var ollama: OllamaDecoder
    private var sseText = SSETextDecoder()
    private var lines: NDJSONSplitter
    private var textRepair = UTF8Repair()
    private var textBuffer: [UInt8] = []
    private var held: [UInt8] = []
    private var providerDecided: Bool
    /// Auto-detected SSE not yet confirmed by a recognised first event.
    private struct Unconfirmed {
        /// Every byte so far (to decode as text if it was not SSE after all).
        var bytes: [UInt8] = []
        /// The parser's diagnostics (reported only once it is SSE).
        var diagnostics: [StreamDiagnostic] = []
        /// The first event's data was not JSON: plain-text SSE if the lines agree.
        var firstEventIsText = false
        var evidence = SSELineEvidence()
    }
    private var unconfirmed: Unconfirmed?
    /// A JSON document being held (auto-detected input starting with `{`).
    private var json = JSONDocumentScanner()
    private var jsonBytes: [UInt8] = []

    /// Bytes fed so far.
    public private(set) var bytesIn = 0
    /// Server-sent events (for NDJSON: lines) dispatched so far.
    public var sseEventCount: Int { mode == .ndjson ? lines.lineCount : sse.eventCount }
    /// Whether an `error` event arrived.
    public private(set) var sawError = false
    /// The number and byte offset of the server-sent event being decoded (for
    /// messages that name where something happened).
    public private(set) var currentEventNumber: Int?
    public private(set) var currentEventOffset: Int?
    /// Why the stream stopped, when the provider said (`end_turn`, `stop`...).
    public private(set) var stopReason: String?
    /// Token usage as last reported.
    public private(set) var usage = Usage()

    /// How many bytes auto-detection looks at before deciding on a first line.
    static let detectionWindow = 1024

    /// `assemblesText`: whether ``StreamEvent/blockStop(_:)`` carries the block's whole
    /// text. A renderer that shows the deltas passes false, so an endless answer is
    /// not held twice (tool input is then kept up to 4 KiB, for a summary).
    public init(format: Format = .auto, maximumEventBytes: Int = 16 << 20, assemblesText: Bool = true) {
        requestedFormat = format
        anthropic = AnthropicDecoder(assemblesText: assemblesText)
        openai = OpenAIDecoder(assemblesText: assemblesText)
        gemini = GeminiDecoder(assemblesText: assemblesText)
        ollama = OllamaDecoder(assemblesText: assemblesText)
        sse = SSEParser(maximumEventBytes: maximumEventBytes, reportsUnknownFields: format == .sseText)
        lines = NDJSONSplitter(maximumLineBytes: maximumEventBytes)
        switch format {
        case .auto: mode = .undecided; providerDecided = false
        case .anthropic, .openai, .gemini, .sseText: mode = .sse; providerDecided = true; self.format = format
        case .ollama: mode = .ndjson; providerDecided = true; self.format = .ollama
        case .text: mode = .text; providerDecided = true; self.format = .text
        }
    }

    /// Whether the stream reached its terminal event (for text: the end of a
    /// non-empty input, after ``finish(_:)``).
    public private(set) var isComplete = false

    /// Feeds response bytes in any chunking.
    ///
    /// - Complexity: O(n) in the bytes, amortized.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        bytesIn += bytes.count
        switch mode {
        case .undecided:
            held.append(contentsOf: bytes)
            decideMode(atEnd: false, output)
        case .sse:
            feedSSE(bytes, output)
        case .ndjson:
            feedNDJSON(bytes, output)
        case .text:
            feedText(bytes, output)
        case .json:
            feedJSON(bytes, atEnd: false, output)
        case .afterJSON:
            feedAfterJSON(bytes, output)
        case .binary:
            break
        }
    }

    /// Feeds response bytes (any collection).
    ///
    /// - Complexity: O(n) in the bytes, amortized.
    public mutating func feed<C: Collection>(_ bytes: C, _ output: (Output) -> Void) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ feed($0, output) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { feed($0, output) }
    }

    /// Ends the input.
    ///
    /// - Complexity: O(1) plus whatever input was held back for detection.
    public mutating func finish(_ output: (Output) -> Void) {
        end(interrupted: false, output)
    }

    /// Ends the input early (Ctrl-C): as ``finish(_:)``, and plain-text SSE's event
    /// still arriving is decoded as if its blank line had come, since its data lines
    /// are text that arrived (a provider's JSON event cut short is still discarded).
    ///
    /// - Complexity: O(1) plus whatever input was held back for detection.
    public mutating func interrupt(_ output: (Output) -> Void) {
        end(interrupted: true, output)
    }

    private mutating func end(interrupted: Bool, _ output: (Output) -> Void) {
        if mode == .undecided { decideMode(atEnd: true, output) }
        if mode == .json { feedJSON(UnsafeBufferPointer(start: nil, count: 0), atEnd: true, output) }
        if mode == .sse, let held = unconfirmed {
            if held.firstEventIsText {
                unconfirmed!.evidence.finish()
                decideSSEText(atEnd: true, output)
            } else if !Self.looksLikeTruncatedSSE(held.bytes) {
                fallBackToText(output)  // no event arrived and nothing looked like one
            }
        }
        if interrupted && mode == .sse && format == .sseText {
            // A line end and a blank line end the pending line and event (after a
            // lone CR the first LF completes its CR LF; with nothing pending, no event).
            let ends: [UInt8] = [0x0A, 0x0A]
            ends.withUnsafeBufferPointer { feedSSE($0, output) }
        }
        switch mode {
        case .sse:
            var parsed = takeScratch()
            sse.finish { parsed.append($0) }
            let truncated = parsed.contains { if case .diagnostic(let d) = $0 { d.kind == .truncatedEvent } else { false } }
            forwardAll(&parsed, output)
            if let held = unconfirmed {
                unconfirmed = nil  // a truncated stream: what the parser found is reported
                for d in held.diagnostics { output(.diagnostic(d)) }
            }
            if format == .sseText {
                sseText.finish(truncated: truncated)
                isComplete = sseText.isComplete
            }
            finishProvider(output)
        case .ndjson:
            var parsed = takeScratch()
            lines.finish { parsed.append($0) }
            forwardAll(&parsed, output)
            finishProvider(output)
        case .text:
            if requestedFormat == .auto && binaryProbe.count < Self.binaryProbeBytes && Self.looksBinary(binaryProbe[...]) {
                judgedBinary(at: binaryProbe.count, output)  // a short input, judged at its end
                return
            }
            textRepair.finish(into: &textBuffer)
            flushText(output)
            isComplete = bytesIn > 0
        default:
            break
        }
    }

    private mutating func decideMode(atEnd: Bool, _ output: (Output) -> Void) {
        var start = 0
        if !atEnd && held.count < 3 && [0xEF, 0xBB, 0xBF].starts(with: held) { return }  // a BOM cut short
        if held.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        // Skip leading blank lines, then look at the first line.
        while start < held.count && (held[start] == 0x0A || held[start] == 0x0D) { start += 1 }
        let window = held[start...].prefix(Self.detectionWindow)
        let lineEnd = window.firstIndex { $0 == 0x0A || $0 == 0x0D }
        if lineEnd == nil && !atEnd && window.count < Self.detectionWindow
            && (window.isEmpty || Self.mightBecomeSSEFieldLine(Array(window))) {
            return  // wait for the first line to tell; text that cannot be SSE is shown at once
        }
        // Binary input is text to this decision: the text path judges it (see
        // ``feedText(_:_:)``), on offsets of the input, never on how much has arrived.
        let firstLine = Array(window[..<(lineEnd ?? window.endIndex)])
        if Self.isSSEFieldLine(firstLine) {
            mode = .sse
            if requestedFormat == .auto { unconfirmed = Unconfirmed() }
        } else if held.isEmpty {
            return
        } else if window.first == UInt8(ascii: "{") {
            mode = .json
        } else {
            mode = .text
            format = .text
        }
        let bytes = held
        held = []
        bytes.withUnsafeBufferPointer { buf in
            switch mode {
            case .sse: feedSSE(buf, output)
            case .text: feedText(buf, output)
            case .json: feedJSON(buf, atEnd: atEnd, output)
            default: break
            }
        }
    }

    static func isSSEFieldLine(_ line: [UInt8]) -> Bool {
        if line.first == UInt8(ascii: ":") { return true }
        for name in ["event", "data", "id", "retry"] {
            let n = Array(name.utf8)
            if line.starts(with: n) && (line.count == n.count || line[n.count] == UInt8(ascii: ":")) { return true }
        }
        return false
    }

    /// Whether a first line cut short could still turn out to be an SSE field.
    static func mightBecomeSSEFieldLine(_ partial: [UInt8]) -> Bool {
        if isSSEFieldLine(partial) && partial.contains(UInt8(ascii: ":")) { return false }  // it is one: decide now
        for name in ["event", "data", "id", "retry"] where Array(name.utf8).starts(with: partial) { return true }
        return false
    }

    static func looksBinary(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.contains(0) { return true }
        guard bytes.count >= 16 else { return false }
        var repaired: [UInt8] = []
        var repair = UTF8Repair()
        repair.repair(bytes, into: &repaired)
        // A window cut inside a scalar costs one replacement at most: far below 10%.
        var controls = 0
        for b in bytes where b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D && b != 0x1B { controls += 1 }
        return (repair.replacements + controls) * 10 > bytes.count
    }

    private var scratch: [SSEParser.Output] = []

    private mutating func takeScratch() -> [SSEParser.Output] {
        var parsed: [SSEParser.Output] = []
        swap(&parsed, &scratch)
        return parsed
    }

    private mutating func forwardAll(_ parsed: inout [SSEParser.Output], _ output: (Output) -> Void) {
        for item in parsed { forward(item, output) }
        parsed.removeAll(keepingCapacity: true)
        swap(&parsed, &scratch)
    }

    private mutating func feedSSE(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        if unconfirmed?.firstEventIsText == true {
            // Waiting for the lines to tell plain-text SSE from text: the parser is
            // not fed (the bytes are parsed again from the first once it is decided).
            unconfirmed!.bytes.append(contentsOf: bytes)
            unconfirmed!.evidence.scan(bytes)
            decideSSEText(atEnd: false, output)
            return
        }
        // Events are collected first: the parser and the decoders are both parts of self.
        var parsed = takeScratch()
        sse.feed(bytes) { parsed.append($0) }
        if unconfirmed != nil {
            unconfirmed!.bytes.append(contentsOf: bytes)
            unconfirmed!.evidence.scan(bytes)
            if !confirm(&parsed, output) { return }
        }
        forwardAll(&parsed, output)
    }

    private mutating func feedNDJSON(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        var parsed = takeScratch()
        lines.feed(bytes) { parsed.append($0) }
        forwardAll(&parsed, output)
    }

    /// Whether more bytes are held for detection than any first event could need.
    private var heldTooMuch: Bool {
        (unconfirmed?.bytes.count ?? 0) > max(sse.maximumEventBytes, Self.detectionWindow) + Self.detectionWindow
    }

    /// While auto-detected SSE is unconfirmed: holds diagnostics until the first event,
    /// which either confirms it (true: forward the rest), shows the input was text
    /// (false: decoded as text from its first byte) or, when its data is not JSON,
    /// leaves the lines to tell plain-text SSE from text (false: see
    /// ``decideSSEText(atEnd:_:)``). Too much held confirms it too.
    private mutating func confirm(_ parsed: inout [SSEParser.Output], _ output: (Output) -> Void) -> Bool {
        var k = 0
        while k < parsed.count, case .diagnostic(let d) = parsed[k] {
            unconfirmed!.diagnostics.append(d)
            k += 1
        }
        if k == parsed.count && !heldTooMuch {
            parsed.removeAll(keepingCapacity: true)
            swap(&parsed, &scratch)
            return false
        }
        if k < parsed.count, case .event(let event) = parsed[k], Self.classify(event) == nil {
            parsed.removeAll(keepingCapacity: true)
            swap(&parsed, &scratch)
            if Self.isJSONContainer(event.data) {
                fallBackToText(output)  // an unknown provider's JSON: shown as it came
            } else {
                unconfirmed!.firstEventIsText = true
                decideSSEText(atEnd: false, output)
            }
            return false
        }
        let diagnostics = unconfirmed!.diagnostics
        unconfirmed = nil
        parsed.removeFirst(k)
        for d in diagnostics { output(.diagnostic(d)) }
        return true
    }

    /// The input only looked like SSE: everything so far is decoded as text.
    private mutating func fallBackToText(_ output: (Output) -> Void) {
        let bytes = unconfirmed?.bytes ?? []
        unconfirmed = nil
        // What the parser dispatched was text after all (and how much of it it had seen
        // depended on the chunking): no server-sent events are counted.
        sse = SSEParser(maximumEventBytes: sse.maximumEventBytes)
        mode = .text
        format = .text
        providerDecided = true
        bytes.withUnsafeBufferPointer { feedText($0, output) }
    }

    /// The first event's data was not JSON: text as soon as a line that is not an
    /// SSE field or comment comes first; plain-text SSE once a second event is
    /// complete, or at the end of the input, or when too much is held, with every
    /// line so far a field or comment. Either way the input is decoded from its first
    /// byte.
    private mutating func decideSSEText(atEnd: Bool, _ output: (Output) -> Void) {
        let evidence = unconfirmed!.evidence
        if evidence.sawOtherLine {
            fallBackToText(output)
        } else if evidence.completedEvents >= 2 || atEnd || heldTooMuch {
            let bytes = unconfirmed!.bytes
            unconfirmed = nil
            format = .sseText
            providerDecided = true
            sse = SSEParser(maximumEventBytes: sse.maximumEventBytes, reportsUnknownFields: true)
            bytes.withUnsafeBufferPointer { feedSSE($0, output) }
        }
    }

    /// Whether an event's data is a JSON object or array (a provider's event, even
    /// one not recognised), not text.
    static func isJSONContainer(_ data: [UInt8]) -> Bool {
        guard let first = data.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
        var reader = JSONReader()
        return (try? reader.parse(data)) != nil
    }

    /// Whether input that never completed an event still looks like a provider's
    /// stream cut short (a `data:` line holding JSON or `[DONE]`), not text.
    static func looksLikeTruncatedSSE(_ bytes: [UInt8]) -> Bool {
        var lineStart = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A || bytes[i] == 0x0D {
            var line = bytes[lineStart..<i]
            lineStart = i + 1
            guard line.starts(with: Array("data:".utf8)) else { continue }
            line = line.dropFirst(5)
            if line.first == 0x20 { line = line.dropFirst() }
            if line.first == UInt8(ascii: "{") || line.starts(with: Array("[DONE]".utf8)) { return true }
        }
        return false
    }

    private mutating func forward(_ parsed: SSEParser.Output, _ output: (Output) -> Void) {
        switch parsed {
        case .diagnostic(let d):
            output(.diagnostic(d))
        case .event(let event):
            if !providerDecided {
                providerDecided = true
                format = Self.classify(event)
                if format == nil {
                    format = .anthropic
                    output(.diagnostic(StreamDiagnostic(kind: .unrecognisedInput,
                        message: "the first event (\(event.type)) is neither Anthropic, OpenAI nor Gemini; decoding as Anthropic",
                        eventNumber: event.number, byteOffset: event.byteOffset)))
                }
            }
            currentEventNumber = event.number
            currentEventOffset = event.byteOffset
            var summary = EventSummary()
            switch format {
            case .openai?: isComplete = Self.decode(event, with: &openai, &summary, output)
            case .gemini?: isComplete = Self.decode(event, with: &gemini, &summary, output)
            case .ollama?: isComplete = Self.decode(event, with: &ollama, &summary, output)
            case .sseText?: isComplete = Self.decode(event, with: &sseText, &summary, output)
            default: isComplete = Self.decode(event, with: &anthropic, &summary, output)
            }
            if summary.errored { sawError = true }
            for _ in 0..<summary.errors where errorPlaces.count < 100 { errorPlaces.append((event.number, event.byteOffset)) }
            if let reason = summary.stopReason { stopReason = reason }
            if let u = summary.usage { usage.merge(u) }
        }
    }

    /// The provider's decoder stops the blocks the stream left open (marked incomplete).
    private mutating func finishProvider(_ output: (Output) -> Void) {
        switch format {
        case .openai?: openai.finish { output(.event($0)) }
        case .gemini?: gemini.finish { output(.event($0)) }
        case .ollama?: ollama.finish { output(.event($0)) }
        case .anthropic?: anthropic.finish { output(.event($0)) }
        default: break
        }
    }

    /// Where each ``StreamEvent/error(type:message:)`` came from, in the order they
    /// were output (nil: not from a server-sent event, e.g. an error body); the first
    /// 100. Outputs are often handled after a whole read is decoded, when
    /// ``currentEventNumber`` has moved on.
    public private(set) var errorPlaces: [(eventNumber: Int, byteOffset: Int)?] = []

    /// Decodes one event with `decoder`; returns whether the stream is complete.
    /// Closures are passed inline (not stored in locals) so they stay non-escaping and
    /// their captures live on the stack: this runs per event.
    @inline(__always)
    private static func decode<D: StreamEventDecoder>(_ event: SSEEvent, with decoder: inout D, _ summary: inout EventSummary,
                                                      _ output: (Output) -> Void) -> Bool {
        decoder.decode(event, emit: { summary.note($0); output(.event($0)) }, diagnose: { output(.diagnostic($0)) })
        return decoder.isComplete
    }

    /// What one event said about the whole stream.
    struct EventSummary {
        var errors = 0
        var errored: Bool { errors > 0 }
        var stopReason: String?
        var usage: Usage?

        @inline(__always)
        mutating func note(_ e: StreamEvent) {
            switch e {
            case .delta: return
            case .error: errors += 1
            case .messageStart(_, _, let u): merge(u)
            case .messageDelta(let r, _, let u): merge(u); if let r { stopReason = r }
            default: return
            }
        }

        mutating func merge(_ u: Usage) {
            if usage == nil { usage = Usage() }
            usage!.merge(u)
        }
    }

    static func classify(_ event: SSEEvent) -> Format? {
        let anthropicTypes: Set<String> = ["message_start", "content_block_start", "content_block_delta",
                                           "content_block_stop", "message_delta", "message_stop", "ping"]
        if anthropicTypes.contains(event.type) { return .anthropic }
        if event.data == Array("[DONE]".utf8) { return .openai }
        var reader = JSONReader()
        guard let root = try? reader.parse(event.data), root.kind == .object else { return nil }
        if let type = root["type"]?.string {
            if anthropicTypes.contains(type) { return .anthropic }
            if type.hasPrefix("response.") { return .openai }
            if type == "error" { return root["error"]?.kind == .object ? .anthropic : .openai }
        }
        if root["choices"] != nil || root["object"]?.string == "chat.completion.chunk" { return .openai }
        if root["candidates"]?.kind == .array || root["promptFeedback"]?.kind == .object { return .gemini }
        if let error = root["error"] { return error["status"]?.kind == .string ? .gemini : .openai }
        return nil
    }

    /// The first ``binaryProbeBytes`` bytes decoded as text (auto-detected only; the
    /// text paths feed from offset 0, so its count is the offset reached while short).
    private var binaryProbe: [UInt8] = []
    /// Text is judged binary in its first this many bytes.
    static let binaryProbeBytes = 512

    /// Decodes text. Auto-detected text is judged binary at a NUL byte in its first
    /// ``binaryProbeBytes`` bytes, or at the end of those bytes (or of a shorter
    /// input) if ``looksBinary(_:)`` says so; the text before that point is shown, the
    /// rest is ignored. The point is an offset of the input, so the verdict and the
    /// text shown are the same in every chunking.
    private mutating func feedText(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        if requestedFormat == .auto && binaryProbe.count < Self.binaryProbeBytes {
            let probed = UnsafeBufferPointer(rebasing: bytes.prefix(Self.binaryProbeBytes - binaryProbe.count))
            if let nul = probed.firstIndex(of: 0) {
                textRepair.repair(UnsafeBufferPointer(rebasing: probed[..<nul]), into: &textBuffer)
                return judgedBinary(at: binaryProbe.count + nul, output)
            }
            binaryProbe.append(contentsOf: probed)
            if binaryProbe.count == Self.binaryProbeBytes && Self.looksBinary(binaryProbe[...]) {
                textRepair.repair(probed, into: &textBuffer)
                return judgedBinary(at: Self.binaryProbeBytes, output)
            }
        }
        var bytes = bytes
        // The character the last read cut is completed first (through the repair): the
        // rest can then be validated at once. (Reads of text with no ASCII in it, CJK,
        // mostly end inside a character: all of every later read went through the
        // repair a byte at a time.)
        if textBuffer.isEmpty && textRepair.hasPendingBytes {
            var k = 0
            while k < bytes.count && k < 3 && bytes[k] & 0xC0 == 0x80 { k += 1 }
            textRepair.repair(UnsafeBufferPointer(rebasing: bytes[..<k]), into: &textBuffer)
            bytes = UnsafeBufferPointer(rebasing: bytes[k...])
            if !textRepair.hasPendingBytes { flushText(output) }
        }
        // Mostly valid: made a string by one validation, not a repair's and a string's.
        if textBuffer.isEmpty, let text = textRepair.validString(bytes) {
            if !text.isEmpty { output(.event(.delta(index: 0, kind: .text, text: text))) }
            return
        }
        textRepair.repair(bytes, into: &textBuffer)
        flushText(output)
    }

    /// Ends text at `offset`: the text before it is shown, a diagnostic says why the
    /// rest is not.
    private mutating func judgedBinary(at offset: Int, _ output: (Output) -> Void) {
        textRepair.finish(into: &textBuffer)
        flushText(output)
        mode = .binary
        output(.diagnostic(StreamDiagnostic(kind: .unrecognisedInput,
            message: "the input looks binary (NUL bytes or invalid UTF-8), not server-sent events or text: "
                + "judged at byte \(offset); the text before it is shown, the rest is ignored",
            byteOffset: offset)))
    }

    private mutating func flushText(_ output: (Output) -> Void) {
        if textBuffer.isEmpty { return }
        output(.event(.delta(index: 0, kind: .text, text: String(decoding: textBuffer, as: UTF8.self))))
        textBuffer.removeAll(keepingCapacity: true)
    }

    // MARK: - Whole JSON documents

    private mutating func feedJSON(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, _ output: (Output) -> Void) {
        jsonBytes.append(contentsOf: bytes)
        json.scan(bytes)
        switch json.state {
        case .open:
            // Too big to be a response body, or cut short: it is text.
            if atEnd || jsonBytes.count > sse.maximumEventBytes { jsonAsText(output) }
        case .notJSON:
            jsonAsText(output)
        case .complete(let end):
            var reader = JSONReader()
            guard let root = try? reader.parse(Array(jsonBytes[..<end])), root.kind == .object else {
                return jsonAsText(output)
            }
            if OllamaDecoder.isStreamLine(root) {
                // The first line of an Ollama stream (or a whole non-streamed reply):
                // the input is NDJSON from its first byte.
                let bytes = jsonBytes
                jsonBytes = []
                mode = .ndjson
                format = .ollama
                providerDecided = true
                bytes.withUnsafeBufferPointer { feedNDJSON($0, output) }
                return
            }
            guard let (bodyFormat, events) = Self.bodyEvents(root) else { return jsonAsText(output) }
            let rest = Array(jsonBytes[end...])
            jsonBytes = []
            format = bodyFormat
            mode = .afterJSON
            var summary = EventSummary()
            for event in events {
                summary.note(event)
                output(.event(event))
            }
            if summary.errored { sawError = true }
            for _ in 0..<summary.errors where errorPlaces.count < 100 { errorPlaces.append(nil) }
            if let reason = summary.stopReason { stopReason = reason }
            if let u = summary.usage { usage.merge(u) }
            isComplete = !summary.errored && events.last == .messageStop
            rest.withUnsafeBufferPointer { feedAfterJSON($0, output) }
        }
    }

    /// After a whole JSON body: blank lines are its end; anything else is text.
    private mutating func feedAfterJSON(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        guard let k = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return }
        let complete = isComplete
        mode = .text
        feedText(UnsafeBufferPointer(rebasing: bytes[k...]), output)
        isComplete = complete
    }

    private mutating func jsonAsText(_ output: (Output) -> Void) {
        mode = .text
        format = .text
        let bytes = jsonBytes
        jsonBytes = []
        bytes.withUnsafeBufferPointer { feedText($0, output) }
    }

    /// The events of a whole (non-streamed) response or error body, or nil when
    /// `root` is neither.
    static func bodyEvents(_ root: JSONValue) -> (Format, [StreamEvent])? {
        let type = root["type"]?.string
        if let error = root["error"], error.kind == .object, error["status"]?.kind == .string {
            return (.gemini, [GeminiDecoder.error(error)])
        }
        if let error = root["error"], error.kind == .string {
            return (.ollama, [OllamaDecoder.error(error)])
        }
        if root["candidates"]?.kind == .array || root["promptFeedback"]?.kind == .object {
            var decoder = GeminiDecoder()
            var events: [StreamEvent] = []
            decoder.decode(SSEEvent(data: Array(root.sourceText.utf8)), emit: { events.append($0) }, diagnose: { _ in })
            return (.gemini, events)
        }
        if let error = root["error"], error.kind == .object {
            let anthropic = type == "error"
            let kind = error["type"]?.string ?? error["code"]?.string ?? "error"
            return (anthropic ? .anthropic : .openai, [.error(type: kind, message: error["message"]?.string ?? error.sourceText)])
        }
        if type == "message", let content = root["content"], content.kind == .array {
            var events: [StreamEvent] = [.messageStart(id: root["id"]?.string, model: root["model"]?.string,
                                                       usage: AnthropicDecoder.usage(root["usage"]))]
            for (index, block) in content.elements.enumerated() {
                switch block["type"]?.string {
                case "text":
                    let text = block["text"]?.string ?? ""
                    events += [.blockStart(index: index, kind: .text), .delta(index: index, kind: .text, text: text),
                               .blockStop(ContentBlock(index: index, kind: .text, text: text))]
                case "thinking":
                    let text = block["thinking"]?.string ?? ""
                    events += [.blockStart(index: index, kind: .thinking), .delta(index: index, kind: .thinking, text: text),
                               .blockStop(ContentBlock(index: index, kind: .thinking, text: text))]
                case "tool_use", "server_tool_use":
                    let id = block["id"]?.string ?? "", name = block["name"]?.string ?? ""
                    let kind: ContentBlockKind = block["type"]?.string == "tool_use"
                        ? .toolUse(id: id, name: name) : .serverToolUse(id: id, name: name)
                    events += [.blockStart(index: index, kind: kind),
                               .blockStop(ContentBlock(index: index, kind: kind, inputJSON: block["input"]?.sourceText ?? "{}"))]
                case "redacted_thinking":
                    events += [.blockStart(index: index, kind: .redactedThinking),
                               .blockStop(ContentBlock(index: index, kind: .redactedThinking))]
                case let other:
                    events += [.blockStart(index: index, kind: .unknown(type: other ?? "?")),
                               .blockStop(ContentBlock(index: index, kind: .unknown(type: other ?? "?")))]
                }
            }
            events += [.messageDelta(stopReason: root["stop_reason"]?.string, stopSequence: root["stop_sequence"]?.string,
                                     usage: AnthropicDecoder.usage(root["usage"])), .messageStop]
            return (.anthropic, events)
        }
        if let choices = root["choices"], choices.kind == .array, let message = choices.elements.first?["message"],
           message.kind == .object {
            var events: [StreamEvent] = [.messageStart(id: root["id"]?.string, model: root["model"]?.string,
                                                       usage: OpenAIDecoder.usage(root["usage"]))]
            var index = 0
            if let text = message["content"]?.string {
                events += [.blockStart(index: index, kind: .text), .delta(index: index, kind: .text, text: text),
                           .blockStop(ContentBlock(index: index, kind: .text, text: text))]
                index += 1
            }
            if let refusal = message["refusal"]?.string {
                events += [.blockStart(index: index, kind: .text), .delta(index: index, kind: .refusal, text: refusal),
                           .blockStop(ContentBlock(index: index, kind: .text, text: refusal))]
                index += 1
            }
            if let calls = message["tool_calls"], calls.kind == .array {
                for call in calls.elements {
                    let kind = ContentBlockKind.toolUse(id: call["id"]?.string ?? "", name: call["function"]?["name"]?.string ?? "")
                    events += [.blockStart(index: index, kind: kind),
                               .blockStop(ContentBlock(index: index, kind: kind,
                                                       inputJSON: call["function"]?["arguments"]?.string ?? "{}"))]
                    index += 1
                }
            }
            events += [.messageDelta(stopReason: choices.elements.first?["finish_reason"]?.string, stopSequence: nil,
                                     usage: OpenAIDecoder.usage(root["usage"])), .messageStop]
            return (.openai, events)
        }
        return nil
    }
}
