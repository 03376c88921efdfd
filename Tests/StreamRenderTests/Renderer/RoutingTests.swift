import Testing
@_spi(Benchmarks) @testable import StreamRender

/// What the renderer makes of blocks and errors (issue 23): text after a tool call is
/// a new paragraph, tool results and calls cut short are shown, an error names the
/// event that carried it however the input was cut.
@Suite struct RoutingTests {
    static func plain(_ stream: String, chunk: Int = 0, markdown: Bool = true) -> (out: String, side: String, errors: String, outcome: StreamRenderer.Outcome) {
        let sink = BufferSink()
        let configuration = StreamRenderer.Configuration(output: .plain, layout: LayoutSettings(width: 80),
            content: .init(markdown: markdown))
        let renderer = StreamRenderer(configuration: configuration, sink: sink, clock: ManualClock())
        let bytes = Array(stream.utf8)
        if chunk == 0 { renderer.feed(bytes) } else {
            for start in stride(from: 0, to: bytes.count, by: chunk) { renderer.feed(bytes[start..<min(bytes.count, start + chunk)]) }
        }
        let outcome = renderer.finish()
        return (String(decoding: sink.bytes, as: UTF8.self), sink.messageText(.side), sink.messageText(.error), outcome)
    }

    static let searchThenText = ProviderShapeTests.events([
        ("message_start", #"{"type":"message_start","message":{"id":"m","model":"claude"}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I'll search for clearer headlines."}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"news\"}"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ("content_block_start", #"{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","title":"News","url":"https://n.example"}]}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":2}"#),
        ("content_block_start", #"{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"Based on the search results, "}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":3}"#),
        ("content_block_start", #"{"type":"content_block_start","index":4,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":4,"delta":{"type":"text_delta","text":"the answer (cited)."}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":4}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    @Test func textAfterAToolCallStartsANewParagraph() {
        for markdown in [true, false] {
            let r = Self.plain(Self.searchThenText, markdown: markdown)
            #expect(r.out == "I'll search for clearer headlines.\n\nBased on the search results, the answer (cited).\n",
                    "markdown \(markdown)")
        }
        let r = Self.plain(Self.searchThenText)
        #expect(r.side.contains(#"[tool call] web_search {"query":"news"} (srvtoolu_1)"#))
        #expect(r.side.contains("[tool result] web_search_tool_result (srvtoolu_1): News (https://n.example)"))
        #expect(r.outcome.ending == .complete)
    }

    @Test func aToolCallCutShortIsShownAndTheStreamFails() {
        let stream = ProviderShapeTests.events([
            ("message_start", #"{"type":"message_start","message":{"id":"m","model":"claude"}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"search","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"we"}}"#),
        ])
        let r = Self.plain(stream)
        #expect(r.side.contains(#"[tool call, cut short] search {"q": "we (toolu_1)"#))
        #expect(r.outcome.ending == .truncated)
    }

    @Test func anErrorNamesItsOwnEventInEveryChunking() {
        let stream = ProviderShapeTests.sse([ProviderShapeTests.chat(#"{"role":"assistant","content":"Hi"}"#),
                                             #"{"error":{"type":"server_error","message":"boom"}}"#])
        var seen: Set<String> = []
        for chunk in [0, 1, 5, 64] {
            let r = Self.plain(stream, chunk: chunk)
            #expect(r.out == "Hi\n")
            seen.insert(r.errors)
        }
        #expect(seen.count == 1, "\(seen)")
        #expect(seen.first?.contains("(event 2, byte ") == true, "\(seen)")
    }

    @Test func textInAnUnknownFieldFailsTheStreamAndSaysWhichEvent() {
        let stream = ProviderShapeTests.sse([ProviderShapeTests.chat(#"{"role":"assistant","content":"Hi","speech":"words"}"#, finish: "stop")])
        let r = Self.plain(stream)
        #expect(r.out == "Hi\n")
        #expect(r.errors.contains("content not shown (event 1, byte 0): delta.speech"), "\(r.errors)")
        #expect(!r.outcome.isComplete && r.outcome.textDropped)
    }

    /// Standard output and standard error as one terminal would show them, in write order.
    final class InterleavedSink: RenderSink {
        var text = ""
        func write(_ bytes: UnsafeBufferPointer<UInt8>) { text += String(decoding: bytes, as: UTF8.self) }
        func writeMessage(_ message: String, kind: RenderMessageKind) { text += message }
    }

    /// Plain output with standard error and output on one terminal: the paragraph
    /// before a tool call, the call, the text after it, in stream order (the call was
    /// written before the unfinished paragraph that preceded it).
    @Test(arguments: [(80, true), (80, false), (0, false)])
    func plainOutputInterleavesSideTextInStreamOrder(_ width: Int, _ markdown: Bool) {
        let sink = InterleavedSink()
        let configuration = StreamRenderer.Configuration(output: .plain, layout: LayoutSettings(width: max(1, width)),
            content: .init(markdown: markdown), plainText: .init(wraps: width != 0))
        let renderer = StreamRenderer(configuration: configuration, sink: sink, clock: ManualClock())
        renderer.feed(Array(Self.searchThenText.utf8))
        renderer.finish()
        let order = ["I'll search", "[tool call] web_search", "[tool result]", "Based on the search"].map {
            sink.text.range(of: $0)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! }, "\(sink.text.debugDescription)")
    }

    /// Records what a router asks its owner to do.
    final class Recorder: ResponseRouting {
        var router = ResponseRouter(format: .auto, maximumEventBytes: 1 << 20, settings: .init(), now: { .zero })
        var routedActions: [ResponseRouter.Action] = []
        var performed: [String] = []
        func perform(_ action: ResponseRouter.Action) {
            switch action {
            case .answer(let text): performed.append("answer \(text)")
            case .endBlock: performed.append("end block")
            case .resumeText: performed.append("resume")
            case .side(let text, _): performed.append("side \(text)")
            case .message(let text, _): performed.append("message \(text)")
            case .event: break
            }
        }
    }

    /// The deltas of one read reach the owner as one text (a delta handed on alone cost
    /// as much as a third of rendering it); a side action between them keeps its place.
    @Test func deltasOfOneReadArePerformedAsOneText() {
        func delta(_ index: Int, _ text: String) -> (String, String) {
            ("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":"\#(text)"}}"#)
        }
        let stream = ProviderShapeTests.events([
            ("message_start", #"{"type":"message_start","message":{"id":"m","model":"claude"}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            delta(0, "One, "), delta(0, "two, "), delta(0, "three."),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            ("content_block_start", #"{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}"#),
            delta(2, "Four, "), delta(2, ""), delta(2, "five."),
            ("content_block_stop", #"{"type":"content_block_stop","index":2}"#),
        ])
        let whole = Recorder()
        Array(stream.utf8).withUnsafeBufferPointer { bytes in whole.route { $0.feed(bytes, $1) } }
        #expect(whole.performed == ["answer One, two, three.", "end block", "side [tool call] f {} (t)\n",
                                    "answer \n\n", "resume", "answer Four, five."])
        // Read by read, each read's text is its own.
        let split = Recorder()
        let bytes = Array(stream.utf8)
        let cut = bytes.count / 2
        for part in [bytes[..<cut], bytes[cut...]] {
            Array(part).withUnsafeBufferPointer { part in split.route { $0.feed(part, $1) } }
        }
        #expect(split.performed.filter { $0.hasPrefix("answer") }.joined().replacingOccurrences(of: "answer ", with: "")
                == "One, two, three.\n\nFour, five.")
        // A read of empty deltas only is still performed (a renderer marks its frame due).
        let empty = Recorder()
        Array(ProviderShapeTests.events([delta(0, ""), delta(0, "")]).utf8).withUnsafeBufferPointer { bytes in
            empty.route { $0.feed(bytes, $1) }
        }
        #expect(empty.performed.contains("answer "))
    }
}
