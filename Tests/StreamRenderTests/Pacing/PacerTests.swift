import Foundation
import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Drives a ``Pacer`` the way ``StreamRenderer`` does, on simulated time: an arrival
/// makes a tick due at once (or a frame after the last one); otherwise ticks come
/// when the pacer asks (`nextTick`). Arrivals are stamped at the tick that sees them.
struct PacerSimulation {
    struct Arrival { var time: Duration; var units: Int }

    var settings: Pacer.Settings
    var frame: Duration = .seconds(1) / 60

    struct Run {
        /// (tick time, revealed after it), every tick.
        var ticks: [(time: Duration, revealed: Int)] = []
        /// Cumulative arrivals (time, received after it).
        var arrivals: [(time: Duration, received: Int)] = []
        var pacer: Pacer
        var endTime: Duration?

        /// The longest wait of any unit between its arrival and the tick revealing it.
        var maximumLag: Duration {
            var worst = Duration.zero
            var a = 0
            var previous = 0
            for tick in ticks where tick.revealed > previous {
                // The first unit newly revealed waited longest in this batch.
                while a < arrivals.count && arrivals[a].received <= previous { a += 1 }
                worst = max(worst, tick.time - arrivals[a].time)
                previous = tick.revealed
            }
            return worst
        }

        /// Units revealed per tick, for ticks after `start`.
        func perFrame(after start: Duration, until stop: Duration) -> [Int] {
            var result: [Int] = []
            var previous = 0
            for tick in ticks {
                if tick.time > start && tick.time <= stop { result.append(tick.revealed - previous) }
                previous = tick.revealed
            }
            return result
        }
    }

    func run(_ schedule: [Arrival], endAt end: Duration? = nil) -> Run {
        var pacer = Pacer(settings: settings, frameInterval: frame)
        var run = Run(pacer: pacer)
        var received = 0
        var lastTick: Duration?
        var dirtySince: Duration?
        var i = 0
        var ended = false
        var guardCount = 0
        while true {
            guardCount += 1
            precondition(guardCount < 5_000_000, "the simulation does not end")
            let earliest = lastTick.map { $0 + frame } ?? .zero
            var due: Duration? = pacer.nextTick.map { max($0, earliest) }
            if let dirtySince { due = min(due ?? .seconds(1_000_000), max(dirtySince, earliest)) }
            let nextArrival = i < schedule.count ? schedule[i].time : nil
            let nextEnd: Duration? = !ended && i >= schedule.count ? (end ?? nil) : nil
            if let a = nextArrival, due == nil || a < due! {
                received += schedule[i].units
                run.arrivals.append((a, received))
                dirtySince = dirtySince ?? a
                i += 1
                continue
            }
            if let e = nextEnd, due == nil || e < due! {
                pacer.end(at: e)
                run.endTime = e
                ended = true
                dirtySince = dirtySince ?? e
                continue
            }
            guard let t = due else { break }
            pacer.receive(received, at: t)
            let before = pacer.revealed
            let revealed = pacer.tick(at: t)
            precondition(revealed >= before)
            run.ticks.append((t, revealed))
            lastTick = t
            dirtySince = nil
        }
        run.pacer = pacer
        return run
    }

    /// Bursts of 1-2,000 units, gaps of 0-2 s, steady runs up to 100,000 units a second.
    static func burstySchedule(_ rng: inout SeededGenerator, length: Int = 40) -> [Arrival] {
        var schedule: [Arrival] = []
        var time = Duration.zero
        for _ in 0..<length {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:  // a burst after a gap
                time += .milliseconds(Int.random(in: 0...2000, using: &rng))
                schedule.append(Arrival(time: time, units: Int.random(in: 1...2000, using: &rng)))
            case 1:  // a steady run: rate 10 to 100,000 units a second, in 1 ms steps
                let rate = Double.random(in: 1...5, using: &rng)
                let perSecond = Int(pow10(rate))
                let millis = Int.random(in: 20...600, using: &rng)
                var owed = 0.0
                for _ in 0..<millis {
                    time += .milliseconds(1)
                    owed += Double(perSecond) / 1000
                    if owed >= 1 {
                        schedule.append(Arrival(time: time, units: Int(owed)))
                        owed -= Double(Int(owed))
                    }
                }
            default:  // a trickle of small pieces
                for _ in 0..<Int.random(in: 1...30, using: &rng) {
                    time += .milliseconds(Int.random(in: 5...120, using: &rng))
                    schedule.append(Arrival(time: time, units: Int.random(in: 1...8, using: &rng)))
                }
            }
        }
        return schedule
    }

    static func pow10(_ x: Double) -> Double {
        var r = 1.0
        for _ in 0..<Int(x) { r *= 10 }
        return r * (1 + (x - Double(Int(x))) * 9)
    }
}

