import Foundation
@_spi(Benchmarks) import StreamRender
import Testing

/// Runs the built `stream-render` on the fixtures, as a user's script would.
@Suite struct CommandLineTests: EndToEnd {
    /// Markdown styles come from the theme; NO_COLOR gets the monochrome one (bold,
    /// italic, underline, dim, no colour).
    @Test func themesAndNoColor() throws {
        let input = Data("# Title\n\nSome **bold** and `code`.\n".utf8)
        // Unpaced: the bytes are searched for whole words, which the pacer would split
        // across frames (PacingCommandLineTests and the tmux tests run the defaults).
        let base = ["--format", "text", "--output", "ansi", "--width", "40", "--height", "10", "--pace", "off"]
        let colour = #"\u001B\[[0-9;]*(3[0-7]|38;|9[0-7])[;m]"#
        func text(_ r: Run) -> String { String(decoding: r.stdout, as: UTF8.self) }
        func hasColour(_ s: String) -> Bool { s.range(of: colour, options: .regularExpression) != nil }
        let dark = try Self.run(base + ["--color", "always", "--theme", "dark"], stdin: input, environment: ["NO_COLOR": ""])
        let light = try Self.run(base + ["--color", "always", "--theme", "light"], stdin: input, environment: ["NO_COLOR": ""])
        #expect(dark.status == 0 && light.status == 0, "\(dark.stderr) \(light.stderr)")
        #expect(hasColour(text(dark)) && hasColour(text(light)), "\(text(dark).debugDescription)")
        #expect(text(dark) != text(light))
        #expect(text(dark).contains("Title") && !text(dark).contains("# Title") && !text(dark).contains("**"))
        let none = try Self.run(base, stdin: input, environment: ["NO_COLOR": "1"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(!hasColour(text(none)), "\(text(none).debugDescription)")
        #expect(text(none).contains("\u{1B}[1") || text(none).contains(";1m"), "monochrome keeps bold: \(text(none).debugDescription)")
        let bad = try Self.run(["--theme", "sepia"], stdin: input)
        #expect(bad.status == 2 && bad.stderr.contains("theme"), "\(bad.stderr)")
    }

    @Test(arguments: ["coding-answer.anthropic.sse", "coding-answer.openai.sse"])
    func printsExactlyTheAnswerText(_ name: String) throws {
        // --width 0 turns wrapping off: the answer's text exactly as it arrived.
        let r = try Self.run(["--width", "0", Self.fixture("sse/\(name)")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == Self.data("answers/coding-answer.md"))
        #expect(r.stderr.isEmpty)
    }

    /// What the library's plain printer makes of `text` in one pass.
    /// What plain output prints for `text`: markdown rendered (the default) or not.
    static func wrapped(_ text: String, _ settings: LayoutSettings, markdown: Bool = true) -> Data {
        var printer = PlainTextPrinter(settings: settings, markdown: markdown ? MarkdownOptions() : nil)
        return Data((printer.append(text) + printer.finish()).utf8)
    }

    @Test(arguments: ["coding-answer.anthropic.sse", "coding-answer.openai.sse"])
    func wrapsAtEightyColumnsIntoAPipeByDefault(_ name: String) throws {
        let r = try Self.run([Self.fixture("sse/\(name)")])
        #expect(r.status == 0, "\(r.stderr)")
        let answer = String(decoding: Self.data("answers/coding-answer.md"), as: UTF8.self)
        #expect(r.stdout == Self.wrapped(answer, LayoutSettings(width: 80, policy: .wcwidth)))  // auto: no terminal reported mode 2027
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains { $0.count > 70 })  // it is wrapped, not chopped short
    }

    @Test func widthPolicyAndTabSizeShapeTheLines() throws {
        let text = "名前\tvalue 👨‍👩‍👧 👍🏽 " + String(repeating: "wide 中文 ", count: 12) + "\n\tindented\n"
        let input = Data(text.utf8)
        for (policy, mode) in [("grapheme", WidthPolicy.grapheme), ("wcwidth", WidthPolicy.wcwidth)] {
            let r = try Self.run(["--format", "text", "--markdown", "off", "--width", "17", "--tab-size", "4", "--width-policy", policy], stdin: input)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == Self.wrapped(text, LayoutSettings(width: 17, tabSize: 4, policy: mode), markdown: false), "\(policy)")
        }
        let grapheme = try Self.run(["--format", "text", "--width", "17", "--width-policy", "grapheme"], stdin: input)
        let wcwidth = try Self.run(["--format", "text", "--width", "17", "--width-policy", "wcwidth"], stdin: input)
        #expect(grapheme.stdout != wcwidth.stdout)  // the thumb with a skin tone is 2 columns or 4
    }

    /// Plain text goes through the history, which the limit bounds; markdown's
    /// complete paragraphs are printed straight and never held: the stats say which.
    @Test func maxLinesBoundsTheHistoryAndTheStatsSaySo() throws {
        let answer = String(decoding: Self.data("answers/coding-answer.md"), as: UTF8.self)
        for markdown in [false, true] {
            let r = try Self.run(["--width", "30", "--max-lines", "5", "--stats", "--markdown", markdown ? "on" : "off",
                                  Self.fixture("sse/coding-answer.anthropic.sse")])
            #expect(r.status == 0, "\(r.stderr)")
            // What was printed is unaffected.
            #expect(r.stdout == Self.wrapped(answer, LayoutSettings(width: 30, policy: .wcwidth), markdown: markdown))
            let history = r.stderr.split(separator: "\n").first { $0.contains("history:") }.map(String.init) ?? ""
            #expect(history.contains("evicted"), "\(r.stderr)")
            if markdown {
                #expect(history.contains("lines printed straight, never held"), "\(history)")
            } else {
                #expect(!history.contains("evicted 0 paragraphs"), "\(history)")
            }
        }
    }

    @Test func readsStandardInputWhenFileIsAbsentOrDash() throws {
        let input = Self.data("sse/multilingual.scalar.sse")
        for args in [["--width", "0"], ["--width", "0", "-"]] {
            let r = try Self.run(args, stdin: input)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == Self.data("answers/multilingual.md"))
        }
    }

