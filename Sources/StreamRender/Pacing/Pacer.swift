import DequeModule

/// The typewriter pacer: how much of the received text is revealed, frame by frame.
///
/// Text arrives in bursts (nothing for 400 ms, then 300 characters, then a trickle).
/// Shown as it arrives it jerks; shown at a fixed speed it falls further and further
/// behind a fast model. The pacer reveals **units** (grapheme clusters; the renderer
/// rounds up to whole words when asked) at a smooth rate that rises with the backlog:
///
/// - at least ``Settings/pace`` units a second while anything is unrevealed;
/// - fast enough that every unit is revealed within a target lag of its arrival
///   (a little under ``Settings/maximumLag``): the rate needed to meet each pending
///   deadline is computed per frame, so a burst is spread evenly over the time it
///   may take instead of being shown at once;
/// - the rate moves towards that target smoothly (an exponential with a short time
///   constant), so the per-frame reveal does not jump between nothing and a lot;
/// - a hard bound: at each tick, every unit that arrived ``Settings/maximumLag``
///   minus one frame ago or earlier is revealed, whatever the rate says. With ticks a
///   frame apart, no unit waits longer than `maximumLag` after the tick that saw it;
/// - after ``end(at:)``, the rest is revealed within ``Settings/drainTime``;
/// - never more than ``maximumBacklog`` units wait (memory stays bounded at any
///   input rate).
///
/// The pacer only counts: it knows the number of units received (which may shrink
/// when a markdown speculation is withdrawn) and revealed, and times as `Duration`s
/// from the caller's clock. It never reads a clock or sleeps; ``nextTick`` says when
/// it next has something to reveal (nil when everything is revealed: an idle pacer
/// needs no timer).
public struct Pacer: Sendable {
    /// How the pacer reveals text.
    public struct Settings: Hashable, Sendable {
        /// The preferred speed in units (grapheme clusters) a second: how fast text
        /// types out when the input is slower. The rate rises above it as needed.
        public var pace: Double
        /// No unit is shown later than this after it arrived (plus at most one frame).
        public var maximumLag: Duration
        /// After the input ends, whatever is left is revealed within this time.
        public var drainTime: Duration
        /// Reveal whole words (the renderer rounds the reveal position up to the end
        /// of a word, at most ``maximumWordUnits`` units further).
        public var revealsWords: Bool

        /// A word longer than this is revealed cluster by cluster.
        public static let maximumWordUnits = 32

        public init(pace: Double = 150, maximumLag: Duration = .milliseconds(300),
                    drainTime: Duration = .milliseconds(200), revealsWords: Bool = false) {
            self.pace = max(1, pace)
            self.maximumLag = max(.zero, maximumLag)
            self.drainTime = max(.zero, drainTime)
            self.revealsWords = revealsWords
        }

        /// The defaults, chosen for reading: 150 clusters a second (about 30 words;
        /// a slow stream types out smoothly, a fast one is followed at its own
        /// speed), at most 300 ms behind the input, 200 ms to drain at the end.
        public static let reading = Settings()
    }

    public let settings: Settings
    /// The time between ticks the caller promises while the pacer has work (its frame
    /// interval): the hard bound leaves one frame of slack for it.
    public let frameInterval: Duration
    /// At most this many units wait unrevealed, whatever their age (the renderer
    /// keeps it under its history limit, so nothing is evicted before it is shown).
    public let maximumBacklog: Int

    /// Units revealed so far.
    public private(set) var revealed = 0
    /// Units received so far (as last reported).
    public private(set) var received = 0
    /// The rate (units a second) of the last tick.
    public private(set) var rate: Double

    /// When the input ended (nil while it goes on).
    public private(set) var endTime: Duration?
    private var lastTick: Duration?
    /// Fractional units earned but not yet revealed.
    private var allowance = 0.0
    /// Arrivals not yet revealed: (time, units received by then), times and units
    /// increasing. Bounded: arrivals closer than a quarter frame are merged (with the
    /// earlier time, which only makes their deadline stricter), and arrivals older
    /// than the hard bound are revealed at the next tick.
    private var arrivals: Deque<(time: Duration, units: Int)> = []

    private let softLag: Double
    private let hardLag: Duration
    private let frameSeconds: Double
    private let smoothing: Double

    /// A pacer ticked every `frameInterval` while it has work.
    public init(settings: Settings = .reading, frameInterval: Duration = .seconds(1) / 60, maximumBacklog: Int = .max) {
        self.settings = settings
        self.maximumBacklog = max(1, maximumBacklog)
        self.frameInterval = max(.nanoseconds(1), frameInterval)
        frameSeconds = Self.seconds(self.frameInterval)
        let lag = Self.seconds(settings.maximumLag)
        // Aim a little under the bound, so the hard bound is a safety net that smooth
        // input never meets (it would reveal a lump).
        softLag = max(lag / 2, lag - 3 * frameSeconds)
        hardLag = settings.maximumLag - self.frameInterval
        smoothing = min(0.06, max(frameSeconds, softLag / 4))
        rate = settings.pace
    }

    /// Units received but not yet revealed.
    public var backlog: Int { received - revealed }

