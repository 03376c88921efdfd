import Testing
@_spi(Benchmarks) @testable import StreamRender

/// `finish()` is the one way to end a stream (besides `interrupt()`): on the real
/// clocks it waits out the pacer's drain, drawing frames; on a test clock it shows the
/// rest at once.
@Suite struct FinishTests {
    static func frames(_ renderer: StreamRenderer) -> Int {
        // "live view: inline, N frames, B bytes"
        Int(renderer.statistics[0].split(separator: " ")[3]) ?? -1
    }

    static let text = Array(String(repeating: "word ", count: 300).utf8)

    @Test func onTheRealClockFinishRevealsTheRestOverSeveralFrames() {
        let sink = BufferSink()
        let renderer = StreamRenderer(configuration: .init(output: .inline, layout: LayoutSettings(width: 40),
            input: .init(format: .text), live: .init(height: 8)), sink: sink)
        renderer.feed(Self.text)
        renderer.tick()  // the first frame: the pacer shows a little of it
        let progress = renderer.revealProgress!
        #expect(progress.revealed < progress.received)
        let before = Self.frames(renderer)
        let start = ContinuousClock.now
        let outcome = renderer.finish()
        #expect(outcome.ending == .complete)
        #expect(Self.frames(renderer) - before > 3, "the drain drew frames: \(renderer.statistics)")
        // Bounded: the drain time (200 ms) and a second at most, whatever the load.
        #expect(start.duration(to: .now) < .seconds(3))
        var model = ModelTerminal(width: 40, height: 8)
        model.apply(sink.bytes)
        #expect((model.scrollback + model.rows).joined().filter { $0 == "w" }.count == 300)
    }

    @Test func onATestClockFinishShowsTheRestAtOnce() {
        let sink = BufferSink()
        let clock = ManualClock()
        let renderer = StreamRenderer(configuration: .init(output: .inline, layout: LayoutSettings(width: 40),
            input: .init(format: .text), live: .init(height: 8)), sink: sink, clock: clock)
        renderer.feed(Self.text)
        renderer.tick()
        let before = Self.frames(renderer)
        renderer.finish()  // the clock never moves: no wait
        #expect(Self.frames(renderer) - before == 1)
        var model = ModelTerminal(width: 40, height: 8)
        model.apply(sink.bytes)
        #expect((model.scrollback + model.rows).joined().filter { $0 == "w" }.count == 300)
    }
}
