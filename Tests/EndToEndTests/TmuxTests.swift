import Foundation
@_spi(Benchmarks) import StreamRender
import Testing

/// The live view in a real terminal: `stream-render` runs in a tmux pane of a given
/// size, then `tmux capture-pane -p -S -` (scrollback included) must equal the
/// wrapped text. Every test runs the default flags, as users do: tmux does not
/// report mode 2027, so the default width policy (auto) measures like it, per code
/// point (wcwidth).
@Suite(.serialized, .enabled(if: tmuxIsAvailable))
struct TmuxTests: EndToEnd {
    /// `inline`: as the inline view shows it, long code lines cut where the terminal
    /// wraps them (plain output wraps them between words after a `↪`).
    static func expected(_ answer: String, width: Int, markdown: Bool = true, inline: Bool = false) -> [String] {
        // The default: markdown rendered (plain output shows the same structure).
        var printer = PlainTextPrinter(settings: LayoutSettings(width: width, policy: .wcwidth),
                                       markdown: markdown ? MarkdownOptions(codeWrapsLikeTerminal: inline) : nil)
        var text = printer.append(answer) + printer.finish()
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var s = String(line)
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
    }

    /// The captured rows are the wanted ones (emoji scalars aside); the first
    /// difference is reported.
    static func expectRows(_ rows: [String], _ want: [String], _ label: String) {
        #expect(rows.count == want.count, "\(label): \(rows.count) rows captured, \(want.count) expected")
        for (k, pair) in zip(rows, want).enumerated() where normalized(pair.0) != normalized(pair.1) {
            Issue.record("\(label) row \(k): \(pair.0.debugDescription) vs \(pair.1.debugDescription)")
            break
        }
    }

    /// The fixture streamed slowly through a pipe (a pause every 25 lines), so the
    /// live view draws many frames.
    static func slowly(_ fixture: String) -> String {
        "n=0; while IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); [ $((n % 25)) -eq 0 ] && sleep 0.01; done < '\(fixture)'"
    }

