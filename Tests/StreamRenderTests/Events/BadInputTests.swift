import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Bad input gets a clear diagnostic and loses nothing that arrived before it.
@Suite struct BadInputTests {
    struct Result {
        var events: [StreamEvent] = []
        var diagnostics: [StreamDiagnostic] = []
        var complete = false
        var text: String {
            events.reduce(into: "") { if case .delta(_, .text, let t) = $1 { $0 += t } }
        }
    }

    func decode(_ bytes: [UInt8], format: ResponseDecoder.Format = .auto, maximumEventBytes: Int = 16 << 20) -> Result {
        var decoder = ResponseDecoder(format: format, maximumEventBytes: maximumEventBytes)
        var result = Result()
        let sink: (ResponseDecoder.Output) -> Void = {
            switch $0 {
            case .event(let e): result.events.append(e)
            case .diagnostic(let d): result.diagnostics.append(d)
            }
        }
        decoder.feed(bytes, sink)
        decoder.finish(sink)
        result.complete = decoder.isComplete
        return result
    }

    static func delta(_ text: String) -> String {
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\(text)\"}}\n\n"
    }
    static let start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"x\",\"usage\":{}}}\n\n"
    static let stop = "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"

    @Test func malformedJSONInOneEventIsReportedAndTheNextEventsGoOn() {
        let stream = Self.start + Self.delta("one ") + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\n\n" + Self.delta("two") + Self.stop
        let r = decode(Array(stream.utf8))
        #expect(r.text == "one two")
        #expect(r.complete)
        #expect(r.diagnostics.count == 1)
        #expect(r.diagnostics.first?.kind == .malformedEvent)
        #expect(r.diagnostics.first?.eventNumber == 3)
        #expect(r.diagnostics.first?.description.contains("event 3") == true)
    }

    @Test func anEventOverTheLimitIsAnErrorAndMemoryStaysBounded() {
        let huge = Self.delta(String(repeating: "x", count: 100_000))
        let r = decode(Array((Self.start + huge + Self.delta("after") + Self.stop).utf8), maximumEventBytes: 10_000)
        #expect(r.text == "after")
        #expect(r.diagnostics.map(\.kind) == [.eventTooLarge])
        #expect(r.complete)
    }