    @Test func formatTextPassesTextThrough() throws {
        let r = try Self.run(["--format", "text", "--width", "0", Self.fixture("answers/multilingual.md")])
        #expect(r.status == 0)
        #expect(r.stdout == Self.data("answers/multilingual.md"))
    }

    @Test func thinkingGoesToStandardErrorOrBehindShowThinking() throws {
        let r = try Self.run([Self.fixture("sse/music.thinking-tool.crlf.sse")])
        #expect(r.status == 0)
        let music = String(decoding: Self.data("answers/music-recommendations.txt"), as: UTF8.self)
        #expect(r.stdout == Self.wrapped(music, LayoutSettings(width: 80, policy: .wcwidth)))
        #expect(r.stderr.contains("[thinking]\nLet me think"))
        #expect(r.stderr.contains("[tool call] search_catalog {\"query\": \"Somebody Else\", \"limit\": 20}"))
        let shown = try Self.run(["--show-thinking", Self.fixture("sse/music.thinking-tool.crlf.sse")])
        // In the answer, the marks are blocks of their own (the thinking is markdown too).
        #expect(String(decoding: shown.stdout, as: UTF8.self).hasPrefix("[thinking]\n\nLet me think"))
        #expect(String(decoding: shown.stdout, as: UTF8.self).contains(".\n\n[/thinking]\n\n"))
        let raw = try Self.run(["--show-thinking", "--markdown", "off", Self.fixture("sse/music.thinking-tool.crlf.sse")])
        #expect(String(decoding: raw.stdout, as: UTF8.self).hasPrefix("[thinking]\nLet me think"))
    }

    @Test func statsAreReportedOnStandardError() throws {
        let r = try Self.run(["--stats", Self.fixture("sse/captured-excerpt.sse")])
        #expect(r.status == 0)
        for key in ["events:", "deltas:", "bytes in: 1890", "elapsed:", "stop reason: end_turn", "usage: input 181 tokens, output 303 tokens"] {
            #expect(r.stderr.contains(key), "missing \(key) in \(r.stderr)")
        }
    }

