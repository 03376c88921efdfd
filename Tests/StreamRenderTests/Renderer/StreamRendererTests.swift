import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The synchronous core, driven by a manual clock: no test here sleeps.
@Suite struct StreamRendererTests {
    static func renderer(_ output: StreamRenderer.Configuration.Output = .inline, width: Int = 40, height: Int = 8,
                         fps: Int = 10, policy: WidthPolicy = .grapheme, format: ResponseDecoder.Format = .auto,
                         maximumEventBytes: Int = 16 << 20, clock: ManualClock = ManualClock(), sink: BufferSink = BufferSink(),
                         markdown: Bool = true, pacing: Pacer.Settings? = nil)
        -> (StreamRenderer, BufferSink, ManualClock) {
        // Unpaced unless asked: these tests are about the frame clock and the views
        // (PacedRendererTests are about the pacer).
        let configuration = StreamRenderer.Configuration(
            output: output, layout: LayoutSettings(width: width, policy: policy),
            input: .init(format: format, maximumEventBytes: maximumEventBytes), content: .init(markdown: markdown),
            live: .init(height: height, framesPerSecond: fps, pacing: pacing), capabilities: .full)
        return (StreamRenderer(configuration: configuration, sink: sink, clock: clock), sink, clock)
    }

    @Test func framesFollowTheClockAndOnlyWhenSomethingChanged() {
        let (r, sink, clock) = Self.renderer(fps: 10)  // one frame per 100 ms at most
        #expect(r.nextFrameTime == nil)
        r.feed(Array("hello ".utf8))
        #expect(sink.writes == 0, "a live view draws on ticks, not on feed")
        #expect(r.nextFrameTime == .zero)
        #expect(r.tick(now: .zero))
        let first = sink.writes
        #expect(first > 0)
        r.feed(Array("world ".utf8))
        #expect(!r.tick(now: .milliseconds(50)), "a frame 50 ms after the last is too soon at 10 fps")
        #expect(r.nextFrameTime == .milliseconds(100))
        #expect(r.tick(now: .milliseconds(100)))
        let second = sink.writes
        #expect(second > first)
        #expect(!r.tick(now: .seconds(5)), "nothing changed: no frame")
        #expect(r.nextFrameTime == nil, "an idle renderer needs no ticks")
        #expect(sink.writes == second)
        clock.advance(by: .seconds(6))
        let outcome = r.finish()
        #expect(outcome.ending == .complete)
        #expect(outcome.elapsed == .seconds(6))
    }

    @Test func timeToFirstTokenIsMeasuredOnTheRenderersClock() {
        let (r, _, clock) = Self.renderer()
        let stream = anthropicStream(["Hi", " there"])
        let split = stream.count / 3  // message_start and the block start, before any text
        r.feed(stream[..<split])
        clock.advance(by: .milliseconds(250))
        r.feed(stream[split...])
        clock.advance(by: .milliseconds(50))
        let outcome = r.finish()
        #expect(outcome.timeToFirstToken == .milliseconds(250))
        #expect(outcome.model == "test-model")
        #expect(outcome.stopReason == "end_turn")
        #expect(outcome.usage.outputTokens == 9)
        #expect(outcome.deltaCount == 2)
    }

    /// Two renderers fed alternately into two sinks write exactly what each writes alone.
    @Test func twoRenderersSideBySideWriteWhatEachWritesAlone() {
        let a = Fixtures.data("sse/coding-answer.anthropic.sse"), b = Fixtures.data("sse/multilingual.scalar.sse")
        // Alone, it is fed and ticked at the same times as side by side (a frame the
        // clock deferred is drawn by a later tick).
        func alone(_ bytes: [UInt8], _ output: StreamRenderer.Configuration.Output) -> [UInt8] {
            let (r, sink, _) = Self.renderer(output)
            var t = Duration.zero
            for chunk in stride(from: 0, to: max(a.count, b.count), by: 700) {
                if chunk < bytes.count { r.feed(bytes[chunk..<min(bytes.count, chunk + 700)]) }
                r.tick(now: t)
                t += .milliseconds(40)
            }
            r.finish()
            return sink.bytes
        }
        for (oa, ob) in [(StreamRenderer.Configuration.Output.inline, StreamRenderer.Configuration.Output.fullscreen), (.plain, .inline)] {
            let (ra, sa, _) = Self.renderer(oa), (rb, sb, _) = Self.renderer(ob)
            var t = Duration.zero
            for chunk in stride(from: 0, to: max(a.count, b.count), by: 700) {
                if chunk < a.count { ra.feed(a[chunk..<min(a.count, chunk + 700)]) }
                if chunk < b.count { rb.feed(b[chunk..<min(b.count, chunk + 700)]) }
                ra.tick(now: t)
                rb.tick(now: t)
                t += .milliseconds(40)
            }
            ra.finish()
            rb.finish()
            #expect(sa.bytes == alone(a, oa))
            #expect(sb.bytes == alone(b, ob))
        }
    }