@Suite struct PacerTests {
    let frame = Duration.seconds(1) / 60

    @Test func burstySchedulesKeepTheLagBoundRevealEverythingAndDrain() {
        let seed = TestSeed.base(1201)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<60 {
            let settings = Pacer.Settings(pace: Double(Int.random(in: 20...400, using: &rng)),
                                          maximumLag: .milliseconds(Int.random(in: 100...600, using: &rng)),
                                          drainTime: .milliseconds(Int.random(in: 50...400, using: &rng)))
            let schedule = PacerSimulation.burstySchedule(&rng)
            let end = schedule.last!.time + .milliseconds(Int.random(in: 0...50, using: &rng))
            let run = PacerSimulation(settings: settings).run(schedule, endAt: end)
            let total = schedule.reduce(0) { $0 + $1.units }
            let context = "seed \(seed) round \(round) \(settings)"
            // Every unit revealed, once, in order: the count only grows and ends at the total.
            #expect(run.ticks.last?.revealed == total, "\(context)")
            #expect(zip(run.ticks, run.ticks.dropFirst()).allSatisfy { $0.revealed <= $1.revealed }, "\(context)")
            #expect(run.maximumLag <= settings.maximumLag + frame, "\(context): lag \(run.maximumLag)")
            // Drained within the drain bound after the end (plus the frame it may wait).
            let last = run.ticks.first { $0.revealed == total }!.time
            #expect(last <= end + settings.drainTime + frame, "\(context): last reveal \(last), end \(end)")
            // Idle afterwards: no tick wanted.
            #expect(run.pacer.nextTick == nil, "\(context)")
        }
    }

    @Test func aSteadyInputSlowerThanThePaceLagsAtMostOneFrame() {
        for (pace, interval) in [(50.0, 40), (150, 10), (150, 7), (400, 3), (60, 17)] {
            let settings = Pacer.Settings(pace: pace)
            var schedule: [PacerSimulation.Arrival] = []
            for k in 1...300 { schedule.append(.init(time: .milliseconds(k * interval), units: 1)) }
            let run = PacerSimulation(settings: settings).run(schedule, endAt: .milliseconds(301 * interval))
            #expect(run.maximumLag <= frame, "pace \(pace), one unit every \(interval) ms: lag \(run.maximumLag)")
        }
    }

    @Test func aSteadyInputFasterThanThePaceIsRevealedSmoothly() {
        // Coefficient of variation of the units revealed per frame, after the first 200 ms.
        for (pace, perSecond, chunkMillis) in [(50.0, 1_000, 20), (150, 400, 50), (150, 3_000, 33),
                                               (100, 100_000, 1), (20, 10_000, 100)] {
            var schedule: [PacerSimulation.Arrival] = []
            let perChunk = perSecond * chunkMillis / 1000
            for k in 1...(5000 / chunkMillis) {
                schedule.append(.init(time: .milliseconds(k * chunkMillis), units: perChunk))
            }
            let run = PacerSimulation(settings: Pacer.Settings(pace: pace)).run(schedule)
            let counts = run.perFrame(after: .milliseconds(200), until: .milliseconds(5000)).map(Double.init)
            let mean = counts.reduce(0, +) / Double(counts.count)
            let variance = counts.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(counts.count)
            let cv = variance.squareRoot() / mean
            #expect(cv < 0.2, "pace \(pace), \(perSecond)/s in \(chunkMillis) ms chunks: CV \(cv), mean \(mean)")
            #expect(run.maximumLag <= Pacer.Settings.reading.maximumLag + frame)
        }
    }

