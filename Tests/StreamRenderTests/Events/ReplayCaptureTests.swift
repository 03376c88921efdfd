import Testing
@_spi(Fuzzing) @_spi(Benchmarks) @testable import StreamRender

/// Captures with `: t=<ms>` arrival marks, their encoding, and the made-up pacing of
/// captures without marks.
@Suite struct ReplayCaptureTests {
    typealias Chunk = ReplayCapture.Chunk

    func capture(_ text: String, rate: Double = 60) -> ReplayCapture {
        ReplayCapture(Array(text.utf8), tokensPerSecond: rate)
    }

    func at(_ time: Duration, _ text: String) -> Chunk {
        Chunk(time: time, bytes: Array(text.utf8))
    }

    func ms(_ value: Int64) -> Duration { .milliseconds(value) }

    func texts(_ c: ReplayCapture) -> [String] {
        c.chunks.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// The time chunk `k` is documented to get without marks.
    func madeUp(_ k: Int, _ rate: Double = 60) -> Duration { .seconds(Double(k) / rate) }

    func isNonDecreasing(_ chunks: [Chunk]) -> Bool {
        zip(chunks, chunks.dropFirst()).allSatisfy { $0.time <= $1.time }
    }

    // MARK: - Marks

    @Test func emptyInputHasNoChunks() {
        let c = ReplayCapture([])
        #expect(c.chunks.isEmpty)
        #expect(!c.hasRecordedTimes)
        #expect(c.duration == .zero)
        #expect(c.bytes.isEmpty)
    }

    @Test func marksTimeTheBytesAfterThemAndAreRemoved() {
        let c = capture("data: a\n\n: t=5\ndata: b\n\n: t=20\ndata: c\n\n")
        #expect(c.hasRecordedTimes)
        #expect(c.chunks == [at(.zero, "data: a\n\n"), at(ms(5), "data: b\n\n"), at(ms(20), "data: c\n\n")])
        #expect(c.duration == ms(20))
        #expect(c.bytes == Array("data: a\n\ndata: b\n\ndata: c\n\n".utf8))
    }

    @Test func aCaptureStartingWithAMarkHasNoChunkAtZero() {
        #expect(capture(": t=7\nhello\n").chunks == [at(ms(7), "hello\n")])
    }

    @Test func marksMayEndInCRLFAndAreRemovedWhole() {
        let c = capture("data: a\r\n\r\n: t=5\r\ndata: b\r\n\r\n: t=6\ndata: c\r\n\r\n")
        #expect(c.chunks == [at(.zero, "data: a\r\n\r\n"), at(ms(5), "data: b\r\n\r\n"), at(ms(6), "data: c\r\n\r\n")])
    }

    @Test func aPlainTextCaptureShowsNoMarks() {
        let c = capture(": t=0\nOnce upon\n: t=250\na time.\n: t=900\n")
        #expect(c.bytes == Array("Once upon\na time.\n".utf8))
        #expect(c.chunks == [at(.zero, "Once upon\n"), at(ms(250), "a time.\n"), at(ms(900), "")])
    }

    @Test func aFileOfOnlyMarksHasAtMostTheEndTime() {
        let zero = capture(": t=0\n")
        #expect(zero.hasRecordedTimes)
        #expect(zero.chunks.isEmpty)
        #expect(zero.duration == .zero)
        let later = capture(": t=0\n: t=3\n: t=12.5\r\n")
        #expect(later.hasRecordedTimes)
        #expect(later.chunks == [at(.microseconds(12_500), "")])
        #expect(later.duration == .microseconds(12_500))
    }

    @Test func aMarkAtTheVeryEndKeepsTheEndTimeAsAnEmptyChunk() {
        let expected = [at(.zero, "data: a\n\n"), at(ms(40), "")]
        #expect(capture("data: a\n\n: t=40\n").chunks == expected)
        #expect(capture("data: a\n\n: t=40\r\n").chunks == expected)
        #expect(capture("data: a\n\n: t=40").chunks == expected)  // ended by the end of input
        #expect(capture("data: a\n\n: t=40").duration == ms(40))
        // Not later than the last chunk: nothing to add.
        #expect(capture("data: a\n\n: t=0\n").chunks == [at(.zero, "data: a\n\n")])
        #expect(capture(": t=10\nx\n: t=10\n").chunks == [at(ms(10), "x\n")])
        #expect(capture(": t=10\nx\n: t=3\n").chunks == [at(ms(10), "x\n")])
    }

    @Test func marksWithNothingBetweenLeaveTheLaterOne() {
        #expect(capture(": t=1\n: t=2\nx").chunks == [at(ms(2), "x")])
        #expect(capture("a\n: t=1\n: t=2\nb\n").chunks == [at(.zero, "a\n"), at(ms(2), "b\n")])
    }

    @Test(arguments: [
        ": ping", ": t=abc", ": t=", ":t=5", ": t=5 ", ": t= 5", ": t=-5", ": t=+5", ": t=1e3",
        ": t=5.", ": t=.5", ": t=5x", ": t=5,5", ": T=5", " : t=5", "\t: t=5", ":  t=5", "; t=5",
        ": t=5\rmore", ": t=\u{FF15}",
    ])
    func onlyTheExactFormIsAMark(line: String) {
        for text in [line + "\nrest\n", "rest\n" + line + "\r\n", "rest\n" + line] {
            let c = capture(text)
            #expect(!c.hasRecordedTimes, "\(text.debugDescription)")
            #expect(c.bytes == Array(text.utf8), "\(text.debugDescription)")
        }
    }

    @Test func aMarkIsOnlySeenAtTheStartOfALine() {
        for text in ["data: x: t=5\n", "x : t=5\n", "x\r: t=5\n", "x\r: t=5", ": t=5\r", "\u{FEFF}: t=5\nx"] {
            let c = capture(text)
            #expect(!c.hasRecordedTimes, "\(text.debugDescription)")
            #expect(c.bytes == Array(text.utf8), "\(text.debugDescription)")
        }
        #expect(capture("x\n: t=5\ny").chunks == [at(.zero, "x\n"), at(ms(5), "y")])
    }

    /// The time of a capture that is one mark before `x`, if it was a mark.
    func markTime(_ number: String) -> Duration? {
        let c = capture(": t=\(number)\nx")
        return c.hasRecordedTimes ? c.chunks.first?.time : nil
    }

    @Test func fractionsAreExact() {
        #expect(markTime("12.5") == .microseconds(12_500))
        #expect(markTime("12.50") == .microseconds(12_500))
        #expect(markTime("0.5") == .microseconds(500))
        #expect(markTime("007") == ms(7))
        #expect(markTime("1500.25") == .seconds(1) + .microseconds(500_250))
        #expect(markTime("0.000001") == .nanoseconds(1))
        #expect(markTime("0.000000000000001") == Duration(secondsComponent: 0, attosecondsComponent: 1))
        // Past the attosecond, decimals are dropped.
        #expect(markTime("0.0000000000000019") == Duration(secondsComponent: 0, attosecondsComponent: 1))
        #expect(markTime("2.99999999999999999999") == ms(3) - Duration(secondsComponent: 0, attosecondsComponent: 1))
        #expect(markTime("86400000") == .seconds(86_400))
    }

    @Test func timesThatGoBackAreClampedToThePreviousTime() {
        let c = capture(": t=10\na\n: t=5\nb\n: t=20\nc\n: t=19.999\nd")
        #expect(c.chunks == [at(ms(10), "a\n"), at(ms(10), "b\n"), at(ms(20), "c\n"), at(ms(20), "d")])
        // Before any mark the time is 0; a first mark cannot go earlier anyway.
        #expect(capture("a\n: t=0\nb").chunks == [at(.zero, "a\n"), at(.zero, "b")])
    }

    @Test func aNumberTooLargeForInt64MillisecondsIsNotAMark() {
        let huge = String(repeating: "9", count: 400)
        for number in [huge, "9223372036854775808", "9223372036854775808.5", "1" + String(repeating: "0", count: 19)] {
            let text = "a\n: t=\(number)\nb\n"
            let c = capture(text)
            #expect(!c.hasRecordedTimes, "\(number)")
            #expect(c.bytes == Array(text.utf8), "\(number)")
        }
        #expect(markTime("9223372036854775807") == .milliseconds(Int64.max))
        #expect(markTime("9223372036854775807.5") == .milliseconds(Int64.max) + .microseconds(500))
        // A long run of zeros is a small number, and long decimals are fine.
        #expect(markTime(String(repeating: "0", count: 400) + "42") == ms(42))
        #expect(markTime("1." + String(repeating: "0", count: 400)) == ms(1))
    }

    @Test func invalidUTF8PassesThroughUnchanged() {
        let first: [UInt8] = [0xFF, 0xFE, 0x0A]
        let second: [UInt8] = [0xC0, 0x80, 0xED, 0xA0, 0x80, 0x00, 0x0D, 0x0A]
        let third: [UInt8] = [0xF4, 0x90, 0x80, 0x0D]
        let bytes = first + Array(": t=3\n".utf8) + second + Array(": t=4\r\n".utf8) + third
        let c = ReplayCapture(bytes)
        #expect(c.chunks == [Chunk(time: .zero, bytes: first), Chunk(time: ms(3), bytes: second), Chunk(time: ms(4), bytes: third)])
        // Without marks too (plain text pieces).
        let plain: [UInt8] = [0xFF, 0x41, 0xC3, 0x28, 0xE2, 0x82, 0x0A, 0xF0, 0x9F, 0x98, 0x80, 0x80, 0x80]
        #expect(ReplayCapture(plain).bytes == plain)
    }

    @Test func aMarkInsideAnSSEEventSplitsItsBytesAcrossTwoTimes() {
        let c = capture("event: x\ndata: a\n: t=5\ndata: b\n\n")
        #expect(c.chunks == [at(.zero, "event: x\ndata: a\n"), at(ms(5), "data: b\n\n")])
        // The event is still one event when the chunks are parsed in turn.
        var parser = SSEParser()
        var events: [SSEEvent] = []
        for chunk in c.chunks {
            parser.feed(chunk.bytes) { if case .event(let e) = $0 { events.append(e) } }
        }
        parser.finish { _ in }
        #expect(events.map(\.type) == ["x"])
        #expect(events.map(\.dataString) == ["a\nb"])
    }

    @Test func megabytesWithAMarkOnEveryLineParseCorrectly() {
        // About 6 MB. Correctness only: a quadratic parser would take minutes here.
        let lines = 150_000
        var input: [UInt8] = []
        input.reserveCapacity(lines * 44)
        var expected: [Chunk] = []
        expected.reserveCapacity(lines)
        for i in 0..<lines {
            input += Array(": t=\(i).5\(i % 10 == 0 ? "\r" : "")\n".utf8)
            let line = Array("data: line \(i) ünïcödé \u{1F600}\n".utf8)
            input += line
            expected.append(Chunk(time: ms(Int64(i)) + .microseconds(500), bytes: line))
        }
        let c = ReplayCapture(input)
        #expect(c.hasRecordedTimes)
        #expect(c.chunks.count == lines)
        #expect(c.chunks == expected)
        #expect(c.duration == ms(Int64(lines - 1)) + .microseconds(500))
    }

    // MARK: - Random captures

    /// Whether `line` (without its LF) could be read as a mark, written independently
    /// of the parser and erring on the side of yes (any digits, an optional CR).
    static func couldBeAMark(_ line: [UInt8]) -> Bool {
        var body = line[...]
        if body.last == 0x0D { body = body.dropLast() }
        let prefix = Array(": t=".utf8)
        guard body.starts(with: prefix) else { return false }
        let number = body.dropFirst(prefix.count)
        let parts = number.split(separator: 0x2E, maxSplits: 1, omittingEmptySubsequences: false)
        return !number.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }
    }