    /// Plain output is the same bytes in every chunking (down to single bytes), and the
    /// live view leaves the same transcript in every chunking and at every frame rate.
    @Test(arguments: ["sse/coding-answer.anthropic.sse", "sse/multilingual.scalar.sse", "sse/music.thinking-tool.crlf.sse",
                      "sse/coding-answer.openai.sse"])
    func everyChunkingGivesTheSameOutput(_ fixture: String) {
        let seed = TestSeed.base(4242)
        var rng = SeededGenerator(seed: seed)
        let bytes = Fixtures.data(fixture)
        func plain(_ chunks: [ArraySlice<UInt8>]) -> [UInt8] {
            let (r, sink, _) = Self.renderer(.plain, width: 33)
            for c in chunks { r.feed(c) }
            r.finish()
            return sink.bytes
        }
        func inline(_ chunks: [ArraySlice<UInt8>], frameEvery: Int) -> [String] {
            let (r, sink, _) = Self.renderer(.inline, width: 33, height: 6)
            var model = ModelTerminal(width: 33, height: 6, policy: .grapheme)
            for (k, c) in chunks.enumerated() {
                r.feed(c)
                if k % frameEvery == 0 { r.tick(now: .seconds(k)) }
                model.apply(sink.bytes)
                sink.removeAll()
            }
            r.finish()
            model.apply(sink.bytes)
            #expect(model.unknown.isEmpty && model.violations.isEmpty, "seed \(seed)")
            return (model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed)
        }
        let whole = plain([bytes[...]])
        #expect(plain(bytes.indices.map { bytes[$0...$0] }) == whole, "byte by byte")
        for round in 0..<40 {
            let chunks = randomChunks(bytes, using: &rng, maxChunk: 64)
            #expect(plain(chunks) == whole, "seed \(seed) round \(round)")
        }
        let transcript = inline([bytes[...]], frameEvery: 1)
        for round in 0..<6 {
            let chunks = randomChunks(bytes, using: &rng, maxChunk: 200)
            let got = inline(chunks, frameEvery: Int.random(in: 1...5, using: &rng))
            #expect(got == transcript, "seed \(seed) round \(round)")
        }
    }

    /// Indentation is written as spaces, not skipped with cursor moves, so text copied
    /// from the scrollback keeps it.
    @Test func indentationIsWrittenAsCharacters() {
        let (r2, sink2, _) = Self.renderer(.inline, width: 40)
        let stream = anthropicStream(["```\nfunc f() {\n", "        let x = 1\n", "    }\n", "```\ndone"])
        r2.feed(stream)
        r2.tick(now: .zero)
        r2.finish()
        let text = String(decoding: sink2.bytes, as: UTF8.self)
        #expect(text.contains("        let x = 1"), "\(text.debugDescription)")
        #expect(text.contains("    }"), "\(text.debugDescription)")
        #expect(!text.contains("\u{1B}[8C") && !text.contains("\u{1B}[4C"), "\(text.debugDescription)")
    }

    @Test func aResizeIsDrawnAtOnceWithoutInput() {
        let (r, sink, _) = Self.renderer(.inline, width: 40)
        r.feed(Array(String(repeating: "stalled words ", count: 10).utf8))
        r.tick(now: .zero)
        let before = sink.bytes.count
        r.resize(width: 20, height: 8)
        #expect(sink.bytes.count > before, "the resize was not drawn")
        #expect(r.viewSize.width == 20 && r.viewSize.height == 8)
    }

