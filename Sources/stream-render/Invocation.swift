import ArgumentParser
import StreamRender

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line's values as plain data, which `run` reads. The common invocations
/// (no options: `… | stream-render`, `stream-render answer.sse`) are read without
/// ArgumentParser, whose reflection over the option groups was 4 ms of a 10 ms start
/// (issue 24); anything else is parsed by it and copied here. `InvocationTests` check
/// that both give the same values (the defaults below are the options' defaults).
struct Invocation: Equatable {
    struct Input: Equatable {
        var file: String?
        var format: ResponseDecoder.Format = .auto
        var maxEventBytes: Int = 16 << 20
        var idleTimeout: Double?
        var replay = false
        var replayRate: Double = 60
    }

    struct View: Equatable {
        var width: Int?
        var output: OutputKind?
        var fullscreen = false
        var height: Int?
        var widthPolicy: WidthPolicyChoice = .auto
        var tabSize: Int = 8
        var maxLines: Int?
        var fps: Int = 60
    }

    struct Styles: Equatable {
        var markdown: Switch = .on
        var math: Switch = .on
        var theme: ThemeChoice?
        var color: StreamRenderer.Configuration.TerminalChoices.Colors = .auto
        var noColor = false
        var showThinking = false
    }

    struct Pacing: Equatable {
        var pace: String = "150"
        var paceWords = false
        var maxLag: Int = 300
        var drain: Int = 200
    }

    struct Report: Equatable {
        var stats = false
        var verbose = false
        var saveCode: String?
        var copy: String?
        var demo = false
        var status: Switch?
        var demoDelayMs: Int?
    }

    var input = Input()
    var view = View()
    var style = Styles()
    var pacing = Pacing()
    var report = Report()

    /// The defaults, reading `file` (nil: standard input, or the demo on a terminal).
    init(file: String? = nil) {
        input.file = file
    }

    /// The values ArgumentParser parsed.
    init(_ command: StreamRenderCommand) {
        let i = command.input, v = command.view, s = command.style, p = command.pacing, r = command.report
        input = Input(file: i.file, format: i.format, maxEventBytes: i.maxEventBytes, idleTimeout: i.idleTimeout,
                      replay: i.replay, replayRate: i.replayRate)
        view = View(width: v.width, output: v.output, fullscreen: v.fullscreen, height: v.height, widthPolicy: v.widthPolicy,
                    tabSize: v.tabSize, maxLines: v.maxLines, fps: v.fps)
        style = Styles(markdown: s.markdown, math: s.math, theme: s.theme, color: s.color, noColor: s.noColor,
                       showThinking: s.showThinking)
        pacing = Pacing(pace: p.pace, paceWords: p.paceWords, maxLag: p.maxLag, drain: p.drain)
        report = Report(stats: r.stats, verbose: r.verbose, saveCode: r.saveCode, copy: r.copy, demo: r.demo,
                        status: r.status, demoDelayMs: r.demoDelayMs)
    }

    /// The invocation `arguments` make when they hold no option: none, or one FILE
    /// (`-` included) that is not a word ArgumentParser reads otherwise (`help`, the
    /// `tokens` subcommand). Nil for anything else. (The subset of
    /// ``withCommonOptions(_:)`` without options, which `InvocationTests` name.)
    static func withoutOptions(_ arguments: [String]) -> Invocation? {
        arguments.count <= 1 ? withCommonOptions(arguments) : nil  // (one word: a FILE, or not read)
    }

