/// Bytes of a response body (or a pipe) in, typed ``StreamEvent``s out: the SSE
/// parser and the provider decoder behind one incremental interface, with format
/// detection.
///
/// With ``Format/auto`` the first bytes decide: a first line that is an SSE field
/// (`event:`, `data:`, `id:`, `retry:`) or comment (`:`) means server-sent events,
/// and the first event tells Anthropic (`message_start`, `content_block_*`, `ping`,
/// `error`...) from OpenAI (`choices`, `chat.completion.chunk`, `response.*`,
/// `[DONE]`); NUL bytes or mostly-invalid UTF-8 mean binary input, which is
/// reported and ignored; anything else is plain text. Text deltas come out as
/// ``StreamEvent/delta(index:kind:text:)`` on block 0.
public struct ResponseDecoder {
    public enum Format: String, Sendable, CaseIterable {
        case auto, anthropic, openai, text
    }

    public enum Output: Sendable, Equatable {
        case event(StreamEvent)
        case diagnostic(StreamDiagnostic)
    }

    private enum Mode { case undecided, sse, text, binary }

    public let requestedFormat: Format
    /// The format in use: the requested one, or what auto-detection decided (nil
    /// while undecided).
    public private(set) var format: Format?
    private var mode: Mode
    private var sse: SSEParser
    private var anthropic = AnthropicDecoder()
    private var openai = OpenAIDecoder()
    private var textRepair = UTF8Repair()
    private var textBuffer: [UInt8] = []
    private var held: [UInt8] = []
    private var providerDecided: Bool

    /// Bytes fed so far.
    public private(set) var bytesIn = 0
    /// Server-sent events dispatched so far.
    public var sseEventCount: Int { sse.eventCount }
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

    public init(format: Format = .auto, maximumEventBytes: Int = 16 << 20) {
        requestedFormat = format
        sse = SSEParser(maximumEventBytes: maximumEventBytes)
        switch format {
        case .auto: mode = .undecided; providerDecided = false
        case .anthropic, .openai: mode = .sse; providerDecided = true; self.format = format
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
        case .text:
            feedText(bytes, output)
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
        if mode == .undecided { decideMode(atEnd: true, output) }
        switch mode {
        case .sse:
            var parsed = takeScratch()
            sse.finish { parsed.append($0) }
            forwardAll(&parsed, output)
        case .text:
            textRepair.finish(into: &textBuffer)
            flushText(output)
            isComplete = bytesIn > 0
        default:
            break
        }
    }

    private mutating func decideMode(atEnd: Bool, _ output: (Output) -> Void) {
        var start = 0
        if held.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        // Skip leading blank lines, then look at the first line.
        while start < held.count && (held[start] == 0x0A || held[start] == 0x0D) { start += 1 }
        let window = held[start...].prefix(Self.detectionWindow)
        let lineEnd = window.firstIndex { $0 == 0x0A || $0 == 0x0D }
        if lineEnd == nil && !atEnd && window.count < Self.detectionWindow && !Self.looksBinary(held[...]) {
            return  // wait for a whole first line
        }
        let firstLine = Array(window[..<(lineEnd ?? window.endIndex)])
        if Self.looksBinary(held.prefix(512)) {
            mode = .binary
            output(.diagnostic(StreamDiagnostic(kind: .unrecognisedInput,
                message: "the input looks binary (NUL bytes or invalid UTF-8), not server-sent events or text",
                byteOffset: 0)))
        } else if Self.isSSEFieldLine(firstLine) {
            mode = .sse
        } else if held.isEmpty {
            return
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
        // Events are collected first: the parser and the decoders are both parts of self.
        var parsed = takeScratch()
        sse.feed(bytes) { parsed.append($0) }
        forwardAll(&parsed, output)
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
                        message: "the first event (\(event.type)) is neither Anthropic nor OpenAI; decoding as Anthropic",
                        eventNumber: event.number, byteOffset: event.byteOffset)))
                }
            }
            currentEventNumber = event.number
            currentEventOffset = event.byteOffset
            // Closures are passed inline (not stored in locals) so they stay
            // non-escaping and their captures live on the stack: this runs per event.
            var summary = EventSummary()
            if format == .openai {
                openai.decode(event, emit: { summary.note($0); output(.event($0)) }, diagnose: { output(.diagnostic($0)) })
                isComplete = openai.isComplete
            } else {
                anthropic.decode(event, emit: { summary.note($0); output(.event($0)) }, diagnose: { output(.diagnostic($0)) })
                isComplete = anthropic.isComplete
            }
            if summary.errored { sawError = true }
            if let reason = summary.stopReason { stopReason = reason }
            if let u = summary.usage { usage.merge(u) }
        }
    }

    /// What one event said about the whole stream.
    struct EventSummary {
        var errored = false
        var stopReason: String?
        var usage: Usage?

        @inline(__always)
        mutating func note(_ e: StreamEvent) {
            switch e {
            case .delta: return
            case .error: errored = true
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
        if root["error"] != nil { return .openai }
        return nil
    }

    private mutating func feedText(_ bytes: UnsafeBufferPointer<UInt8>, _ output: (Output) -> Void) {
        textRepair.repair(bytes, into: &textBuffer)
        flushText(output)
    }

    private mutating func flushText(_ output: (Output) -> Void) {
        if textBuffer.isEmpty { return }
        output(.event(.delta(index: 0, kind: .text, text: String(decoding: textBuffer, as: UTF8.self))))
        textBuffer.removeAll(keepingCapacity: true)
    }
}
