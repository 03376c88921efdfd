import ArgumentParser
import StreamRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ResponseDecoder.Format: ExpressibleByArgument {}

/// `--output`: the live view's escape sequences, or plain text lines.
enum OutputKind: String, ExpressibleByArgument, CaseIterable {
    case ansi, plain
}

/// `--color`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// `--markdown`.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

/// `--theme`.
enum ThemeChoice: String, ExpressibleByArgument, CaseIterable {
    case dark, light, monochrome
}

/// `--width-policy`.
enum WidthPolicyChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, grapheme, wcwidth
}

/// Exit statuses: a public contract that scripts depend on.
enum ExitStatus: Int32 {
    case complete = 0
    /// The stream reported an error, ended without its terminal event, lost text to
    /// malformed or oversized events, or was empty.
    case streamFailed = 1
    case usage = 2
    case unreadableInput = 3
}

struct StreamRenderCommand: ParsableCommand {
    static let maximumWidth = 4096
    static let maximumHeight = 1000

    static let configuration = CommandConfiguration(
        commandName: "stream-render",
        abstract: "Render a streaming LLM answer (server-sent events or text) as it arrives.",
        discussion: """
        Reads FILE, or standard input when FILE is absent or '-', and shows the answer as \
        it arrives. On a terminal it is drawn live: finished lines go into the \
        scrollback, the unfinished tail is redrawn (at most --fps frames a second). Into \
        a pipe it prints the answer wrapped at --width columns (each line once it is \
        final, the current line as far as it can no longer change). On a terminal, text is \
        revealed at a reading pace (--pace, default 150 clusters a second, rising as \
        needed so nothing shows more than --max-lag 300 ms late). Anthropic and \
        OpenAI streams are detected, as are whole (non-streamed) responses and API \
        error bodies; anything else is shown as text. With no FILE and a terminal on \
        standard input, shows a built-in demo.

          curl -N https://api.anthropic.com/v1/messages ... | stream-render
          stream-render answer.sse
          stream-render --replay capture.sse   # a recording, at its recorded times

        Exit status: 0 the stream completed; 1 the stream failed: it reported an error \
        (an error event or an API error body), ended without its terminal event \
        (message_stop, [DONE]), lost text to malformed or oversized events, or was \
        empty; 2 usage error; 3 the input could not be read; 128+N ended by signal N \
        (130: Ctrl-C), after showing everything that had arrived.
        """,
        version: StreamRenderVersion.string,
        subcommands: [TokensCommand.self]
    )

    @Argument(help: "An SSE stream or text file; '-' or absent for standard input.")
    var file: String?

    @Option(help: "Input format: auto (detect from the first bytes), anthropic, openai, gemini (streamGenerateContent?alt=sse), ollama (NDJSON from /api/chat or /api/generate), sse-text (SSE whose data lines are the text) or text.")
    var format: ResponseDecoder.Format = .auto

    @Flag(help: "Show thinking in the answer (by default it goes to standard error).")
    var showThinking = false

    @Flag(help: "Print statistics to standard error at the end: events, deltas, bytes, elapsed time, time to first token, model, stop reason, usage.")
    var stats = false

    @Option(parsing: .unconditional, help: "The largest server-sent event accepted, in bytes; larger ones are dropped with an error.")
    var maxEventBytes: Int = 16 << 20

    @Option(parsing: .unconditional, help: "Wrap the answer at N columns, 1-\(maximumWidth) (default: the terminal's width when standard output is a terminal, else 80; 0: do not wrap, plain output only, the text as it arrived). The live view never draws wider than the terminal.")
    var width: Int?

    @Option(help: "How wide characters are: auto (grapheme where the terminal reports mode 2027, else wcwidth), grapheme (a cluster is one run of cells) or wcwidth (the sum of its characters, as most terminals and tmux draw them).")
    var widthPolicy: WidthPolicyChoice = .auto

    @Option(parsing: .unconditional, help: "Tabs expand to the next multiple of N columns (1-64).")
    var tabSize: Int = 8

    @Option(parsing: .unconditional, help: "Keep at most about N wrapped lines of history; older paragraphs are dropped whole (default 100000).")
    var maxLines: Int?

