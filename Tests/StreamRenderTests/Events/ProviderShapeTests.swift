import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The shapes real providers send that the decoders once dropped (issue 23): reasoning
/// fields of OpenAI-compatible providers, Mistral's content parts, legacy completions,
/// MCP and custom tools, tool results, tool calls cut short, unknown text-bearing
/// fields. Each stream is also decoded in every chunking.
@Suite struct ProviderShapeTests {
    typealias Support = FormatTestSupport

    static func sse(_ objects: [String], done: Bool = true) -> String {
        objects.map { "data: \($0)\n\n" }.joined() + (done ? "data: [DONE]\n\n" : "")
    }

    static func events(_ pairs: [(String, String)]) -> String {
        pairs.map { "event: \($0.0)\ndata: \($0.1)\n\n" }.joined()
    }

    static func chat(_ delta: String, finish: String? = nil) -> String {
        #"{"id":"c1","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":\#(delta),"finish_reason":\#(finish.map { "\"\($0)\"" } ?? "null")}]}"#
    }

    static func verified(_ text: String, _ name: String) -> DecoderVerifierTests.Decoded {
        Support.verifyChunkings(Array(text.utf8), name: name, seed: 23, iterations: 40)
    }

    @Test(arguments: ["reasoning_content", "reasoning"])
    func compatibleReasoningFieldsAreThinking(_ field: String) {
        let stream = Self.sse([
            Self.chat(#"{"role":"assistant","content":null,"\#(field)":"Let me "}"#),
            Self.chat(#"{"\#(field)":"think."}"#),
            Self.chat(#"{"content":"The answer."}"#),
            Self.chat("{}", finish: "stop"),
        ])
        let decoded = Self.verified(stream, field)
        #expect(decoded.thinking == "Let me think.")
        #expect(decoded.text == "The answer.")
        #expect(decoded.complete)
        #expect(decoded.blocks.map(\.kind) == [.thinking, .text], "the thinking block ends where the answer starts")
        #expect(decoded.diagnostics.isEmpty)
    }

    @Test func openRouterReasoningDetailsAreThinkingOnceNotTwice() {
        let stream = Self.sse([
            Self.chat(#"{"role":"assistant","content":"","reasoning":"Hmm.","reasoning_details":[{"type":"reasoning.text","text":"Hmm."}]}"#),
            Self.chat(#"{"content":"","reasoning_details":[{"type":"reasoning.summary","summary":" Sure."},{"type":"reasoning.encrypted","data":"AAAA"}]}"#),
            Self.chat(#"{"content":"Yes."}"#, finish: "stop"),
        ])
        let decoded = Self.verified(stream, "details")
        #expect(decoded.thinking == "Hmm. Sure.")
        #expect(decoded.text == "Yes.")
    }

    @Test func mistralContentPartsAreTextAndThinking() {
        let stream = Self.sse([
            Self.chat(#"{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"Plan: add."}]}]}"#),
            Self.chat(#"{"content":[{"type":"text","text":"2 + 2 = "}]}"#),
            Self.chat(#"{"content":[{"type":"text","text":"4"}]}"#, finish: "stop"),
        ])
        let decoded = Self.verified(stream, "mistral")
        #expect(decoded.thinking == "Plan: add.")
        #expect(decoded.text == "2 + 2 = 4")
        #expect(decoded.diagnostics.isEmpty)
    }

    @Test func legacyCompletionsTextIsTheAnswer() {
        let chunk = { (text: String, finish: String) in
            #"{"id":"cmpl-1","object":"text_completion","model":"gpt-3.5-turbo-instruct","choices":[{"text":"\#(text)","index":0,"logprobs":null,"finish_reason":\#(finish)}]}"#
        }
        let decoded = Self.verified(Self.sse([chunk("Once upon", "null"), chunk(" a time", "\"length\"")]), "legacy")
        #expect(decoded.text == "Once upon a time")
        #expect(decoded.complete)
    }

    @Test func anUnknownDeltaFieldHoldingTextIsReportedNotDropped() {
        let stream = Self.sse([Self.chat(#"{"role":"assistant","content":"Hi","speech":"spoken words"}"#, finish: "stop")])
        let decoded = Self.verified(stream, "unknown field")
        #expect(decoded.text == "Hi")
        #expect(decoded.diagnostics.map(\.kind) == [.unhandledContent])
        #expect(decoded.diagnostics.first?.message.contains("delta.speech") == true)
    }

    @Test func responsesReasoningCustomAndMCPToolsAreDecoded() {
        let stream = Self.events([
            ("response.created", #"{"type":"response.created","response":{"id":"r1","model":"o4"}}"#),
            ("response.output_item.added", #"{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs1"}}"#),
            ("response.reasoning_summary_part.added", #"{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":0}"#),
            ("response.reasoning_summary_text.delta", #"{"type":"response.reasoning_summary_text.delta","output_index":0,"delta":"First."}"#),
            ("response.reasoning_summary_part.added", #"{"type":"response.reasoning_summary_part.added","output_index":0,"summary_index":1}"#),
            ("response.reasoning_summary_text.delta", #"{"type":"response.reasoning_summary_text.delta","output_index":0,"delta":"Second."}"#),
            ("response.output_item.done", #"{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs1"}}"#),
            ("response.output_item.added", #"{"type":"response.output_item.added","output_index":1,"item":{"type":"custom_tool_call","call_id":"c1","name":"code_exec","input":""}}"#),
            ("response.custom_tool_call_input.delta", #"{"type":"response.custom_tool_call_input.delta","output_index":1,"delta":"print("}"#),
            ("response.custom_tool_call_input.delta", #"{"type":"response.custom_tool_call_input.delta","output_index":1,"delta":"1)"}"#),
            ("response.output_item.done", #"{"type":"response.output_item.done","output_index":1,"item":{"type":"custom_tool_call","call_id":"c1","name":"code_exec","input":"print(1)"}}"#),
            ("response.output_item.added", #"{"type":"response.output_item.added","output_index":2,"item":{"type":"mcp_call","id":"m1","name":"roll","server_label":"dice","arguments":""}}"#),
            ("response.output_item.done", #"{"type":"response.output_item.done","output_index":2,"item":{"type":"mcp_call","id":"m1","name":"roll","server_label":"dice","arguments":"{\"sides\":6}","output":"4"}}"#),
            ("response.output_item.added", #"{"type":"response.output_item.added","output_index":3,"item":{"type":"message","id":"msg1"}}"#),
            ("response.output_text.delta", #"{"type":"response.output_text.delta","output_index":3,"delta":"Rolled 4."}"#),
            ("response.completed", #"{"type":"response.completed","response":{"id":"r1","status":"completed"}}"#),
        ])
        let decoded = Self.verified(stream, "responses")
        #expect(decoded.thinking == "First.\n\nSecond.")
        #expect(decoded.text == "Rolled 4.")
        #expect(decoded.complete)
        #expect(decoded.blocks.map(\.kind) == [.thinking, .serverToolUse(id: "c1", name: "code_exec"),
                                               .serverToolUse(id: "m1", name: "dice.roll"), .text])
        #expect(decoded.blocks[1].inputJSON == "print(1)")
        #expect(decoded.blocks[2].inputJSON == #"{"sides":6}"#)
        #expect(decoded.diagnostics.isEmpty)
    }

    @Test func aStreamThatIsOneCustomToolCallShowsIt() {
        let stream = Self.events([
            ("response.output_item.added", #"{"type":"response.output_item.added","output_index":0,"item":{"type":"custom_tool_call","call_id":"c9","name":"apply_patch"}}"#),
            ("response.custom_tool_call_input.delta", #"{"type":"response.custom_tool_call_input.delta","output_index":0,"delta":"*** Begin Patch"}"#),
        ])
        let decoded = Self.verified(stream, "cut custom call")
        #expect(decoded.blocks.count == 1)
        #expect(decoded.blocks.first?.inputJSON == "*** Begin Patch")
        #expect(decoded.blocks.first?.isComplete == false, "cut short: shown, and said to be incomplete")
    }

    @Test func anUnknownResponsesDeltaEventIsReported() {
        let stream = Self.events([
            ("response.created", #"{"type":"response.created","response":{"id":"r1"}}"#),
            ("response.hologram_text.delta", #"{"type":"response.hologram_text.delta","output_index":0,"delta":"lost?"}"#),
            ("response.completed", #"{"type":"response.completed","response":{"status":"completed"}}"#),
        ])
        let decoded = Self.verified(stream, "unknown delta")
        #expect(decoded.diagnostics.map(\.kind) == [.unhandledContent])
    }

    /// Text deltas at the edges of the decoder's usual shape (read off the tape) decode
    /// as the general reading does: escaped names and values, a repeated key (the last
    /// wins), members in another order, and shapes that are not text deltas.
    @Test func anthropicTextDeltasOfUnusualShapeDecodeAsUsualOnes() {
        func delta(_ json: String) -> (String, String) { ("content_block_delta", json) }
        let stream = Self.events([
            ("message_start", #"{"type":"message_start","message":{"id":"m","model":"claude"}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            delta(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}"#),
            delta(#"{"type":"content_block_delt\u0061","index":0,"delta":{"type":"text_delta","text":"b"}}"#),
            delta(#"{"type":"content_block_delta","index":0,"delta":{"type":"text\u005fdelta","text":"c"}}"#),
            delta(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","text":"d"}}"#),
            delta(#"{"delta":{"text":"e\n\u00e9","type":"text_delta"},"index":0,"type":"content_block_delta"}"#),
            delta(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","te\u0078t":"f"}}"#),
            delta(#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}"#),
            delta(#"{"type":"content_block_delta","index":"0","delta":{"type":"text_delta","text":"g"}}"#),
            delta(#"{"type":"content_block_delta","index":0,"delta":"h"}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        let decoded = Self.verified(stream, "text-delta-shapes")
        #expect(decoded.text == "abcde\néf")
        let malformed = decoded.outputs.filter {
            if case .diagnostic(let d) = $0 { return d.kind == .malformedEvent }
            return false
        }
        #expect(malformed.count == 3)  // a text that is a number, an index that is a string, a delta that is no object
    }

    @Test func anthropicMCPToolUseAndResultsAreBlocks() {
        let stream = Self.events([
            ("message_start", #"{"type":"message_start","message":{"id":"m","model":"claude","usage":{"input_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"mcp_tool_use","id":"mcptoolu_1","name":"echo","server_name":"demo","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"text\":\"hi\"}"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"hi"}]}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            ("content_block_start", #"{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_2","content":[{"type":"web_search_result","title":"A","url":"https://a.example"},{"type":"web_search_result","title":"B","url":"https://b.example"}]}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":2}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        let decoded = Self.verified(stream, "mcp")
        #expect(decoded.blocks.map(\.kind) == [.serverToolUse(id: "mcptoolu_1", name: "demo.echo"),
                                               .toolResult(toolUseID: "mcptoolu_1", type: "mcp_tool_result"),
                                               .toolResult(toolUseID: "srvtoolu_2", type: "web_search_tool_result")])
        #expect(decoded.blocks[0].inputJSON == #"{"text":"hi"}"#)
        #expect(decoded.blocks[1].text == "hi")
        #expect(decoded.blocks[2].text == "2 results: A (https://a.example); B (https://b.example)")
    }

    @Test func anAnthropicToolCallCutShortIsShownIncomplete() {
        let stream = Self.events([
            ("message_start", #"{"type":"message_start","message":{"id":"m","model":"claude"}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"search","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"we"}}"#),
        ])
        let decoded = Self.verified(stream, "anthropic cut")
        #expect(decoded.blocks.map(\.inputJSON) == [#"{"q": "we"#])
        #expect(decoded.blocks.map(\.isComplete) == [false])
        #expect(!decoded.complete)
    }

    @Test func anErrorsPlaceIsTheEventThatCarriedItInEveryChunking() {
        let stream = Self.sse([Self.chat(#"{"role":"assistant","content":"Hi"}"#), #"{"error":{"type":"server_error","message":"boom"}}"#])
        let bytes = Array(stream.utf8)
        for chunk in [0, 1, 7, bytes.count / 2] {
            var decoder = ResponseDecoder()
            let pieces = chunk == 0 ? [bytes[...]] : stride(from: 0, to: bytes.count, by: chunk).map { bytes[$0..<min(bytes.count, $0 + chunk)] }
            for piece in pieces { decoder.feed(piece) { _ in } }
            decoder.finish { _ in }
            #expect(decoder.errorPlaces.map { $0?.eventNumber } == [2], "chunk \(chunk)")
        }
    }
}
