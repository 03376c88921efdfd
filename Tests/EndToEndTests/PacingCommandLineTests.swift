import Foundation
import Testing

/// The typewriter pacer as a process: the live view's bytes into a pipe, timed.
@Suite(.serialized) struct PacingCommandLineTests: EndToEnd {
    /// A running `stream-render` whose output is read as it comes, with times.
    final class TimedRun: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let output = Pipe()
        private let lock = NSLock()
        private var chunks: [(time: Double, bytes: Data)] = []
        private let readerDone: AsyncStream<Void>
        private var child: Child?
        private var errorReader: PipeReader?
        let start = Date()

        init(_ arguments: [String], stdinFromPipe: Bool = true) throws {
            let (readerDone, done) = AsyncStream<Void>.makeStream()
            self.readerDone = readerDone
            process.executableURL = CommandLineTests.binary
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["COLUMNS"] = nil
            environment["STREAM_RENDER_OPTS"] = nil
            process.environment = environment
            process.standardOutput = output
            let errors = Pipe()
            process.standardError = errors
            process.standardInput = stdinFromPipe ? input : FileHandle.nullDevice
            child = try Child(process)
            errorReader = PipeReader(errors)
            let reader = output.fileHandleForReading
            // A thread of its own: the shared pool may be busy with other tests, and a
            // late reader would see the output coalesced.
            let thread = Thread { [self] in
                while true {
                    let data = reader.availableData
                    if data.isEmpty { break }
                    let t = Date().timeIntervalSince(start)
                    lock.withLock { chunks.append((t, data)) }
                }
                done.finish()
            }
            thread.start()
        }

        /// What the process wrote on standard error, once it has ended.
        var errors: String { get async { await errorReader?.text() ?? "" } }

        var elapsed: Double { Date().timeIntervalSince(start) }

        func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

        func closeInput() { try? input.fileHandleForWriting.close() }

        /// Waits for the output to end and the process to exit; returns the status.
        func wait() async -> Int32 {
            for await _ in readerDone {}
            return await child?.exit() ?? -1
        }

        /// A copy made under the lock, in a buffer of its own: a copy sharing the
        /// reader thread's buffer would be read here after the lock while that thread
        /// appends in place once the copy is gone (TSan reports it: it does not see
        /// the runtime's atomic reference counts order the two).
        var received: [(time: Double, bytes: Data)] { lock.withLock { chunks.map { $0 } } }

        /// The first time the output, stripped of escape sequences and white space,
        /// contains `marker`.
        func firstTime(of marker: String) -> Double? {
            var all = Data()
            for chunk in received {
                all.append(chunk.bytes)
                if PacingCommandLineTests.letters(all).contains(marker) { return chunk.time }
            }
            return nil
        }