    @Test func interruptInFullscreenLeavesTheTextShownSoFar() {
        let (r, sink, _) = Self.renderer(.fullscreen, width: 30, height: 5)
        let text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        let stream = anthropicStream(text.split(separator: " ").map { $0 + " " }, stop: false)
        r.feed(stream[..<(stream.count * 2 / 3)])
        r.tick(now: .zero)
        let outcome = r.interrupt()
        #expect(outcome.ending == .interrupted)
        var model = ModelTerminal(width: 30, height: 5, policy: .grapheme)
        model.apply(sink.bytes)
        #expect(model.alternate == nil, "still on the alternate screen")
        let shown = (model.scrollback + model.rows).joined(separator: " ")
        #expect(shown.contains("one two three"), "\(shown)")
        #expect(shown.contains("nine"), "\(shown)")
    }

    /// Ctrl-C while the format is still being detected (the first bytes could begin
    /// `data:`): what arrived is shown, not dropped with the decoder.
    @Test func interruptShowsBytesTheDecoderHeld() {
        for output in [StreamRenderer.Configuration.Output.plain, .inline] {
            let (r, sink, _) = Self.renderer(output, width: 40)
            r.feed(Array("da".utf8))
            let outcome = r.interrupt()
            #expect(outcome.ending == .interrupted)
            var model = ModelTerminal(width: 40, height: 8, policy: .grapheme)
            model.apply(sink.bytes)
            #expect((model.scrollback + model.rows).contains { $0.hasPrefix("da") }, "\(output): \(String(decoding: sink.bytes, as: UTF8.self).debugDescription)")
            #expect(sink.messages.isEmpty, "\(sink.messages)")
        }
    }

    @Test func interruptOnPlainOutputWritesTheHeldBackLine() {
        let (r, sink, _) = Self.renderer(.plain, width: 40, format: .text, markdown: false)
        let text = "a line that is still arriving when Ctrl-C comes, cut mid-wo"
        r.feed(Array(text.utf8))
        let before = String(decoding: sink.bytes, as: UTF8.self)
        #expect(!before.isEmpty && before.count < text.count, "\(before.debugDescription): the test needs a held-back end")
        r.interrupt()
        var printer = PlainTextPrinter(settings: LayoutSettings(width: 40))
        #expect(String(decoding: sink.bytes, as: UTF8.self) == printer.append(text) + printer.finish())
    }

    @Test func outcomesSayHowTheStreamEnded() {
        func run(_ bytes: [UInt8], limit: Int = 16 << 20) -> (StreamRenderer.Outcome, BufferSink) {
            let (r, sink, _) = Self.renderer(.plain, width: 0 + 40, maximumEventBytes: limit)
            r.feed(bytes)
            return (r.finish(), sink)
        }
        #expect(run(anthropicStream(["a"])).0.ending == .complete)
        #expect(run([]).0.ending == .empty)
        let truncated = run(anthropicStream(["kept text"], stop: false))
        #expect(truncated.0.ending == .truncated)
        #expect(String(decoding: truncated.1.bytes, as: UTF8.self) == "kept text\n")
        #expect(truncated.1.messageText(.error).contains("without message_stop"))

        let overloaded = run(Fixtures.data("sse/music.overloaded.sse"))
        #expect(overloaded.0.ending == .apiError(type: "overloaded_error", message: "Overloaded"))
        #expect(overloaded.1.messageText(.error).split(separator: "\n").count == 1)
        #expect(!overloaded.1.bytes.isEmpty, "the text before the error is shown")

        // A malformed event: its text is lost, every other event's text is there.
        var stream = anthropicStream(["before ", "LOST", " after"])
        let bad = Array("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"LOST\"}}".utf8)
        let at = stream.firstRange(of: bad)!
        stream.replaceSubrange(at, with: Array("data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_del".utf8))
        let malformed = run(stream)
        guard case .invalidInput(let d) = malformed.0.ending else {
            Issue.record("\(malformed.0.ending)")
            return
        }
        #expect(d.kind == .malformedEvent && d.eventNumber == 4)
        #expect(malformed.0.textDropped)
        #expect(String(decoding: malformed.1.bytes, as: UTF8.self) == "before  after\n")

        let big = run(anthropicStream(["small ", String(repeating: "x", count: 500), " end"]), limit: 300)
        #expect(big.0.textDropped)
        #expect(big.1.messageText(.error).contains("raise maximumEventBytes"), "\(big.1.messages)")
        #expect(String(decoding: big.1.bytes, as: UTF8.self) == "small  end\n")
    }