    @Test func anErrorEventPrintsItsMessageAndExitsOne() throws {
        let r = try Self.run([Self.fixture("sse/music.overloaded.sse")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("overloaded_error: Overloaded (event "))
        #expect(r.stdout.count > 500)  // the text before the error was printed
    }

    @Test func aStreamCutMidEventPrintsTheTextAndExitsOne() throws {
        let full = Self.data("sse/coding-answer.anthropic.sse")
        let r = try Self.run(["--width", "0"], stdin: full.prefix(60_000))
        #expect(r.status == 1)
        #expect(r.stderr.contains("stream ended without message_stop"))
        let answer = Self.data("answers/coding-answer.md")
        #expect(r.stdout.count > 1000)
        #expect(answer.starts(with: r.stdout))
    }

    @Test func emptyInputExitsOneWithAClearMessage() throws {
        let r = try Self.run([], stdin: Data())
        #expect(r.status == 1)
        #expect(r.stderr.contains("empty input"))
    }

    @Test func binaryGarbageExitsOneWithoutCrashing() throws {
        var bytes = [UInt8](repeating: 0, count: 8192)
        var x: UInt32 = 12345
        for i in bytes.indices { x = x &* 1_103_515_245 &+ 12345; bytes[i] = UInt8(truncatingIfNeeded: x >> 16) }
        let r = try Self.run([], stdin: Data(bytes))
        #expect(r.status == 1)
        #expect(r.stderr.contains("looks binary"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func usageErrorsExitTwoAndUnreadableInputExitsThree() throws {
        #expect(try Self.run(["--format", "yaml"]).status == 2)
        #expect(try Self.run(["--no-such-flag"]).status == 2)
        for bad in [["--width", "-1"], ["--tab-size", "0"], ["--width-policy", "unicode"], ["--max-lines", "0"]] {
            let r = try Self.run(bad + [Self.fixture("sse/coding-answer.anthropic.sse")])
            #expect(r.status == 2, "\(bad): \(r.stderr)")
        }
        let missing = try Self.run(["/nonexistent/answer.sse"])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("cannot open /nonexistent/answer.sse"))
    }

    @Test func helpListsEveryFlag() throws {
        let r = try Self.run(["--help"])
        #expect(r.status == 0)
        let help = String(decoding: r.stdout, as: UTF8.self)
        for flag in ["--format", "--show-thinking", "--stats", "--max-event-bytes", "--width", "--width-policy",
                     "--tab-size", "--max-lines", "--output", "--color", "--fullscreen", "--height",
                     "--fps", "--demo", "--version", "--help"] {
            #expect(help.contains(flag), "--help does not list \(flag)")
        }
    }

    @Test func controlSequencesInModelTextAreNeverWritten() throws {
        let hostile = #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x\u001b]0;pwned\u0007\u001b[2J\r\u009b"}}"#
        let stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\nevent: content_block_delta\ndata: \(hostile)\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        let raw = try Self.run(["--width", "0"], stdin: Data(stream.utf8))
        #expect(raw.status == 0)
        #expect(!raw.stdout.contains { $0 == 0x1B || $0 == 0x07 || $0 == 0x0D })
        #expect(String(decoding: raw.stdout, as: UTF8.self) == "x␛]0;pwned␇␛[2J\n\u{FFFD}")
        for width in ["1", "5", "80"] {
            let r = try Self.run(["--width", width], stdin: Data(stream.utf8))
            #expect(r.status == 0)
            #expect(!r.stdout.contains { $0 < 0x20 && $0 != 0x0A }, "width \(width)")
        }
    }

    @Test func theDemoRunsThroughThePipeline() throws {
        let r = try Self.run(["--demo", "--demo-delay-ms", "0"])
        #expect(r.status == 0)
        let text = String(decoding: r.stdout, as: UTF8.self)
        #expect(text.hasPrefix("StreamRender demo\n"))  // the heading rendered, without its `#`
        #expect(text.contains("␛]0;pwned␇"))
    }
}