        /// CPU time (user + system) of the process so far, in clock ticks.
        var cpuTicks: Int? {
            guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the name: state is field 3; utime and stime are fields 14 and 15.
            guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
            return user + system
        }
    }

    /// Text without escape sequences, CR, LF or spaces.
    static func letters(_ data: Data) -> String {
        LiveViewFlagTests.strippingEscapes(String(decoding: data, as: UTF8.self)).filter { !$0.isWhitespace }
    }

    /// The coding answer arriving all at once: revealed progressively over about the
    /// shorter of max-lag and the drain time (the input ends at once), never later than
    /// both together. (600 ms of it, about 36 frames, leaves a loaded CI machine that
    /// draws a frame 100 ms late room for the frames counted below; with max-lag 300
    /// and the default drain, 200 ms, it once drew 5.)
    @Test func anAnswerArrivingAtOnceIsRevealedProgressivelyWithinTheBound() async throws {
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let run = try TimedRun(["--output", "ansi", "--pace", "50", "--max-lag", "1000", "--drain", "600", "--width", "60",
                                "--height", "20", "--stats", "--verbose", fixture], stdinFromPipe: false)
        #expect(await run.wait() == 0)
        let errors = await run.errors
        let chunks = run.received
        let first = chunks.first!.time, last = chunks.last!.time
        // The bound: max-lag 1 s plus the drain time 600 ms (plus scheduling slack).
        #expect(last - first <= 1.6 + 0.25, "output spread over \(last - first) s")
        // Progressive: many frames (counted by the process: a loaded machine's pipe joins
        // writes the reader was late for), over at least a good part of the drain.
        let frames = errors.split(separator: "\n").first { $0.contains("live view: inline, ") }
            .flatMap { $0.split(separator: ",").dropFirst().first?.split(separator: " ").first }.flatMap { Int($0) }
        #expect((frames ?? 0) >= 6, "\(errors)")
        #expect(last - first >= 0.3, "output spread over only \(last - first) s")
    }

    /// A stream faster than the pace (120 clusters a second against 50): each piece is on
    /// the screen within max-lag of its arrival (a typewriter at 50 would fall seconds behind).
    @Test func aSlowStreamIsFollowedWithinTheMaximumLag() async throws {
        let run = try TimedRun(["--output", "ansi", "--format", "text", "--markdown", "off", "--pace", "50",
                                "--max-lag", "300", "--width", "60", "--height", "10"])
        var sent: [(marker: String, time: Double)] = []
        for k in 0..<30 {
            let marker = "<\(k)>"
            run.write("\(marker) lorem ipsum ")  // 12 to 13 clusters every 100 ms
            sent.append((marker, run.elapsed))
            await pause(0.1)  // a late wake-up only delays the next write: lag counts from each write
        }
        run.closeInput()
        #expect(await run.wait() == 0)
        var worst = 0.0
        for (marker, time) in sent {
            guard let shown = run.firstTime(of: marker) else {
                Issue.record("\(marker) never shown")
                continue
            }
            worst = max(worst, shown - time)
        }
        // 300 ms, a frame, and slack for a loaded machine; without the bound the last
        // marker would lag by about 4 seconds.
        #expect(worst <= 0.3 + 0.017 + 0.3, "worst lag \(worst) s")
    }

    /// A stalled stream: no frames, no timer, no CPU until input comes again.
    /// Without a pacer the last frame is drawn as the input ends, not a frame interval
    /// after the one before (a second here: the process took that second more).
    @Test func anUnpacedViewEndsWhenItsInputEnds() async throws {
        let run = try TimedRun(["--output", "ansi", "--pace", "off", "--fps", "1", "--width", "60", "--height", "10"])
        run.write("# A title\n\nThe first paragraph.\n")
        var waited = 0.0
        while !Self.letters(run.received.reduce(Data()) { $0 + $1.bytes }).contains("Thefirstparagraph"), waited < 10 {
            await pause(0.05)
            waited += 0.05
        }
        run.write("The end.\n")
        let closed = run.elapsed
        run.closeInput()
        #expect(await run.wait() == 0)
        let took = run.elapsed - closed
        #expect(took < 0.6, "the process ended \(took) s after its input")
        #expect(Self.letters(run.received.reduce(Data()) { $0 + $1.bytes }).contains("Theend"))
    }

    @Test func aStalledStreamUsesNoCPU() async throws {
        let run = try TimedRun(["--output", "ansi", "--format", "text", "--width", "60", "--height", "10"])
        run.write("some text, then nothing for a while\n")
        // Revealed (the pacer's time, longer on a loaded machine), then idle.
        var waited = 0.0
        while !Self.letters(run.received.reduce(Data()) { $0 + $1.bytes }).contains("somethingthennothingforawhile"), waited < 10 {
            await pause(0.05)
            waited += 0.05
        }
        await pause(0.3)
        let before = run.cpuTicks
        let writes = run.received.count
        await pause(1.5)
        let after = run.cpuTicks
        #expect(run.received.count == writes, "nothing written while stalled")
        if let before, let after {
            #expect(after - before <= 1, "\(after - before) clock ticks of CPU while stalled")
        } else {
            Issue.record("cannot read /proc/<pid>/stat")
        }
        run.write("and the end\n")
        run.closeInput()
        #expect(await run.wait() == 0)
        #expect(Self.letters(run.received.reduce(Data()) { $0 + $1.bytes }).contains("andtheend"))
    }

    /// `--replay` feeds a capture at the times of its `: t=<ms>` marks.
    @Test func replayPlaysACaptureAtItsRecordedTimes() async throws {
        let capture = ": t=0\nhello there, \n: t=700\nlate arrival\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sr-replay-\(getpid()).txt")
        try Data(capture.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try TimedRun(["--replay", "--format", "text", "--output", "ansi", "--width", "60", file.path],
                               stdinFromPipe: false)
        #expect(await run.wait() == 0)
        let early = try #require(run.firstTime(of: "hello"))
        let late = try #require(run.firstTime(of: "latearrival"))
        #expect(late - early >= 0.6, "the second piece came \(late - early) s after the first")
        #expect(!Self.letters(run.received.reduce(Data()) { $0 + $1.bytes }).contains("t=700"), "marks are not shown")
        // Plain output, no marks: the text as it is, at the default rate.
        let plain = try CommandLineTests.run(["--replay", "--format", "text", "--markdown", "off", "--replay-rate", "1000",
                                              file.path])
        #expect(String(decoding: plain.stdout, as: UTF8.self) == "hello there, \nlate arrival\n")
    }

    @Test func pacingFlagsAreValidatedAndListed() throws {
        for bad in [["--pace", "fast"], ["--pace", "0"], ["--max-lag", "-1"], ["--drain", "x"], ["--replay-rate", "0"]] {
            let r = try CommandLineTests.run(bad + ["-"], stdin: Data("x".utf8))
            #expect(r.status == 2, "\(bad): \(r.status) \(r.stderr)")
        }
        let help = String(decoding: try CommandLineTests.run(["--help"]).stdout, as: UTF8.self)
        for flag in ["--pace", "--pace-words", "--max-lag", "--drain", "--replay", "--replay-rate"] {
            #expect(help.contains(flag), "--help does not list \(flag)")
        }
        // Pace off and words both run to the same text.
        let input = Data("one two three four five six seven\n".utf8)
        for flags in [["--pace", "off"], ["--pace-words"], ["--pace", "1000", "--max-lag", "0"]] {
            let r = try CommandLineTests.run(["--format", "text", "--output", "ansi", "--width", "60"] + flags, stdin: input)
            #expect(r.status == 0)
            #expect(Self.letters(r.stdout).contains("onetwothreefourfivesixseven"), "\(flags)")
        }
    }
}
