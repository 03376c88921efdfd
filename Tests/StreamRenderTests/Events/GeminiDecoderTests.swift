import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Gemini `streamGenerateContent?alt=sse`: one GenerateContentResponse per event.
@Suite struct GeminiDecoderTests {
    typealias Support = FormatTestSupport

    static func chunk(_ parts: String, finish: String? = nil, usage: String = #"{"promptTokenCount": 5,"totalTokenCount": 5}"#) -> String {
        let reason = finish.map { #","finishReason": "\#($0)""# } ?? ""
        return #"data: {"candidates": [{"content": {"parts": \#(parts),"role": "model"},"index": 0\#(reason)}],"usageMetadata": \#(usage),"modelVersion": "gemini-2.5-pro","responseId": "r1"}"# + "\r\n\r\n"
    }

    static func text(_ t: String) -> String { #"[{"text": "\#(t)"}]"# }

    @Test(arguments: ["gemini.crlf.sse", "gemini.thinking-tool.crlf.sse"])
    func anyChunkingDecodesIdentically(_ name: String) {
        let bytes = Fixtures.data("sse/\(name)")
        let auto = Support.verifyChunkings(bytes, name: name, seed: 0x6E31_0001)
        let forced = Support.verifyChunkings(bytes, name: name, format: .gemini, seed: 0x6E31_0002)
        #expect(forced == auto, "--format gemini decodes as auto-detection does")
        #expect(auto.diagnostics.isEmpty)
        #expect(auto.complete)
    }

    @Test func theAnswerItsModelStopReasonAndUsage() {
        let decoded = Support.decode(Fixtures.data("sse/gemini.crlf.sse"))
        #expect(decoded.text == Fixtures.text("answers/sqlite-wal.md"))
        #expect(decoded.complete)
        #expect(decoded.events.first == .messageStart(id: "Xk3NaJ2lFfTqnsEPqOeB-Ak", model: "gemini-2.5-flash", usage: Usage(inputTokens: 14)))
        #expect(decoded.events.suffix(3) == [
            .blockStop(ContentBlock(index: 0, kind: .text, text: Fixtures.text("answers/sqlite-wal.md"))),
            .messageDelta(stopReason: "STOP", stopSequence: nil, usage: Usage(inputTokens: 14, outputTokens: 402)),
            .messageStop,
        ])
        var decoder = ResponseDecoder()
        decoder.feed(Fixtures.data("sse/gemini.crlf.sse")) { _ in }
        decoder.finish { _ in }
        #expect(decoder.format == .gemini && decoder.stopReason == "STOP" && decoder.usage == Usage(inputTokens: 14, outputTokens: 402))
    }

    /// Thought parts are thinking; a functionCall is a tool block whose input is `args`
    /// (what the renderer prints as `[tool call] name {args}`); thinking tokens count as output.
    @Test func thinkingTextAndAFunctionCallAreBlocksInArrivalOrder() {
        let decoded = Support.decode(Fixtures.data("sse/gemini.thinking-tool.crlf.sse"))
        #expect(decoded.complete)
        #expect(decoded.text == "Let me check the current weather in Lisbon for you.")
        #expect(decoded.thinking.hasPrefix("**Understanding the request**\n\nThe user wants"))
        #expect(decoded.blocks.map(\.kind) == [.thinking, .text, .toolUse(id: "", name: "get_current_weather")])
        #expect(decoded.blocks.map(\.index) == [0, 1, 2])
        #expect(decoded.blocks[0].text == decoded.thinking)
        #expect(decoded.blocks[2].inputJSON == #"{"location": "Lisbon, Portugal","unit": "celsius"}"#)
        #expect(decoded.events.contains(.messageDelta(stopReason: "STOP", stopSequence: nil, usage: Usage(inputTokens: 71, outputTokens: 29 + 118))))
        #expect(!decoded.events.contains { if case .unknown = $0 { true } else { false } }, "a thoughtSignature is not a part of its own")
    }

