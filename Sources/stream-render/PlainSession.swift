import StreamRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain-text output: the answer's text on standard output as it arrives (wrapped
/// or not, by its ``AnswerWriter``), sanitised so no control sequence from the
/// model reaches the terminal.
struct PlainSession {
    private var decoder: ResponseDecoder
    private let output: OutputStreams
    private let showThinking: Bool
    private var answer: any AnswerWriter
    private var thinkingSanitizer = ControlSanitizer()
    private var thinkingOpen = false
    private var thinkingEndsInNewline = true
    private let started = ContinuousClock.now
    private(set) var deltaCount = 0
    private var readFailed = false
    private var reportedUnrecognised = false

    var bytesIn: Int { decoder.bytesIn }

    init(format: ResponseDecoder.Format, maxEventBytes: Int, showThinking: Bool, output: OutputStreams,
         answer: any AnswerWriter) {
        decoder = ResponseDecoder(format: format, maximumEventBytes: maxEventBytes)
        self.showThinking = showThinking
        self.output = output
        self.answer = answer
    }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        var outputs: [ResponseDecoder.Output] = []
        decoder.feed(bytes) { outputs.append($0) }
        for item in outputs { handle(item) }
        answer.frameReady()
        output.flush()
    }

    mutating func finishAfterReadError() {
        readFailed = true
        _ = finish()
    }

    /// Ends the input and reports how the stream ended.
    mutating func finish() -> ExitStatus {
        var outputs: [ResponseDecoder.Output] = []
        decoder.finish { outputs.append($0) }
        for item in outputs { handle(item) }
        closeThinking()
        answer.finish()
        output.flush()
        if output.stdoutIsTerminal, !answer.endsOnFreshLine, let last = output.lastStdoutByte, last != 0x0A {
            output.answer("\n")  // leave the shell prompt on its own line
            output.flush()
        }
        if readFailed { return .unreadableInput }
        if decoder.sawError { return .streamFailed }
        if decoder.bytesIn == 0 {
            output.error("empty input: no bytes arrived")
            return .streamFailed
        }
        if !decoder.isComplete {
            switch decoder.format {
            case .openai?:
                output.error("stream ended without [DONE] or response.completed (after \(decoder.sseEventCount) events, byte \(decoder.bytesIn))")
            case .anthropic?:
                output.error("stream ended without message_stop (after \(decoder.sseEventCount) events, byte \(decoder.bytesIn))")
            default:
                if !reportedUnrecognised {
                    output.error("no answer could be decoded from the input (\(decoder.bytesIn) bytes)")
                }
            }
            return .streamFailed
        }
        return .complete
    }

    private mutating func handle(_ item: ResponseDecoder.Output) {
        switch item {
        case .diagnostic(let d):
            switch d.kind {
            case .unrecognisedInput:
                reportedUnrecognised = true
                output.error(d.description)
            case .eventTooLarge: output.error(d.description)
            default: output.warning(d.description)
            }
        case .event(let event):
            handle(event)
        }
    }

    private mutating func handle(_ event: StreamEvent) {
        switch event {
        case .delta(_, let kind, let text):
            deltaCount += 1
            switch kind {
            case .text, .refusal:
                closeThinking()
                answer.write(text)
            case .thinking:
                if !thinkingOpen {
                    thinkingOpen = true
                    writeThinking("[thinking]\n")
                }
                let clean = thinkingSanitizer.sanitize(text)
                if let last = clean.utf8.last { thinkingEndsInNewline = last == 0x0A }
                writeThinking(clean)
            default:
                break
            }
        case .blockStop(let block):
            switch block.kind {
            case .thinking:
                closeThinking()
            case .toolUse(let id, let name), .serverToolUse(let id, let name):
                var sanitizer = ControlSanitizer()
                var input = block.inputJSON.isEmpty ? "{}" : block.inputJSON
                input = sanitizer.sanitize(input.replacingNewlines())
                if input.count > 200 { input = String(input.prefix(199)) + "…" }
                output.side("[tool call] \(sanitizer.sanitize(name)) \(input) (\(sanitizer.sanitize(id)))\n")
            case .redactedThinking:
                output.side("[redacted thinking]\n")
            default:
                break
            }
        case .error(let type, let message):
            var sanitizer = ControlSanitizer()
            var place = "byte \(decoder.currentEventOffset ?? decoder.bytesIn)"
            if let n = decoder.currentEventNumber { place = "event \(n), " + place }
            output.flush()
            output.error("the stream reported \(sanitizer.sanitize(type)): \(sanitizer.sanitize(message)) (\(place))")
        default:
            break
        }
    }

    private mutating func writeThinking(_ text: String) {
        if showThinking { answer.write(text) } else { output.side(text) }
    }

    private mutating func closeThinking() {
        guard thinkingOpen else { return }
        thinkingOpen = false
        var tail = ""
        thinkingSanitizer.finish(into: &tail)
        writeThinking(tail + (thinkingEndsInNewline || tail.hasSuffix("\n") ? "" : "\n") + "[/thinking]\n")
        thinkingEndsInNewline = true
    }

    func printStats() {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var lines = [
            "events: \(decoder.sseEventCount)",
            "deltas: \(deltaCount)",
            "bytes in: \(decoder.bytesIn)",
            "elapsed: \(String(format3(seconds))) s",
            "stop reason: \(decoder.stopReason ?? "none")",
        ]
        let usage = decoder.usage
        lines.append("usage: input \(usage.inputTokens.map(String.init) ?? "?") tokens, output \(usage.outputTokens.map(String.init) ?? "?") tokens")
        lines.append(contentsOf: answer.statistics)
        output.flush()
        FileDescriptorWriter.write(STDERR_FILENO, lines.map { "stream-render: " + $0 }.joined(separator: "\n") + "\n")
    }
}

func format3(_ value: Double) -> String {
    let scaled = Int((value * 1000).rounded())
    let fraction = String(scaled % 1000)
    return "\(scaled / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

extension String {
    func replacingNewlines() -> String {
        String(unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
