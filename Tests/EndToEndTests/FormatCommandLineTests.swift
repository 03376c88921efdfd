import Foundation
import StreamRender
import Testing

/// The built `stream-render` on Gemini, Ollama and plain-text SSE input.
@Suite struct FormatCommandLineTests: EndToEnd {
    typealias CLI = CommandLineTests

    static let fixtures: [(file: String, answer: String, format: String)] = [
        ("gemini.crlf.sse", "sqlite-wal.md", "gemini"),
        ("ollama-chat.ndjson", "python-dedupe.md", "ollama"),
        ("ollama-generate.ndjson", "haiku-explained.md", "ollama"),
        ("data-text.sse", "git-undo.md", "sse-text"),
    ]

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test(arguments: fixtures.map(\.file))
    func printsTheAnswerWrappedIntoAPipe(_ file: String) throws {
        let fixture = Self.fixtures.first { $0.file == file }!
        let answer = Self.text(CLI.data("answers/\(fixture.answer)"))
        let r = try CLI.run(["--width", "80", CLI.fixture("sse/\(file)")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == CLI.wrapped(answer, LayoutSettings(width: 80, policy: .wcwidth)))
        let forced = try CLI.run(["--width", "80", "--format", fixture.format, CLI.fixture("sse/\(file)")])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout == r.stdout, "--format \(fixture.format)")
        let exact = try CLI.run(["--width", "0"], stdin: CLI.data("sse/\(file)"))
        #expect(exact.status == 0 && exact.stdout == CLI.data("answers/\(fixture.answer)"), "--width 0 from standard input")
    }

    @Test func thinkingAndToolCallsGoToStandardError() throws {
        let gemini = try CLI.run(["--width", "80", CLI.fixture("sse/gemini.thinking-tool.crlf.sse")])
        #expect(gemini.status == 0, "\(gemini.stderr)")
        #expect(Self.text(gemini.stdout) == "Let me check the current weather in Lisbon for you.\n")
        #expect(gemini.stderr.contains("[thinking]\n**Understanding the request**"))
        #expect(gemini.stderr.contains("[tool call] get_current_weather {\"location\": \"Lisbon, Portugal\",\"unit\": \"celsius\"}\n"))
        let ollama = try CLI.run(["--width", "80", CLI.fixture("sse/ollama-chat.thinking-tool.ndjson")])
        #expect(ollama.status == 0, "\(ollama.stderr)")
        #expect(ollama.stderr.contains("[tool call] get_weather {\"city\":\"Toronto\",\"unit\":\"celsius\"}\n"))
    }

    @Test func statsNameTheModelStopReasonAndUsage() throws {
        let r = try CLI.run(["--stats", CLI.fixture("sse/ollama-generate.ndjson")])
        #expect(r.status == 0)
        for key in ["model: deepseek-r1:8b", "stop reason: stop", "usage: input 29 tokens, output 231 tokens"] {
            #expect(r.stderr.contains(key), "missing \(key) in \(r.stderr)")
        }
        let g = try CLI.run(["--stats", CLI.fixture("sse/gemini.crlf.sse")])
        #expect(g.stderr.contains("model: gemini-2.5-flash") && g.stderr.contains("stop reason: STOP"), "\(g.stderr)")
    }

    @Test(arguments: [("gemini.error.json", "RESOURCE_EXHAUSTED: You exceeded your current quota"),
                      ("ollama.not-found.json", "error: model 'llama9' not found")])
    func errorBodiesExitOne(_ file: String, _ message: String) throws {
        let r = try CLI.run([CLI.fixture("sse/\(file)")])
        #expect(r.status == 1)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func aStreamCutShortSaysWhatWasMissing() throws {
        let gemini = CLI.data("sse/gemini.crlf.sse")
        let g = try CLI.run(["--width", "0"], stdin: gemini.prefix(gemini.count - 700))
        #expect(g.status == 1)
        #expect(g.stderr.contains("stream ended without a finishReason"), "\(g.stderr)")
        let ollama = CLI.data("sse/ollama-chat.ndjson")
        let o = try CLI.run(["--width", "0"], stdin: ollama.prefix(ollama.count - 400))
        #expect(o.status == 1)
        #expect(o.stderr.contains("stream ended without a \"done\": true line"), "\(o.stderr)")
    }

    @Test func helpListsTheFormats() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        let help = Self.text(r.stdout).replacingOccurrences(of: "\n", with: " ")
        for format in ["anthropic", "openai", "gemini", "ollama", "sse-text", "text"] {
            #expect(help.contains(format), "--help does not list \(format)")
        }
        let bad = try CLI.run(["--format", "sse_text"], stdin: Data())
        #expect(bad.status == 2, "\(bad.stderr)")
    }
}
