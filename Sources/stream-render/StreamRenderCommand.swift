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
extension StreamRenderer.Configuration.TerminalChoices.Colors: ExpressibleByArgument {}

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
    case auto, grapheme, wcwidth, scalars
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

/// `--format`, the input file, replay and limits.
struct InputOptions: ParsableArguments {
    @Argument(help: "An SSE stream or text file; '-' or absent for standard input.")
    var file: String?

    @Option(name: [.short, .long], help: "Input format: auto (detect from the first bytes), anthropic, openai, gemini (streamGenerateContent?alt=sse), ollama (NDJSON from /api/chat or /api/generate), sse-text (SSE whose data lines are the text) or text.")
    var format: ResponseDecoder.Format = .auto

    @Option(parsing: .unconditional, help: "The largest server-sent event accepted, in bytes; larger ones are dropped with an error.")
    var maxEventBytes: Int = 16 << 20

    @Option(parsing: .unconditional, help: ArgumentHelp("End with an error (exit 1) when no input arrives for SECONDS (decimals allowed); what arrived is shown.", valueName: "seconds"))
    var idleTimeout: Double?

    @Flag(help: "Play FILE (or standard input, read to its end first) at the arrival times recorded in it: comment lines ': t=<ms>' in an SSE capture; a file without them plays one event (or text piece) at a time at --replay-rate.")
    var replay = false

    @Option(parsing: .unconditional, help: "--replay without recorded times: N events (or text pieces of about 4 bytes) a second.")
    var replayRate: Double = 60
}

/// How the answer is laid out and drawn.
struct ViewOptions: ParsableArguments {
    @Option(name: [.short, .long], parsing: .unconditional, help: "Wrap the answer at N columns, 1-\(StreamRenderCommand.maximumWidth) (default: the terminal's width when standard output is a terminal, else $COLUMNS, else 80; 0: do not wrap, plain output only, the text as it arrived). The live view never draws wider than the terminal.")
    var width: Int?

    @Option(help: "ansi: the live view (the default on a terminal; into a pipe it is how the bytes are captured); plain: text lines (the default otherwise).")
    var output: OutputKind?

    @Flag(help: "Live view on the alternate screen, following the tail; the answer is printed into the normal screen at the end (also on Ctrl-C).")
    var fullscreen = false

    @Option(parsing: .unconditional, help: "Rows of the live view, 1-\(StreamRenderCommand.maximumHeight) (default: the terminal's height, else 24; never more than the terminal's).")
    var height: Int?

    @Option(help: "How wide characters are: auto (grapheme where the terminal reports mode 2027, else wcwidth; in a live view, fitted to what the terminal does with emoji ZWJ sequences, flags, VS16 and VS15, Indic clusters and East Asian Ambiguous characters, measured out of sight with cursor position reports), grapheme (a cluster is one run of cells), wcwidth (the sum of its characters, as most terminals and tmux draw them) or scalars (wcwidth without tmux's joins: a ZWJ sequence as wide as its parts, a flag as two).")
    var widthPolicy: WidthPolicyChoice = .auto

    @Option(parsing: .unconditional, help: "Tabs expand to the next multiple of N columns (1-64).")
    var tabSize: Int = 8

    @Option(parsing: .unconditional, help: "Keep at most about N wrapped lines of history; older paragraphs are dropped whole (default 100000).")
    var maxLines: Int?

    @Option(parsing: .unconditional, help: "At most N frames a second for the live view (1-1000); frames are drawn only when something changed.")
    var fps: Int = 60
}

/// Markdown, themes and colours.
struct StyleOptions: ParsableArguments {
    @Option(help: "Render the answer as markdown: on (headings, emphasis, lists, quotes, code blocks, tables, links; also into pipes, as text) or off (the text as it arrived).")
    var markdown: Switch = .on

    @Option(help: "LaTeX math in the answer ($…$, $$…$$, \\(…\\), \\[…\\]): on (drawn with Unicode: x², √x, ∑ᵢ, ℝ, α⁄β; display math centred) or off (shown as written).")
    var math: Switch = .on

    @Option(help: "Markdown styles: dark, light or monochrome (bold, italic, underline and dim only; the default when NO_COLOR is set or there are no colours).")
    var theme: ThemeChoice?