    @Test func aBurstIsSpreadOverTheLagInsteadOfShownAtOnce() {
        let run = PacerSimulation(settings: .reading).run([.init(time: .milliseconds(100), units: 2000)])
        let counts = run.perFrame(after: .zero, until: .seconds(2))
        // Spread over most of the 300 ms allowed, never more than a quarter in one frame.
        #expect(counts.count >= 12, "\(counts)")
        #expect(counts.max()! <= 500, "\(counts)")
        #expect(run.maximumLag <= .milliseconds(300) + frame)
    }

    @Test func theDrainEndsWithinTheDrainTime() {
        let settings = Pacer.Settings(pace: 50, maximumLag: .seconds(5), drainTime: .milliseconds(150))
        let run = PacerSimulation(settings: settings).run([.init(time: .zero, units: 5000)], endAt: .milliseconds(10))
        #expect(run.ticks.last!.revealed == 5000)
        #expect(run.ticks.last!.time <= .milliseconds(10) + .milliseconds(150) + frame, "\(run.ticks.last!.time)")
        // ... and not all at the last frame.
        #expect(run.perFrame(after: .zero, until: .seconds(1)).count >= 6)
    }

    @Test func anIdlePacerWantsNoTick() {
        var pacer = Pacer()
        #expect(pacer.nextTick == nil)
        pacer.receive(3, at: .zero)
        #expect(pacer.nextTick == .zero)
        var t = Duration.zero
        while let next = pacer.nextTick {
            t = max(next, t + frame)
            pacer.tick(at: t)
        }
        #expect(pacer.revealed == 3 && pacer.backlog == 0)
        // A stall: no timer at all, however long.
        #expect(pacer.nextTick == nil)
    }

    @Test func aWithdrawnSpeculationTakesUnitsBack() {
        var pacer = Pacer(settings: .init(pace: 1000))
        pacer.receive(100, at: .zero)
        pacer.tick(at: .milliseconds(50))
        let shown = pacer.revealed
        #expect(shown > 0 && shown < 100)
        pacer.receive(shown - 5, at: .milliseconds(60))
        #expect(pacer.revealed == shown - 5 && pacer.backlog == 0)
        pacer.receive(shown + 20, at: .milliseconds(70))
        #expect(pacer.backlog == 25)
        var t = Duration.milliseconds(70)
        while let next = pacer.nextTick {
            t = max(next, t + frame)
            pacer.tick(at: t)
        }
        #expect(pacer.revealed == shown + 20)
        #expect(t <= .milliseconds(70) + .milliseconds(300))
    }

    @Test func theBacklogNeverExceedsItsMaximum() {
        var pacer = Pacer(settings: .init(pace: 10, maximumLag: .seconds(30)), maximumBacklog: 1000)
        var t = Duration.zero
        for _ in 0..<100 {
            pacer.receive(pacer.received + 700, at: t)  // 42,000 units a second against a pace of 10
            pacer.tick(at: t)
            #expect(pacer.backlog <= 1000)
            t += frame
        }
        #expect(pacer.revealed > 60_000)
    }

    @Test func revealAllShowsEverythingAtOnce() {
        var pacer = Pacer()
        pacer.receive(10_000, at: .zero)
        pacer.tick(at: .zero)
        pacer.revealAll()
        #expect(pacer.revealed == 10_000 && pacer.nextTick == nil)
    }

    @Test func expMatchesTheSeries() {
        for x in stride(from: -20.0, through: 0, by: 0.25) {
            let expected = Foundation.exp(x)
            let got = Pacer.exp(x)
            #expect(abs(got - expected) <= 1e-6 * max(1, abs(expected)) + 1e-9, "exp(\(x)) = \(got), expected \(expected)")
        }
    }
}