    /// Above a live view, thinking and tool calls are wrapped between words at the
    /// view's width (the terminal would break them anywhere); into a pipe they are not.
    @Test func sideTextAboveALiveViewIsWrappedBetweenWords() {
        let (r, sink, _) = Self.renderer(.inline, width: 30)
        r.feed(Fixtures.data("sse/music.thinking-tool.crlf.sse"))
        r.tick(now: .zero)
        r.finish()
        let side = sink.messageText(.side)
        let lines = side.split(separator: "\n")
        #expect(lines.count > 4 && lines.allSatisfy { $0.count <= 30 }, "\(lines.filter { $0.count > 30 })")
        #expect(side.filter { !$0.isWhitespace }.contains("Letmethink"))
        let (p, plainSink, _) = Self.renderer(.plain, width: 30)
        p.feed(Fixtures.data("sse/music.thinking-tool.crlf.sse"))
        p.finish()
        #expect(plainSink.messageText(.side).split(separator: "\n").contains { $0.count > 30 }, "pipes get it as it came")
        #expect(side.filter { !$0.isWhitespace } == plainSink.messageText(.side).filter { !$0.isWhitespace })
    }

    @Test func thinkingAndToolCallsGoToTheMessagesAndReachTheScreenBetweenFrames() {
        let (r, sink, _) = Self.renderer(.inline, width: 40)
        r.feed(Fixtures.data("sse/music.thinking-tool.crlf.sse"))
        r.tick(now: .zero)
        #expect(sink.messageText(.side).contains("[thinking]"))
        #expect(sink.messageText(.side).contains("[tool call]"))
        r.finish()
        var model = ModelTerminal(width: 40, height: 8, policy: .grapheme)
        model.apply(sink.bytes)
        #expect(model.unknown.isEmpty && model.violations.isEmpty)
    }
}

/// The asynchronous layer over `AsyncSequence`s of bytes.
@Suite struct StreamRendererAsyncTests {
    @Test func renderingChunksEqualsTheSynchronousCore() async {
        let bytes = Fixtures.data("sse/coding-answer.anthropic.sse")
        let sink = BufferSink()
        let r = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: 50)), sink: sink)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: 1000) {
                continuation.yield(Array(bytes[start..<min(bytes.count, start + 1000)]))
            }
            continuation.finish()
        }
        let outcome = await r.render(chunks: chunks)
        #expect(outcome.ending == .complete)
        let (s, syncSink, _) = StreamRendererTests.renderer(.plain, width: 50)
        s.feed(bytes)
        s.finish()
        #expect(sink.bytes == syncSink.bytes)
    }

    @Test func renderingBytesOneByOne() async {
        let bytes = anthropicStream(["one ", "two ", "three"])
        let sink = BufferSink()
        let r = StreamRenderer(configuration: .init(output: .inline, layout: LayoutSettings(width: 30), capabilities: .full),
                               sink: sink)
        let outcome = await r.render(AsyncStream<UInt8> { continuation in
            for b in bytes { continuation.yield(b) }
            continuation.finish()
        })
        #expect(outcome.ending == .complete)
        var model = ModelTerminal(width: 30, height: 24, policy: .grapheme)
        model.apply(sink.bytes)
        #expect((model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed) == ["one two three"])
    }

    @Test func cancellationEndsTheViewWithWhatArrived() async {
        let sink = LockedSink()
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        continuation.yield(Array("partial answer".utf8))  // never finished: the input stalls
        let task = Task {
            // Plain text: with markdown, plain output prints a paragraph once it has ended.
            let r = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: 30),
                input: .init(format: .text), content: .init(markdown: false)),
                                   sink: sink)
            return await r.render(chunks: stream)
        }
        while sink.text.isEmpty { await Task.yield() }
        task.cancel()
        let outcome = await task.value
        #expect(outcome.ending == .interrupted)
        #expect(sink.text == "partial answer\n")
        continuation.finish()
    }

    @Test func aThrowingSequenceIsAReadFailure() async {
        struct Broken: Error {}
        let sink = BufferSink()
        let r = StreamRenderer(configuration: .init(output: .plain, input: .init(format: .text)), sink: sink)
        let stream = AsyncThrowingStream<[UInt8], Error> { continuation in
            continuation.yield(Array("kept".utf8))
            continuation.finish(throwing: Broken())
        }
        let outcome = await r.render(chunks: stream)
        guard case .readFailed = outcome.ending else { Issue.record("\(outcome.ending)"); return }
        #expect(String(decoding: sink.bytes, as: UTF8.self) == "kept\n")
    }
}
