import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Markdown in the live view, on a manual clock, read back from the model terminal.
@Suite struct MarkdownLiveViewTests {
    /// Feeds `stream` and returns what the screen shows (scrollback and rows).
    static func screen(_ model: ModelTerminal) -> [String] {
        (model.scrollback + model.rows).map(InlineViewTests.trimmed)
    }

    @Test func aTableHeaderWaitsHalfASecondForItsDelimiterRowWithoutShowingPipes() {
        let clock = ManualClock()
        let (r, sink, _) = StreamRendererTests.renderer(.inline, width: 40, height: 10, fps: 60, clock: clock)
        var model = ModelTerminal(width: 40, height: 10, policy: .grapheme)
        let stream = anthropicStream(["Sizes:\n\n", "| Name | Size |\n", "|------|-----:|\n| a.txt | 12 |\n| 中文 | 3 |\n", "\nDone.\n"])
        // Feed up to the end of the header row, then wait 500 ms with frames.
        let header = stream.indices.first { stream[$0...].starts(with: Array("|------".utf8)) }!
        // The header row's event is complete: the delimiter row's event starts here.
        let cut = stream[..<header].lastIndex(of: UInt8(ascii: "e"))!  // "event: content_block_delta"
        let start = stream[..<cut].lastIndex { $0 == 0x0A }! + 1
        r.feed(stream[..<start])
        #expect(String(decoding: stream[..<start], as: UTF8.self).contains("| Name | Size |"))
        for _ in 0..<30 {
            r.tick(now: clock.now.offset)
            model.apply(sink.bytes)
            sink.removeAll()
            #expect(!Self.screen(model).contains { $0.contains("|") }, "a pipe shown: \(Self.screen(model))")
            clock.advance(by: .milliseconds(17))
        }
        #expect(Self.screen(model).contains("Sizes:"))
        r.feed(stream[start...])
        r.finish()
        model.apply(sink.bytes)
        let shown = Self.screen(model)
        #expect(!shown.contains { $0.contains("|") }, "\(shown)")
        #expect(shown.contains("┌───────┬──────┐"), "\(shown)")
        #expect(shown.contains("│ a.txt │   12 │"), "\(shown)")
        #expect(shown.contains("│ 中文  │    3 │"), "\(shown)")
        #expect(shown.contains("Done."))
    }

    /// A paragraph far longer than the live region reaches the scrollback while it
    /// streams (its parts are final as they are parsed), reflowed as one paragraph;
    /// plain output prints its lines before it ends.
    @Test func aLongParagraphReachesTheScrollbackWhileItStreams() {
        let answer = (0..<900).map { "word\($0)" + ($0 % 9 == 8 ? "\n" : " ") }.joined() + "\n\nEnd.\n"
        var printer = PlainTextPrinter(settings: LayoutSettings(width: 40), markdown: MarkdownOptions())
        var early = ""
        for k in stride(from: 0, to: answer.utf8.count / 2, by: 16) {
            early += printer.append(String(decoding: Array(answer.utf8)[k..<k + 16], as: UTF8.self))
        }
        #expect(early.hasPrefix("word0 word1 word2 word3 word4 word5\n"), "\(early.prefix(80).debugDescription)")
        var whole = PlainTextPrinter(settings: LayoutSettings(width: 40), markdown: MarkdownOptions())
        var want = (whole.append(answer) + whole.finish()).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if want.last == "" { want.removeLast() }
        #expect(want.count > 150 && want[0] == "word0 word1 word2 word3 word4 word5", "\(want.prefix(2))")

        let (r, sink, _) = StreamRendererTests.renderer(.inline, width: 40, height: 6)
        var model = ModelTerminal(width: 40, height: 6, policy: .grapheme)
        let stream = anthropicStream(stride(from: 0, to: answer.utf8.count, by: 16).map {
            String(decoding: Array(answer.utf8)[$0..<min(answer.utf8.count, $0 + 16)], as: UTF8.self)
        })
        let seed = TestSeed.base(0x4D44_0004)
        var rng = SeededGenerator(seed: seed)
        let pieces = randomChunks(stream, using: &rng, maxChunk: 64)
        for (k, chunk) in pieces.enumerated() {
            r.feed(chunk)
            r.tick(now: .seconds(k))
            model.apply(sink.bytes)
            sink.removeAll()
            if k == pieces.count / 2 {
                #expect(model.scrollback.count > 40, "halfway, \(model.scrollback.count) lines in the scrollback")
                #expect(model.scrollback.first.map(InlineViewTests.trimmed) == want[0])
            }
        }
        r.finish()
        model.apply(sink.bytes)
        var got = (model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed)
        while got.last == "" { got.removeLast() }
        #expect(got == want, "seed \(seed)")
    }

