// sample-panes: a small TUI whose program owns the screen and the loop. Three streams
// (three files, or built-in ones with thinking and tool calls) each go into an
// AnswerModel, fed at a steady rate as if from the network; a PanePresenter draws
// each, paced, into its column of one Frame; the program writes the status rows from
// the models' typed side events; an AlternateScreen writes what changed. Ctrl-C,
// Ctrl-Z (and `fg`) and a resize keep the terminal right.
//
//   swift run sample-panes                       # three built-in streams
//   swift run sample-panes a.sse b.md c.sse      # files: SSE (any provider) or text
//   swift run sample-panes --rate 4000 --frames 30   # bytes a second per pane (1200)
//
// Into a pipe it draws 60 frames (or --frames N) at 80x24 on a simulated clock, so CI
// can run it. Exit status: 0 all complete, 1 one failed, 2 usage, 3 an unreadable
// file, 128+N a signal.
import Foundation
import StreamRender

@main
enum SamplePanes {
    static func main() {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe ends the program quietly
        var (files, rate, frames) = ([String](), 1200, Int?.none)
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument == "--rate" || argument == "--frames" {
                guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 1 else { fail("\(argument) needs a positive number", 2) }
                if argument == "--rate" { rate = value } else { frames = value }
            } else if argument.hasPrefix("-") {
                fail("usage: sample-panes [--rate BYTES_PER_SECOND] [--frames N] [FILE...]", argument == "--help" || argument == "-h" ? 0 : 2)
            } else {
                files.append(argument)
            }
        }
        if files.count > 3 { fail("at most three files", 2) }
        var inputs = files.map { path in
            guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)", 3) }
            return (name: String(path.split(separator: "/").last ?? Substring(path)), bytes: [UInt8](data))
        }
        inputs += BuiltInStreams.all.dropFirst(inputs.count)

        let terminal = TerminalSession()
        let onTerminal = terminal.outputIsTerminal
        let frameLimit = frames ?? (onTerminal ? nil : 60)
        let configuration = StreamRenderer.Configuration.forTerminal(  // size, colours, widths; 80x24 into a pipe
            terminal, choices: .init(output: onTerminal ? .fullscreen : .plain, width: onTerminal ? nil : 80, height: onTerminal ? nil : 24))
        let fps = 30, interval = Duration.seconds(1) / fps
        let screen = PaneScreen(streams: inputs, width: configuration.layout.width, height: configuration.height,
                                policy: configuration.layout.policy, theme: configuration.theme, bytesPerFrame: max(1, rate / fps),
                                framesPerSecond: fps)
        let sink = FileDescriptorSink()
        var display = AlternateScreen(capabilities: configuration.capabilities, sink: sink, terminal: terminal)
        display.begin(height: screen.frame.height)  // echo off, signals watched, the alternate screen
        let start = ContinuousClock.now
        var stoppedBy: Int32?
        while !sink.isBroken {
            // On a terminal, real time; into a pipe, a frame's worth per frame.
            screen.advance(now: onTerminal ? start.duration(to: .now) : interval * display.framesWritten)
            let finished = screen.isDone && frameLimit == nil
            let waitsForKey = finished && isatty(STDIN_FILENO) != 0
            if finished { screen.hint = waitsForKey ? "Enter quits" : "done" }
            screen.compose()
            display.draw(screen.frame, styles: screen.styles)
            if display.framesWritten == frameLimit || (finished && !onTerminal) { break }
            // The next frame; once all are done, Enter (or 3 seconds without a terminal).
            let until: ContinuousClock.Instant? = waitsForKey ? nil : finished ? .now + .seconds(3) : start + interval * display.framesWritten
            let wake = SignalWatcher.wait(input: waitsForKey ? STDIN_FILENO : nil, until: until)
            let (stop, size) = display.respond(to: wake.signals)  // Ctrl-C, Ctrl-Z and `fg`, resizes
            if let size { screen.resize(width: size.columns, height: size.rows) }
            if let stop { stoppedBy = stop; break }
            if wake.input { _ = readLine(); break }  // the Enter that quits is not left for the shell
            if finished && wake.signals.isEmpty { break }  // the 3 seconds are over
        }
        display.end()
        for s in screen.streams {
            let state = s.model.outcome.map { $0.isComplete ? "done" : "failed: \(s.status)" } ?? "stopped"
            print("\(s.name): \(state), \(s.fed) of \(s.bytes.count) bytes, \(display.framesWritten) frames")
        }
        if let stoppedBy { exit(128 + stoppedBy) }
        exit(screen.hasFailure ? 1 : 0)
    }

    static func fail(_ message: String, _ status: Int32) -> Never {
        FileHandle.standardError.write(Data("sample-panes: \(message)\n".utf8))
        exit(status)
    }
}
