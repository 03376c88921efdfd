import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The pacer inside ``StreamRenderer``: what the live views show over time, on a
/// manual clock, checked on the model terminal.
@Suite(.tags(.slow), .fullTierOnly) struct PacedRendererTests {
    static let frame = Duration.seconds(1) / 60

    /// A paced renderer, the clock it reads, and a model terminal following its bytes.
    final class Harness {
        let renderer: StreamRenderer
        let sink = BufferSink()
        let clock = ManualClock()
        var model: ModelTerminal
        /// Called after each frame (time, harness).
        var onFrame: ((Duration, Harness) -> Void)?

        init(output: StreamRenderer.Configuration.Output = .inline, width: Int = 30, height: Int = 6,
             format: ResponseDecoder.Format = .text, markdown: Bool = false, pacing: Pacer.Settings? = .reading,
             showsStatus: Bool = false) {
            let configuration = StreamRenderer.Configuration(
                output: output, layout: LayoutSettings(width: width, policy: .grapheme), input: .init(format: format),
                content: .init(markdown: markdown),
                live: .init(height: height, framesPerSecond: 60, pacing: pacing, showsStatus: showsStatus),
                capabilities: .full)
            renderer = StreamRenderer(configuration: configuration, sink: sink, clock: clock)
            model = ModelTerminal(width: width, height: height, policy: .grapheme)
        }

        var now: Duration { clock.now.offset }

        func advance(to time: Duration) {
            if time > now { clock.advance(by: time - now) }
        }

        /// The messages written so far (the sink forgets them with its bytes).
        var messages: [String] = []

        private func apply() {
            model.apply(sink.bytes)
            messages += sink.messages.map(\.text)
            sink.removeAll()
        }

        /// Draws every frame due before `time`, then moves the clock there.
        func run(until time: Duration) {
            while let due = renderer.nextFrameTime, due < time {
                advance(to: due)
                if renderer.tick() { apply(); onFrame?(now, self) }
            }
            advance(to: time)
        }

        /// Feeds `bytes` at `time` (after the frames due before it), drawing at once if due.
        func feed(_ bytes: [UInt8], at time: Duration) {
            run(until: time)
            renderer.feed(bytes)
            if let due = renderer.nextFrameTime, due <= now, renderer.tick() { apply(); onFrame?(now, self) }
        }

        /// The terminal becomes `width` columns wide (re-wrapping its rows), then the
        /// renderer hears of it.
        func resize(width: Int) {
            model.resize(width: width)
            renderer.resize(width: width, height: model.height)
            apply()
        }

        /// Ends the input at `time`, draws the drain's frames, and finishes.
        @discardableResult
        func end(at time: Duration) -> StreamRenderer.Outcome {
            run(until: time)
            renderer.endInput()
            run(until: .seconds(1_000_000))
            #expect(renderer.nextFrameTime == nil, "idle after the drain")
            let outcome = renderer.finish()
            apply()
            return outcome
        }

        /// Everything the terminal shows and holds, without white space.
        var visibleLetters: [Character] {
            (model.scrollback + model.rows).joined().filter { !$0.isWhitespace }
        }

        var transcript: [String] {
            (model.scrollback + model.rows.prefix(model.row)).map(InlineViewTests.trimmed)
        }
    }

    /// Cuts `bytes` into random pieces arriving at random times: bursts, trickles, gaps.
    static func schedule(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [(time: Duration, bytes: [UInt8])] {
        var result: [(Duration, [UInt8])] = []
        var time = Duration.zero
        for chunk in randomChunks(bytes, using: &rng, maxChunk: Int.random(in: 1...400, using: &rng)) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: time += .milliseconds(Int.random(in: 100...2000, using: &rng))
            case 1...5: time += .milliseconds(Int.random(in: 0...40, using: &rng))
            default: break
            }
            result.append((time, Array(chunk)))
        }
        return result
    }

    /// Random words (ASCII and wide) of at most 12 clusters, in paragraphs.
    static func words(_ count: Int, _ rng: inout SeededGenerator) -> String {
        let pieces = ["alpha", "be", "gamma,", "日本語", "d", "épée", "👍🏽", "lorem", "ipsum.", "x1"]
        var text = ""
        for k in 0..<count {
            text += pieces.randomElement(using: &rng)!
            text += k % 37 == 36 ? "\n\n" : (k % 11 == 10 ? "\n" : " ")
        }
        return text
    }

    @Test(arguments: ["sse/coding-answer.anthropic.sse", "sse/multilingual.scalar.sse", "sse/music.thinking-tool.crlf.sse"])
    func pacedOutputEndsAsUnpacedInEveryChunkingAndTiming(_ fixture: String) {
        let seed = TestSeed.base(1212)
        var rng = SeededGenerator(seed: seed)
        let bytes = Fixtures.data(fixture)
        for output in [StreamRenderer.Configuration.Output.inline, .fullscreen] {
            let reference = Harness(output: output, width: 33, format: .auto, markdown: true, pacing: nil)
            reference.feed(bytes, at: .zero)
            reference.end(at: .zero)
            for round in 0..<6 {
                let words = round % 2 == 1
                let h = Harness(output: output, width: 33, format: .auto, markdown: true,
                                pacing: .init(pace: Double(Int.random(in: 20...400, using: &rng)), revealsWords: words))
                for (time, chunk) in Self.schedule(bytes, &rng) { h.feed(chunk, at: time) }
                h.end(at: h.now + .milliseconds(Int.random(in: 0...100, using: &rng)))
                #expect(h.model.unknown.isEmpty && h.model.violations.isEmpty, "seed \(seed) round \(round)")
                #expect(h.transcript == reference.transcript, "seed \(seed) round \(round) \(output) words \(words)")
                #expect(h.messages == reference.messages, "seed \(seed) round \(round)")
            }
        }
    }

    /// Each frame shows a prefix of the text, in order, never anything twice; the text
    /// that arrived a maximum lag (plus a frame) ago is always shown.
    @Test func framesShowThePrefixThatArrivedWithinTheLag() {
        let seed = TestSeed.base(1213)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<12 {
            let text = Self.words(Int.random(in: 50...600, using: &rng), &rng)
            let letters = Array(text.filter { !$0.isWhitespace })
            let settings = Pacer.Settings(pace: Double(Int.random(in: 20...300, using: &rng)),
                                          maximumLag: .milliseconds(Int.random(in: 100...500, using: &rng)),
                                          revealsWords: round % 3 == 2)
            let h = Harness(height: 8, pacing: settings)
            var arrivals: [(time: Duration, letters: Int)] = []
            var frames = 0
            h.onFrame = { now, h in
                frames += 1
                let shown = h.visibleLetters
                // The last cluster shown may still be growing (👍 before its skin tone).
                let k = shown.count - 1
                let isPrefix = shown.count <= letters.count && Array(letters[..<max(0, k)]) == Array(shown.prefix(max(0, k)))
                    && (k < 0 || letters[k].unicodeScalars.starts(with: shown[k].unicodeScalars))
                #expect(isPrefix, "seed \(seed) round \(round): not a prefix at \(now): \(String(shown.suffix(40)))")
                let due = arrivals.last { $0.time + settings.maximumLag + Self.frame <= now }?.letters ?? 0
                #expect(shown.count >= due, "seed \(seed) round \(round): \(shown.count) letters shown at \(now), \(due) due")
            }
            var sent = 0
            for (time, chunk) in Self.schedule(Array(text.utf8), &rng) {
                h.feed(chunk, at: time)
                sent += chunk.count
                // Letters of the complete characters sent so far.
                let prefix = String(decoding: Array(text.utf8)[..<sent], as: UTF8.self)
                arrivals.append((time, prefix.filter { !$0.isWhitespace && $0 != "\u{FFFD}" }.count))
            }
            h.end(at: h.now)
            #expect(h.visibleLetters == letters, "seed \(seed) round \(round)")
            #expect(frames > 3, "seed \(seed) round \(round)")
        }
    }

    @Test func wholeWordsAreRevealedAtATime() {
        var rng = SeededGenerator(seed: TestSeed.base(1214))
        let text = Self.words(400, &rng)
        let letters = Array(text.filter { !$0.isWhitespace })
        // Where each word's letters end, counted in letters.
        var ends: Set<Int> = [0]
        var count = 0
        for c in text {
            if c.isWhitespace { ends.insert(count) } else { count += 1 }
        }
        ends.insert(count)
        let h = Harness(height: 10, pacing: .init(pace: 40, revealsWords: true))
        var partial = 0
        h.onFrame = { _, h in
            let shown = h.visibleLetters.count
            // CJK breaks anywhere: only ASCII words are checked for being whole.
            if !ends.contains(shown), shown < letters.count, letters[shown].isASCII, shown > 0, letters[shown - 1].isASCII {
                partial += 1
            }
        }
        // A steady stream one character at a time: the word being typed is held back.
        var time = Duration.zero
        for c in text {
            h.feed(Array(String(c).utf8), at: time)
            time += .milliseconds(5)
        }
        h.end(at: time)
        #expect(partial == 0, "\(partial) frames ended inside a word")
        #expect(h.visibleLetters == letters)
    }

    @Test func anIdleRendererHasNoTimerAndAStallCostsNoFrames() {
        let h = Harness()
        #expect(h.renderer.nextFrameTime == nil)
        h.feed(Array("a burst of text that takes the pacer a while to reveal ".utf8), at: .zero)
        h.run(until: .seconds(1))
        #expect(h.renderer.isRevealComplete)
        // Stalled: nothing to do, no timer, however long.
        #expect(h.renderer.nextFrameTime == nil)
        let written = h.sink.writes
        h.run(until: .seconds(60))
        #expect(h.sink.writes == written)
        h.feed(Array("more".utf8), at: .seconds(60))
        h.end(at: .seconds(60))
        #expect(h.renderer.nextFrameTime == nil)
    }

    @Test func theDrainRevealsTheRestWithinTheDrainTime() {
        let settings = Pacer.Settings(pace: 50, maximumLag: .seconds(10), drainTime: .milliseconds(250))
        let h = Harness(height: 20, pacing: settings)
        var last = Duration.zero
        var frames = 0
        h.onFrame = { now, _ in last = now; frames += 1 }
        let text = String(repeating: "drain me now ", count: 60)
        h.feed(Array(text.utf8), at: .zero)
        h.run(until: .milliseconds(100))
        let before = frames
        h.end(at: .milliseconds(100))
        #expect(last <= .milliseconds(100) + .milliseconds(250) + Self.frame, "last frame at \(last)")
        #expect(frames - before >= 5, "the drain is spread over frames, not one jump")
        #expect(h.visibleLetters == Array(text.filter { !$0.isWhitespace }))
    }

    /// A tool call (a message on standard error) waits until the text that came before
    /// it is on the screen.
    @Test func messagesWaitForTheTextBeforeThem() {
        var s = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"model\":\"x\"}}\n\n"
        s += "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
        let before = String(repeating: "words before the tool call ", count: 8) + "\n"
        s += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\(jsonString(before))}}\n\n"
        s += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
        s += "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"search\",\"input\":{}}}\n\n"
        s += "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n"
        let h = Harness(height: 12, format: .auto, pacing: .init(pace: 100))
        var shownAtMessage: Int?
        h.onFrame = { _, h in
            if shownAtMessage == nil, h.messages.joined().contains("[tool call]") {
                shownAtMessage = h.visibleLetters.count
            }
        }
        h.feed(Array(s.utf8), at: .zero)
        h.run(until: .seconds(2))
        let letters = before.filter { !$0.isWhitespace }.count
        #expect(shownAtMessage == letters, "the tool call came out with \(shownAtMessage ?? -1) of \(letters) letters shown")
        h.end(at: .seconds(2))
    }

    /// The status line: a spinner while waiting, then time and rate, below the live
    /// region; gone at the end, leaving the same transcript as without it.
    @Test func theStatusLineShowsWhileStreamingAndLeavesNoTrace() {
        let bytes = Fixtures.data("sse/coding-answer.anthropic.sse")
        let plain = Harness(width: 40, height: 10, format: .auto, markdown: true)
        let h = Harness(width: 40, height: 10, format: .auto, markdown: true, showsStatus: true)
        var statuses: [String] = []
        h.onFrame = { _, h in
            if let row = h.model.rows.last(where: { $0.contains(" s") && ($0.contains("waiting") || $0.contains("tokens/s")) }) {
                statuses.append(row.trimmingCharacters(in: .whitespaces))
            }
        }
        // Nothing for 1 s (the spinner turns), then the answer in pieces over 2 s.
        h.run(until: .seconds(1))
        #expect(h.renderer.nextFrameTime != nil, "the status animates while waiting")
        var rng = SeededGenerator(seed: TestSeed.base(1215))
        let pieces = randomChunks(bytes, using: &rng, maxChunk: 300)
        for (k, piece) in pieces.enumerated() {
            let at = Duration.seconds(1) + .milliseconds(2000 * k / pieces.count)
            h.feed(Array(piece), at: at)
            plain.feed(Array(piece), at: at)
        }
        h.end(at: .seconds(3))
        plain.end(at: .seconds(3))
        #expect(statuses.contains { $0.contains("waiting for the answer") })
        #expect(Set(statuses.filter { $0.contains("waiting") }.compactMap(\.first)).count >= 3, "the spinner turns: \(statuses.prefix(12))")
        #expect(statuses.contains { $0.contains("tokens/s") }, "\(statuses.suffix(5))")
        #expect(h.transcript == plain.transcript)
        #expect(!(h.model.scrollback + h.model.rows).contains { $0.contains("tokens/s") || $0.contains("waiting") })
        #expect(h.model.unknown.isEmpty && h.model.violations.isEmpty)
    }

    /// An interrupt in the middle of the reveal shows everything that arrived.
    @Test func anInterruptShowsEverythingThatArrived() {
        let h = Harness(height: 20, pacing: .init(pace: 20, maximumLag: .seconds(5)))
        let text = String(repeating: "never lost ", count: 30)
        h.feed(Array(text.utf8), at: .zero)
        h.run(until: .milliseconds(200))
        #expect(h.visibleLetters.count < text.filter { !$0.isWhitespace }.count)
        let outcome = h.renderer.interrupt()
        h.model.apply(h.sink.bytes)
        #expect(outcome.ending == .interrupted)
        #expect(h.visibleLetters == Array(text.filter { !$0.isWhitespace }))
    }
}