    @Test func invalidUTF8InContentBecomesReplacementCharacters() {
        var bytes = Array((Self.start + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a").utf8)
        bytes += [0xFF, 0xE2, 0x82]
        bytes += Array(("b\"}}\n\n" + Self.stop).utf8)
        let r = decode(bytes)
        #expect(r.text == "a\u{FFFD}\u{FFFD}b")
        #expect(r.complete)
    }

    @Test func binaryGarbageIsReportedNotDecoded() throws {
        var rng = SeededGenerator(seed: 7)
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // Judged at the first NUL (within the first 512 bytes): the text before it is
        // shown, nothing after it.
        let nul = try #require(garbage.prefix(512).firstIndex(of: 0))
        let r = decode(garbage, format: .auto)
        #expect(r.diagnostics.first?.kind == .unrecognisedInput)
        #expect(r.diagnostics.first?.byteOffset == nul)
        #expect(!r.complete)
        var before: [UInt8] = []
        var repair = UTF8Repair()
        repair.repair(garbage[..<nul], into: &before)
        repair.finish(into: &before)
        #expect(r.text == String(decoding: before, as: UTF8.self))
        // Forced to a provider format, garbage yields no events and no completion.
        let forced = decode(garbage, format: .anthropic)
        #expect(!forced.complete)
    }

    @Test func aStreamCutMidEventKeepsEverythingBeforeTheCut() {
        let full = Array((Self.start + Self.delta("Hello, ") + Self.delta("world") + Self.stop).utf8)
        let cut = Array(full.prefix(full.count - 30))
        let r = decode(cut)
        #expect(r.text == "Hello, world")
        #expect(!r.complete)
        #expect(r.diagnostics.map(\.kind) == [.truncatedEvent])
    }

    @Test func anErrorEventIsPassedOnWithItsMessage() {
        let stream = Self.start + Self.delta("partial") + "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
        let r = decode(Array(stream.utf8))
        #expect(r.events.contains(.error(type: "overloaded_error", message: "Overloaded")))
        #expect(r.text == "partial")
        #expect(!r.complete)
    }

    @Test func emptyInputIsIncompleteAndSilent() {
        let r = decode([])
        #expect(r.events.isEmpty)
        #expect(!r.complete)
    }

    @Test func unknownEventsBlocksAndDeltasAreForwardCompatible() {
        let stream = Self.start
            + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"hologram\"}}\n\n"
            + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"sparkle_delta\",\"x\":1}}\n\n"
            + "event: future_event\ndata: {\"type\":\"future_event\"}\n\n" + Self.stop
        let r = decode(Array(stream.utf8))
        #expect(r.events.contains(.blockStart(index: 0, kind: .unknown(type: "hologram"))))
        #expect(r.events.contains(.delta(index: 0, kind: .unknown(type: "sparkle_delta"), text: "")))
        #expect(r.events.contains(.unknown(type: "future_event")))
        #expect(r.diagnostics.isEmpty)
        #expect(r.complete)
    }

    @Test func openAIToolCallsAreAssembledByIndex() {
        func chunk(_ delta: String, finish: String = "null") -> String {
            "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":\(delta),\"finish_reason\":\(finish)}]}\n\n"
        }
        let stream = chunk(#"{"role":"assistant","content":null}"#)
            + chunk(#"{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}"#)
            + chunk(#"{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}"#)
            + chunk(#"{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}"#)
            + chunk("{}", finish: "\"tool_calls\"") + "data: [DONE]\n\n"
        let r = decode(Array(stream.utf8))
        #expect(r.complete)
        #expect(r.events.contains(.blockStop(ContentBlock(index: 1, kind: .toolUse(id: "call_1", name: "get_weather"), inputJSON: #"{"city":"Paris"}"#))))
        #expect(r.events.contains(.messageDelta(stopReason: "tool_calls", stopSequence: nil, usage: Usage())))
    }

    @Test func openAIResponsesEventsDecode() {
        let stream = """
        event: response.created
        data: {"type":"response.created","response":{"id":"resp_1","model":"gpt-x"}}

        event: response.output_text.delta
        data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"Hi "}

        event: response.output_text.delta
        data: {"type":"response.output_text.delta","output_index":0,"content_index":0,"delta":"there"}

        event: response.completed
        data: {"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":3,"output_tokens":2}}}


        """
        let r = decode(Array(stream.utf8))
        #expect(r.text == "Hi there")
        #expect(r.complete)
        #expect(r.events.first == .messageStart(id: "resp_1", model: "gpt-x", usage: Usage()))
        #expect(r.events.contains(.messageDelta(stopReason: "completed", stopSequence: nil, usage: Usage(inputTokens: 3, outputTokens: 2))))
    }

    @Test func plainTextPassesThroughAndDetectionPicksText() {
        let r = decode(Array("Just some text\nwith lines é\n".utf8))
        #expect(r.text == "Just some text\nwith lines é\n")
        #expect(r.complete)
    }
}

@Suite struct ControlSanitizerTests {
    @Test func injectionSequencesBecomeVisibleSymbols() {
        var s = ControlSanitizer()
        let hostile = "a\u{1B}]0;title\u{07}b\u{1B}[2Jc\u{1B}]52;c;aGVsbG8=\u{07}d\re\u{9B}31mf\u{7F}\u{0}"
        var out = s.sanitize(hostile)
        s.finish(into: &out)
        #expect(out == "a␛]0;title␇b␛[2Jc␛]52;c;aGVsbG8=␇d\ne\u{FFFD}31mf␡␀")
        #expect(!out.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || ($0.value >= 0x7F && $0.value < 0xA0) })
    }

    @Test func crLFSplitAcrossPiecesIsOneLineEnd() {
        var s = ControlSanitizer()
        var out = s.sanitize("a\r")
        out += s.sanitize("\nb\r")
        out += s.sanitize("c\t")
        s.finish(into: &out)
        #expect(out == "a\nb\nc\t")
    }
}