    @Option(help: "Colours: auto (from TERM, COLORTERM, NO_COLOR, FORCE_COLOR), always or never. Always also styles plain output (into a pipe or file: styled lines, no cursor movement, for `| less -R`).")
    var color: StreamRenderer.Configuration.TerminalChoices.Colors = .auto

    @Flag(help: "No colours (as --color never, or NO_COLOR=1): bold, italic, underline and dim only.")
    var noColor = false

    @Flag(help: "Show thinking in the answer (by default it goes to standard error).")
    var showThinking = false
}

/// The typewriter pacer.
struct PacingOptions: ParsableArguments {
    @Option(help: "Typewriter pace of the live view: N grapheme clusters a second (rising as needed to keep within --max-lag), or 'off' to show text as it arrives. Plain output is never paced.")
    var pace: String = "150"

    @Flag(help: "Reveal whole words at a time instead of single characters.")
    var paceWords = false

    @Option(name: .customLong("max-lag"), parsing: .unconditional, help: ArgumentHelp("The live view never shows text later than MS milliseconds after it arrived (plus one frame).", valueName: "ms"))
    var maxLag: Int = 300

    @Option(name: .customLong("drain"), parsing: .unconditional, help: ArgumentHelp("When the input ends, what is still unrevealed is shown within MS milliseconds.", valueName: "ms"))
    var drain: Int = 200
}

/// What is reported and saved besides the answer.
struct ReportOptions: ParsableArguments {
    @Flag(help: "Print statistics to standard error at the end: model, time to first token, tokens/s, stop reason, usage, events, deltas, bytes, elapsed time, history.")
    var stats = false

    @Flag(help: "With --stats, also the live view's internal counters (frames and bytes written), the peak memory and the width policy (as measured on the terminal).")
    var verbose = false

    @Option(help: ArgumentHelp("Write each finished code block of the answer to DIR (created if needed), named by the number its label shows and its language: 1.swift, 2.py, 3.txt...", valueName: "dir"))
    var saveCode: String?

    @Option(help: ArgumentHelp("At the end, put code block N (the number its label shows: '2 · python') or the last one on the clipboard, its exact source, through the terminal (OSC 52: works over SSH, and in tmux with set-clipboard on). Only to a terminal, never into a pipe or file.", valueName: "n|last"))
    var copy: String?

    @Flag(help: "Show the built-in demo (also the default with no FILE when standard input is a terminal).")
    var demo = false

    @Option(help: "A status line below the live view while the answer streams (inline view): a spinner before the first token and during stalls, then elapsed time and tokens/s; it disappears at the end. on or off (default: on for the demo, off otherwise).")
    var status: Switch?

    @Option(help: .hidden)
    var demoDelayMs: Int?
}

struct StreamRenderCommand: ParsableCommand {
    static let maximumWidth = StreamRenderer.Configuration.maximumWidth
    static let maximumHeight = 1000

