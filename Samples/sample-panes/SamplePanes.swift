// sample-panes: a small TUI built from the library's lower-level parts and its
// synchronous core (no async). Two streams are rendered side by side, each in its
// own pane (a PaneView: the answer's tail, markdown and wide characters included),
// with a vertical rule between them and a status bar showing each stream's bytes,
// frames and state. Both are fed at a steady rate; every frame is composed into one
// Frame, diffed against what the screen shows (FrameDiff) and written by one
// ANSIEncoder, on the alternate screen with the cursor hidden. TerminalSession and
// SignalWatcher restore the terminal on every exit path: the end, Ctrl-C, a second
// Ctrl-C while a frame is stuck, Ctrl-Z (and `fg`); a resize re-wraps the panes.
//
//   swift run sample-panes                       # two built-in answers
//   swift run sample-panes Tests/StreamRenderTests/Resources/sse/coding-answer.anthropic.sse \
//       Tests/StreamRenderTests/Resources/answers/multilingual.md
//   swift run sample-panes --rate 2000 a.sse     # bytes a second per pane (default 400)
//   swift run sample-panes --frames 30 | wc -c   # a fixed number of frames, then exit
//
// Files may be SSE streams (Anthropic, OpenAI) or text; one file takes the left pane.
// Into a pipe it draws 60 frames (or --frames N) at 80x24 without waiting, so CI can
// run it. Exit status: 0 both streams complete, 1 one failed, 2 usage, 3 an
// unreadable file, 128+N a signal.
import StreamRender
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum SamplePanes {
    static let framesPerSecond = 30

    static func main() {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe ends the program quietly (see Display)
        let options = Options(Array(CommandLine.arguments.dropFirst()))
        var streams: [(name: String, bytes: [UInt8])] = []
        for path in options.files {
            guard let bytes = readFile(path) else { fail("cannot read \(path): \(String(cString: strerror(errno)))", 3) }
            streams.append((String(path.split(separator: "/").last ?? Substring(path)), bytes))
        }
        let builtIn = [("built-in code", BuiltInTexts.code), ("built-in languages", BuiltInTexts.languages)]
        for (name, text) in builtIn.dropFirst(streams.count) { streams.append((name, Array(text.utf8))) }

        let terminal = TerminalSession()
        let onTerminal = terminal.outputIsTerminal
        let frameLimit = options.frames ?? (onTerminal ? nil : 60)
        // The terminal's size, colours and widths (probed), as stream-render sets them up;
        // into a pipe, 80 by 24.
        let configuration = StreamRenderer.Configuration.forTerminal(
            terminal, choices: .init(output: onTerminal ? .fullscreen : .plain, width: onTerminal ? nil : 80,
                                     height: onTerminal ? nil : 24))
        let capabilities = configuration.capabilities
        var screen = PaneScreen(streams: streams, width: configuration.layout.width, height: configuration.height,
                                policy: configuration.layout.policy, theme: configuration.theme,
                                bytesPerFrame: max(1, options.rate / framesPerSecond))

        let signals = SignalWatcher.start()
        if onTerminal {
            terminal.disableEcho()
            // Written by the signal handler if a second Ctrl-C comes while a frame is stuck.
            terminal.setEmergencyRestore(ANSIEncoder.restoreSequence(fullscreen: true))
        }
        var display = Display(capabilities: capabilities)
        display.enter(height: screen.frame.height)
        let interval = Duration.seconds(1) / framesPerSecond
        var deadline = ContinuousClock.now
        var drawn = 0
        var stoppedBy: Int32?
        frames: while !display.isBroken {
            screen.advance()
            let finished = screen.isDone && frameLimit == nil
            if finished { screen.hint = isatty(STDIN_FILENO) != 0 ? "Enter quits" : "done" }
            screen.compose()
            display.draw(screen.frame, styles: screen.styles)
            drawn += 1
            if let frameLimit, drawn >= frameLimit { break }
            if finished && !onTerminal { break }
            // Wait for the next frame (in a pipe: not at all); once both streams are done,
            // for Enter (for 3 seconds when standard input is not a terminal).
            let waitsForKey = finished && isatty(STDIN_FILENO) != 0
            var until: ContinuousClock.Instant?
            if onTerminal && !finished {
                deadline += interval
                until = deadline
            } else if finished && !waitsForKey {
                until = .now + .seconds(3)
            }
            let wake = wait(signals: signals, input: waitsForKey ? STDIN_FILENO : nil, until: until, forever: waitsForKey)
            for signal in wake.signals {
                switch signal {
                case SIGINT, SIGTERM, SIGHUP:
                    stoppedBy = signal
                    break frames
                case SIGWINCH, SIGCONT:
                    if signal == SIGCONT { terminal.disableEcho() }  // continued in the foreground
                    if let size = terminal.size { screen.resize(width: size.columns, height: size.rows) }
                    display.repaint(height: screen.frame.height)
                case SIGTSTP:
                    display.leave()
                    terminal.stopProcess()  // returns when continued (`fg`)
                    if let size = terminal.size { screen.resize(width: size.columns, height: size.rows) }
                    display.enter(height: screen.frame.height)
                default:
                    break
                }
            }
            if wake.input {
                var line = [UInt8](repeating: 0, count: 256)
                _ = read(STDIN_FILENO, &line, line.count)  // the Enter that quits is not left for the shell
                break
            }
            if finished && wake.signals.isEmpty { break }  // the 3 seconds are over
            if ContinuousClock.now > deadline + interval { deadline = .now }  // fell behind: no burst of frames
        }
        display.leave()
        terminal.restoreModes()
        SignalWatcher.stop()
        let summary = screen.streams.map { s in
            let state = s.state == .streaming ? "stopped" : "\(s.state)"
            return "\(s.name): \(state), \(s.fed) of \(s.bytes.count) bytes, \(s.frames) frame\(s.frames == 1 ? "" : "s")"
        }
        display.write(summary.joined(separator: "\n") + "\n")
        if let stoppedBy { exit(128 + stoppedBy) }
        exit(screen.hasFailure ? 1 : 0)
    }

    /// Waits for a signal, a line on `input`, or `deadline` (nil: no wait at all
    /// unless `forever`).
    static func wait(signals: Int32, input: Int32?, until deadline: ContinuousClock.Instant?,
                     forever: Bool) -> (signals: [Int32], input: Bool) {
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
        if let input { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        var timeout: Int32 = forever ? -1 : 0
        if let deadline {
            let left = ContinuousClock.now.duration(to: deadline)
            timeout = left <= .zero ? 0 : Int32(left / .milliseconds(1)) + 1
        }
        _ = poll(&fds, nfds_t(fds.count), timeout)
        let taken = fds[0].revents & Int16(POLLIN) != 0 ? SignalWatcher.takeSignals() : []
        return (taken, fds.count > 1 && fds[1].revents != 0)
    }

    static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    static func fail(_ message: String, _ status: Int32) -> Never {
        var line = "sample-panes: \(message)\n"
        line.withUTF8 { _ = FileDescriptorSink.writeAll(STDERR_FILENO, $0) }
        exit(status)
    }
}

/// `[--rate BYTES_PER_SECOND] [--frames N] [LEFT [RIGHT]]`.
struct Options {
    var files: [String] = []
    var rate = 400
    var frames: Int?

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--rate", "--frames":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value >= 1 else {
                    SamplePanes.fail("\(argument) needs a positive number", 2)
                }
                if argument == "--rate" { rate = value } else { frames = value }
            case "-h", "--help":
                print("usage: sample-panes [--rate BYTES_PER_SECOND] [--frames N] [LEFT [RIGHT]]")
                exit(0)
            default:
                if argument.hasPrefix("-") { SamplePanes.fail("unknown option \(argument)", 2) }
                files.append(argument)
            }
        }
        if files.count > 2 { SamplePanes.fail("at most two files", 2) }
    }
}

