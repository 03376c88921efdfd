import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Hyperlinks only where the terminal shows them; elsewhere the URL is shown as text (issue 23).
@Suite struct TerminalCapabilitiesTests {
    @Test(arguments: [
        (["TERM": "screen-256color", "TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], false),
        (["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"], true),
        (["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "next-3.6"], true),
        (["TERM": "xterm-256color", "TMUX": "/tmp/t,1,0", "TERM_PROGRAM": "iTerm.app"], false),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "Apple_Terminal"], false),
        (["TERM": "screen"], false),
        (["TERM": "linux"], false),
        (["TERM": "xterm-256color"], false),
        (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], true),
        (["TERM": "xterm-kitty"], true),
        (["TERM": "xterm-256color", "VTE_VERSION": "7006"], true),
        (["TERM": "xterm-256color", "WT_SESSION": "x"], true),
        (["TERM": "xterm-256color", "FORCE_HYPERLINK": "1"], true),
        (["TERM": "xterm-kitty", "FORCE_HYPERLINK": "0"], false),
        (["TERM": "dumb", "FORCE_HYPERLINK": "1"], false),
    ])
    func hyperlinksAreDecidedPerTerminal(_ environment: [String: String], _ expected: Bool) {
        #expect(TerminalCapabilities.detect(environment: environment, isTerminal: true).hyperlinks == expected, "\(environment)")
    }

    /// `256color` anywhere in `TERM` means 256 colours (compared as bytes where `TERM`
    /// is ASCII, by characters otherwise).
    @Test func aTermNaming256ColoursGetsThem() {
        let cases: [(String, TerminalCapabilities.ColorSupport)] = [
            ("xterm-256color", .palette256), ("screen-256color-bce", .palette256), ("256color", .palette256),
            ("xterm", .ansi16), ("xterm-256colo", .ansi16), ("xterm-25color", .ansi16), ("vt100", .ansi16),
            ("256colo-256color", .palette256),
            ("é-256color", .palette256), ("256colorǃ", .palette256), ("256colo\u{301}r", .ansi16),
        ]
        for (term, colors) in cases {
            #expect(TerminalCapabilities.detect(environment: ["TERM": term], isTerminal: true).colors == colors, "\(term)")
        }
    }

    @Test func withoutHyperlinksALinkShowsItsURLInTheLiveView() {
        var caps = TerminalCapabilities.full
        caps.hyperlinks = false
        let sink = BufferSink()
        let configuration = StreamRenderer.Configuration(output: .inline, layout: LayoutSettings(width: 60),
            input: .init(format: .text), live: .init(height: 10, pacing: nil), capabilities: caps)
        let renderer = StreamRenderer(configuration: configuration, sink: sink, clock: ManualClock())
        renderer.feed(Array("See [the docs](https://example.com/docs).\n".utf8))
        renderer.finish()
        let out = String(decoding: sink.bytes, as: UTF8.self)
        #expect(out.contains("the docs") && out.contains(" (https://example.com/docs)"), "\(out.debugDescription)")
        #expect(!out.contains("\u{1B}]8;"))
    }
}
