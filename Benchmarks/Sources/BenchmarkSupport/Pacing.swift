import Foundation
import StreamRender

/// A clock that moves only when told: the renderer reads simulated time.
public final class SimulatedClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol {
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    public private(set) var now = Instant(offset: .zero)
    public var minimumResolution: Duration { .zero }
    public init() {}
    public func advance(to time: Duration) { if time > now.offset { now = Instant(offset: time) } }
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws { advance(to: deadline.offset) }
}

/// Issue 12: the pacer's per-frame cost.
extension Corpus {
    public struct PacedRun {
        /// CPU seconds in `tick` (frames: pacer, reveal position, view, diff, encode).
        public var tickSeconds: Double
        /// CPU seconds in `feed` (decode, markdown, layout).
        public var feedSeconds: Double
        public var frames: Int
        public var bytes: Int
        /// The largest backlog seen (units received but not shown), in units.
        public var maximumBacklog: Int

        public init() {
            tickSeconds = 0
            feedSeconds = 0
            frames = 0
            bytes = 0
            maximumBacklog = 0
        }
    }

    /// Feeds `deltas` as text arriving at `unitsPerSecond` (bytes of the deltas, about
    /// clusters for this ASCII answer) into an inline 80x24 renderer on simulated
    /// time, drawing every frame the 60 fps clock allows; then ends the input and
    /// draws the drain.
    @inline(never)
    public static func pacedRun(_ deltas: [String], unitsPerSecond: Double, pacing: Pacer.Settings?,
                                markdown: Bool) -> PacedRun {
        let clock = SimulatedClock()
        let sink = DiscardingSink()
        let configuration = StreamRenderer.Configuration(
            output: .inline, layout: LayoutSettings(width: 80), input: .init(format: .text),
            content: .init(markdown: markdown), live: .init(height: 24, pacing: pacing),
            capabilities: TerminalCapabilities(colors: .truecolor))
        let renderer = StreamRenderer(configuration: configuration, sink: sink, clock: clock)
        var run = PacedRun()
        var now = Duration.zero
        let step = 1.0 / unitsPerSecond
        var owed = 0.0
        func tick(until time: Duration) {
            while let due = renderer.nextFrameTime, due <= time {
                clock.advance(to: due)
                let start = threadCPUSeconds()
                let drew = renderer.tick(now: due)
                run.tickSeconds += threadCPUSeconds() - start
                if drew { run.frames += 1 }
                if let p = renderer.revealProgress { run.maximumBacklog = max(run.maximumBacklog, p.received - p.revealed) }
            }
            clock.advance(to: time)
        }
        for delta in deltas {
            owed += Double(delta.utf8.count) * step
            now += .nanoseconds(Int64(owed * 1e9))
            owed -= Double(Int64(owed * 1e9)) / 1e9
            tick(until: now)
            let start = threadCPUSeconds()
            renderer.feed(Array(delta.utf8))
            run.feedSeconds += threadCPUSeconds() - start
        }
        renderer.endInput()
        tick(until: now + .seconds(10))
        renderer.finish()
        run.bytes = sink.bytes
        return run
    }
}
