@_spi(Benchmarks) @testable import StreamRender
import Testing

/// `StreamRenderer.onSideEvent`: what the stream says besides the answer reaches a host
/// typed, equal to what the decoder decoded, the same in every chunking.
@Suite struct SideEventTests {
    /// The side events of `chunks` through a plain renderer, thinking pieces merged.
    static func sideEvents(_ chunks: [ArraySlice<UInt8>]) -> [SideEvent] {
        let renderer = StreamRenderer(configuration: .init(output: .plain), sink: BufferSink())
        var events: [SideEvent] = []
        renderer.onSideEvent = { event in
            if case .thinking(let more) = event, case .thinking(let text)? = events.last {
                events[events.count - 1] = .thinking(text + more)
            } else {
                events.append(event)
            }
        }
        for chunk in chunks { renderer.feed(chunk) }
        renderer.finish()
        return events
    }

    /// What the decoder alone says, written apart from the renderer's routing: the
    /// thinking text, and each tool block's name, input and completeness.
    static func decoded(_ bytes: [UInt8]) -> (thinking: String, calls: [(String, String, Bool)]) {
        var decoder = ResponseDecoder()
        var thinking = ""
        var calls: [(String, String, Bool)] = []
        let collect: (ResponseDecoder.Output) -> Void = { output in
            guard case .event(let event) = output else { return }
            switch event {
            case .delta(_, .thinking, let text): thinking += text
            case .blockStop(let block):
                switch block.kind {
                case .toolUse(_, let name), .serverToolUse(_, let name): calls.append((name, block.inputJSON, block.isComplete))
                default: break
                }
            default: break
            }
        }
        decoder.feed(bytes, collect)
        decoder.finish(collect)
        return (thinking, calls)
    }

    @Test(arguments: ["sse/music.thinking-tool.crlf.sse", "sse/gemini.thinking-tool.crlf.sse", "sse/ollama-chat.thinking-tool.ndjson"])
    func thinkingAndToolCallsArriveTypedInAnyChunking(_ fixture: String) {
        let bytes = Fixtures.data(fixture)
        let events = Self.sideEvents([bytes[...]])
        let want = Self.decoded(bytes)
        #expect(!want.thinking.isEmpty && !want.calls.isEmpty, "the fixture has thinking and a tool call")
        let thinking = events.compactMap { if case .thinking(let text) = $0 { text } else { nil } }.joined()
        #expect(thinking == want.thinking)
        #expect(events.contains(.thinkingEnded))
        let calls = events.compactMap { if case .toolCall(let name, let arguments, _, let complete) = $0 { (name, arguments, complete) } else { nil } }
        #expect(calls.map(\.0) == want.calls.map(\.0) && calls.map(\.1) == want.calls.map(\.1) && calls.map(\.2) == want.calls.map(\.2))
        // Thinking ends before the tool call that follows it.
        if let end = events.firstIndex(of: .thinkingEnded), let call = events.firstIndex(where: { if case .toolCall = $0 { true } else { false } }) {
            #expect(end < call)
        }
        let seed = TestSeed.base(0x51DE_0001)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<50 {
            let got = Self.sideEvents(randomChunks(bytes, using: &rng, maxChunk: 64))
            if got != events {
                Issue.record("seed \(seed) round \(round): \(fixture) gives other side events")
                return
            }
        }
    }

    @Test func anErrorEventArrivesWithItsPlace() {
        let events = Self.sideEvents([Fixtures.data("sse/music.overloaded.sse")[...]])
        let errors = events.compactMap { if case .error(let type, let message, let number, let offset) = $0 { (type, message, number, offset) } else { nil } }
        #expect(errors.count == 1)
        #expect(errors.first?.0 == "overloaded_error" && errors.first?.1.isEmpty == false)
        #expect(errors.first?.2 != nil && errors.first?.3 != nil)
    }

    @Test func aMalformedEventAndACutShortCallArriveToo() {
        let stream = """
        event: message_start
        data: {"type":"message_start","message":{"id":"m","model":"x","role":"assistant","content":[]}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":0,"delta":{nope

        event: content_block_start
        data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}

        event: content_block_delta
        data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Par"}}


        """
        let events = Self.sideEvents([Array(stream.utf8)[...]])
        #expect(events.contains { if case .diagnostic(let d) = $0 { d.kind == .malformedEvent } else { false } }, "\(events)")
        #expect(events.contains(.toolCall(name: "get_weather", arguments: #"{"city": "Par"#, id: "toolu_1", isComplete: false)), "\(events)")
    }
}