    @Option(help: "ansi: the live view (the default on a terminal; into a pipe it is how the bytes are captured); plain: text lines (the default otherwise).")
    var output: OutputKind?

    @Option(help: "Colours: auto (from TERM, COLORTERM, NO_COLOR, FORCE_COLOR), always or never.")
    var color: ColorChoice = .auto

    @Option(help: "Render the answer as markdown: on (headings, emphasis, lists, quotes, code blocks, tables, links; also into pipes, as text) or off (the text as it arrived).")
    var markdown: Switch = .on

    @Option(help: "Markdown styles: dark, light or monochrome (bold, italic, underline and dim only; the default when NO_COLOR is set or there are no colours).")
    var theme: ThemeChoice?

    @Flag(help: "Live view on the alternate screen, following the tail; the answer is printed into the normal screen at the end (also on Ctrl-C).")
    var fullscreen = false

    @Option(parsing: .unconditional, help: "Rows of the live view, 1-\(maximumHeight) (default: the terminal's height, else 24; never more than the terminal's).")
    var height: Int?

    @Option(parsing: .unconditional, help: "At most N frames a second for the live view (1-1000); frames are drawn only when something changed.")
    var fps: Int = 60

    @Option(help: "Typewriter pace of the live view: N grapheme clusters a second (rising as needed to keep within --max-lag), or 'off' to show text as it arrives. Plain output is never paced.")
    var pace: String = "150"

    @Flag(help: "Reveal whole words at a time instead of single characters.")
    var paceWords = false

    @Option(name: .customLong("max-lag"), parsing: .unconditional, help: "The live view never shows text later than MS milliseconds after it arrived (plus one frame).")
    var maxLag: Int = 300

    @Option(name: .customLong("drain"), parsing: .unconditional, help: "When the input ends, what is still unrevealed is shown within MS milliseconds.")
    var drain: Int = 200

    @Flag(help: "Play FILE (or standard input, read to its end first) at the arrival times recorded in it: comment lines ': t=<ms>' in an SSE capture; a file without them plays one event (or text piece) at a time at --replay-rate.")
    var replay = false

    @Option(parsing: .unconditional, help: "--replay without recorded times: N events (or text pieces of about 4 bytes) a second.")
    var replayRate: Double = 60

    @Flag(help: "Show the built-in demo (also the default with no FILE when standard input is a terminal).")
    var demo = false

    @Option(help: .hidden)
    var demoDelayMs: Int?

    func validate() throws {
        if maxEventBytes < 1 { throw ValidationError("--max-event-bytes must be at least 1") }
        if let demoDelayMs, demoDelayMs < 0 { throw ValidationError("--demo-delay-ms must not be negative") }
        if pace != "off", Double(pace).map({ !($0 >= 1 && $0 <= 1_000_000) }) ?? true {
            throw ValidationError("--pace must be 'off' or a number of clusters a second, 1 to 1000000")
        }
        if maxLag < 0 || maxLag > 60_000 { throw ValidationError("--max-lag must be 0 to 60000 milliseconds") }
        if drain < 0 || drain > 60_000 { throw ValidationError("--drain must be 0 to 60000 milliseconds") }
        if !(replayRate > 0 && replayRate <= 1_000_000) { throw ValidationError("--replay-rate must be more than 0 and at most 1000000") }
        if let width, width < 0 || width > Self.maximumWidth {
            throw ValidationError("--width must be 0 (no wrapping) or 1 to \(Self.maximumWidth)")
        }
        if tabSize < 1 || tabSize > 64 { throw ValidationError("--tab-size must be 1 to 64") }
        if let maxLines, maxLines < 1 { throw ValidationError("--max-lines must be at least 1") }
        if let height, height < 1 || height > Self.maximumHeight {
            throw ValidationError("--height must be 1 to \(Self.maximumHeight)")
        }
        if fps < 1 || fps > 1000 { throw ValidationError("--fps must be 1 to 1000") }
        if output == .ansi && width == 0 { throw ValidationError("--width 0 (no wrapping) needs --output plain") }
    }

