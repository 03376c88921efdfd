import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// A view without a pacer that holds many final lines writes them at once, not at the
/// frame clock's next frame (`StreamRenderer.nextFrameTime`): what it holds stays
/// bounded when input comes faster than frames, and what it shows is the same.
@Suite struct EarlyFrameTests {
    static func renderer(pacing: Pacer.Settings?, sink: BufferSink) -> StreamRenderer {
        StreamRenderer(configuration: .init(output: .inline, layout: LayoutSettings(width: 40), input: .init(format: .text),
                                            live: .init(height: 8, framesPerSecond: 1, pacing: pacing)),
                       sink: sink, clock: ManualClock())
    }

    /// "history: N lines held; ..."
    static func held(_ renderer: StreamRenderer) -> Int {
        let line = renderer.statistics.first { $0.hasPrefix("history:") } ?? ""
        return Int(line.split(separator: " ")[1]) ?? -1
    }

    static func lines(_ range: Range<Int>) -> [UInt8] {
        // (Paragraphs: each final at the blank line after it.)
        Array(range.map { "line \($0) of a long answer\n\n" }.joined().utf8)
    }

    @Test func manyFinalLinesAreWrittenWithoutWaitingForTheClock() {
        let sink = BufferSink()
        let renderer = Self.renderer(pacing: nil, sink: sink)
        renderer.feed(Self.lines(0..<10))
        renderer.tick()  // the first frame: the clock allows the next one a second later
        let first = FinishTests.frames(renderer)
        // The clock never moves: a few lines wait for it, many do not.
        renderer.feed(Self.lines(10..<20))
        renderer.tick()
        #expect(FinishTests.frames(renderer) == first)
        var most = 0
        for k in 0..<10 {
            renderer.feed(Self.lines((20 + k * 700)..<(20 + (k + 1) * 700)))
            most = max(most, Self.held(renderer))
            renderer.tick()
        }
        #expect(FinishTests.frames(renderer) > first + 3)
        // The history the view keeps, plus what one feed made final past the threshold.
        #expect(most < PlainView.heldLines + StreamRenderer.finalLinesWorthAFrame + 700, "\(most) lines held")
        renderer.finish()
        var model = ModelTerminal(width: 40, height: 8)
        model.apply(sink.bytes)
        let shown = (model.scrollback + model.rows).map { String($0.reversed().drop { $0 == " " }.reversed()) }.filter { !$0.isEmpty }
        let expected = (0..<7020).map { "line \($0) of a long answer" }
        let differing = shown.indices.first { $0 >= expected.count || shown[$0] != expected[$0] }
        #expect(shown.count == expected.count && differing == nil,
                "\(shown.count) lines shown; the first that differs: \(differing.map { shown[$0] } ?? "none")")
    }

    /// With a pacer the final lines wait for their reveal: no early frame (the pacer's
    /// clock draws them).
    @Test func aPacedViewWaitsForTheClock() {
        let sink = BufferSink()
        let renderer = Self.renderer(pacing: .init(pace: 100), sink: sink)
        renderer.feed(Self.lines(0..<10))
        renderer.tick()
        let first = FinishTests.frames(renderer)
        renderer.feed(Self.lines(10..<3000))
        renderer.tick()
        #expect(FinishTests.frames(renderer) == first)
    }
}
