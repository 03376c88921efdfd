@_spi(Benchmarks) @testable import StreamRender
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Configuration.forTerminal`: the terminal set-up the CLI and the samples share,
/// on a pipe and on a pseudo-terminal of a known size.
@Suite struct TerminalConfigurationTests {
    typealias Configuration = StreamRenderer.Configuration
    typealias Choices = Configuration.TerminalChoices

    /// Calls `body` with a session whose output is a pipe.
    static func onPipe<T>(_ body: (TerminalSession) -> T) -> T {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        return body(TerminalSession(output: fds[1]))
    }

    /// Calls `body` with a session whose output is a pseudo-terminal of `columns` x `rows`.
    static func onTerminal<T>(columns: Int, rows: Int, _ body: (TerminalSession) -> T) -> T {
        guard let (primary, secondary) = openPseudoTerminal(columns: columns, rows: rows) else { fatalError("no pseudo-terminal") }
        defer { close(secondary); close(primary) }
        return body(TerminalSession(output: secondary))
    }

    static let xterm = ["TERM": "xterm-256color"]

    @Test func aPipeGetsPlainLinesAtColumnsOrEighty() {
        Self.onPipe { session in
            let standard = Configuration.forTerminal(session, environment: Self.xterm)
            #expect(standard.output == .plain && standard.layout.width == 80 && standard.wrapsPlainText)
            #expect(!standard.stylesPlainText && !standard.endsOnFreshLine)
            #expect(standard.capabilities.colors == .none && standard.theme == .monochrome)
            let columns = Configuration.forTerminal(session, environment: Self.xterm.merging(["COLUMNS": "132"]) { $1 })
            #expect(columns.layout.width == 132)
            // Out of range or not a number: the default.
            for bad in ["0", "-3", "99999", "wide"] {
                #expect(Configuration.forTerminal(session, environment: ["COLUMNS": bad]).layout.width == 80, "\(bad)")
            }
            let unwrapped = Configuration.forTerminal(session, environment: Self.xterm, choices: Choices(width: 0))
            #expect(unwrapped.output == .plain && !unwrapped.wrapsPlainText)
        }
    }

    @Test func colorsAlwaysIntoAPipeStylesThePlainLines() {
        Self.onPipe { session in
            let styled = Configuration.forTerminal(session, environment: Self.xterm, choices: Choices(colors: .always))
            #expect(styled.output == .plain && styled.stylesPlainText)
            #expect(styled.capabilities.colors >= .ansi16 && styled.theme == .dark)
            // A live view asked for into a pipe (a file to replay): no clamping, no probe.
            let live = Configuration.forTerminal(session, environment: Self.xterm,
                                                 choices: Choices(output: .fullscreen, width: 300, height: 50))
            #expect(live.output == .fullscreen && live.layout.width == 300 && live.height == 50 && !live.stylesPlainText)
        }
    }

    @Test func aTerminalGetsTheLiveViewAtItsSize() {
        Self.onTerminal(columns: 100, rows: 30) { session in
            let standard = Configuration.forTerminal(session, environment: Self.xterm, choices: Choices(probesTerminal: false))
            #expect(standard.output == .inline && standard.layout.width == 100 && standard.height == 30)
            #expect(standard.endsOnFreshLine && standard.capabilities.colors == .palette256 && standard.theme == .dark)
            // Without the probe's answer the terminal is taken to draw per code point.
            #expect(standard.layout.policy == .wcwidth)
            // Never wider or taller than the terminal; narrower is fine.
            let wide = Configuration.forTerminal(session, environment: Self.xterm,
                                                 choices: Choices(width: 300, height: 80, probesTerminal: false))
            #expect(wide.layout.width == 100 && wide.height == 30)
            let narrow = Configuration.forTerminal(session, environment: Self.xterm,
                                                   choices: Choices(width: 60, probesTerminal: false))
            #expect(narrow.layout.width == 60)
            let fullscreen = Configuration.forTerminal(session, environment: Self.xterm,
                                                       choices: Choices(liveView: .fullscreen, probesTerminal: false))
            #expect(fullscreen.output == .fullscreen)
            let chosen = Configuration.forTerminal(session, environment: Self.xterm,
                                                   choices: Choices(widthPolicy: .grapheme, probesTerminal: false))
            #expect(chosen.layout.policy == .grapheme)
        }
    }

    @Test func noColorAndDumbTerminalsAreHonoured() {
        Self.onTerminal(columns: 100, rows: 30) { session in
            let noColor = Configuration.forTerminal(session, environment: Self.xterm.merging(["NO_COLOR": "1"]) { $1 },
                                                    choices: Choices(probesTerminal: false))
            #expect(noColor.output == .inline && noColor.capabilities.colors == .none && noColor.theme == .monochrome)
            let never = Configuration.forTerminal(session, environment: Self.xterm, choices: Choices(colors: .never, probesTerminal: false))
            #expect(never.capabilities.colors == .none && never.theme == .monochrome)
            let dumb = Configuration.forTerminal(session, environment: ["TERM": "dumb"], choices: Choices(probesTerminal: false))
            #expect(dumb.output == .plain && dumb.layout.width == 100 && dumb.endsOnFreshLine)
            let unwrapped = Configuration.forTerminal(session, environment: Self.xterm, choices: Choices(width: 0, probesTerminal: false))
            #expect(unwrapped.output == .plain && !unwrapped.wrapsPlainText)
            let light = Configuration.forTerminal(session, environment: Self.xterm, choices: Choices(theme: .light, probesTerminal: false))
            #expect(light.theme == .light)
        }
    }
}