    /// The invocation `arguments` make when they hold at most one FILE (not `help` nor
    /// `tokens`, which ArgumentParser reads otherwise) and options of those a pipeline or script passes
    /// (`--color`, `--output`, `--pace`, `--width`/`-w`, `--height`, `--markdown`,
    /// `--math`, `--status`, `--format`/`-f`, `--theme`, `--width-policy`, the numbers
    /// of ``setNumber(_:_:)``; the flags `--show-thinking`, `--no-color`, `--fullscreen`,
    /// `--replay`, `--pace-words`, `--stats`, `--verbose`), each once, a value in the next word and valid
    /// (``validate()``): `… --color always | less -R` started as slowly as any option did,
    /// and ArgumentParser's reading of `--format` or `--theme` cost 4.6 times the rest of
    /// the start-up (decision 0022). Nil for anything
    /// else (another option, `--width=80`, a repeated option, a value ArgumentParser
    /// would refuse): ArgumentParser parses it and reports what is wrong.
    static func withCommonOptions(_ arguments: [String]) -> Invocation? {
        var invocation = Invocation()
        var seen: Set<String> = []
        var file: String?
        var k = 0
        while k < arguments.count {
            let word = arguments[k]
            guard word.hasPrefix("-") && word != "-" else {
                guard file == nil, word != "help", word != "tokens" else { return nil }
                file = word
                k += 1
                continue
            }
            let name = word == "-w" ? "--width" : word == "-f" ? "--format" : word
            guard seen.insert(name).inserted else { return nil }
            if invocation.setFlag(name) {
                k += 1
                continue
            }
            guard k + 1 < arguments.count else { return nil }
            let value = arguments[k + 1]
            switch name {
            case "--format":
                guard let format = ResponseDecoder.Format(argument: value) else { return nil }
                invocation.input.format = format
            case "--theme":
                guard let theme = ThemeChoice(argument: value) else { return nil }
                invocation.style.theme = theme
            case "--width-policy":
                guard let policy = WidthPolicyChoice(argument: value) else { return nil }
                invocation.view.widthPolicy = policy
            case "--color":
                guard let color = StreamRenderer.Configuration.TerminalChoices.Colors(argument: value) else { return nil }
                invocation.style.color = color
            case "--output":
                guard let output = OutputKind(argument: value) else { return nil }
                invocation.view.output = output
            case "--pace":
                invocation.pacing.pace = value
            case "--markdown", "--math", "--status":
                guard let choice = Switch(argument: value) else { return nil }
                switch name {
                case "--markdown": invocation.style.markdown = choice
                case "--math": invocation.style.math = choice
                default: invocation.report.status = choice
                }
            default:
                guard invocation.setNumber(name, value) else { return nil }
            }
            k += 2
        }
        invocation.input.file = file
        guard (try? invocation.validate()) != nil else { return nil }
        return invocation
    }

    /// Sets the flag `name` of the fast reading (``withCommonOptions(_:)``); false when
    /// `name` is none of them.
    private mutating func setFlag(_ name: String) -> Bool {
        switch name {
        case "--show-thinking": style.showThinking = true
        case "--no-color": style.noColor = true
        case "--fullscreen": view.fullscreen = true
        case "--replay": input.replay = true
        case "--pace-words": pacing.paceWords = true
        case "--stats": report.stats = true
        case "--verbose": report.verbose = true
        default: return false
        }
        return true
    }

    /// Sets the numeric option `name` of the fast reading to `value` (any word: these
    /// options take the next one, as ArgumentParser's `.unconditional` parsing does);
    /// false when `name` is none of them or `value` is not a number. (ArgumentParser's
    /// reading of `--fps` or `--max-lines` cost 19 M instructions, 4 ms: a start without
    /// it is 4 M.)
    private mutating func setNumber(_ name: String, _ value: String) -> Bool {
        switch name {
        case "--width", "--height", "--fps", "--max-lines", "--tab-size", "--max-lag", "--drain", "--max-event-bytes":
            guard let number = Int(value) else { return false }
            switch name {
            case "--width": view.width = number
            case "--height": view.height = number
            case "--fps": view.fps = number
            case "--max-lines": view.maxLines = number
            case "--tab-size": view.tabSize = number
            case "--max-lag": pacing.maxLag = number
            case "--drain": pacing.drain = number
            default: input.maxEventBytes = number
            }
        case "--idle-timeout", "--replay-rate":
            guard let number = Double(value) else { return false }
            if name == "--idle-timeout" { input.idleTimeout = number } else { input.replayRate = number }
        default:
            return false
        }
        return true
    }

