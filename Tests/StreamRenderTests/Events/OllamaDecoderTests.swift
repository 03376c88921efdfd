import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Ollama NDJSON (`/api/chat`, `/api/generate`): one JSON object per line, lines cut
/// anywhere across chunks.
@Suite struct OllamaDecoderTests {
    typealias Support = FormatTestSupport

    static let fixtures = ["ollama-chat.ndjson", "ollama-generate.ndjson", "ollama-chat.thinking-tool.ndjson"]

    static func chat(_ content: String) -> String {
        #"{"model":"llama3.2","created_at":"2025-06-14T09:41:07.1Z","message":{"role":"assistant","content":"\#(content)"},"done":false}"# + "\n"
    }
    static let done = #"{"model":"llama3.2","created_at":"2025-06-14T09:41:08.1Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":3,"eval_count":4}"# + "\n"

    @Test(arguments: fixtures)
    func anyChunkingDecodesIdentically(_ name: String) {
        let bytes = Fixtures.data("sse/\(name)")
        let auto = Support.verifyChunkings(bytes, name: name, seed: 0x011A_0001)
        let forced = Support.verifyChunkings(bytes, name: name, format: .ollama, seed: 0x011A_0002)
        #expect(forced == auto, "--format ollama decodes as auto-detection does")
        #expect(auto.diagnostics.isEmpty)
        #expect(auto.complete)
    }

