import ArgumentParser
import StreamRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ResponseDecoder.Format: ExpressibleByArgument {}
extension WidthPolicy.Mode: ExpressibleByArgument {}

/// `--output`: the live view's escape sequences, or plain text lines.
enum OutputKind: String, ExpressibleByArgument, CaseIterable {
    case ansi, plain
}

/// `--color`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Exit statuses: a public contract that scripts depend on.
enum ExitStatus: Int32 {
    case complete = 0
    /// The stream reported an error or ended without its terminal event.
    case streamFailed = 1
    case usage = 2
    case unreadableInput = 3
}

struct StreamRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-render",
        abstract: "Render a streaming LLM answer (server-sent events or text) as it arrives.",
        discussion: """
        Reads FILE, or standard input when FILE is absent or '-', and prints the answer's \
        text as it arrives, wrapped at --width columns (each line once it is final, the \
        current line as far as it can no longer change). With no FILE and a terminal on \
        standard input, shows a built-in demo.

          curl -N https://api.anthropic.com/v1/messages ... | stream-render
          stream-render answer.sse

        Exit status: 0 the stream completed; 1 the stream reported an error or ended \
        without its terminal event (message_stop, [DONE]); 2 usage error; 3 the input \
        could not be read.
        """,
        version: StreamRenderVersion.string
    )

    @Argument(help: "An SSE stream or text file; '-' or absent for standard input.")
    var file: String?

    @Option(help: "Input format: auto (detect from the first bytes), anthropic, openai or text.")
    var format: ResponseDecoder.Format = .auto

    @Flag(help: "Show thinking on standard output (by default it goes to standard error).")
    var showThinking = false

    @Flag(help: "Print statistics to standard error at the end: events, deltas, bytes, elapsed time, stop reason, usage.")
    var stats = false

    @Option(help: "The largest server-sent event accepted, in bytes; larger ones are dropped with an error.")
    var maxEventBytes: Int = 16 << 20

    @Option(help: "Wrap the answer at N columns (default: the terminal's width when standard output is a terminal, else 80; 0: do not wrap).")
    var width: Int?

    @Option(help: "How wide characters are: grapheme (a cluster is one run of cells, as modern terminals do) or wcwidth (the sum of its characters, as legacy terminals do).")
    var widthPolicy: WidthPolicy.Mode = .grapheme

    @Option(help: "Tabs expand to the next multiple of N columns.")
    var tabSize: Int = 8

    @Option(help: "Keep at most about N wrapped lines of history; older paragraphs are dropped whole (default 100000).")
    var maxLines: Int?

    @Option(help: "ansi: the live view (the default on a terminal; into a pipe it is how the bytes are captured); plain: text lines (the default otherwise).")
    var output: OutputKind?

    @Option(help: "Colours: auto (from TERM, COLORTERM, NO_COLOR, FORCE_COLOR), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Live view on the alternate screen, following the tail; the answer is printed into the normal screen at the end.")
    var fullscreen = false

    @Option(help: "Rows of the live view (default: the terminal's height, else 24).")
    var height: Int?

    @Flag(help: "Show the built-in demo (also the default with no FILE when standard input is a terminal).")
    var demo = false

    @Option(help: .hidden)
    var demoDelayMs: Int = 12

    func validate() throws {
        if maxEventBytes < 1 { throw ValidationError("--max-event-bytes must be at least 1") }
        if demoDelayMs < 0 { throw ValidationError("--demo-delay-ms must not be negative") }
        if let width, width < 0 { throw ValidationError("--width must be 0 (no wrapping) or more") }
        if tabSize < 1 { throw ValidationError("--tab-size must be at least 1") }
        if let maxLines, maxLines < 1 { throw ValidationError("--max-lines must be at least 1") }
        if let height, height < 1 { throw ValidationError("--height must be at least 1") }
        if output == .ansi && width == 0 { throw ValidationError("--width 0 (no wrapping) needs --output plain") }
    }

    func run() throws {
        // A closed pipe (`| head`) must end the program quietly, not kill it.
        signal(SIGPIPE, SIG_IGN)
        let output = OutputStreams()
        var session = PlainSession(format: format, maxEventBytes: maxEventBytes, showThinking: showThinking,
                                   output: output, answer: answerWriter(output))

        if demo || (file == nil && isatty(STDIN_FILENO) != 0) {
            for chunk in Demo.sseChunks() {
                chunk.withUnsafeBufferPointer { session.feed($0) }
                if demoDelayMs > 0 { usleep(UInt32(demoDelayMs) * 1000) }
            }
        } else {
            let fd: Int32
            let name = file ?? "-"
            if name == "-" {
                fd = STDIN_FILENO
            } else {
                fd = open(name, O_RDONLY)
                if fd < 0 {
                    output.error("cannot open \(name): \(String(cString: strerror(errno)))")
                    throw ExitCode(ExitStatus.unreadableInput.rawValue)
                }
            }
            defer { if fd != STDIN_FILENO { close(fd) } }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    session.finishAfterReadError()
                    output.error("cannot read \(name == "-" ? "standard input" : name) at byte \(session.bytesIn): \(String(cString: strerror(errno)))")
                    throw ExitCode(ExitStatus.unreadableInput.rawValue)
                }
                if count == 0 { break }
                buffer.withUnsafeBufferPointer { session.feed(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            }
        }
        let status = session.finish()
        if stats { session.printStats() }
        if status != .complete { throw ExitCode(status.rawValue) }
    }
}