    /// The values' ranges and combinations (ArgumentParser's `validate`, and the fast
    /// reading's: one set of rules).
    func validate() throws {
        if input.maxEventBytes < 1 { throw ValidationError("--max-event-bytes must be at least 1") }
        if let delay = report.demoDelayMs, delay < 0 { throw ValidationError("--demo-delay-ms must not be negative") }
        if pacing.pace != "off", Double(pacing.pace).map({ !($0 >= 1 && $0 <= 1_000_000) }) ?? true {
            throw ValidationError("--pace must be 'off' or a number of clusters a second, 1 to 1000000")
        }
        if pacing.maxLag < 0 || pacing.maxLag > 60_000 { throw ValidationError("--max-lag must be 0 to 60000 milliseconds") }
        if pacing.drain < 0 || pacing.drain > 60_000 { throw ValidationError("--drain must be 0 to 60000 milliseconds") }
        if !(input.replayRate > 0 && input.replayRate <= 1_000_000) {
            throw ValidationError("--replay-rate must be more than 0 and at most 1000000")
        }
        if let idle = input.idleTimeout, !(idle > 0 && idle <= 86_400) {
            throw ValidationError("--idle-timeout must be more than 0 and at most 86400 seconds")
        }
        if let width = view.width, width < 0 || width > StreamRenderCommand.maximumWidth {
            throw ValidationError("--width must be 0 (no wrapping) or 1 to \(StreamRenderCommand.maximumWidth)")
        }
        if view.tabSize < 1 || view.tabSize > 64 { throw ValidationError("--tab-size must be 1 to 64") }
        if let maxLines = view.maxLines, maxLines < 1 { throw ValidationError("--max-lines must be at least 1") }
        if let height = view.height, height < 1 || height > StreamRenderCommand.maximumHeight {
            throw ValidationError("--height must be 1 to \(StreamRenderCommand.maximumHeight)")
        }
        if view.fps < 1 || view.fps > 1000 { throw ValidationError("--fps must be 1 to 1000") }
        if view.output == .ansi && view.width == 0 { throw ValidationError("--width 0 (no wrapping) needs --output plain") }
        if report.saveCode?.isEmpty == true { throw ValidationError("--save-code needs a directory") }
        if let copy = report.copy, ClipboardCopy.parse(copy) == nil {
            throw ValidationError("--copy must be 'last' or a code block number from 1")
        }
    }

