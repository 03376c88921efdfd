import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The streaming-decoder verifier (after swift-nio's ByteToMessageDecoderVerifier):
/// every fixture fed byte by byte, all at once, one event at a time and in 1,000
/// seeded random chunkings decodes to identical events and identical text.
@Suite(.tags(.slow), .fullTierOnly) struct DecoderVerifierTests {
    static let fixtures: [(sse: String, answer: String?)] = [
        ("coding-answer.anthropic.sse", "coding-answer.md"),
        ("coding-answer.openai.sse", "coding-answer.md"),
        ("multilingual.scalar.sse", "multilingual.md"),
        ("music.overloaded.sse", nil),
        ("music.thinking-tool.crlf.sse", "music-recommendations.txt"),
        ("captured-excerpt.sse", nil),
    ]

    struct Decoded: Equatable {
        var outputs: [ResponseDecoder.Output]
        var complete: Bool
        var text: String {
            outputs.reduce(into: "") { text, output in
                if case .event(.delta(_, .text, let t)) = output { text += t }
            }
        }
    }

    static func decode(_ chunks: [ArraySlice<UInt8>], format: ResponseDecoder.Format = .auto) -> Decoded {
        var decoder = ResponseDecoder(format: format)
        var outputs: [ResponseDecoder.Output] = []
        for chunk in chunks { decoder.feed(chunk) { outputs.append($0) } }
        decoder.finish { outputs.append($0) }
        return Decoded(outputs: outputs, complete: decoder.isComplete)
    }

    /// Cuts at every blank line, so each chunk is one whole event.
    static func eventChunks(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A && i > 0 && (bytes[i - 1] == 0x0A || (i > 1 && bytes[i - 1] == 0x0D && bytes[i - 2] == 0x0A)) {
                chunks.append(bytes[start...i])
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { chunks.append(bytes[start...]) }
        return chunks
    }

    @Test(arguments: fixtures.map(\.sse))
    func anyChunkingDecodesIdentically(_ name: String) {
        let bytes = Fixtures.data("sse/\(name)")
        let whole = Self.decode([bytes[...]])
        let bytewise = Self.decode(bytes.indices.map { bytes[$0...$0] })
        let perEvent = Self.decode(Self.eventChunks(bytes))
        #expect(bytewise == whole, "byte by byte")
        #expect(perEvent == whole, "one event at a time")
        let seed = TestSeed.base(0x5EED_0005) &+ UInt64(name.utf8.count)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<1_000 {
            let got = Self.decode(randomChunks(bytes, using: &rng, maxChunk: 300))
            if got != whole {
                Issue.record("seed \(seed) \(name) iteration \(iteration): decoding differs")
                return
            }
        }
    }

    @Test(arguments: fixtures.filter { $0.answer != nil })
    func fixturesDecodeToTheirAnswerText(_ fixture: (sse: String, answer: String?)) {
        let decoded = Self.decode([Fixtures.data("sse/\(fixture.sse)")[...]])
        #expect(decoded.text == Fixtures.text("answers/\(fixture.answer!)"))
        #expect(decoded.complete)
    }

    @Test func theCapturedStreamWithOddWhitespaceDecodesToItsText() {
        let decoded = Self.decode([Fixtures.data("sse/captured-excerpt.sse")[...]])
        #expect(decoded.complete)
        #expect(decoded.text.hasPrefix("<Artist: The Weeknd\nSong: Earned It"))
        #expect(!decoded.outputs.contains { if case .diagnostic = $0 { true } else { false } })
        #expect(decoded.outputs.contains(.event(.messageDelta(stopReason: "end_turn", stopSequence: nil, usage: Usage(outputTokens: 303)))))
    }

    @Test func theOverloadedStreamReportsItsErrorAndIsIncomplete() {
        let decoded = Self.decode([Fixtures.data("sse/music.overloaded.sse")[...]])
        #expect(decoded.outputs.contains(.event(.error(type: "overloaded_error", message: "Overloaded"))))
        #expect(!decoded.complete)
        #expect(decoded.text.count > 100)  // everything before the error is kept
    }

    @Test func thinkingSignatureAndToolInputAreAssembled() {
        let decoded = Self.decode([Fixtures.data("sse/music.thinking-tool.crlf.sse")[...]])
        let stops = decoded.outputs.compactMap { output -> ContentBlock? in
            if case .event(.blockStop(let block)) = output { return block }
            return nil
        }
        #expect(stops.count == 3)
        #expect(stops[0].kind == .thinking)
        #expect(stops[0].text.hasPrefix("Let me think"))
        guard case .toolUse(let id, let name) = stops[2].kind else {
            Issue.record("third block is not a tool call: \(stops[2].kind)")
            return
        }
        #expect(name == "search_catalog")
        #expect(!id.isEmpty)
        #expect(stops[2].inputJSON == #"{"query": "Somebody Else", "limit": 20}"#)
    }
}
