import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Format detection never throws text away, in any chunking; whole JSON bodies.
@Suite struct DetectionTests {
    /// Decodes `bytes` fed in `chunks`-sized pieces (0: all at once); returns the text
    /// deltas joined, the error events and the format.
    static func decode(_ bytes: [UInt8], chunk: Int = 0, assemblesText: Bool = true)
        -> (text: String, errors: [String], format: ResponseDecoder.Format?, blocks: [ContentBlock], complete: Bool) {
        var decoder = ResponseDecoder(assemblesText: assemblesText)
        var text = "", errors: [String] = [], blocks: [ContentBlock] = []
        let sink: (ResponseDecoder.Output) -> Void = { output in
            switch output {
            case .event(.delta(_, .text, let t)), .event(.delta(_, .refusal, let t)): text += t
            case .event(.error(let type, let message)): errors.append("\(type): \(message)")
            case .event(.blockStop(let block)): blocks.append(block)
            default: break
            }
        }
        if chunk == 0 {
            decoder.feed(bytes, sink)
        } else {
            for start in stride(from: 0, to: bytes.count, by: chunk) { decoder.feed(bytes[start..<min(bytes.count, start + chunk)], sink) }
        }
        decoder.finish(sink)
        return (text, errors, decoder.format, blocks, decoder.isComplete)
    }

    static let looksLikeSSE = [
        "event: launch party\nis tonight\n\nbring snacks\n", ":) smile\nthat is all\n", "data science\n", "id: 7\nfoo\n\n",
        "retry later, please\n", "ev", "data", "{ not json } at all\n", "{\"a\": 1} and then text\n",
    ]

    @Test(arguments: looksLikeSSE)
    func textThatLooksLikeSSEOrJSONIsText(_ text: String) {
        let bytes = Array(text.utf8)
        for chunk in [0, 1, 2, 3, 7] {
            let r = Self.decode(bytes, chunk: chunk)
            #expect(r.text == text, "chunk \(chunk)")
            #expect(r.format == .text, "chunk \(chunk)")
        }
    }

    @Test func aByteOrderMarkCutShortStillLeadsToSSE() {
        let stream = [0xEF, 0xBB, 0xBF] + anthropicStream(["with a BOM"])
        for chunk in [0, 1, 2] {
            let r = Self.decode(stream, chunk: chunk)
            #expect(r.text == "with a BOM" && r.format == .anthropic && r.complete, "chunk \(chunk)")
        }
    }

    @Test func textIsShownBeforeItsFirstLineEnds() {
        var decoder = ResponseDecoder()
        var text = ""
        decoder.feed(Array("Hello, wor".utf8)) { if case .event(.delta(_, .text, let t)) = $0 { text += t } }
        #expect(text == "Hello, wor", "text that cannot be SSE waited for a newline")
    }

    @Test(arguments: [
        (#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#, "overloaded_error: Overloaded", ResponseDecoder.Format.anthropic),
        (#"{"error":{"message":"Bad key","type":"invalid_request_error","code":"invalid_api_key"}}"#, "invalid_request_error: Bad key", .openai),
    ])
    func errorBodiesAreErrors(_ body: String, _ error: String, _ format: ResponseDecoder.Format) {
        for chunk in [0, 1, 5] {
            let r = Self.decode(Array((body + "\n").utf8), chunk: chunk)
            #expect(r.errors == [error] && r.text.isEmpty && r.format == format && !r.complete, "chunk \(chunk)")
        }
    }

    @Test func wholeResponsesRenderTheirText() {
        let message = #"{"id":"m","type":"message","model":"x","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Hi\n"},{"type":"tool_use","id":"t1","name":"search","input":{"q":"x"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":2}}"#
        let r = Self.decode(Array(message.utf8), chunk: 3)
        #expect(r.text == "Hi\n" && r.format == .anthropic && r.complete)
        #expect(r.blocks.map(\.kind) == [.thinking, .text, .toolUse(id: "t1", name: "search")])
        #expect(r.blocks.last?.inputJSON == #"{"q":"x"}"#)
        let completion = #"{"object":"chat.completion","choices":[{"message":{"content":"Hello","refusal":null},"finish_reason":"stop"}]}"#
        let c = Self.decode(Array(completion.utf8))
        #expect(c.text == "Hello" && c.format == .openai && c.complete)
    }

    @Test func aStreamCutBeforeItsFirstEventIsStillSSE() {
        let cut = Array("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}".utf8)
        let r = Self.decode(cut)
        #expect(r.format != .text && r.text.isEmpty && !r.complete)
    }

    /// A renderer's decoder keeps no copy of the answer: block text is not assembled,
    /// and tool input only up to 4 KiB.
    @Test func withoutAssemblyBlocksCarryNoText() {
        let big = String(repeating: "x", count: 10_000)
        var sse = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        for _ in 0..<3 { sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\(big)\"}}\n\n" }
        sse += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
        sse += "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{}}}\n\n"
        for _ in 0..<3 { sse += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\(big)\"}}\n\n" }
        sse += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
        let kept = Self.decode(Array(sse.utf8), assemblesText: true)
        #expect(kept.blocks.first?.text.count == 30_000)
        let light = Self.decode(Array(sse.utf8), assemblesText: false)
        #expect(light.text.count == 30_000, "the deltas still carry the text")
        #expect(light.blocks.first?.text.isEmpty == true)
        #expect((light.blocks.last?.inputJSON.utf8.count ?? 0) <= 4096 + 10_000)
        #expect((light.blocks.last?.inputJSON.utf8.count ?? 0) < 30_000)
    }
}
