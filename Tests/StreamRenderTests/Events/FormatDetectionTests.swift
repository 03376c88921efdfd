import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Auto-detection of Gemini, Ollama and plain-text SSE: each fixture is recognised
/// in any chunking, and input that only looks like them is still text, whole.
@Suite struct FormatDetectionTests {
    typealias Support = FormatTestSupport

    @Test(arguments: [
        ("gemini.crlf.sse", ResponseDecoder.Format.gemini), ("gemini.thinking-tool.crlf.sse", .gemini), ("gemini.error.json", .gemini),
        ("ollama-chat.ndjson", .ollama), ("ollama-generate.ndjson", .ollama), ("ollama-chat.thinking-tool.ndjson", .ollama),
        ("ollama.not-found.json", .ollama), ("data-text.sse", .sseText),
        // The existing fixtures keep their formats.
        ("coding-answer.anthropic.sse", .anthropic), ("coding-answer.openai.sse", .openai), ("captured-excerpt.sse", .anthropic),
    ])
    func eachFixtureIsRecognised(_ name: String, _ format: ResponseDecoder.Format) {
        let bytes = Fixtures.data("sse/\(name)")
        for chunk in [0, 1, 3, 64] {
            #expect(Support.detectedFormat(bytes, chunk: chunk) == format, "\(name) chunk \(chunk)")
        }
    }

    /// Text that merely looks like plain-text SSE, or like an Ollama line, is text,
    /// every byte of it, in every chunking.
    @Test(arguments: [
        "data: 5 rows\n\nThe rest of the report follows.\n",
        "data: one\nnot a field\n\ndata: two\n\n",
        "data: x\n\nprose in between\n\ndata: y\n\n",
        "data: {\"unknown\": \"provider\"}\n\ndata: {\"x\": 2}\n\n",
        "data: [1, 2]\n\ndata: 3\n\n",
        "data: only a line, never ended",
        "{\"model\": \"x\", \"done\": false}\n{\"model\": \"x\", \"done\": true}\n",
        "{\"model\": \"x\", \"message\": \"not an object\", \"done\": false}\n",
        "{\"model\": \"x\", \"response\": \"hi\", \"done\": \"no\"}\nmore\n",
    ])
    func lookalikesAreText(_ text: String) {
        for chunk in [0, 1, 2, 5] {
            let decoded = Support.decode(text, chunk: chunk)
            #expect(decoded.text == text, "chunk \(chunk)")
            #expect(Support.detectedFormat(Array(text.utf8), chunk: chunk) == .text, "chunk \(chunk)")
        }
    }

    /// Plain-text SSE needs a second complete event (or the end of the input) with every
    /// line before it a field or comment; until then nothing is shown.
    @Test func plainTextSSEIsDecidedAtItsSecondEventOrAtTheEnd() {
        var decoder = ResponseDecoder()
        var text = ""
        let sink: (ResponseDecoder.Output) -> Void = { if case .event(.delta(_, .text, let t)) = $0 { text += t } }
        decoder.feed(Array(": hello\nretry: 100\ndata: Hello\n\n".utf8), sink)
        #expect(text.isEmpty && decoder.format == nil, "held until the lines tell")
        decoder.feed(Array("data: , world\n\n".utf8), sink)
        #expect(text == "Hello, world" && decoder.format == .sseText)
        decoder.finish(sink)
        #expect(decoder.isComplete)

        let single = Support.decode("data: Just one event\n\n")
        #expect(single.text == "Just one event" && single.complete)
        #expect(Support.detectedFormat(Array("data: Just one event\n\n".utf8)) == .sseText)
        let bom = Support.decode([0xEF, 0xBB, 0xBF] + Array("data: a\n\ndata: b\n\n".utf8), chunk: 1)
        #expect(bom.text == "ab" && bom.complete)
    }

    /// An Ollama stream's first line is a whole JSON document followed by more: the
    /// input is NDJSON from its first byte; a lone whole reply (`"stream": false`) too.
    @Test func ollamaIsRecognisedFromItsFirstLine() {
        let line = #"{"model":"llama3.2","created_at":"t","response":"Hi","done":false}"#
        let last = #"{"model":"llama3.2","created_at":"t","response":"","done":true,"done_reason":"length","eval_count":1}"#
        for chunk in [0, 1, 10] {
            let decoded = Support.decode(line + "\n" + last + "\n", chunk: chunk)
            #expect(decoded.text == "Hi" && decoded.complete, "chunk \(chunk)")
            #expect(decoded.events.contains(.messageDelta(stopReason: "length", stopSequence: nil, usage: Usage(outputTokens: 1))))
        }
        let whole = #"{"model":"llama3.2","created_at":"t","message":{"role":"assistant","content":"A whole reply."},"done":true,"done_reason":"stop"}"#
        let decoded = Support.decode(whole)
        #expect(decoded.text == "A whole reply." && decoded.complete)
        #expect(Support.detectedFormat(Array(whole.utf8)) == .ollama)
    }

    /// Random inputs built from SSE-looking lines, prose and blank lines: detection
    /// gives the same result in any chunking, text is never lost silently (it is
    /// either text, whole, or plain-text SSE whose every line that is not a field is
    /// reported), and nothing is reordered.
    @Test func randomLookalikesNeverLoseTextSilently() {
        let vocabulary = ["data: Hello", "data:  world", "data: {\"x\":1}", "data:", "event: note", ": comment", "id: 4",
                          "retry: 10", "", "", "", "plain prose", "data science", "{\"model\":\"m\",\"response\":\"r\",\"done\":false}"]
        let seed = TestSeed.base(0xD3_7EC7)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<1_000 {
            let lineCount = Int.random(in: 1...8, using: &rng)
            let ending = ["\n", "\r\n"].randomElement(using: &rng)!
            var input = (0..<lineCount).map { _ in vocabulary.randomElement(using: &rng)! }.joined(separator: ending)
            if Bool.random(using: &rng) { input += ending }
            let bytes = Array(input.utf8)
            let whole = Support.decode(bytes)
            let format = Support.detectedFormat(bytes)
            for chunks in [bytes.indices.map { bytes[$0...$0] }, randomChunks(bytes, using: &rng, maxChunk: 7)] {
                // Text comes out in pieces as it arrives: the joined text is compared.
                let got = DecoderVerifierTests.decode(chunks)
                if got.text != whole.text || got.diagnostics != whole.diagnostics || got.complete != whole.complete {
                    Issue.record("seed \(seed) iteration \(iteration): chunking changes the decoding of \(input.debugDescription)")
                    return
                }
            }
            let lines = input.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            let others = lines.filter { !$0.isEmpty && !ResponseDecoder.isSSEFieldLine(Array($0.utf8)) }
            switch format {
            case .text?:
                #expect(whole.text == input, "seed \(seed) iteration \(iteration): \(input.debugDescription)")
            case .sseText?:
                let reported = whole.diagnostics.filter { $0.kind == .malformedEvent || $0.kind == .truncatedEvent }
                #expect(others.isEmpty || !reported.isEmpty, "seed \(seed) iteration \(iteration): \(input.debugDescription)")
            case .ollama?:
                let notOllama = lines.filter { !$0.isEmpty && !$0.hasPrefix("{\"model\"") }
                #expect(notOllama.isEmpty || whole.diagnostics.count >= notOllama.count,
                        "seed \(seed) iteration \(iteration): \(input.debugDescription)")
            default:
                break
            }
        }
    }
}