    static let decoys = [
        ": ping", ": t=abc", ": t=", ":t=5", ": t=5 ", ": t=-5", ": t=1e3", ": t=5.", ": t=.5", " : t=5",
        ": T=5", "x: t=5", "data: {\"t\":5}", "", "", "event: delta",
    ].map { Array($0.utf8) }

    static let alphabet: [UInt8] = [0x61, 0x20, 0x3A, 0x74, 0x3D, 0x35, 0x2E, 0x0D, 0xC3, 0xA9, 0xFF, 0x80, 0x00, 0x7B]

    static func randomContentLine(_ rng: inout SeededGenerator) -> [UInt8] {
        var line: [UInt8]
        if Bool.random(using: &rng) {
            line = decoys.randomElement(using: &rng)!
        } else {
            line = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            if Int.random(in: 0..<3, using: &rng) == 0 { line = Array(": t=".utf8) + line }
        }
        return line
    }

    /// A mark's text and the time it means, computed from its parts (whole milliseconds
    /// and up to 15 decimals) rather than parsed.
    static func randomMark(_ rng: inout SeededGenerator) -> (text: [UInt8], time: Duration) {
        let whole = Int64.random(in: 0...(Bool.random(using: &rng) ? 100 : 10_000_000), using: &rng)
        var text = ": t=" + (Int.random(in: 0..<8, using: &rng) == 0 ? "00" : "") + "\(whole)"
        var time = Duration.milliseconds(whole)
        if Bool.random(using: &rng) {
            let count = Int.random(in: 1...15, using: &rng)
            let decimals = (0..<count).map { _ in Int64.random(in: 0...9, using: &rng) }
            text += "." + decimals.map { "\($0)" }.joined()
            var attoseconds: Int64 = 0
            for k in 0..<15 { attoseconds = attoseconds * 10 + (k < count ? decimals[k] : 0) }
            time += Duration(secondsComponent: 0, attosecondsComponent: attoseconds)
        }
        return (Array(text.utf8), time)
    }