    /// Streamed slowly through a pipe, inline and fullscreen; and read from a file
    /// with the pane's terminal on standard input (so the DECRQM probe runs and its
    /// answers are not mistaken for input).
    @Test(arguments: ["", "--fullscreen", "FILE"])
    func theLiveViewLeavesExactlyTheWrappedAnswer(_ mode: String) async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let command = mode == "FILE"
            ? "'\(binary)' '\(fixture)'"
            : "\(Self.slowly(fixture)) | '\(binary)' \(mode)"
        let rows = try await Self.capture(command, width: 40, height: 12)
        Self.expectRows(rows, Self.expected(answer, width: 40, inline: mode != "--fullscreen"), mode)
    }

    /// The coding answer as a user sees it with the default flags: markdown rendered
    /// (no literal `**`, no `#` heading marks, no fence lines), and code copied from the
    /// scrollback keeps its indentation.
    @Test func theCodingAnswerShowsRenderedMarkdown() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        var rows = try await Self.capture("\(Self.slowly(fixture)) | '\(binary)'", width: 80, height: 12)
        rows = rows.map { var r = $0; while r.hasSuffix(" ") { r.removeLast() }; return r }
        #expect(rows.count > 40)
        #expect(!rows.contains { $0.contains("**") }, "literal ** shown")
        #expect(!rows.contains { $0.hasPrefix("#") }, "a heading mark shown")
        #expect(!rows.contains { $0.hasPrefix("```") || $0.hasPrefix("~~~") }, "a fence line shown")
        #expect(rows.contains("Streaming a response in Swift"))
        #expect(rows.contains("    let type: String"), "code lost its indentation")
        #expect(rows.contains("        let text: String?   // present for \"text_delta\""))
        #expect(rows.contains { $0.hasPrefix("┌") }, "the table is not box-drawn")
    }

    /// Code in the coding answer, with the default flags, is coloured by token in
    /// tmux (a keyword's colour differs from an identifier's); with NO_COLOR it has
    /// no colour but keeps bold keywords.
    @Test func codeIsHighlightedAndNoColorKeepsOnlyAttributes() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let colour = #"\u001B\[[0-9;]*(3[0-7]|9[0-7]|38;[25];[0-9;]+)m"#
        // The last SGR before `word` on the first row holding `context` (tmux may put
        // it on a row before).
        func sgr(before word: String, context: String, in rows: [String]) -> String? {
            guard let k = rows.firstIndex(where: { $0.contains(context) }) else { return nil }
            let text = rows[...k].joined(separator: "\n")
            guard let range = text.range(of: word, options: .backwards) else { return nil }
            guard let esc = text[..<range.lowerBound].range(of: "\u{1B}[", options: .backwards) else { return nil }
            return String(text[esc.lowerBound..<range.lowerBound])
        }
        // The user's environment may say NO_COLOR (the test runner's does): the
        // default run is made without it.
        let rows = try await Self.capture("\(Self.slowly(fixture)) | env -u NO_COLOR '\(binary)'", width: 80, height: 12, escapes: true)
        let keyword = try #require(sgr(before: "struct", context: "Decodable {", in: rows), "\(rows.prefix(20))")
        #expect(keyword.range(of: colour, options: .regularExpression) != nil, "\(keyword.debugDescription)")
        #expect(sgr(before: "StreamEvent", context: "Decodable {", in: rows) != keyword)
        let mono = try await Self.capture("\(Self.slowly(fixture)) | NO_COLOR=1 '\(binary)'", width: 80, height: 12, escapes: true)
        #expect(!mono.contains { $0.range(of: colour, options: .regularExpression) != nil }, "colour under NO_COLOR")
        let monoKeyword = sgr(before: "struct", context: "Decodable {", in: mono)
        #expect(monoKeyword?.contains("1") == true, "keyword not bold: \(monoKeyword.debugDescription) \(mono.prefix(16))")
    }

    @Test func aNarrowPaneWithWideTextAndEscapes() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/multilingual.scalar.sse")
        let answer = String(decoding: CommandLineTests.data("answers/multilingual.md"), as: UTF8.self)
        // The defaults: tmux draws Devanagari and Tamil spacing vowel signs in cells of
        // their own, a column each, as the width policy counts them; a live row holding
        // them that is redrawn (a markdown paragraph taller than the live region scrolls
        // inside it) leaves no residue.
        let rows = try await Self.capture("\(Self.slowly(fixture)) | '\(binary)'", width: 23, height: 7)
        let want = Self.expected(answer, width: 23)
        #expect(rows.count == want.count, "\(rows.count) rows captured, \(want.count) expected")
        for (k, pair) in zip(rows, want).enumerated() where Self.normalized(pair.0) != Self.normalized(pair.1) {
            Issue.record("row \(k): \(pair.0.debugDescription) vs \(pair.1.debugDescription)")
        }
    }

    /// A resize in the middle of the stream: the live region is repainted at the new
    /// width, and no line is written twice (the text read back is the answer's).
    @Test func aResizeMidStreamDuplicatesNothing() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let slow = "n=0; while IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); [ $((n % 10)) -eq 0 ] && sleep 0.01; done < '\(fixture)'"
        let rows = try await Self.capture("\(slow) | '\(binary)'", width: 50, height: 12,
                                    during: { "sleep 1; \($0) resize-window -t t -x 32; sleep 0.7; \($0) resize-window -t t -x 60" })
        // Blocks finished before, between and after the resizes are rendered at different
        // widths (rules, table borders, wrapped table cells, code continuation marks), so
        // the letters are compared as counts: nothing written twice, nothing lost.
        func letters(_ s: String) -> [Character] {
            Self.normalized(s).filter { c in
                !c.isWhitespace && c != "↪" && !c.unicodeScalars.contains { (0x2500...0x257F).contains($0.value) }
            }.sorted()
        }
        let got = letters(rows.joined()), want = letters(Self.expected(answer, width: 50).joined())
        #expect(got == want, "the letters read back differ from the answer's: \(got.count) vs \(want.count)")
    }

    /// Ctrl-C in fullscreen: the terminal is restored (normal screen, cursor shown).
    @Test func interruptRestoresTheTerminal() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let slow = "n=0; while IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); sleep 0.01; done < '\(fixture)'"
        // The pane's shell ignores SIGINT so it lives on to report; stream-render
        // installs its own handler.
        let rows = try await Self.capture("trap '' INT; \(slow) | '\(binary)' --fullscreen; echo exit=$?", width: 40, height: 10,
                                    during: { "sleep 1; \($0) send-keys -t t C-c" },
                                    after: { "\($0) display-message -p -t t 'alternate=#{alternate_on} cursor=#{cursor_flag}'" })
        #expect(rows.first == "alternate=0 cursor=1", "\(rows.prefix(2))")
        #expect(rows.contains("exit=130"), "\(rows.suffix(3))")
        // The text shown so far is left in the normal screen.
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let want = Self.expected(answer, width: 40)
        // (The paragraph may be cut before its closing `**`: the opener then shows
        // literally, as in a one-shot render of what arrived, so only its start is
        // compared.)
        #expect(rows.contains(want[0]) && rows.contains { $0.hasPrefix("Here is a compact way to read") },
                "\(rows.prefix(6))")
    }

    /// Keys typed while the answer streams never appear (echo is off while the view
    /// draws), and the answer is still exactly right.
    @Test func keysTypedMidStreamNeverAppear() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let rows = try await Self.capture("\(Self.slowly(fixture)) | '\(binary)'", width: 40, height: 12,
                                    during: { "sleep 0.4; \($0) send-keys -t t 'qzqzqz'; sleep 0.3; \($0) send-keys -t t 'xjxjxj' Enter" })
        let all = rows.joined(separator: "\n")
        #expect(!all.contains("qzqz") && !all.contains("xjxj"), "typed keys were shown")
        Self.expectRows(rows, Self.expected(answer, width: 40, inline: true), "typed keys")
    }

    /// The input stalls with a paragraph still open; the pane is narrowed: the live
    /// tail (the paragraph's last line) is re-wrapped at word boundaries within 100 ms,
    /// without waiting for more input. (tmux's own reflow would cut it mid-word.)
    @Test func aResizeDuringAStallIsRepaintedAtOnce() async throws {
        let binary = CommandLineTests.binary.path
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let snapshot = FileManager.default.temporaryDirectory.appendingPathComponent("sr-stall-\(getpid())-\(Int.random(in: 0..<1_000_000))").path
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        _ = try await Self.capture("(printf '%s' '\(words)'; sleep 3) | '\(binary)' --format text --markdown off", width: 70, height: 12,
                             during: { "sleep 1.2; \($0) resize-window -t t -x 30; sleep 0.1; \($0) capture-pane -p -t t > '\(snapshot)'" })
        var screen = ((try? String(contentsOfFile: snapshot, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while screen.last?.isEmpty == true { screen.removeLast() }
        // What was final at 70 columns stays; the paragraph from there on is laid out at 30.
        let firstLive = String(Self.expected(words, width: 70).last!.split(separator: " ")[0])
        let lines30 = Self.expected(words, width: 30)  // one plain paragraph: the same with or without markdown
        let k = lines30.firstIndex { $0.split(separator: " ").contains(Substring(firstLive)) }!
        let want = [String(lines30[k][lines30[k].range(of: firstLive)!.lowerBound...])] + lines30[(k + 1)...]
        #expect(Array(screen.suffix(want.count)) == want, "the live tail was not re-wrapped at 30 columns within 100 ms: \(screen)")
    }

    /// Ctrl-Z mid-stream: the process stops with the terminal restored (cursor shown,
    /// echo on), and when continued (`fg`) it draws again and leaves exactly the
    /// answer. Echo is off while it draws. An interactive bash runs the job: without
    /// job control the process group is orphaned and the kernel never stops it.
    @Test func ctrlZStopsWithTheTerminalRestoredAndContinues() async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        // A short name: bash prints it in the job lines, which must not wrap.
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("z\(Int.random(in: 100_000..<1_000_000))").path
        let job = base + ".sh", snapshot = base + ".txt"
        defer { for f in [job, snapshot] { try? FileManager.default.removeItem(atPath: f) } }
        // The pipeline runs in bash itself (its processes are bash's children, so the
        // job is stopped only once stream-render has stopped); short names keep bash's
        // job lines on one row each.
        try "f() { \(Self.slowly(fixture)); }\nb='\(binary)'\n".write(toFile: job, atomically: true, encoding: .utf8)
        let rows = try await Self.capture("bash --norc --noprofile -i -c '. \(job); f | \"$b\"; sleep 1; fg' 2>&1", width: 70, height: 12, during: { t in
            """
            sleep 0.4; tty=$(\(t) display-message -p -t t '#{pane_tty}')
            echo "running $(stty -a -F $tty | grep -o -- '-*echo ' | head -1)" > '\(snapshot)'
            \(t) send-keys -t t C-z; sleep 0.5
            echo "stopped $(\(t) display-message -p -t t 'cursor=#{cursor_flag}') $(stty -a -F $tty | grep -o -- '-*echo ' | head -1)" >> '\(snapshot)'
            """
        })
        let states = ((try? String(contentsOfFile: snapshot, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        #expect(states == ["running -echo ", "stopped cursor=1 echo "], "\(states)")
        // bash's own lines: a line feed (for the ^Z it assumes was echoed), the job
        // stopped, and `fg` naming it.
        var answerRows = rows
        if let stopped = answerRows.firstIndex(where: { $0.hasPrefix("[1]+") }), stopped > 0,
           answerRows[stopped - 1].isEmpty, answerRows[stopped + 1] == "f | \"$b\"" {
            answerRows.removeSubrange((stopped - 1)...(stopped + 1))
        } else {
            Issue.record("bash's job lines are not where expected: \(rows.filter { $0.contains("f |") })")
        }
        Self.expectRows(answerRows, Self.expected(answer, width: 70, inline: true), "after Ctrl-Z and fg")
    }
}

/// The built-in demo in a real terminal. A suite of its own, so its twelve seconds of
/// playing overlap the other tmux tests (which run one at a time) instead of adding to them.
@Suite(.enabled(if: tmuxIsAvailable))
struct TmuxDemoTests: EndToEnd {

    /// `swift run stream-render` as a newcomer runs it: no input, a terminal. The demo
    /// plays at its recorded pace with a status line that is gone at the end, and
    /// leaves its whole answer (markdown rendered, the table box-drawn) in the scrollback.
    @Test func theDemoPlaysWithNoInputOnATerminal() async throws {
        let binary = CommandLineTests.binary.path
        let midway = FileManager.default.temporaryDirectory.appendingPathComponent("sr-demo-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: midway) }
        let rows = try await TmuxTests.capture("'\(binary)'; echo exit=$?", width: 80, height: 30,
                                    during: { "sleep 5; \($0) capture-pane -p -t t > '\(midway)'" })
        let during = (try? String(contentsOfFile: midway, encoding: .utf8)) ?? ""
        #expect(during.contains("tokens/s") || during.contains("waiting") || during.contains("thinking"),
                "no status line while streaming: \(during)")
        #expect(!during.contains("Pipe your own stream in"), "at 5 s the demo should still be streaming")
        #expect(rows.contains("StreamRender demo"), "\(rows.prefix(5))")
        #expect(rows.contains { $0.hasPrefix("┌") } && rows.contains { $0.contains("日本語") })
        #expect(rows.contains { $0.contains("Pipe your own stream in") })
        #expect(rows.contains { $0.contains("␛]0;pwned␇") }, "the escape sequence is shown, not obeyed")
        #expect(!rows.contains { $0.contains("tokens/s") }, "the status line is gone at the end")
        #expect(rows.last == "exit=0", "\(rows.suffix(3))")
    }
}