    /// Every chunking of a markdown answer leaves the same screen and scrollback, equal
    /// to the one-shot rendering of the whole text, with frames drawn along the way.
    @Test func theLiveViewLeavesTheOneShotRendering() {
        let answer = Fixtures.text("answers/coding-answer.md")
        let stream = anthropicStream([answer])
        // As the inline view lays code out: long lines cut where the terminal wraps them.
        var printer = PlainTextPrinter(settings: LayoutSettings(width: 50), markdown: MarkdownOptions(codeWrapsLikeTerminal: true))
        var want = (printer.append(answer) + printer.finish()).split(separator: "\n", omittingEmptySubsequences: false).map { InlineViewTests.trimmed(String($0)) }
        if want.last == "" { want.removeLast() }
        let seed = TestSeed.base(0x4D44_0003)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<8 {
            let chunks = randomChunks(stream, using: &rng, maxChunk: round == 0 ? 1 : 40)
            let got = MarkdownFinalFrameTests.finalFrame(chunks, width: 50, height: 12, format: .auto)
            #expect(got == want, "seed \(seed) round \(round)")
        }
    }
}

/// The final frame (scrollback and screen of the model terminal) in many chunkings,
/// down to single bytes and mid-UTF-8, equals the one-shot rendering of md4c's parse.
@Suite(.tags(.slow), .fullTierOnly) struct MarkdownFinalFrameTests {
    /// What the model terminal holds after `chunks` were fed (a frame after each)
    /// and the stream finished; a terminal sequence the model does not know fails.
    static func finalFrame(_ chunks: [ArraySlice<UInt8>], width: Int, height: Int,
                           format: ResponseDecoder.Format = .text) -> [String] {
        let (r, sink, _) = StreamRendererTests.renderer(.inline, width: width, height: height, format: format)
        var model = ModelTerminal(width: width, height: height, policy: .grapheme)
        for (k, chunk) in chunks.enumerated() {
            r.feed(chunk)
            r.tick(now: .seconds(k))
            model.apply(sink.bytes)
            sink.removeAll()
        }
        r.finish()
        model.apply(sink.bytes)
        #expect(model.unknown.isEmpty && model.violations.isEmpty)
        var got = (model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed)
        while got.last == "" { got.removeLast() }
        return got
    }

    /// The one-shot rendering as the inline view lays it out (long code lines cut
    /// where the terminal wraps them).
    static func oneShot(_ text: String, width: Int) -> [String] {
        var printer = PlainTextPrinter(settings: LayoutSettings(width: width), markdown: MarkdownOptions(codeWrapsLikeTerminal: true))
        var want = (printer.append(text) + printer.finish()).split(separator: "\n", omittingEmptySubsequences: false)
            .map { InlineViewTests.trimmed(String($0)) }
        while want.last == "" { want.removeLast() }
        return want
    }

    @Test(arguments: MarkdownCorpus.fixtures)
    func fixturesInAThousandChunkings(_ name: String) {
        let bytes = Fixtures.data(name)
        let want = Self.oneShot(String(decoding: bytes, as: UTF8.self), width: 60)
        #expect(Self.finalFrame(bytes.indices.map { bytes[$0...$0] }, width: 60, height: 10) == want, "\(name) byte by byte")
        let base = TestSeed.base(0x4D44_0004)
        for round in 0..<1000 {
            let seed = base &+ UInt64(round)
            var rng = SeededGenerator(seed: seed)
            let chunks = randomChunks(bytes, using: &rng, maxChunk: Int.random(in: 8...400, using: &rng))
            let got = Self.finalFrame(chunks, width: 60, height: 10)
            if got != want {
                Issue.record("\(name) seed \(seed): first difference at row \((0..<min(got.count, want.count)).first { got[$0] != want[$0] } ?? min(got.count, want.count))")
                return
            }
        }
    }

    /// One read that makes thousands of lines final (3,000 short paragraphs at once):
    /// the inline view writes them a batch of rows at a time, and the terminal ends up
    /// with exactly the one-shot rendering.
    @Test func aReadThatFinishesThousandsOfLinesLeavesTheOneShotRendering() {
        let text = (0..<3000).map { "Line \($0) is short." }.joined(separator: "\n\n") + "\n"
        let bytes = Array(text.utf8)
        let want = Self.oneShot(text, width: 40)
        #expect(want.count > 10 * InlineView.finalBatchRows)
        #expect(Self.finalFrame([bytes[...]], width: 40, height: 10) == want)
    }

    /// Every example of the CommonMark spec, byte by byte and in 5 random chunkings.
    @Test func specExamplesFinalFrames() {
        let base = TestSeed.base(0x4D44_0005)
        var failures: [Int] = []
        for example in MarkdownCorpus.spec where !MarkdownStreamTests.knownDeviations.contains(example.example) {
            let bytes = Array(example.markdown.utf8)
            let want = Self.finalFrame([bytes[...]], width: 50, height: 8)
            var runs = [bytes.indices.map { bytes[$0...$0] }]
            for round in 0..<5 {
                var rng = SeededGenerator(seed: base &+ UInt64(example.example * 10 + round))
                runs.append(randomChunks(bytes, using: &rng, maxChunk: 12))
            }
            for (k, chunks) in runs.enumerated() where Self.finalFrame(chunks, width: 50, height: 8) != want {
                failures.append(example.example)
                if failures.count <= 3 { Issue.record("example \(example.example) run \(k) (seed base \(base))") }
                break
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