extension StreamRenderCommand {
    /// The columns to wrap at: `--width`, else the terminal's, else 80.
    func resolvedWidth(_ output: OutputStreams) -> Int {
        if let width { return width }
        if output.stdoutIsTerminal, let size = terminalSize(STDOUT_FILENO) { return size.columns }
        return 80
    }

    func answerWriter(_ output: OutputStreams) -> any AnswerWriter {
        let environment = Self.environment(["TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TERM_PROGRAM"])
        var capabilities = TerminalCapabilities.detect(environment: environment,
                                                       isTerminal: output.stdoutIsTerminal || color == .always)
        switch color {
        case .never: capabilities.colors = .none
        case .always: capabilities.colors = max(capabilities.colors, .ansi16)
        case .auto: break
        }
        let kind = self.output ?? (output.stdoutIsTerminal && !capabilities.isDumb && width != 0 ? .ansi : .plain)
        let columns = resolvedWidth(output)
        var limits = HistoryLimits.standard
        if let maxLines { limits.maximumLines = maxLines }
        if columns == 0 { return RawAnswerWriter(output: output) }
        let settings = LayoutSettings(width: columns, tabSize: tabSize, policy: WidthPolicy(mode: widthPolicy))
        guard kind == .ansi else { return WrappedAnswerWriter(output: output, settings: settings, limits: limits) }
        if output.stdoutIsTerminal {  // the answers arrive on standard input, if it is the terminal
            let answers = TerminalProbe.query()
            if let synchronized = answers.synchronized { capabilities.synchronizedOutput = synchronized }
            if let graphemes = answers.graphemes { capabilities.graphemeClusters = graphemes }
        }
        let rows = height ?? (output.stdoutIsTerminal ? terminalSize(STDOUT_FILENO)?.rows : nil) ?? 24
        return LiveAnswerWriter(output: output, settings: settings, height: rows, fullscreen: fullscreen,
                                capabilities: capabilities, limits: limits)
    }

    static func environment(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}

/// The entry point: ArgumentParser's own exit codes are mapped onto the documented
/// ones (its usage errors exit 64; ours exit 2).
@main
enum Main {
    static func main() {
        do {
            var command = try StreamRenderCommand.parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation_exit(exit.rawValue)
        } catch {
            let code = StreamRenderCommand.exitCode(for: error)
            let message = StreamRenderCommand.fullMessage(for: error)
            if code == .success {
                print(message)
                Foundation_exit(0)
            }
            if code == .validationFailure {
                FileDescriptorWriter.write(STDERR_FILENO, message + "\n")
                Foundation_exit(ExitStatus.usage.rawValue)
            }
            FileDescriptorWriter.write(STDERR_FILENO, "stream-render: error: \(message)\n")
            Foundation_exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }
}

func Foundation_exit(_ code: Int32) -> Never {
    exit(code)
}