/// The terminal side: the alternate screen, and frames written as the cells that
/// changed since the last one.
struct Display {
    private let capabilities: TerminalCapabilities
    private var encoder: ANSIEncoder
    private var shown = Frame(width: 1, height: 0)
    private var diff = FrameDiff()
    private var out: [UInt8] = []
    private let sink = FileDescriptorSink()
    private var entered = false

    init(capabilities: TerminalCapabilities) {
        self.capabilities = capabilities
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: true)
    }

    /// Whether standard output's reader went away.
    var isBroken: Bool { sink.isBroken }

    /// The alternate screen, cleared, the cursor hidden; the next frame is drawn whole.
    mutating func enter(height: Int) {
        out += ANSIEncoder.enterAlternateScreen(height: height)
        entered = true
        forget()
    }

    /// The screen cleared (after a resize or a continue); the next frame is drawn whole.
    mutating func repaint(height: Int) {
        out += ANSIEncoder.resetScreen(height: height)
        forget()
    }

    /// The cursor and pen are unknown and the screen blank.
    private mutating func forget() {
        encoder = ANSIEncoder(capabilities: capabilities, absoluteRows: true)
        shown = Frame(width: 1, height: 0)
    }

    mutating func draw(_ frame: Frame, styles: StyleTable) {
        if shown.width != frame.width || shown.height != frame.height { shown = Frame(width: frame.width, height: frame.height) }
        diff.compute(from: shown, to: frame)
        encoder.synchronized(&out) { out in
            encoder.encode(diff.changes, of: frame, styles: styles, into: &out)
        }
        shown = frame
        flush()
    }

    /// The normal screen back, the cursor shown.
    mutating func leave() {
        guard entered else { return }
        out += ANSIEncoder.leaveAlternateScreen
        entered = false
        flush()
    }

    mutating func write(_ text: String) {
        out += text.utf8
        flush()
    }

    private mutating func flush() {
        out.withUnsafeBufferPointer { sink.write($0) }
        out.removeAll(keepingCapacity: true)
    }
}