    /// The input now has `units` units in all, at `time`. A smaller count than before
    /// (a speculation withdrawn) takes back the units after it; if some of those were
    /// already revealed, the revealed count drops to match.
    ///
    /// - Complexity: O(1) amortized.
    public mutating func receive(_ units: Int, at time: Duration) {
        let units = max(0, units)
        if units < received {
            while let last = arrivals.last, last.units > units {
                arrivals.removeLast()
                // The units still held that came with the removed arrival keep its time.
                if (arrivals.last?.units ?? revealed) < units {
                    arrivals.append((last.time, units))
                    break
                }
            }
            received = units
            revealed = min(revealed, units)
            return
        }
        guard units > received else { return }
        received = units
        if let last = arrivals.last, time - last.time < frameInterval / 4 {
            arrivals[arrivals.count - 1].units = units
        } else {
            arrivals.append((time, units))
        }
    }

    /// The input ended at `time`: the backlog drains within ``Settings/drainTime``.
    ///
    /// - Complexity: O(1).
    public mutating func end(at time: Duration) {
        if endTime == nil { endTime = time }
    }

    /// Reveals everything received (the stream was interrupted, or pacing is off).
    ///
    /// - Complexity: O(a) in the pending arrivals.
    public mutating func revealAll() {
        revealed = received
        arrivals.removeAll()
        allowance = 0
    }

    /// Sets the revealed count (the renderer rounded up to a word end, or the view
    /// showed more); what was revealed beyond the pacer's own count is taken from the
    /// allowance of the next ticks.
    ///
    /// - Complexity: O(a) in the arrivals revealed.
    public mutating func setRevealed(_ units: Int) {
        let units = min(max(0, units), received)
        allowance -= Double(units - revealed)
        allowance = max(allowance, -Double(Settings.maximumWordUnits))
        revealed = units
        dropRevealedArrivals()
    }

    /// Advances to `now` and returns the units revealed in all (never fewer than
    /// before, unless ``receive(_:at:)`` took units back).
    ///
    /// - Complexity: O(a) in the pending arrivals (at most about one per frame of
    ///   ``Settings/maximumLag``).
    @discardableResult
    public mutating func tick(at now: Duration) -> Int {
        let dt = lastTick.map { max(0, Self.seconds(now - $0)) } ?? frameSeconds
        lastTick = now
        guard backlog > 0 else {
            // Caught up: at most one unit of credit, so the next arrival of a slow
            // stream shows at the tick that sees it (within a frame), not later.
            allowance = min(allowance + settings.pace * dt, 1)
            rate = settings.pace
            return revealed
        }
        // The rate that meets every pending deadline (soft: the target lag; drain:
        // the end), and at least the pace.
        var target = settings.pace
        for arrival in arrivals {
            let due = Self.seconds(arrival.time - now) + softLag
            target = max(target, Double(arrival.units - revealed) / max(due, frameSeconds))
        }
        if let endTime {
            let due = Self.seconds(endTime + settings.drainTime - now)
            target = max(target, Double(backlog) / max(due, frameSeconds))
        }
        // Smooth the change: the per-frame reveal moves by a fraction of the difference.
        let k = dt >= smoothing * 8 ? 1 : 1 - Self.exp(-dt / smoothing)
        rate += (target - rate) * k
        rate = max(rate, settings.pace)
        allowance += rate * dt
        var step = max(0, Int(allowance.rounded(.down)))
        // The hard bounds: what arrived a maximum lag (less a frame) ago, and at the
        // end of the drain time everything.
        var required = revealed
        for arrival in arrivals where now - arrival.time >= hardLag { required = arrival.units }
        if let endTime, now >= endTime + settings.drainTime - frameInterval / 2 { required = received }
        required = max(required, received - maximumBacklog)
        step = max(step, required - revealed)
        step = min(step, backlog)
        allowance -= Double(step)
        if allowance < 0 { allowance = max(allowance, 0) }  // a forced reveal owes nothing
        revealed += step
        dropRevealedArrivals()
        if backlog == 0 { allowance = min(allowance, 1) }
        return revealed
    }

    /// When the next tick has units to reveal: the time the allowance reaches a whole
    /// unit, or a hard deadline, whichever is first, and never sooner than one frame
    /// after the last tick. Nil when everything received is revealed.
    public var nextTick: Duration? {
        guard backlog > 0 else { return nil }
        guard let lastTick else { return .zero }
        var wait = allowance >= 1 ? 0 : (1 - allowance) / max(rate, settings.pace)
        if let first = arrivals.first {
            wait = min(wait, Self.seconds(first.time + hardLag - lastTick))
        }
        if let endTime {
            wait = min(wait, Self.seconds(endTime + settings.drainTime - lastTick))
        }
        if backlog > maximumBacklog { wait = 0 }
        let frames = max(1, (wait / frameSeconds).rounded(.up))
        return lastTick + frameInterval * Int(min(frames, 1_000_000))
    }

    private mutating func dropRevealedArrivals() {
        while let first = arrivals.first, first.units <= revealed { arrivals.removeFirst() }
    }

    static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    /// e^x for x <= 0 (no Foundation in this layer).
    static func exp(_ x: Double) -> Double {
        // Range reduction by halving, then a short series: plenty for smoothing weights.
        var y = x
        var squarings = 0
        while y < -0.0625 { y /= 2; squarings += 1 }
        var result = 1 + y * (1 + y / 2 * (1 + y / 3 * (1 + y / 4 * (1 + y / 5 * (1 + y / 6)))))
        for _ in 0..<squarings { result *= result }
        return result
    }
}
