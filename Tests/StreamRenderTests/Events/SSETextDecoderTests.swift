import Testing
@_spi(Fuzzing) @_spi(Benchmarks) @testable import StreamRender

/// Plain-text SSE: each event's data is a text delta.
@Suite struct SSETextDecoderTests {
    typealias Support = FormatTestSupport

    @Test func anyChunkingDecodesIdentically() {
        let bytes = Fixtures.data("sse/data-text.sse")
        let auto = Support.verifyChunkings(bytes, name: "data-text.sse", seed: 0x7E47_0001)
        let forced = Support.verifyChunkings(bytes, name: "data-text.sse", format: .sseText, seed: 0x7E47_0002)
        #expect(forced == auto, "--format sse-text decodes as auto-detection does")
        #expect(auto.diagnostics.isEmpty)
        #expect(auto.complete)
    }

    @Test func theFixtureDecodesToItsAnswerAndDONEEndsIt() {
        let decoded = Support.decode(Fixtures.data("sse/data-text.sse"))
        #expect(decoded.text == Fixtures.text("answers/git-undo.md"))
        #expect(decoded.events.last == .messageStop)
        #expect(decoded.complete)
    }

    /// Events are appended with nothing between them; the lines of one event are
    /// joined with LF, as SSE joins data lines.
    @Test(arguments: [
        ("data: Hello\n\ndata:  world\n\n", "Hello world"),
        ("data: a\ndata: b\n\n", "a\nb"),
        ("data: a\ndata:\n\ndata: b\n\n", "a\nb"),
        ("data:a\n\ndata:\tb\n\n", "a\tb"),
        ("data: line\r\ndata: \r\n\r\ndata: next\r\n\r\n", "line\nnext"),
        ("event: token\ndata: x\n\nid: 2\ndata: y\n\n", "xy"),
    ])
    func newlinesAndSpacing(_ stream: String, _ text: String) {
        for format in [ResponseDecoder.Format.sseText, .auto] {
            let decoded = Support.decode(stream, format: format)
            #expect(decoded.text == text, "\(format)")
            #expect(decoded.complete, "\(format)")
        }
    }

    @Test func withoutDONEAStreamEndingBetweenEventsIsComplete() {
        #expect(Support.decode("data: Hi\n\ndata: there\n\n", format: .sseText).complete)
        let cut = Support.decode("data: Hi\n\ndata: the", format: .sseText)
        #expect(cut.text == "Hi" && !cut.complete)
        #expect(cut.diagnostics.map(\.kind) == [.truncatedEvent])
        #expect(!Support.decode(": only a comment\n\n", format: .sseText).complete)
    }

    @Test func anErrorEventIsAnError() {
        let decoded = Support.decode("data: partial\n\nevent: error\ndata: upstream timed out\n\n")
        #expect(decoded.text == "partial")
        #expect(decoded.errors == ["error: upstream timed out"])
    }

    /// A line that is not an SSE field would be ignored by the spec; here it is most
    /// likely text, so its loss is reported (and nothing else is lost).
    @Test func aLineThatIsNotAFieldIsReported() {
        let stream = "data: one\n\ndata: two\n\nthis line is not a field\ndata:  three\n\ndata: [DONE]\n\n"
        for format in [ResponseDecoder.Format.sseText, .auto] {
            for chunk in [0, 1, 4] {
                let decoded = Support.decode(stream, format: format, chunk: chunk)
                #expect(decoded.text == "onetwo three", "\(format) chunk \(chunk)")
                #expect(decoded.diagnostics.map(\.kind) == [.malformedEvent], "\(format) chunk \(chunk)")
                #expect(decoded.diagnostics.first?.eventNumber == 3)
                #expect(decoded.diagnostics.first?.byteOffset == 22)
            }
        }
        // Elsewhere unknown fields are ignored, as the spec says.
        var parser = SSEParser()
        var outputs: [SSEParser.Output] = []
        parser.feed(Array("foo: bar\ndata: x\n\n".utf8)) { outputs.append($0) }
        #expect(outputs.count == 1)
    }
}