extension PacedRendererTests {
    /// A resize while the pacer is inside an open table whose cells are all multi-byte
    /// (CJK between box drawing): the table is rendered again at the new width, and
    /// the frame drawn for the resize reveals up to the same units in that new text
    /// (the old position mostly fell inside a character there: the drawer read past
    /// a cut character).
    @Test func aResizeInsideAnOpenTableRevealsTheSameUnitsInItsNewText() {
        let rows = (0..<6).map { k in "| 東京\(k) | 音楽がよく似合う | 静かな夜 |" }
        let table = "| 都市 | 音楽 | 夜 |\n|---|---|---|\n" + rows.joined(separator: "\n") + "\n"
        for output in [StreamRenderer.Configuration.Output.inline, .fullscreen] {
            for step in stride(from: 5, through: 120, by: 5) {
                for width in [20, 31] {
                    // Nothing is final before the resize (the table is one open block).
                    let reference = Harness(output: output, width: width, height: 20, markdown: true, pacing: nil)
                    reference.feed(Array(table.utf8), at: .zero)
                    reference.end(at: .zero)
                    let h = Harness(output: output, width: 44, height: 20, markdown: true, pacing: .init(pace: 100))
                    h.feed(Array(table.utf8), at: .zero)
                    h.run(until: .milliseconds(step * 10))
                    h.resize(width: width)
                    // At once the table at its new width, up to where the pacer was: each
                    // row on the screen a prefix of the final one, and something shown.
                    let screen = h.model.rows.map(InlineViewTests.trimmed)
                    let final = reference.transcript
                    #expect(screen.contains { !$0.isEmpty }, "\(output) step \(step) width \(width)")
                    #expect(screen.indices.allSatisfy { k in k < final.count ? final[k].hasPrefix(screen[k]) : screen[k].isEmpty },
                            "\(output) step \(step) width \(width): \(screen)")
                    h.end(at: h.now + .milliseconds(10))
                    #expect(h.model.unknown.isEmpty && h.model.violations.isEmpty, "\(output) step \(step) width \(width)")
                    #expect(h.transcript == final, "\(output) step \(step) width \(width)")
                }
            }
        }
    }

    /// Resizes mid-stream, paced and not, in the model terminal (which re-wraps its rows
    /// as tmux does): a narrowing by half re-wraps a full live region into more rows
    /// than the screen has, and the terminal pushes the top ones into its scrollback,
    /// where they cannot be erased. The view does not draw that text again, so every
    /// letter of the answer ends in the terminal once. (Except when the region showed
    /// the end of an open block taller than itself: its beginning is written before
    /// the rows pushed out, which the statistics count; then no letter is lost and at
    /// most those rows are repeated.)
    @Test(arguments: [true, false])
    func resizesMidStreamLeaveEveryLetterOnce(markdown: Bool) {
        let seed = TestSeed.base(1214)
        var rng = SeededGenerator(seed: seed)
        // The coding answer as markdown; as plain text, paragraphs of six to nine rows
        // (plain text's open paragraph only grows: what a narrowing pushes out of it is
        // known where it is, and not drawn again).
        let format: ResponseDecoder.Format = markdown ? .auto : .text
        let bytes = markdown ? Fixtures.data("sse/coding-answer.anthropic.sse")
            : Array((0..<12).map { _ in Self.words(Int.random(in: 50...80, using: &rng), &rng).replacing("\n", with: " ") }
                .joined(separator: "\n\n").utf8)
        // Letters only: tables, rules and code continuation marks differ with the width.
        func letters(_ rows: [String]) -> [Character] {
            rows.joined().filter { c in
                !c.isWhitespace && c != "↪" && !c.unicodeScalars.contains { (0x2500...0x257F).contains($0.value) }
            }.sorted()
        }
        let reference = Harness(width: 50, height: 12, format: format, markdown: markdown, pacing: nil)
        reference.feed(bytes, at: .zero)
        reference.end(at: .zero)
        for round in 0..<16 {
            // Unpaced, paced by clusters, paced by words.
            let pacing: Pacer.Settings? = round % 3 == 0 ? nil : .init(pace: Double(Int.random(in: 100...800, using: &rng)),
                                                                         revealsWords: round % 3 == 2)
            let h = Harness(width: 50, height: 12, format: format, markdown: markdown, pacing: pacing)
            let schedule = Self.schedule(bytes, &rng)
            // Wider and narrower by turns (a narrowing by half re-wraps a full region
            // into twice its rows, more than the screen has).
            let resizes = Set((0..<8).map { _ in Int.random(in: 0..<schedule.count, using: &rng) })
            let widths = [61, 32, 44, 32]
            var resized = 0
            for (k, (time, chunk)) in schedule.enumerated() {
                h.feed(chunk, at: time)
                if resizes.contains(k) {
                    h.resize(width: widths[resized % widths.count])
                    resized += 1
                }
            }
            h.end(at: h.now + .milliseconds(50))
            #expect(h.model.unknown.isEmpty && h.model.violations.isEmpty, "seed \(seed) round \(round)")
            let repeated = h.renderer.statistics.lazy.compactMap { line -> Int? in
                guard line.hasPrefix("resizes: ") else { return nil }
                return Int(line.dropFirst(9).prefix { $0.isNumber })
            }.first ?? 0
            let diff = letters(h.transcript).difference(from: letters(reference.transcript))
            let changes = diff.map { change -> String in
                switch change {
                case .insert(_, let c, _): "+\(c)"
                case .remove(_, let c, _): "-\(c)"
                }
            }.joined(separator: " ")
            let exact = diff.isEmpty, nothingLost = diff.removals.isEmpty, extra = diff.insertions.count
            if repeated == 0 {
                #expect(exact, "seed \(seed) round \(round): \(changes)")
            } else {
                #expect(nothingLost && extra <= repeated * 61,
                        "seed \(seed) round \(round), \(repeated) rows repeated: \(changes)")
            }
        }
    }
}