    @Test func chatLinesDecodeToTheAnswerModelStopReasonAndUsage() {
        let decoded = Support.decode(Fixtures.data("sse/ollama-chat.ndjson"))
        #expect(decoded.text == Fixtures.text("answers/python-dedupe.md"))
        #expect(decoded.complete)
        #expect(decoded.events.first == .messageStart(id: nil, model: "llama3.2", usage: Usage()))
        #expect(decoded.events.suffix(2) == [.messageDelta(stopReason: "stop", stopSequence: nil, usage: Usage(inputTokens: 31, outputTokens: 152)),
                                             .messageStop])
        #expect(decoded.blocks.map(\.kind) == [.text])
    }

    @Test func generateLinesWithThinking() {
        let decoded = Support.decode(Fixtures.data("sse/ollama-generate.ndjson"))
        #expect(decoded.text == Fixtures.text("answers/haiku-explained.md"))
        #expect(decoded.thinking.hasPrefix("The user wants a haiku about a slow build"))
        #expect(decoded.blocks.map(\.kind) == [.thinking, .text])
        #expect(decoded.events.first == .messageStart(id: nil, model: "deepseek-r1:8b", usage: Usage()))
        #expect(decoded.events.contains(.messageDelta(stopReason: "stop", stopSequence: nil, usage: Usage(inputTokens: 29, outputTokens: 231))))
        #expect(decoded.complete)
    }

    @Test func chatThinkingAndAToolCall() {
        let decoded = Support.decode(Fixtures.data("sse/ollama-chat.thinking-tool.ndjson"))
        #expect(decoded.text.isEmpty)
        #expect(decoded.thinking.hasPrefix("Okay, the user is asking for the weather in Toronto."))
        #expect(decoded.blocks.map(\.kind) == [.thinking, .toolUse(id: "", name: "get_weather")])
        #expect(decoded.blocks.last?.inputJSON == #"{"city":"Toronto","unit":"celsius"}"#)
        #expect(decoded.complete)
    }

    @Test func anErrorLineEndsTheStreamAndKeepsTheTextBeforeIt() {
        let stream = Self.chat("Hello") + Self.chat(", wor") + #"{"error":"an error was encountered while running the model: unexpected EOF"}"# + "\n"
        let decoded = Support.decode(stream)
        #expect(decoded.text == "Hello, wor")
        #expect(decoded.events.last == .error(type: "error", message: "an error was encountered while running the model: unexpected EOF"))
        #expect(!decoded.complete)
    }

    @Test func anErrorBodyIsAnErrorInAnyChunking() {
        let body = Fixtures.data("sse/ollama.not-found.json")
        for chunk in [0, 1, 7] {
            let decoded = Support.decode(body, chunk: chunk)
            #expect(decoded.errors == ["error: model 'llama9' not found, try pulling it first"], "chunk \(chunk)")
            #expect(decoded.text.isEmpty && !decoded.complete)
            #expect(Support.detectedFormat(body, chunk: chunk) == .ollama)
            #expect(Support.decode(body, format: .ollama, chunk: chunk).errors == decoded.errors, "forced, chunk \(chunk)")
        }
    }

    /// A malformed line is reported with its line number and loses only its own text.
    @Test func aMalformedLineLosesOnlyItsOwnText() {
        let stream = Self.chat("one ") + #"{"model":"llama3.2","message":{"content":"lost "},"#  + "\n" + Self.chat("two ")
            + "[1]\n" + Self.chat("three") + Self.done
        let decoded = Support.decode(stream)
        #expect(decoded.text == "one two three")
        #expect(decoded.complete)
        #expect(decoded.diagnostics.map(\.kind) == [.malformedEvent, .malformedEvent])
        #expect(decoded.diagnostics.map(\.eventNumber) == [2, 4])
        #expect(decoded.diagnostics.first?.byteOffset == Self.chat("one ").utf8.count)
    }

    @Test func blankLinesAndCRLFAreLineEnds() {
        let lf = Self.chat("a") + "\n  \n" + Self.chat("b") + Self.done
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        for stream in [lf, crlf, lf.replacingOccurrences(of: "\n", with: "\r")] {
            let decoded = Support.decode(stream, format: .ollama)
            #expect(decoded.text == "ab" && decoded.complete && decoded.diagnostics.isEmpty, "\(stream.debugDescription)")
        }
        #expect(Support.decode(crlf).text == "ab", "auto-detected")
    }

    @Test func aLastLineWithoutALineEndIsDecodedIfWhole() {
        var stream = Self.chat("Hi") + Self.done
        stream.removeLast()
        let whole = Support.decode(stream)
        #expect(whole.text == "Hi" && whole.complete && whole.diagnostics.isEmpty)
        let cut = Support.decode(String(stream.dropLast(20)))
        #expect(cut.text == "Hi" && !cut.complete)
        #expect(cut.diagnostics.map(\.kind) == [.truncatedEvent])
        #expect(cut.diagnostics.first?.eventNumber == 2)
    }

    @Test func aLineOverTheLimitIsDroppedAndTheRestGoesOn() {
        let huge = Self.chat(String(repeating: "x", count: 5_000))
        let stream = Array((Self.chat("before ") + huge + Self.chat("after") + Self.done).utf8)
        for chunk in [0, 1, 999] {
            var decoder = ResponseDecoder(format: .ollama, maximumEventBytes: 1_000)
            var text = "", kinds: [StreamDiagnostic.Kind] = []
            let sink: (ResponseDecoder.Output) -> Void = {
                switch $0 {
                case .event(.delta(_, .text, let t)): text += t
                case .diagnostic(let d): kinds.append(d.kind)
                default: break
                }
            }
            if chunk == 0 {
                decoder.feed(stream, sink)
            } else {
                for s in stride(from: 0, to: stream.count, by: chunk) { decoder.feed(stream[s..<min(stream.count, s + chunk)], sink) }
            }
            decoder.finish(sink)
            #expect(text == "before after" && kinds == [.eventTooLarge] && decoder.isComplete, "chunk \(chunk)")
        }
    }

    @Test func linesOfOtherShapesAreUnknownNotFatal() {
        let decoded = Support.decode(Self.chat("a") + #"{"status":"pulling manifest"}"# + "\n" + Self.done, format: .ollama)
        #expect(decoded.events.contains(.unknown(type: "line")))
        #expect(decoded.text == "a" && decoded.complete && decoded.diagnostics.isEmpty)
    }

    @Test func withoutAssemblyBlocksCarryNoText() {
        var decoder = ResponseDecoder(format: .ollama, assemblesText: false)
        var blocks: [ContentBlock] = []
        decoder.feed(Fixtures.data("sse/ollama-generate.ndjson")) { if case .event(.blockStop(let b)) = $0 { blocks.append(b) } }
        decoder.finish { _ in }
        #expect(blocks.map(\.kind) == [.thinking, .text])
        #expect(blocks.allSatisfy { $0.text.isEmpty })
    }
}