    func run() throws {
        // A closed pipe (`| head`) must end the program quietly, not kill it.
        signal(SIGPIPE, SIG_IGN)
        let terminal = TerminalSession(output: STDOUT_FILENO)
        let useDemo = usesDemo
        var descriptor: Int32 = STDIN_FILENO
        let name = input.file ?? "-"
        if !useDemo && name != "-" {
            descriptor = open(name, O_RDONLY | O_CLOEXEC)
            if descriptor < 0 {
                StreamRenderCommand.error("cannot open \(name): \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.unreadableInput.rawValue)
            }
        }
        var saver: CodeSaver?
        if let directory = report.saveCode {
            do {
                saver = try CodeSaver(directory: directory)
            } catch {
                StreamRenderCommand.error("\(error)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
        // Handlers first: a Ctrl-C during the terminal probe (in makeConfiguration) must
        // find the modes it changed restored, not kill the process with them raw.
        let signals = SignalWatcher.start()
        let (configuration, onTerminal) = makeConfiguration(terminal)
        let sink = FileDescriptorSink(messagePrefix: "stream-render: ")
        let renderer = StreamRenderer(configuration: configuration, sink: sink)
        let copier = report.copy.flatMap(ClipboardCopy.parse).map(ClipboardCopy.init)
        if saver != nil || copier != nil {
            renderer.onCodeBlock = { block in
                saver?.save(block)
                copier?.see(block)
            }
        }
        if onTerminal {
            terminal.disableEcho()
            terminal.setEmergencyRestore(ANSIEncoder.restoreSequence(fullscreen: configuration.output == .fullscreen))
        }
        var loop = RenderLoop(renderer: renderer, sink: sink, terminal: terminal, signalDescriptor: signals,
                              explicitWidth: view.width, explicitHeight: view.height)
        loop.idleTimeout = input.idleTimeout.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        let outcome: StreamRenderer.Outcome
        let ending: RenderLoop.Ending
        if useDemo {
            if let delay = report.demoDelayMs {
                ending = loop.run(chunks: Demo.capture.chunks.map(\.bytes), every: .milliseconds(delay))
            } else {
                ending = loop.run(replaying: Demo.capture.chunks)
            }
        } else if input.replay {
            guard let bytes = StreamRenderCommand.readAll(descriptor) else {
                terminal.restoreModes()
                SignalWatcher.stop()
                StreamRenderCommand.error("cannot read \(name == "-" ? "standard input" : name): \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.unreadableInput.rawValue)
            }
            ending = loop.run(replaying: ReplayCapture(bytes, tokensPerSecond: input.replayRate).chunks)
        } else {
            ending = loop.run(reading: descriptor, name: name == "-" ? "standard input" : name)
        }
        terminal.restoreModes()
        SignalWatcher.stop()
        saver?.report()
        // The process ends after this: the renderer is not freed. Freeing its history
        // (thousands of paragraphs and lines) took 3% of a live view's run.
        _ = Unmanaged.passRetained(renderer)
        switch ending {
        case .brokenPipe:
            if let failure = sink.failure, failure != EPIPE {
                StreamRenderCommand.error("cannot write the output: \(String(cString: strerror(failure)))")
                throw ExitCode(ExitStatus.streamFailed.rawValue)
            }
            throw ExitCode(0)  // the reader went away (`| head`): not an error
        case .signal(let number, let result):
            if report.stats { printStats(result, renderer, widths: terminal.widths) }
            throw ExitCode(128 + number)
        case .finished(let result):
            outcome = result
        }
        copier?.finish()
        if report.stats { printStats(outcome, renderer, widths: terminal.widths) }
        if outcome.ending == .empty && name == "-" && !useDemo {
            // Nothing was piped in: say how it is used rather than only that it was empty.
            var hint = """
            stream-render: usage: pipe a streaming answer in (curl -N … | stream-render), name a file \
            (stream-render answer.sse), or run stream-render on a terminal with no input for a demo; \
            see 'stream-render --help'

            """
            hint.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
        }
        if saver?.failed == true { throw ExitCode(ExitStatus.streamFailed.rawValue) }
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
        let live: StreamRenderer.Configuration.Output = view.fullscreen ? .fullscreen : .inline
        let policy: WidthPolicy? = switch view.widthPolicy {
        case .grapheme: .grapheme
        case .wcwidth: .wcwidth
        case .scalars: .scalars
        case .auto: nil
        }
        let theme: MarkdownTheme? = switch style.theme {
        case .dark: .dark
        case .light: .light
        case .monochrome: .monochrome
        case nil: nil
        }
        let choices = StreamRenderer.Configuration.TerminalChoices(
            output: view.output.map { $0 == .plain ? .plain : live }, liveView: live, colors: style.noColor ? .never : style.color,
            width: view.width, height: view.height, widthPolicy: policy, theme: theme, tabSize: view.tabSize)
        var configuration = StreamRenderer.Configuration.forTerminal(terminal, choices: choices)
        configuration.format = input.format
        configuration.maximumEventBytes = input.maxEventBytes
        if let maxLines = view.maxLines { configuration.limits.maximumLines = maxLines }
        configuration.showThinking = style.showThinking
        configuration.framesPerSecond = view.fps
        configuration.eventLimitName = "--max-event-bytes"
        configuration.markdown = style.markdown == .on
        configuration.math = style.math == .on
        configuration.pacing = pacerSettings
        configuration.showsStatus = (report.status ?? (usesDemo ? .on : .off)) == .on
        return (configuration, terminal.outputIsTerminal)
    }

    /// `--demo`, or no FILE with a terminal on standard input.
    var usesDemo: Bool { report.demo || (input.file == nil && isatty(STDIN_FILENO) != 0) }

    /// `--pace`, `--pace-words`, `--max-lag`, `--drain`.
    var pacerSettings: Pacer.Settings? {
        guard pacing.pace != "off", let rate = Double(pacing.pace) else { return nil }
        return Pacer.Settings(pace: rate, maximumLag: .milliseconds(pacing.maxLag), drainTime: .milliseconds(pacing.drain),
                              revealsWords: pacing.paceWords)
    }

    func printStats(_ outcome: StreamRenderer.Outcome, _ renderer: StreamRenderer, widths: WidthCalibration?) {
        func seconds(_ d: Duration) -> String {
            let ms = Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
            let fraction = String(ms % 1000)
            return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + " s"
        }
        let usage = outcome.usage
        var lines = [
            "model: \(outcome.model ?? "unknown")",
            "time to first token: \(outcome.timeToFirstToken.map(seconds) ?? "none")",
            "tokens/s: \(StreamRenderCommand.tokensPerSecond(outcome))",
            "stop reason: \(outcome.stopReason ?? "none")",
            "usage: input \(usage.inputTokens.map(String.init) ?? "?") tokens, output \(usage.outputTokens.map(String.init) ?? "?") tokens",
            "elapsed: \(seconds(outcome.elapsed))",
            "events: \(outcome.eventCount)",
            "deltas: \(outcome.deltaCount)",
            "bytes in: \(outcome.bytesIn)",
        ]
        let statistics = renderer.statistics
        // The view's frames and bytes are internal counters: --verbose only.
        lines += report.verbose ? statistics : statistics.filter { $0.hasPrefix("history:") }
        if report.verbose, let peak = StreamRenderCommand.peakMemoryKB() { lines.append("peak memory: \(peak) KB") }
        if report.verbose {
            lines.append("width policy: \(renderer.configuration.layout.policy) (\(widths.map { "measured: \($0)" } ?? "not measured"))")
        }
        var text = lines.map { "stream-render: " + $0 }.joined(separator: "\n") + "\n"
        text.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
    }
}