    static let configuration = CommandConfiguration(
        commandName: "stream-render",
        abstract: "Render a streaming LLM answer (server-sent events or text) as it arrives.",
        discussion: """
        Reads FILE, or standard input when FILE is absent or '-', and shows the answer as \
        it arrives. On a terminal it is drawn live: finished lines go into the \
        scrollback, the unfinished tail is redrawn (at most --fps frames a second), and \
        text is revealed at a reading pace (--pace, rising as needed so nothing shows \
        more than --max-lag late). Into a pipe it prints the answer wrapped at --width \
        columns (each line once it is final). Anthropic and OpenAI streams are detected, \
        as are whole (non-streamed) responses and API error bodies; anything else is \
        shown as text. With no FILE and a terminal on standard input, shows a built-in demo.

        Examples:
          curl -N https://api.anthropic.com/v1/messages \\
            -H "x-api-key: $ANTHROPIC_API_KEY" -H "anthropic-version: 2023-06-01" \\
            -H "content-type: application/json" \\
            -d '{"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": true,
                 "messages": [{"role": "user", "content": "Hello"}]}' | stream-render

          curl -N https://api.openai.com/v1/chat/completions \\
            -H "Authorization: Bearer $OPENAI_API_KEY" \\
            -H "content-type: application/json" \\
            -d '{"model": "gpt-4o", "stream": true,
                 "messages": [{"role": "user", "content": "Hello"}]}' | stream-render

          stream-render answer.sse > answer.txt   # wrapped at $COLUMNS or 80
          stream-render -w 60 --pace-words answer.sse
          stream-render --replay capture.sse      # at its recorded times
          stream-render --save-code out --stats answer.sse

        Defaults for any option can be set in STREAM_RENDER_OPTS (e.g. \
        STREAM_RENDER_OPTS="--theme light --pace 200"); the command line wins. Shell \
        completions: stream-render --generate-completion-script bash|zsh|fish.

        Exit status: 0 the stream completed; 1 the stream failed: it reported an error \
        (an error event or an API error body), ended without its terminal event \
        (message_stop, [DONE]), lost text to malformed or oversized events, stalled \
        past --idle-timeout, or was empty; 2 usage error; 3 the input could not be \
        read; 128+N ended by signal N (130: Ctrl-C), after showing everything that had \
        arrived.
        """,
        version: StreamRenderVersion.string,
        subcommands: [TokensCommand.self]
    )

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "View") var view: ViewOptions
    @OptionGroup(title: "Markdown and colour") var style: StyleOptions
    @OptionGroup(title: "Pacing") var pacing: PacingOptions
    @OptionGroup(title: "Reports and extras") var report: ReportOptions

    func validate() throws {
        try Invocation(self).validate()
    }

    func run() throws {
        try Invocation(self).run()
    }

    /// The whole of `descriptor` (for `--replay`), or nil if reading failed.
    static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // A non-blocking standard input is waited on, not read in a spin.
            let count = buffer.withUnsafeMutableBytes { FileDescriptorSink.readSome(descriptor, into: $0) }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    /// The process's peak resident memory (Linux's VmHWM), nil where unknown.
    static func peakMemoryKB() -> Int? {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 8192)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let status = String(decoding: bytes[..<n], as: UTF8.self)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0.filter(\.isNumber)) }
    }

    /// Output tokens over the time from the first token to the end (the usage's count,
    /// else one per delta, marked so).
    static func tokensPerSecond(_ outcome: StreamRenderer.Outcome) -> String {
        guard let first = outcome.timeToFirstToken else { return "none" }
        let span = outcome.elapsed - first
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) * 1e-18
        guard seconds > 0.001 else { return "none" }
        let rounded = { (x: Double) in String(Double(Int((x * 10).rounded())) / 10) }
        if let tokens = outcome.usage.outputTokens { return rounded(Double(tokens) / seconds) }
        return rounded(Double(outcome.deltaCount) / seconds) + " (deltas: the stream reported no token count)"
    }

    static func error(_ message: String) {
        var line = "stream-render: error: \(message)\n"
        line.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }
}

/// The entry point: ArgumentParser's own errors are mapped onto the documented exit
/// codes (its usage errors exit 64; ours exit 2) and read like ours: one line.
@main
enum Main {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        // Defaults from STREAM_RENDER_OPTS go first: the command line wins (a later
        // option overrides an earlier one). Not for `tokens`.
        if arguments.first != "tokens", let value = getenv("STREAM_RENDER_OPTS") {
            switch ShellWords.split(String(cString: value)) {
            case .success(let words):
                // Options only: a FILE in the defaults would be read every time.
                arguments = words + arguments
            case .failure(let error):
                StreamRenderCommand.error("STREAM_RENDER_OPTS: \(error)")
                Foundation_exit(ExitStatus.usage.rawValue)
            }
        }
        // `tokens` is dispatched by hand: the root command's optional FILE argument
        // would otherwise take the subcommand's name as a file name.
        if arguments.first == "tokens" {
            run(TokensCommand.self, Array(arguments.dropFirst()))
        } else if let invocation = Invocation.withCommonOptions(arguments) {
            finish(StreamRenderCommand.self) { try invocation.run() }  // read by hand, validated as ArgumentParser's
        } else {
            run(StreamRenderCommand.self, arguments)
        }
    }

    static func run<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) -> Never {
        finish(type) {
            var command = try type.parseAsRoot(arguments)
            try command.run()
        }
    }

    /// Runs `body` and exits with its status; `type`'s errors are reported as it would.
    static func finish<Command: ParsableCommand>(_ type: Command.Type, _ body: () throws -> Void) -> Never {
        do {
            try body()
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