/// The live view's flags, run as a script would (into a pipe).
@Suite struct LiveViewFlagTests: EndToEnd {
    @Test func outputAnsiIntoAPipeWritesTheLiveViewsBytes() throws {
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        // Markdown off: a markdown block's live rows are redrawn in place until it is
        // final, so its bytes do not reduce to the text by stripping escapes (the
        // model-terminal and tmux tests check the markdown screen).
        let ansi = try CommandLineTests.run(["--output", "ansi", "--markdown", "off", "--width", "40", "--height", "10", fixture])
        #expect(ansi.status == 0, "\(ansi.stderr)")
        let text = String(decoding: ansi.stdout, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}[?25l"))  // cursor hidden while drawing...
        #expect(text.hasSuffix("\u{1B}[?25h"))  // ...and shown at the end
        // Without escape sequences and CRs, it is the plain wrapped answer, line for
        // line, less blanks (the view skips runs of blank cells with cursor moves;
        // the tmux tests check the screen exactly).
        let plain = try CommandLineTests.run(["--output", "plain", "--markdown", "off", "--width", "40", fixture])
        func lines(_ s: String) -> [String] {
            s.split(separator: "\n", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
        }
        #expect(lines(Self.strippingEscapes(text)) == lines(String(decoding: plain.stdout, as: UTF8.self)))
    }

    /// A history limit below what one read makes final drops no line before the live
    /// view writes it into the scrollback (lines were lost, and with markdown's code
    /// blocks the process trapped).
    @Test func aHistoryLimitLosesNoLineOfTheLiveView() throws {
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let plain = try CommandLineTests.run(["--output", "plain", "--markdown", "off", "--width", "40", fixture])
        func lines(_ s: String) -> [String] {
            s.split(separator: "\n", omittingEmptySubsequences: false).map { $0.filter { $0 != " " } }
        }
        for limit in ["1", "3"] {
            let ansi = try CommandLineTests.run(["--output", "ansi", "--pace", "off", "--markdown", "off", "--width", "40",
                                                 "--height", "10", "--max-lines", limit, fixture])
            #expect(ansi.status == 0, "\(ansi.stderr)")
            #expect(lines(Self.strippingEscapes(String(decoding: ansi.stdout, as: UTF8.self)))
                    == lines(String(decoding: plain.stdout, as: UTF8.self)), "--max-lines \(limit)")
            let markdown = try CommandLineTests.run(["--output", "ansi", "--pace", "off", "--width", "20", "--height", "5",
                                                     "--max-lines", limit, fixture])
            #expect(markdown.status == 0, "markdown, --max-lines \(limit): \(markdown.stderr)")
        }
    }

    @Test func colorNeverWritesNoColourAndFullscreenUsesTheAlternateScreen() throws {
        let stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hello\"}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        let never = try CommandLineTests.run(["--output", "ansi", "--color", "never", "--height", "5"], stdin: Data(stream.utf8))
        #expect(never.status == 0)
        #expect(!String(decoding: never.stdout, as: UTF8.self).contains("38;"))
        let full = try CommandLineTests.run(["--output", "ansi", "--fullscreen", "--height", "5", "--width", "20"], stdin: Data(stream.utf8))
        #expect(full.status == 0)
        let text = String(decoding: full.stdout, as: UTF8.self)
        #expect(text.contains("\u{1B}[?1049h") && text.contains("\u{1B}[?1049l"))
        #expect(text.hasSuffix("hello\r\n\u{1B}[?25h"))
        // Into a pipe, --fullscreen alone keeps plain text.
        let piped = try CommandLineTests.run(["--fullscreen"], stdin: Data(stream.utf8))
        #expect(String(decoding: piped.stdout, as: UTF8.self) == "hello\n")
    }

    @Test func badLiveViewValuesAreUsageErrors() throws {
        for bad in [["--output", "html"], ["--color", "sometimes"], ["--height", "0"], ["--output", "ansi", "--width", "0"]] {
            let r = try CommandLineTests.run(bad + [CommandLineTests.fixture("sse/coding-answer.anthropic.sse")])
            #expect(r.status == 2, "\(bad): \(r.stderr)")
        }
    }

    /// The text of an ANSI stream without CSI/OSC sequences and CRs.
    static func strippingEscapes(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(text.unicodeScalars)[...]
        while let s = scalars.popFirst() {
            if s == "\u{1B}" {
                guard let kind = scalars.popFirst() else { break }
                if kind == "[" {
                    while let c = scalars.popFirst(), !(c.value >= 0x40 && c.value <= 0x7E) {}
                } else if kind == "]" {
                    while let c = scalars.popFirst() {
                        if c == "\u{7}" { break }
                        if c == "\u{1B}" { _ = scalars.popFirst(); break }
                    }
                }
                continue
            }
            if s == "\r" { continue }
            out.append(s)
        }
        return String(out)
    }
}
