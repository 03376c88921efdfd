import Foundation
import Testing

/// The recorded streams of the real-world corpus in a real terminal with the default
/// flags (issue 23): each `stream-render FILE` runs in a tmux window of its own that
/// starts at the top-left corner, and the window's scrollback and screen must hold the
/// plain output's text (standard error interleaved) in the same order, thinking and
/// tool calls included, nothing twice (tmux 3.3 shows no OSC 8 links, so URLs must be
/// there as text); only where lines wrap may differ.
@Suite(.serialized, .enabled(if: tmuxIsAvailable))
struct RealWorldTmuxTests: EndToEnd {
    static let width = 100

    /// Every recording, listed in MANIFEST.tsv.
    static var recordings: [String] {
        String(decoding: CommandLineTests.data("real/streams/MANIFEST.tsv"), as: UTF8.self)
            .split(separator: "\n").dropFirst().compactMap { $0.split(separator: "\t").first.map(String.init) }
    }

    /// The text without its spacing, in order: above a live view side lines (and the
    /// terminal itself, standard error) wrap where plain output does not; emoji scalars
    /// as tmux 3.3 keeps them.
    /// The text without whitespace and without `↪` (plain output marks a wrapped code
    /// line with it; the live view lets the terminal wrap the line instead).
    static func letters(_ text: String) -> [Character] {
        TmuxTests.normalized(text).filter { !$0.isWhitespace && $0 != "↪" }.map { $0 }
    }

    /// Runs `commands` in tmux windows of one server, `parallel` at a time, and returns
    /// each window's scrollback and screen.
    static func captureAll(_ commands: [String], parallel: Int = 12) async throws -> [String] {
        let socket = "streamrender-rw-\(getpid())"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var script = "tmux -L \(socket) -f /dev/null new-session -d -x \(width) -y 40 -s t 'sleep 600' </dev/null >/dev/null 2>&1\n"
        for batch in stride(from: 0, to: commands.count, by: parallel) {
            let range = batch..<min(commands.count, batch + parallel)
            for k in range {
                let pane = "\(commands[k]); tmux -L \(socket) wait-for -S w\(k); sleep 600"
                script += "tmux -L \(socket) new-window -d -t t:\(k + 1) sh -c \(quote(pane))\n"
            }
            for k in range { script += "timeout 60 tmux -L \(socket) wait-for w\(k)\n" }
            for k in range {
                script += "tmux -L \(socket) capture-pane -p -S - -t t:\(k + 1) > \(quote(dir.appendingPathComponent("\(k)").path))\n"
                script += "tmux -L \(socket) kill-window -t t:\(k + 1)\n"
            }
        }
        script += "tmux -L \(socket) kill-server >/dev/null 2>&1\n"
        _ = try await Child.script(script)
        return commands.indices.map { k in
            (try? String(contentsOf: dir.appendingPathComponent("\(k)"), encoding: .utf8)) ?? ""
        }
    }

    /// The plain output with standard error and output interleaved as they are written.
    static func plain(_ file: String) async throws -> String {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["-w", "\(width)", file]
        process.environment = ["TERM": "xterm-256color"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let child = try Child(process)
        let text = await PipeReader(pipe).text()
        await child.exit()
        return text
    }

    @Test func everyRecordingLeavesItsPlainOutputInTheTerminal() async throws {
        let binary = CommandLineTests.binary.path
        let files = Self.recordings.map { CommandLineTests.fixture("real/streams/" + $0) }
        // Default flags; the pane's terminal on standard input, as a user runs it.
        let captures = try await Self.captureAll(files.map { "'\(binary)' '\($0)'" })
        #expect(files.count >= 100)
        for (k, file) in files.enumerated() {
            let want = Self.letters(try await Self.plain(file))
            let got = Self.letters(captures[k])
            guard got != want else { continue }
            let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
            Issue.record("\(Self.recordings[k]): character \(first) of \(want.count): terminal \(String(got[first..<min(got.count, first + 60)]).debugDescription) vs plain \(String(want[first..<min(want.count, first + 60)]).debugDescription)")
        }
    }

    /// A live view that starts at the top-left corner of a pane and is cleared for a
    /// tool call: tmux 3.3 pushed the whole screen into the scrollback when the region
    /// was erased from the corner, and the answer's first lines were there twice. The
    /// text, the tool call and the text after it must appear once each, in order.
    @Test func aViewAtTheTopLeftCornerLeavesNothingTwice() async throws {
        let binary = CommandLineTests.binary.path
        let head = """
            event: message_start
            data: {"type":"message_start","message":{"id":"m","model":"claude"}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"First line of the answer, long enough to fill a row or two of the pane."}}


            """
        let tail = """
            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: content_block_start
            data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"search","input":{}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"q\\":\\"x\\"}"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":1}

            event: content_block_start
            data: {"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"After the tool call."}}

            event: message_stop
            data: {"type":"message_stop"}


            """
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sr-corner-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(head.utf8).write(to: dir.appendingPathComponent("a.sse"))
        try Data(tail.utf8).write(to: dir.appendingPathComponent("b.sse"))
        let a = dir.appendingPathComponent("a.sse").path, b = dir.appendingPathComponent("b.sse").path
        for mode in ["", "--fullscreen"] {
            let rows = try await TmuxTests.capture("(cat '\(a)'; sleep 0.6; cat '\(b)') | '\(binary)' \(mode)", width: 40, height: 10)
            let text = rows.joined(separator: "\n")
            #expect(rows.filter { $0.hasPrefix("First line") }.count == 1, "\(mode): \(rows)")
            let order = ["First line", "[tool call] search", "After the tool call."].map { text.range(of: $0)?.lowerBound }
            #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! }, "\(mode): \(rows)")
        }
    }

    /// Thinking, a tool call and text in stream order in every view, paced or not
    /// (the recorded music stream: thinking first, the tool call last).
    @Test(arguments: ["", "--pace off", "--fullscreen"])
    func thinkingAndToolCallsAppearInStreamOrder(_ mode: String) async throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/music.thinking-tool.crlf.sse")
        let rows = try await TmuxTests.capture("'\(binary)' \(mode) '\(fixture)'", width: Self.width, height: 24)
        let want = Self.letters(try await Self.plain(fixture))
        #expect(Self.letters(rows.joined(separator: "\n")) == want, "\(mode): \(rows.prefix(6))")
        #expect(rows.first == "[thinking]", "\(mode): \(rows.prefix(3))")
    }
}
