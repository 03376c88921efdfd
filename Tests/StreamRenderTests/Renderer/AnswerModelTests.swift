@_spi(Benchmarks) @testable import StreamRender
import Testing
import TestSupport

/// `AnswerModel` + `PanePresenter`: a host-owned frame shows paced streams in any
/// rectangle, with the routing and side events of `StreamRenderer`.
@Suite struct AnswerModelTests {
    /// The oracle: `StreamRenderer`'s plain output at `width` (markdown, no colour),
    /// its last `height` lines padded with blank rows, as a pane shows a tail.
    static func plainTail(_ bytes: [UInt8], width: Int, height: Int) -> [String] {
        let sink = BufferSink()
        let renderer = StreamRenderer(configuration: .init(output: .plain, layout: LayoutSettings(width: width)), sink: sink)
        renderer.feed(bytes)
        renderer.finish()
        var lines = String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let tail = lines.suffix(height).map(InlineViewTests.trimmed)
        return tail + Array(repeating: "", count: height - tail.count)
    }

    static func unpaced(width: Int = 80) -> AnswerModel.Configuration {
        AnswerModel.Configuration(layout: LayoutSettings(width: width), pacing: nil)
    }

    @Test(arguments: [Rect(top: 0, left: 0, width: 30, height: 8), Rect(top: 3, left: 21, width: 47, height: 17)])
    func aPaneShowsTheTailOfTheAnswerInItsRectangle(area: Rect) {
        let bytes = Fixtures.bytes("sse/coding-answer.anthropic.sse")
        let model = AnswerModel(configuration: Self.unpaced())
        model.feed(bytes)
        let outcome = model.finish()
        #expect(outcome.ending == .complete)
        model.tick(now: model.currentTime)
        var screen = PaneViewTests.Screen(width: 80, height: 24, policy: .grapheme)
        // Something the host drew around the pane stays.
        screen.frame.put("#", width: 1, row: 23, column: 79)
        var presenter = PanePresenter()
        presenter.render(model, into: &screen.frame, area: area, styles: &screen.styles)
        screen.flush()
        #expect(screen.rows(area) == Self.plainTail(bytes, width: area.width, height: area.height))
        #expect(screen.model.screen[23, 79].text == "#")
        // Nothing outside the area was written.
        #expect((0..<24).allSatisfy { row in
            (0..<79).allSatisfy { column in
                (row >= area.top && row < area.top + area.height && column >= area.left && column < area.left + area.width)
                    || screen.model.screen[row, column].text == " "
            }
        })
    }

    @Test func aPacedPaneRevealsTheAnswerFrameByFrame() {
        let bytes = Fixtures.bytes("sse/coding-answer.anthropic.sse")
        let clock = ManualClock()
        let model = AnswerModel(configuration: AnswerModel.Configuration(layout: LayoutSettings(width: 40)), clock: clock)
        let area = Rect(top: 0, left: 0, width: 40, height: 200)  // tall: rows never scroll
        var screen = PaneViewTests.Screen(width: 40, height: 200, policy: .grapheme)
        var presenter = PanePresenter()
        // The whole stream arrives at once; the pacer shows it over several frames.
        model.feed(bytes)
        model.finish()
        var frames: [[String]] = []
        var now = Duration.zero
        while !model.isDone && frames.count < 10_000 {
            if model.tick(now: now) {
                presenter.render(model, into: &screen.frame, area: area, styles: &screen.styles)
                screen.flush()
                frames.append(screen.rows(area))
            }
            now += .milliseconds(16)
            clock.advance(by: .milliseconds(16))
        }
        let final = Self.plainTail(bytes, width: 40, height: 200)
        #expect(model.isDone)
        #expect(frames.count > 10, "paced: \(frames.count) frames")
        #expect(frames.last == final)
        #expect(frames.first != final)
        // Within the pacer's drain time (plus a frame per word at the end).
        #expect(now <= Pacer.Settings.reading.drainTime + .seconds(2))
        // Each frame shows a prefix of each row of the final text: nothing is drawn that
        // the final frame does not have, nothing drawn is taken back.
        for (k, rows) in frames.enumerated() {
            #expect(zip(rows, final).allSatisfy { $1.hasPrefix($0) }, "frame \(k)")
            if k > 0 { #expect(zip(frames[k - 1], rows).allSatisfy { $1.hasPrefix($0) }, "frame \(k)") }
        }
    }

    /// The side events of `chunks` through a model and through a plain renderer.
    static func sideEvents(_ chunks: [ArraySlice<UInt8>]) -> (model: [SideEvent], renderer: [SideEvent]) {
        let model = AnswerModel(configuration: unpaced())
        var fromModel: [SideEvent] = []
        model.onSideEvent = { fromModel.append($0) }
        let renderer = StreamRenderer(configuration: .init(output: .plain), sink: BufferSink())
        var fromRenderer: [SideEvent] = []
        renderer.onSideEvent = { fromRenderer.append($0) }
        for chunk in chunks {
            model.feed(chunk)
            renderer.feed(chunk)
        }
        model.finish()
        renderer.finish()
        return (fromModel, fromRenderer)
    }

    @Test(arguments: ["sse/music.thinking-tool.crlf.sse", "sse/gemini.thinking-tool.crlf.sse",
                      "sse/ollama-chat.thinking-tool.ndjson", "sse/music.overloaded.sse"])
    func theModelRoutesAsTheRendererDoes(fixture: String) {
        let bytes = Fixtures.bytes(fixture)
        let whole = Self.sideEvents([bytes[...]])
        #expect(whole.model == whole.renderer)
        #expect(whole.model.contains { if case .toolCall = $0 { true } else if case .error = $0 { true } else { false } })
        let seed = TestSeed.base(2511)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<20 {
            let cut = Self.sideEvents(randomChunks(bytes, using: &rng, maxChunk: 64))
            #expect(cut.model == cut.renderer, "seed \(seed) round \(round)")
        }
    }

    @Test func theFinalPaneIsTheSameInEveryChunking() {
        let bytes = Fixtures.bytes("sse/coding-answer.openai.sse")
        let area = Rect(top: 1, left: 2, width: 33, height: 12)
        func finalRows(_ chunks: [ArraySlice<UInt8>]) -> [String] {
            let model = AnswerModel(configuration: Self.unpaced(width: 80))
            var screen = PaneViewTests.Screen(width: 40, height: 14, policy: .grapheme)
            var presenter = PanePresenter()
            for chunk in chunks {
                model.feed(chunk)
                model.tick(now: model.currentTime)
                presenter.render(model, into: &screen.frame, area: area, styles: &screen.styles)
                screen.flush()
            }
            model.finish()
            model.tick(now: model.currentTime)
            presenter.render(model, into: &screen.frame, area: area, styles: &screen.styles)
            screen.flush()
            return screen.rows(area)
        }
        let expected = Self.plainTail(bytes, width: 33, height: 12)
        #expect(finalRows([bytes[...]]) == expected)
        let seed = TestSeed.base(4242)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<4 {
            #expect(finalRows(randomChunks(bytes, using: &rng, maxChunk: 400)) == expected, "seed \(seed) round \(round)")
        }
    }

    @Test func interruptShowsEverythingAtOnce() {
        let clock = ManualClock()
        let model = AnswerModel(configuration: AnswerModel.Configuration(layout: LayoutSettings(width: 30)), clock: clock)
        model.feed(Array("One two three four five six seven eight nine ten.\n".utf8))
        model.tick(now: .zero)
        #expect(model.revealLimit != nil)  // paced: not all of it yet
        let outcome = model.interrupt()
        #expect(outcome.ending == .interrupted)
        #expect(!model.isDone)  // until a tick takes the change
        #expect(model.tick(now: .zero))
        #expect(model.isDone && model.revealLimit == nil)
        var frame = Frame(width: 30, height: 3)
        var styles = StyleTable()
        var presenter = PanePresenter()
        presenter.render(model, into: &frame, area: Rect(top: 0, left: 0, width: 30, height: 3), styles: &styles)
        #expect(InlineViewTests.trimmed(frame.text(row: 0)) == "One two three four five six")
        #expect(InlineViewTests.trimmed(frame.text(row: 1)) == "seven eight nine ten.")
    }

    @MainActor @Test func aHostOnTheMainActorDrivesAModel() async {
        let model = AnswerModel(configuration: Self.unpaced(width: 20))
        var calls: [String] = []
        model.onSideEvent = { if case .toolCall(let name, _, _, _) = $0 { calls.append(name) } }
        for chunk in Fixtures.bytes("sse/music.thinking-tool.crlf.sse").chunks(ofCount: 100) {
            model.feed(chunk)
            await Task.yield()
        }
        model.finish()
        model.tick(now: model.currentTime)
        var frame = Frame(width: 20, height: 5)
        var styles = StyleTable()
        var presenter = PanePresenter()
        presenter.render(model, into: &frame, area: Rect(top: 0, left: 0, width: 20, height: 5), styles: &styles)
        #expect(!calls.isEmpty)
        #expect((0..<5).contains { !InlineViewTests.trimmed(frame.text(row: $0)).isEmpty })
    }

    @Test func rectanglesSplitIntoColumns() {
        let columns = Rect(top: 0, left: 0, width: 80, height: 23).columns(3)
        #expect(columns.map(\.left) == [0, 27, 54] && columns.map(\.width) == [26, 26, 26])
        #expect(Rect(top: 2, left: 1, width: 81, height: 5).columns(2).map { [$0.top, $0.left, $0.width, $0.height] }
                == [[2, 1, 40, 5], [2, 42, 40, 5]])
    }
}