    @Test func aCallWithAnIDKeepsItAndCodeExecutionIsAToolCallWithItsResult() {
        let stream = Self.chunk(#"[{"executableCode": {"language": "PYTHON","code": "print(1)"}}]"#)
            + Self.chunk(#"[{"codeExecutionResult": {"outcome": "OUTCOME_OK","output": "1\n"}}]"#)
            + Self.chunk(#"[{"inlineData": {"mimeType": "image/png","data": "iVBO"}}]"#)
            + Self.chunk(#"[{"functionCall": {"id": "call-7","name": "lookup","args": {}}}]"#, finish: "STOP")
        let decoded = Support.decode(stream)
        #expect(decoded.events.contains(.unknown(type: "inlineData")))
        #expect(decoded.blocks.map(\.kind) == [.toolUse(id: "", name: "code_execution"),
                                               .toolResult(toolUseID: "", type: "code_execution_result"),
                                               .toolUse(id: "call-7", name: "lookup")])
        #expect(decoded.blocks.map(\.inputJSON) == ["print(1)", "", "{}"])
        #expect(decoded.blocks[1].text == "1\n")
    }

    /// Vertex / Gemini 3 with `streamFunctionCallArguments`: the name first, argument
    /// pieces at JSON paths after, an empty part last.
    @Test func streamedFunctionCallArgumentsAreRebuiltIntoOneCall() {
        let stream = Self.chunk(#"[{"text": "Let me check."}]"#)
            + Self.chunk(#"[{"functionCall": {"name": "get_weather", "willContinue": true}}]"#)
            + Self.chunk(#"[{"functionCall": {"partialArgs": [{"jsonPath": "$.location", "stringValue": "Bos", "willContinue": true}], "willContinue": true}}]"#)
            + Self.chunk(#"[{"functionCall": {"partialArgs": [{"jsonPath": "$.location", "stringValue": "ton, \"MA\""}], "willContinue": true}}]"#)
            + Self.chunk(#"[{"functionCall": {"partialArgs": [{"jsonPath": "$.days", "numberValue": 3}, {"jsonPath": "$.units[0]", "stringValue": "C"}, {"jsonPath": "$.opts.alerts", "boolValue": true}], "willContinue": true}}]"#)
            + Self.chunk(#"[{"functionCall": {}}]"#, finish: "STOP")
        let decoded = Support.decode(stream)
        let calls = decoded.blocks.filter { if case .toolUse = $0.kind { true } else { false } }
        #expect(calls.map(\.kind) == [.toolUse(id: "", name: "get_weather")])
        #expect(calls.first?.inputJSON == #"{"location": "Boston, \"MA\"", "days": 3, "units": ["C"], "opts": {"alerts": true}}"#)
        #expect(decoded.text == "Let me check.")
        #expect(decoded.complete)
        // A stream cut before the last piece still shows the call, marked cut short.
        let cut = Support.decode(Self.chunk(#"[{"functionCall": {"name": "f", "willContinue": true}}]"#)
            + Self.chunk(#"[{"functionCall": {"partialArgs": [{"jsonPath": "$.q", "stringValue": "x"}], "willContinue": true}}]"#))
        #expect(cut.blocks.map(\.inputJSON) == [#"{"q": "x"}"#])
        #expect(cut.blocks.map(\.isComplete) == [false])
    }

    @Test(arguments: ["MAX_TOKENS", "SAFETY", "RECITATION", "MALFORMED_FUNCTION_CALL"])
    func everyFinishReasonEndsTheStreamWithItsReason(_ reason: String) {
        let stream = Self.chunk(Self.text("Partial")) + Self.chunk(Self.text(" answer"), finish: reason,
            usage: #"{"promptTokenCount": 5,"candidatesTokenCount": 2,"totalTokenCount": 7}"#)
        let decoded = Support.decode(stream)
        #expect(decoded.text == "Partial answer")
        #expect(decoded.complete)
        #expect(decoded.events.contains(.messageDelta(stopReason: reason, stopSequence: nil, usage: Usage(inputTokens: 5, outputTokens: 2))))
        #expect(decoded.events.last == .messageStop)
    }

    @Test func withoutAFinishReasonTheStreamIsIncomplete() {
        let decoded = Support.decode(Self.chunk(Self.text("Cut")) + Self.chunk(Self.text(" short")))
        #expect(decoded.text == "Cut short")
        #expect(!decoded.complete)
    }

    @Test func anErrorBodyIsAnErrorInAnyChunking() {
        let body = Fixtures.data("sse/gemini.error.json")
        for chunk in [0, 1, 7] {
            let decoded = Support.decode(body, chunk: chunk)
            #expect(decoded.errors == ["RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details."], "chunk \(chunk)")
            #expect(decoded.text.isEmpty && !decoded.complete, "chunk \(chunk)")
            #expect(Support.detectedFormat(body, chunk: chunk) == .gemini)
        }
    }

    @Test func anErrorEventEndsTheStreamAndKeepsTheTextBeforeIt() {
        let stream = Self.chunk(Self.text("Half an ")) + Self.chunk(Self.text("answer"))
            + #"data: {"error": {"code": 503,"message": "The model is overloaded. Please try again later.","status": "UNAVAILABLE"}}"# + "\r\n\r\n"
        let decoded = Support.decode(stream)
        #expect(decoded.text == "Half an answer")
        #expect(decoded.events.last == .error(type: "UNAVAILABLE", message: "The model is overloaded. Please try again later."))
        #expect(!decoded.complete)
        let first = Support.decode(#"data: {"error": {"code": 400,"message": "API key not valid.","status": "INVALID_ARGUMENT"}}"# + "\n\n")
        #expect(first.errors == ["INVALID_ARGUMENT: API key not valid."])
        #expect(Support.detectedFormat(Array(#"data: {"error": {"code": 400,"message": "x","status": "INVALID_ARGUMENT"}}"#.utf8) + [10, 10]) == .gemini)
    }

    @Test func aBlockedPromptIsAnError() {
        let stream = #"data: {"promptFeedback": {"blockReason": "SAFETY"},"usageMetadata": {"promptTokenCount": 9,"totalTokenCount": 9},"modelVersion": "gemini-2.5-flash"}"# + "\n\n"
        let body = #"{"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},"modelVersion": "gemini-2.5-flash"}"#
        for (input, format) in [(stream, ResponseDecoder.Format.gemini), (stream, .auto)] {
            let decoded = Support.decode(input, format: format)
            #expect(decoded.errors == ["SAFETY: the prompt was blocked (promptFeedback.blockReason SAFETY)"], "\(format)")
            #expect(!decoded.complete)
        }
        let whole = Support.decode(body)
        #expect(whole.errors == ["PROHIBITED_CONTENT: the prompt was blocked (promptFeedback.blockReason PROHIBITED_CONTENT)"])
        #expect(!whole.complete && whole.text.isEmpty)
    }

    /// A malformed event is reported with its number and loses only its own text.
    @Test func aMalformedEventLosesOnlyItsOwnText() {
        let stream = Self.chunk(Self.text("one ")) + "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"lost \"\r\n\r\n"
            + Self.chunk(Self.text("two ")) + "data: [1, 2]\r\n\r\n" + Self.chunk(Self.text("three"), finish: "STOP")
        let decoded = Support.decode(stream)
        #expect(decoded.text == "one two three")
        #expect(decoded.complete)
        #expect(decoded.diagnostics.map(\.kind) == [.malformedEvent, .malformedEvent])
        #expect(decoded.diagnostics.map(\.eventNumber) == [2, 4])
    }

    /// A non-streamed `generateContent` response is one GenerateContentResponse.
    @Test func aWholeResponseBodyRendersItsText() {
        let body = #"{"candidates": [{"content": {"parts": [{"text": "Hello from a whole response.\n"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 3,"candidatesTokenCount": 6,"totalTokenCount": 9},"modelVersion": "gemini-2.5-flash","responseId": "w1"}"#
        for chunk in [0, 3] {
            let decoded = Support.decode(body + "\n", chunk: chunk)
            #expect(decoded.text == "Hello from a whole response.\n" && decoded.complete, "chunk \(chunk)")
            #expect(Support.detectedFormat(Array(body.utf8), chunk: chunk) == .gemini)
        }
    }

    @Test func withoutAssemblyBlocksCarryNoText() {
        var decoder = ResponseDecoder(format: .gemini, assemblesText: false)
        var blocks: [ContentBlock] = []
        decoder.feed(Fixtures.data("sse/gemini.thinking-tool.crlf.sse")) { if case .event(.blockStop(let b)) = $0 { blocks.append(b) } }
        decoder.finish { _ in }
        #expect(blocks.map(\.text) == ["", "", ""])
        #expect(blocks.last?.inputJSON == #"{"location": "Lisbon, Portugal","unit": "celsius"}"#, "tool input is kept for the summary")
    }
}
