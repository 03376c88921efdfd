import Foundation
import StreamRender
import Testing

/// Every kind of bad input, run through the built binary as a user's script would:
/// the documented exit code, exactly one clear line on standard error, and every
/// text byte that arrived before the fault on standard output.
@Suite struct BadInputCommandLineTests: EndToEnd {
    typealias CLI = CommandLineTests

    static func errorLines(_ r: Run) -> [String] {
        r.stderr.split(separator: "\n").map(String.init)
    }

    static func stdout(_ r: Run) -> String { String(decoding: r.stdout, as: UTF8.self) }

    /// A Messages stream of `pieces`, with `replace` applied to its bytes.
    static func stream(_ pieces: [String], stop: Bool = true) -> String {
        var s = #"event: message_start\#ndata: {"type":"message_start","message":{"id":"m","model":"x","usage":{"input_tokens":1,"output_tokens":1}}}\#n\#n"#
        s += #"event: content_block_start\#ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\#n\#n"#
        for p in pieces {
            s += #"event: content_block_delta\#ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\#(p)"}}\#n\#n"#
        }
        s += #"event: content_block_stop\#ndata: {"type":"content_block_stop","index":0}\#n\#n"#
        if stop { s += #"event: message_stop\#ndata: {"type":"message_stop"}\#n\#n"# }
        return s
    }

    @Test func anAnthropicErrorBodyIsAnErrorNotTheAnswer() throws {
        let body = #"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#
        let r = try CLI.run([], stdin: Data(body.utf8))
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty, "\(Self.stdout(r))")
        #expect(Self.errorLines(r) == ["stream-render: error: the stream reported authentication_error: invalid x-api-key (an error body)"])
    }

    @Test func anOpenAIErrorBodyIsAnErrorNotTheAnswer() throws {
        let body = "{\n  \"error\": {\n    \"message\": \"Rate limit reached\",\n    \"type\": \"requests\",\n    \"code\": \"rate_limit_exceeded\"\n  }\n}\n"
        let r = try CLI.run([], stdin: Data(body.utf8))
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(Self.errorLines(r).count == 1 && r.stderr.contains("Rate limit reached"), "\(r.stderr)")
    }

    @Test func aWholeResponseRendersItsText() throws {
        let message = #"{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"Hello\nthere"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":5}}"#
        let r = try CLI.run(["--stats"], stdin: Data(message.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.stdout(r) == "Hello there\n")  // markdown: a soft break is a space
        let raw = try CLI.run(["--markdown", "off"], stdin: Data(message.utf8))
        #expect(Self.stdout(raw) == "Hello\nthere\n")
        #expect(r.stderr.contains("model: claude-x") && r.stderr.contains("stop reason: end_turn"), "\(r.stderr)")
        let completion = #"{"id":"c","object":"chat.completion","model":"gpt","choices":[{"index":0,"message":{"role":"assistant","content":"Hi from a completion"},"finish_reason":"stop"}]}"#
        let c = try CLI.run([], stdin: Data(completion.utf8))
        #expect(c.status == 0, "\(c.stderr)")
        #expect(Self.stdout(c) == "Hi from a completion\n")
    }

    @Test func aMalformedEventLosesOnlyItsOwnTextAndExitsOne() throws {
        var input = Self.stream(["one ", "two ", "three ", "four"])
        input = input.replacingOccurrences(of: #""text":"three "}}"#, with: #""text":"three "#)
        let r = try CLI.run(["--width", "0"], stdin: Data(input.utf8))
        #expect(r.status == 1)
        #expect(Self.stdout(r) == "one two four")
        let lines = Self.errorLines(r)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("event 5, byte ") == true && lines.first?.contains("malformed") == true, "\(lines)")
    }

    @Test func anOversizedEventNamesTheFlagAndExitsOne() throws {
        let input = Self.stream(["before ", String(repeating: "x", count: 3000), " after"])
        let r = try CLI.run(["--width", "0", "--max-event-bytes", "1000"], stdin: Data(input.utf8))
        #expect(r.status == 1)
        #expect(Self.stdout(r) == "before  after")
        let lines = Self.errorLines(r)
        #expect(lines.count == 1 && lines[0].contains("--max-event-bytes"), "\(lines)")
    }

    @Test func aTruncatedStreamKeepsEverythingBeforeTheCut() throws {
        let input = Self.stream(["kept ", "text"], stop: false)
        let cut = String(input.dropLast(20))  // mid-event, inside content_block_stop
        let r = try CLI.run(["--width", "0"], stdin: Data(cut.utf8))
        #expect(r.status == 1)
        #expect(Self.stdout(r) == "kept text")
        #expect(r.stderr.contains("without message_stop"), "\(r.stderr)")
    }

    @Test(arguments: ["event: launch party\nis tonight at eight\n\nbring snacks\n", ":) smile\nthat is all\n",
                      "data science notes\n", "id: 42\n"])
    func textThatLooksLikeSSEIsShownAsText(_ text: String) throws {
        let r = try CLI.run(["--width", "0"], stdin: Data(text.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.stdout(r) == text)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
    }

    @Test func textStartingWithABraceIsShownAsText() throws {
        let text = "{ this is not json } but a reply\nsecond line\n"
        let r = try CLI.run(["--width", "0"], stdin: Data(text.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.stdout(r) == text)
    }

    @Test(arguments: [
        (["--width", "100000000"], "--width must be 0 (no wrapping) or 1 to 4096"),
        (["--width", "-1"], "--width must be 0 (no wrapping) or 1 to 4096"),
        (["--height", "100000000", "--fullscreen"], "--height must be 1 to 1000"),
        (["--fps", "0"], "--fps must be 1 to 1000"),
        (["--tab-size", "-3"], "--tab-size must be 1 to 64"),
        (["--no-such-flag"], "Unknown option '--no-such-flag'"),
        (["--output", "html"], "html"),
    ])
    func badArgumentsAreOneLineUsageErrors(_ arguments: [String], _ message: String) throws {
        let r = try CLI.run(arguments + [CLI.fixture("sse/coding-answer.anthropic.sse")])
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        let lines = Self.errorLines(r)
        #expect(lines.count == 1, "\(arguments): \(lines)")
        #expect(lines.first?.hasPrefix("stream-render: error: ") == true, "\(lines)")
        #expect(lines.first?.contains(message) == true, "\(arguments): \(lines)")
        #expect(r.stdout.isEmpty)
    }

    /// Ctrl-C into a pipe: the held-back end of the current line is written, and the
    /// exit status says a signal ended it.
    @Test func interruptOnPlainOutputKeepsTheHeldBackText() async throws {
        let binary = CLI.binary.path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("sr-int-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        // SIGINT only once the first text is out (the handlers are installed by then).
        let script = "(printf 'a line still arriving when Ctrl-C comes, cut mid-wo'; sleep 2) | '\(binary)' --format text --markdown off > '\(output)' & pid=$!; n=0; while [ ! -s '\(output)' ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n+1)); done; kill -INT $pid; wait $pid; echo \"exit=$?\" >> '\(output)'"
        _ = try await Child.script(script)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(text == "a line still arriving when Ctrl-C comes, cut mid-wo\nexit=130\n", "\(text.debugDescription)")
    }
}