extension PaneViewTests.Screen {
    /// The model terminal's rows of `area`, trailing spaces trimmed.
    func rows(_ area: Rect) -> [String] {
        (area.top..<(area.top + area.height)).map {
            InlineViewTests.trimmed(text(row: $0, columns: area.left..<(area.left + area.width)))
        }
    }
}

extension Array {
    /// The array in pieces of `count` elements (the last may be shorter).
    func chunks(ofCount count: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: self.count, by: count).map { self[$0..<Swift.min(self.count, $0 + count)] }
    }
}

extension AnswerModelTests {
    /// A pane narrowed while the pacer is inside an open table whose cells are all
    /// multi-byte: the table is rendered again at the pane's new width, and the pane
    /// draws up to the same units in that new text (the old position mostly fell inside
    /// a character there), not the old rendering wrapped again. The end is the table at
    /// the new width.
    @Test func aNarrowedPaneRevealsTheSameUnitsOfAnOpenTable() {
        let rows = (0..<6).map { k in "| 東京\(k) | 音楽がよく似合う | 静かな夜 |" }
        let table = Array(("| 都市 | 音楽 | 夜 |\n|---|---|---|\n" + rows.joined(separator: "\n") + "\n").utf8)
        for step in stride(from: 2, through: 80, by: 3) {
            let clock = ManualClock()
            let model = AnswerModel(configuration: AnswerModel.Configuration(layout: LayoutSettings(width: 44),
                                                                             pacing: .init(pace: 100)), clock: clock)
            var screen = PaneViewTests.Screen(width: 44, height: 20, policy: .grapheme)
            var presenter = PanePresenter()
            model.feed(table)
            for _ in 0..<step {
                model.tick(now: model.currentTime)
                clock.advance(by: .milliseconds(16))
            }
            presenter.render(model, into: &screen.frame, area: Rect(top: 0, left: 0, width: 44, height: 20), styles: &screen.styles)
            let narrow = Rect(top: 0, left: 0, width: 31, height: 20)
            presenter.render(model, into: &screen.frame, area: narrow, styles: &screen.styles)
            screen.flush()
            // At once the table at its new width, up to where the pacer is: each row a
            // prefix of the final row.
            let final = Self.plainTail(table, width: 31, height: 20)
            let first = screen.rows(narrow)
            #expect(first.contains { !$0.isEmpty } && zip(first, final).allSatisfy { $1.hasPrefix($0) }, "step \(step): \(first)")
            model.finish()
            while !model.isDone {
                clock.advance(by: .milliseconds(16))
                if model.tick(now: model.currentTime) { presenter.render(model, into: &screen.frame, area: narrow, styles: &screen.styles) }
            }
            presenter.render(model, into: &screen.frame, area: narrow, styles: &screen.styles)
            screen.flush()
            #expect(screen.rows(narrow) == final, "step \(step)")
        }
    }
}