    func run() throws {
        // A closed pipe (`| head`) must end the program quietly, not kill it.
        signal(SIGPIPE, SIG_IGN)
        let terminal = TerminalSession(output: STDOUT_FILENO)
        let useDemo = demo || (file == nil && isatty(STDIN_FILENO) != 0)
        var input: Int32 = STDIN_FILENO
        let name = file ?? "-"
        if !useDemo && name != "-" {
            input = open(name, O_RDONLY | O_CLOEXEC)
            if input < 0 {
                Self.error("cannot open \(name): \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.unreadableInput.rawValue)
            }
        }
        let (configuration, onTerminal) = makeConfiguration(terminal)
        let sink = FileDescriptorSink(messagePrefix: "stream-render: ")
        let renderer = StreamRenderer(configuration: configuration, sink: sink)
        let signals = SignalWatcher.start()
        if onTerminal {
            terminal.disableEcho()
            terminal.setEmergencyRestore(ANSIEncoder.restoreSequence(fullscreen: configuration.output == .fullscreen))
        }
        var loop = RenderLoop(renderer: renderer, sink: sink, terminal: terminal, signalDescriptor: signals,
                              explicitWidth: width, explicitHeight: height)
        let outcome: StreamRenderer.Outcome
        let ending: RenderLoop.Ending
        if useDemo {
            if let demoDelayMs {
                ending = loop.run(chunks: Demo.capture.chunks.map(\.bytes), every: .milliseconds(demoDelayMs))
            } else {
                ending = loop.run(replaying: Demo.capture.chunks)
            }
        } else if replay {
            guard let bytes = Self.readAll(input) else {
                terminal.restoreModes()
                SignalWatcher.stop()
                Self.error("cannot read \(name == "-" ? "standard input" : name): \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.unreadableInput.rawValue)
            }
            ending = loop.run(replaying: ReplayCapture(bytes, tokensPerSecond: replayRate).chunks)
        } else {
            ending = loop.run(reading: input, name: name == "-" ? "standard input" : name)
        }
        terminal.restoreModes()
        SignalWatcher.stop()
        switch ending {
        case .brokenPipe:
            if let failure = sink.failure, failure != EPIPE {
                Self.error("cannot write the output: \(String(cString: strerror(failure)))")
                throw ExitCode(ExitStatus.streamFailed.rawValue)
            }
            throw ExitCode(0)  // the reader went away (`| head`): not an error
        case .signal(let number, let result):
            if stats { printStats(result, renderer) }
            throw ExitCode(128 + number)
        case .finished(let result):
            outcome = result
        }
        if stats { printStats(outcome, renderer) }
        switch outcome.ending {
        case .complete: return
        case .readFailed: throw ExitCode(ExitStatus.unreadableInput.rawValue)
        case .interrupted: throw ExitCode(130)
        default: throw ExitCode(ExitStatus.streamFailed.rawValue)
        }
    }

    /// Arguments, environment and the terminal's answers → the renderer's configuration;
    /// and whether the output is a terminal being drawn on.
    func makeConfiguration(_ terminal: TerminalSession) -> (StreamRenderer.Configuration, Bool) {
        let isTerminal = terminal.outputIsTerminal
        let environment = Self.environment(["TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TERM_PROGRAM"])
        var capabilities = TerminalCapabilities.detect(environment: environment, isTerminal: isTerminal || color == .always)
        switch color {
        case .never: capabilities.colors = .none
        case .always: capabilities.colors = max(capabilities.colors, .ansi16)
        case .auto: break
        }
        let kind = output ?? (isTerminal && !capabilities.isDumb && width != 0 ? .ansi : .plain)
        let size = isTerminal ? terminal.size : nil
        var columns = width ?? size?.columns ?? 80
        var rows = height ?? size?.rows ?? 24
        if kind == .ansi, let size {
            // The live view never draws wider or taller than the terminal.
            columns = min(columns, size.columns)
            rows = min(rows, size.rows)
        }
        if kind == .ansi && isTerminal {
            let answers = terminal.probe()
            if let synchronized = answers.synchronized { capabilities.synchronizedOutput = synchronized }
            if let graphemes = answers.graphemes { capabilities.graphemeClusters = graphemes }
        }
        let policy: WidthPolicy
        switch widthPolicy {
        case .grapheme: policy = .grapheme
        case .wcwidth: policy = .wcwidth
        case .auto: policy = capabilities.graphemeClusters ? .grapheme : .wcwidth
        }
        var limits = HistoryLimits.standard
        if let maxLines { limits.maximumLines = maxLines }
        let configuration = StreamRenderer.Configuration(
            output: kind == .plain ? .plain : (fullscreen ? .fullscreen : .inline),
            layout: LayoutSettings(width: max(1, columns), tabSize: tabSize, policy: policy),
            height: rows, format: format, maximumEventBytes: maxEventBytes, limits: limits,
            capabilities: capabilities, showThinking: showThinking, framesPerSecond: fps,
            endsOnFreshLine: isTerminal, eventLimitName: "--max-event-bytes", wrapsPlainText: columns != 0,
            markdown: markdown == .on, theme: chosenTheme(capabilities), pacing: pacing)
        return (configuration, isTerminal)
    }

    /// `--pace`, `--pace-words`, `--max-lag`, `--drain`.
    var pacing: Pacer.Settings? {
        guard pace != "off", let rate = Double(pace) else { return nil }
        return Pacer.Settings(pace: rate, maximumLag: .milliseconds(maxLag), drainTime: .milliseconds(drain),
                              revealsWords: paceWords)
    }

    /// The whole of `descriptor` (for `--replay`), or nil if reading failed.
    static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// `--theme`, else monochrome without colours (NO_COLOR), else dark.
    func chosenTheme(_ capabilities: TerminalCapabilities) -> MarkdownTheme {
        switch theme {
        case .dark: return .dark
        case .light: return .light
        case .monochrome: return .monochrome
        case nil: return capabilities.colors == .none ? .monochrome : .dark
        }
    }

    func printStats(_ outcome: StreamRenderer.Outcome, _ renderer: StreamRenderer) {
        func seconds(_ d: Duration) -> String {
            let ms = Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
            let fraction = String(ms % 1000)
            return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + " s"
        }
        let usage = outcome.usage
        var lines = [
            "events: \(outcome.eventCount)",
            "deltas: \(outcome.deltaCount)",
            "bytes in: \(outcome.bytesIn)",
            "elapsed: \(seconds(outcome.elapsed))",
            "time to first token: \(outcome.timeToFirstToken.map(seconds) ?? "none")",
            "model: \(outcome.model ?? "unknown")",
            "stop reason: \(outcome.stopReason ?? "none")",
            "usage: input \(usage.inputTokens.map(String.init) ?? "?") tokens, output \(usage.outputTokens.map(String.init) ?? "?") tokens",
        ]
        lines += renderer.statistics
        var text = lines.map { "stream-render: " + $0 }.joined(separator: "\n") + "\n"
        text.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }

    static func error(_ message: String) {
        var line = "stream-render: error: \(message)\n"
        line.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }

    static func environment(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}

/// The entry point: ArgumentParser's own errors are mapped onto the documented exit
/// codes (its usage errors exit 64; ours exit 2) and read like ours: one line.
@main
enum Main {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `tokens` is dispatched by hand: the root command's optional FILE argument
        // would otherwise take the subcommand's name as a file name.
        if arguments.first == "tokens" {
            run(TokensCommand.self, Array(arguments.dropFirst()))
        } else {
            run(StreamRenderCommand.self, arguments)
        }
    }

    static func run<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) -> Never {
        do {
            var command = try type.parseAsRoot(arguments)
            try command.run()
            Foundation_exit(0)
        } catch let exit as ExitCode {
            Foundation_exit(exit.rawValue)
        } catch {
            let code = type.exitCode(for: error)
            if code == .success {
                print(type.fullMessage(for: error))
                Foundation_exit(0)
            }
            let message = type.message(for: error)
            let help = type == StreamRenderCommand.self ? "stream-render --help" : "stream-render tokens --help"
            StreamRenderCommand.error("\(message) (see '\(help)')")
            Foundation_exit(code == .validationFailure ? ExitStatus.usage.rawValue : (code.rawValue == 0 ? 1 : code.rawValue))
        }
    }
}

func Foundation_exit(_ code: Int32) -> Never {
    exit(code)
}