    @Test func randomCapturesKeepTheirBytesAndTimes() {
        let seed = TestSeed.base(0x5EED_0007)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<400 {
            var input: [UInt8] = []
            var content: [UInt8] = []
            var expected: [Chunk] = []
            var current: [UInt8] = []
            var time = Duration.zero
            var marks = 0
            let lineCount = Int.random(in: 0...30, using: &rng)
            for index in 0..<lineCount {
                let isLast = index == lineCount - 1
                let end: [UInt8] = isLast && Bool.random(using: &rng) ? []
                    : Bool.random(using: &rng) ? [0x0D, 0x0A] : [0x0A]
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    let mark = Self.randomMark(&rng)
                    input += mark.text + end
                    if !current.isEmpty { expected.append(Chunk(time: time, bytes: current)) }
                    current = []
                    time = max(time, mark.time)
                    marks += 1
                } else {
                    var line = Self.randomContentLine(&rng)
                    if Self.couldBeAMark(line + end.dropLast()) { line.insert(0x78, at: 0) }
                    input += line + end
                    content += line + end
                    current += line + end
                }
            }
            if !current.isEmpty {
                expected.append(Chunk(time: time, bytes: current))
            } else if marks > 0 && time > (expected.last?.time ?? .zero) {
                expected.append(Chunk(time: time, bytes: []))
            }
            let c = ReplayCapture(input)
            let note = Comment(rawValue: "seed \(seed) iteration \(iteration): \(String(decoding: input, as: UTF8.self).debugDescription)")
            #expect(c.bytes == content, note)
            #expect(isNonDecreasing(c.chunks), note)
            #expect(c.hasRecordedTimes == (marks > 0), note)
            if marks > 0 {
                #expect(c.chunks == expected, note)
                #expect(c.chunks.dropLast().allSatisfy { !$0.bytes.isEmpty }, note)
            }
        }
    }

    // MARK: - Encoding

    func encodedTime(_ time: Duration) -> String {
        String(decoding: ReplayCapture.encode([Chunk(time: time, bytes: [])]), as: UTF8.self)
    }

    @Test func encodeWritesMillisecondsWithUpTo3Decimals() {
        #expect(encodedTime(.zero) == ": t=0\n")
        #expect(encodedTime(ms(40)) == ": t=40\n")
        #expect(encodedTime(.seconds(1.5)) == ": t=1500\n")
        #expect(encodedTime(.microseconds(12_500)) == ": t=12.5\n")
        #expect(encodedTime(.microseconds(1_001)) == ": t=1.001\n")
        #expect(encodedTime(.microseconds(61_000_100)) == ": t=61000.1\n")
        #expect(encodedTime(.nanoseconds(1_234_500)) == ": t=1.235\n")  // half up
        #expect(encodedTime(.nanoseconds(1_234_499)) == ": t=1.234\n")
        #expect(encodedTime(.nanoseconds(400)) == ": t=0\n")
        #expect(encodedTime(.nanoseconds(500)) == ": t=0.001\n")
        #expect(encodedTime(.nanoseconds(999_999_600)) == ": t=1000\n")  // rounds into the next second
        #expect(encodedTime(.seconds(-3)) == ": t=0\n")
        #expect(encodedTime(.seconds(Int64.max)) == ": t=9223372036854775807\n")
        let two = ReplayCapture.encode([at(.zero, "data: a\n\n"), at(.microseconds(12_500), "data: b\n\n")])
        #expect(two == Array(": t=0\ndata: a\n\n: t=12.5\ndata: b\n\n".utf8))
        #expect(ReplayCapture.encode([]).isEmpty)
    }

    static func randomSSEEvent(_ rng: inout SeededGenerator) -> [UInt8] {
        let end = Bool.random(using: &rng) ? "\r\n" : "\n"
        var text = Bool.random(using: &rng) ? "event: delta" + end : ""
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let words = ["é", "日本", "x", " ", "{\"t\":1}", ": t=5", "\u{1F600}", "data"]
            text += "data: " + (0..<Int.random(in: 0...6, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined() + end
        }
        return Array((text + end).utf8)
    }

    @Test func encodeRoundTripsSSEChunks() {
        let seed = TestSeed.base(0x5EED_0008)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<300 {
            var chunks: [Chunk] = []
            var time = Duration.zero
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                if Bool.random(using: &rng) { time += .microseconds(Int64.random(in: 0...5_000_000, using: &rng)) }
                chunks.append(Chunk(time: time, bytes: Self.randomSSEEvent(&rng)))
            }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                chunks.append(Chunk(time: time + .microseconds(Int64.random(in: 1...1000, using: &rng)), bytes: []))
            }
            let parsed = ReplayCapture(ReplayCapture.encode(chunks))
            let note = Comment(rawValue: "seed \(seed) iteration \(iteration)")
            #expect(parsed.chunks == chunks, note)
            #expect(parsed.hasRecordedTimes == !chunks.isEmpty, note)
        }
    }

    @Test func encodeKeepsTheBytesOfLinesWhateverTheTimes() {
        let seed = TestSeed.base(0x5EED_0009)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<300 {
            var chunks: [Chunk] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                // Any times: backwards, negative, below a microsecond.
                let time = Duration.nanoseconds(Int64.random(in: -1_000_000...50_000_000, using: &rng))
                var line = Self.randomContentLine(&rng)
                if Self.couldBeAMark(line) { line.insert(0x78, at: 0) }
                chunks.append(Chunk(time: time, bytes: line + [0x0A]))
            }
            let parsed = ReplayCapture(ReplayCapture.encode(chunks))
            let note = Comment(rawValue: "seed \(seed) iteration \(iteration)")
            #expect(parsed.bytes == chunks.flatMap(\.bytes), note)
            #expect(parsed.chunks.count == chunks.count, note)
            #expect(isNonDecreasing(parsed.chunks), note)
            #expect(parsed.chunks.first?.time ?? .zero >= .zero, note)
        }
    }

    // MARK: - Without marks

    @Test func layoutIsToldFromTheFirstNonBlankLine() {
        let cases: [(String, ReplayCapture.Layout)] = [
            ("data: x\n\n", .sse), ("event: e\n", .sse), ("id: 1\n", .sse), ("retry: 10\n", .sse),
            (": comment\n", .sse), ("\n\r\n\ndata: x", .sse), ("\u{FEFF}data: x\n\n", .sse),
            ("{\"a\":1}\n", .ndjson), ("  \n\t{\"a\":1}", .ndjson),
            ("  data: x\n", .text), ("dat", .text), ("hello", .text), ("[1]", .text), ("", .text), (" \n ", .text),
            ("data x\n", .text), ("Data: x", .text),
        ]
        for (text, layout) in cases {
            let found = Array(text.utf8).withUnsafeBufferPointer { ReplayCapture.layout($0) }
            #expect(found == layout, "\(text.debugDescription)")
        }
    }

    @Test func withoutMarksSSEIsSplitAfterEachEvent() {
        let c = capture("data: a\n\nevent: b\ndata: c\r\n\r\n\n: ping\n\nretry: 5\ndata: unterminated")
        #expect(!c.hasRecordedTimes)
        #expect(texts(c) == ["data: a\n\n", "event: b\ndata: c\r\n\r\n\n", ": ping\n\n", "retry: 5\ndata: unterminated"])
        #expect(c.chunks.map(\.time) == (0..<4).map { madeUp($0) })
        #expect(texts(capture("data: a\r\n\r\ndata: b\r\n\r\n")) == ["data: a\r\n\r\n", "data: b\r\n\r\n"])
        // Blank lines at the start go with the first event; a line of spaces is not blank.
        #expect(texts(capture("\n\r\ndata: a\n\ndata: b\n \ndata: c\n\n")) == ["\n\r\ndata: a\n\n", "data: b\n \ndata: c\n\n"])
    }

    @Test func withoutMarksNDJSONIsSplitAfterEachLine() {
        let c = capture("{\"a\":1}\n{\"b\":2}\r\n\n  \n{\"c\":3}")
        #expect(texts(c) == ["{\"a\":1}\n", "{\"b\":2}\r\n\n  \n", "{\"c\":3}"])
        #expect(c.chunks.map(\.time) == (0..<3).map { madeUp($0) })
        #expect(texts(capture("\n  {\"a\":1}\n{\"b\":2}\n")) == ["\n  {\"a\":1}\n", "{\"b\":2}\n"])
    }

    @Test func withoutMarksTextIsCutIntoPiecesOfAbout4Bytes() {
        #expect(texts(capture("abcdefghij")) == ["abcd", "efgh", "ij"])
        #expect(texts(capture("I am here and there")) == ["I am ", "here ", "and ", "ther", "e"])
        #expect(texts(capture("Hello world, how are you?")) == ["Hello ", "worl", "d, ", "how ", "are ", "you?"])
        #expect(texts(capture("line\nnext")) == ["line\n", "next"])
        // Scalars: 3-byte ones one at a time, 2-byte ones two, 4-byte ones one.
        #expect(texts(capture("日本語です")) == ["日", "本", "語", "で", "す"])
        #expect(texts(capture("привет")) == ["пр", "ив", "ет"])
        #expect(texts(capture("😀😀x")) == ["😀", "😀", "x"])
        #expect(texts(capture("ab😀cd")) == ["ab", "😀", "cd"])  // 2 and 6 bytes tie: the shorter
        #expect(texts(capture("abc😀de")) == ["abc", "😀", "de"])  // 3 is nearer 4 than 7
        let paced = capture("abcdefghijkl", rate: 10)
        #expect(paced.chunks.map(\.time) == [madeUp(0, 10), madeUp(1, 10), madeUp(2, 10)])
        #expect(capture("abcdefghijkl", rate: .infinity).chunks.map(\.time) == [.zero, .zero, .zero])
    }

    @Test func textPiecesNeverSplitAScalar() {
        let seed = TestSeed.base(0x5EED_000A)
        var rng = SeededGenerator(seed: seed)
        // Scalars of every length, and invalid bytes that can never join a neighbour
        // into a valid sequence (impossible leads, stray continuations).
        let valid = ["a", "b", " ", "\n", "\t", ".", "é", "ß", "€", "日", "\u{FFFD}", "😀", "\u{10FFFF}"].map { Array($0.utf8) }
        let invalid: [[UInt8]] = [[0xFF], [0xFE], [0xC0], [0xC1], [0xF5], [0x80], [0xBF]]
        for iteration in 0..<500 {
            let withInvalid = iteration % 2 == 1
            let rate = [1.0, 60, 1000][iteration % 3]
            var elements: [[UInt8]] = []
            for _ in 0..<Int.random(in: 1...60, using: &rng) {
                let pool = withInvalid && Int.random(in: 0..<4, using: &rng) == 0 ? invalid : valid
                elements.append(pool.randomElement(using: &rng)!)
            }
            var input: [UInt8] = []
            var boundaries: Set<Int> = [0]
            for element in elements {
                input += element
                boundaries.insert(input.count)
            }
            let c = ReplayCapture(input, tokensPerSecond: rate)
            let note = Comment(rawValue: "seed \(seed) iteration \(iteration)")
            #expect(ReplayCapture.Layout.text == input.withUnsafeBufferPointer { ReplayCapture.layout($0) }, note)
            #expect(c.bytes == input, note)
            #expect(!c.hasRecordedTimes, note)
            #expect(c.chunks.map(\.time) == c.chunks.indices.map { madeUp($0, rate) }, note)
            var offset = 0
            for chunk in c.chunks {
                #expect((1...7).contains(chunk.bytes.count), note)
                offset += chunk.bytes.count
                #expect(boundaries.contains(offset), "\(note.rawValue): cut at \(offset)")
                if !withInvalid {
                    #expect(Array(String(decoding: chunk.bytes, as: UTF8.self).utf8) == chunk.bytes, note)
                }
            }
        }
    }

    // MARK: - A real capture

    @Test func theCRLFFixtureSplitsIntoOneChunkPerEvent() {
        let bytes = Fixtures.data("sse/music.thinking-tool.crlf.sse")
        let c = ReplayCapture(bytes)
        #expect(!c.hasRecordedTimes)
        let eventLines = texts(c).joined().split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("event:") }.count
        #expect(eventLines > 100)
        #expect(c.chunks.count == eventLines)
        #expect(c.bytes == bytes)
        for (k, chunk) in c.chunks.enumerated() {
            #expect(chunk.bytes.starts(with: Array("event: ".utf8)), "chunk \(k)")
            #expect(chunk.bytes.suffix(4) == [0x0D, 0x0A, 0x0D, 0x0A], "chunk \(k)")
            #expect(chunk.time == madeUp(k), "chunk \(k)")
        }
        // Given recorded times, it round-trips through encode.
        let timed = c.chunks.enumerated().map { Chunk(time: .microseconds(Int64($0.offset) * 16_667), bytes: $0.element.bytes) }
        let replayed = ReplayCapture(ReplayCapture.encode(timed))
        #expect(replayed.hasRecordedTimes)
        #expect(replayed.chunks == timed)
    }
}
