/// A recorded stream with the time each of its bytes arrived, for replaying a capture
/// at the pace it was recorded.
///
/// A capture is an SSE stream, NDJSON or plain text in which a comment line of the
/// exact form `: t=<ms>` says that the bytes after that line arrived `<ms>`
/// milliseconds after the start:
///
/// ```
/// : t=0
/// event: message_start
/// data: {"type":"message_start"}
///
/// : t=412.5
/// event: content_block_delta
/// data: {"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}
///
/// ```
///
/// The rules:
///
/// - A mark is the bytes `: t=`, a number, and a line end (LF or CR LF) or the end of
///   the input, starting at byte 0 or right after an LF (so a BOM before a first mark
///   hides it). Anything else is content and is handed on untouched: `: ping`,
///   `: t=abc`, `: t=`, `:t=5`, `: t=5 `, `: t=-5`, `: t=1e3`, `: t=5.`, `: t=.5`, a
///   `: t=5` that does not start a line, and one that ends in a lone CR.
/// - The number is decimal ASCII digits with an optional `.` and at least one digit
///   after it: `12`, `012`, `12.5`. Fractions are exact down to the attosecond (15
///   decimals of a millisecond); further decimals are dropped. A number whose whole
///   part does not fit an `Int64` (more than about 292 million years) is not a mark.
/// - Mark lines, line end included, are removed from the bytes handed on.
/// - Bytes before the first mark arrive at time 0. A time earlier than the one before
///   it is clamped to the one before it, so times never go back.
/// - Bytes are never interpreted otherwise: invalid UTF-8, NUL and lone CRs pass
///   through unchanged.
///
/// A capture without any mark gets made-up times; see ``init(_:tokensPerSecond:)``.
public struct ReplayCapture: Sendable, Equatable {
    /// Bytes that arrived together, and when.
    public struct Chunk: Sendable, Equatable {
        /// When the bytes arrived, from the start of the stream.
        public var time: Duration
        /// The bytes.
        public var bytes: [UInt8]

        /// Makes a chunk of `bytes` that arrived at `time`.
        ///
        /// - Complexity: O(1).
        public init(time: Duration, bytes: [UInt8]) {
            self.time = time
            self.bytes = bytes
        }
    }

    /// The chunks in order, times non-decreasing; their bytes concatenated are the
    /// capture without its mark lines.
    ///
    /// Every chunk has bytes except possibly the last: when a capture ends with a mark
    /// later than the last chunk (the stream closed then), that mark's time is kept as
    /// a last, empty chunk so that ``duration`` includes it. Marks with no bytes
    /// between them leave only the later one.
    public private(set) var chunks: [Chunk]

    /// Whether the capture carried `: t=` marks (else the times were made up at
    /// `tokensPerSecond`).
    public private(set) var hasRecordedTimes: Bool

    /// Parses `bytes`.
    ///
    /// With marks, a chunk is the bytes between two marks (or before the first, at
    /// time 0, or after the last), and nothing is split further.
    ///
    /// Without any mark, the bytes are cut the way a server would have sent them:
    ///
    /// - an SSE stream (the first non-blank line, after an optional BOM, starts with
    ///   `event:`, `data:`, `id:`, `retry:` or `:`) after each event: after a blank
    ///   line (LF or CR LF). Further blank lines stay with the event before them, and
    ///   blank lines at the start with the first event;
    /// - NDJSON (the first byte that is not a space, tab, CR or LF is `{`) after each
    ///   line. Blank lines stay with the line before them (at the start, with the first);
    /// - anything else (plain text) into pieces of about 4 bytes: a piece ends after a
    ///   space, tab or LF when that makes it 2 to 6 bytes long (the length nearest 4,
    ///   the shorter on a tie), else at the scalar boundary nearest 4 bytes (the
    ///   earlier on a tie). A valid UTF-8 sequence is never split; each invalid byte
    ///   counts as a scalar of its own. Once 4 bytes or fewer are left, they are the
    ///   last piece. A piece is 1 to 7 bytes long.
    ///
    /// Chunk `k` (from 0) is then due at `Duration.seconds(Double(k) / tokensPerSecond)`.
    ///
    /// Empty input has no chunks.
    ///
    /// - Parameter bytes: The capture.
    /// - Parameter tokensPerSecond: The pace of made-up times, in chunks a second; it
    ///   must be greater than 0 (a precondition), and `.infinity` puts every chunk at
    ///   time 0. Ignored when the capture has marks.
    /// - Complexity: O(n) in the bytes.
    public init(_ bytes: [UInt8], tokensPerSecond: Double = 60) {
        precondition(tokensPerSecond > 0, "ReplayCapture: tokensPerSecond must be greater than 0")
        let parsed = bytes.withUnsafeBufferPointer { Self.parseMarks($0) }
        if parsed.hasMarks {
            chunks = parsed.chunks
            hasRecordedTimes = true
            return
        }
        hasRecordedTimes = false
        chunks = []
        let ranges = bytes.withUnsafeBufferPointer { Self.split($0) }
        chunks.reserveCapacity(ranges.count)
        for (k, range) in ranges.enumerated() {
            chunks.append(Chunk(time: Self.madeUpTime(k, tokensPerSecond), bytes: Array(bytes[range])))
        }
    }

    /// Makes a capture of `chunks` as they are (times not checked or clamped).
    ///
    /// - Complexity: O(1).
    public init(chunks: [Chunk], hasRecordedTimes: Bool = true) {
        self.chunks = chunks
        self.hasRecordedTimes = hasRecordedTimes
    }

    /// The total duration (the last chunk's time; zero without chunks).
    ///
    /// - Complexity: O(1).
    public var duration: Duration { chunks.last?.time ?? .zero }

    /// The capture's bytes without its mark lines: the chunks' bytes concatenated.
    ///
    /// - Complexity: O(n) in the bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(chunks.reduce(0) { $0 + $1.bytes.count })
        for chunk in chunks { out.append(contentsOf: chunk.bytes) }
        return out
    }

    /// Writes a capture: each chunk's bytes after a `: t=<ms>` line (LF-terminated).
    ///
    /// The time is written in milliseconds, rounded to the nearest microsecond (half
    /// up): as an integer when whole (`: t=40`), else with up to 3 decimals and no
    /// trailing zeros (`: t=12.5`, `: t=1.235`). A negative time is written as 0 and a
    /// time past `Int64.max` milliseconds as `Int64.max`, so every line written is a mark.
    ///
    /// `ReplayCapture(ReplayCapture.encode(c)).chunks == c` exactly when
    ///
    /// - every chunk but the last ends with an LF (a mark is only seen at a line start),
    ///   which holds for SSE chunks that each end with a blank line and for NDJSON lines;
    /// - no chunk's bytes contain a mark line of their own;
    /// - the times are non-negative, non-decreasing and whole microseconds;
    /// - every chunk has bytes, except that the last may be empty when its time is later
    ///   than the one before it (with no chunk before it, later than 0).
    ///
    /// Otherwise the bytes still round-trip, as long as the first two conditions hold
    /// (`ReplayCapture(encode(c)).bytes` is `c`'s bytes concatenated).
    ///
    /// - Complexity: O(n) in the bytes plus the number of chunks.
    public static func encode(_ chunks: [Chunk]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(chunks.reduce(0) { $0 + $1.bytes.count + 16 })
        for chunk in chunks {
            out.append(0x3A)  // ": t="
            out.append(0x20)
            out.append(0x74)
            out.append(0x3D)
            appendMilliseconds(chunk.time, to: &out)
            out.append(0x0A)
            out.append(contentsOf: chunk.bytes)
        }
        return out
    }

    // MARK: - Marks

    private static let attosecondsPerSecond: Int64 = 1_000_000_000_000_000_000
    private static let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    /// The latest time a mark can say.
    private static let largest = Duration.milliseconds(Int64.max)

    /// Splits `b` at its marks. Linear: each byte is looked at a bounded number of times.
    private static func parseMarks(_ b: UnsafeBufferPointer<UInt8>) -> (chunks: [Chunk], hasMarks: Bool) {
        let n = b.count
        var chunks: [Chunk] = []
        var hasMarks = false
        var segmentStart = 0
        var segmentTime = Duration.zero
        var lineStart = 0
        while lineStart < n {
            if let (time, end) = mark(b, at: lineStart) {
                if lineStart > segmentStart {
                    chunks.append(Chunk(time: segmentTime, bytes: Array(b[segmentStart..<lineStart])))
                }
                hasMarks = true
                segmentTime = max(time, segmentTime)
                segmentStart = end
                lineStart = end
                continue
            }
            lineStart = lineEnd(b, from: lineStart)
        }
        if n > segmentStart {
            chunks.append(Chunk(time: segmentTime, bytes: Array(b[segmentStart..<n])))
        } else if hasMarks && segmentTime > (chunks.last?.time ?? .zero) {
            chunks.append(Chunk(time: segmentTime, bytes: []))
        }
        return (chunks, hasMarks)
    }

    /// The index after the next LF at or after `i`, or `b.count`.
    private static func lineEnd(_ b: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
        var j = i
        let n = b.count
        while j < n {
            if b[j] == 0x0A { return j + 1 }
            j += 1
        }
        return n
    }

    /// The mark starting at `s` (a line start), if the line is one: its time and the
    /// index after its line end.
    private static func mark(_ b: UnsafeBufferPointer<UInt8>, at s: Int) -> (Duration, Int)? {
        let n = b.count
        guard s + 4 < n, b[s] == 0x3A, b[s + 1] == 0x20, b[s + 2] == 0x74, b[s + 3] == 0x3D else { return nil }
        var p = s + 4
        var whole: Int64 = 0
        var digits = 0
        var overflow = false
        while p < n, b[p] &- 0x30 < 10 {
            if !overflow {
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(b[p] &- 0x30))
                overflow = o1 || o2
                whole = a
            }
            digits += 1
            p += 1
        }
        guard digits > 0, !overflow else { return nil }
        // The fraction in attoseconds: the first 15 decimals of a millisecond.
        var fraction: Int64 = 0
        if p < n && b[p] == 0x2E {
            p += 1
            var scale = attosecondsPerMillisecond
            var fractionDigits = 0
            while p < n, b[p] &- 0x30 < 10 {
                if scale > 1 {
                    scale /= 10
                    fraction += Int64(b[p] &- 0x30) * scale
                }
                fractionDigits += 1
                p += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        let end: Int
        if p == n {
            end = n
        } else if b[p] == 0x0A {
            end = p + 1
        } else if b[p] == 0x0D && p + 1 < n && b[p + 1] == 0x0A {
            end = p + 2
        } else {
            return nil
        }
        let time = Duration(
            secondsComponent: whole / 1000,
            attosecondsComponent: (whole % 1000) * attosecondsPerMillisecond + fraction)
        return (time, end)
    }

    /// Appends `time` in milliseconds: an integer, or up to 3 decimals.
    private static func appendMilliseconds(_ time: Duration, to out: inout [UInt8]) {
        let clamped = time < .zero ? .zero : min(time, largest)
        var (seconds, attoseconds) = clamped.components
        // Round to the nearest microsecond, half up (never past `largest`, itself whole).
        attoseconds += 500_000_000_000
        if attoseconds >= attosecondsPerSecond {
            attoseconds -= attosecondsPerSecond
            seconds += 1
        }
        let microseconds = attoseconds / 1_000_000_000_000  // within the second, 0..<1_000_000
        let millisecondsInSecond = microseconds / 1000
        var decimals = microseconds % 1000
        if seconds > 0 {
            appendDecimal(seconds, to: &out)
            appendDecimal(millisecondsInSecond, width: 3, to: &out)
        } else {
            appendDecimal(millisecondsInSecond, to: &out)
        }
        if decimals != 0 {
            var width = 3
            while decimals % 10 == 0 {
                decimals /= 10
                width -= 1
            }
            out.append(0x2E)
            appendDecimal(decimals, width: width, to: &out)
        }
    }

    /// Appends the decimal digits of `value` (non-negative), zero-padded to `width`.
    private static func appendDecimal(_ value: Int64, width: Int = 1, to out: inout [UInt8]) {
        // Least significant first, then reversed in place: no allocation.
        let start = out.count
        var v = value
        repeat {
            out.append(UInt8(v % 10) + 0x30)
            v /= 10
        } while v > 0
        while out.count - start < width { out.append(0x30) }
        var low = start
        var high = out.count - 1
        while low < high {
            out.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    // MARK: - Made-up times

    /// How a capture without marks is cut into chunks.
    enum Layout: Equatable {
        case sse, ndjson, text
    }

    /// Chunk `k`'s time at `rate` chunks a second (clamped far below Duration's limit).
    static func madeUpTime(_ k: Int, _ rate: Double) -> Duration {
        .seconds(min(Double(k) / rate, 9e15))
    }

    /// What `b` looks like, from its first non-blank byte.
    static func layout(_ b: UnsafeBufferPointer<UInt8>) -> Layout {
        let n = b.count
        var p = 0
        if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { p = 3 }
        var lineStart = p
        while p < n && (b[p] == 0x20 || b[p] == 0x09 || b[p] == 0x0D || b[p] == 0x0A) {
            if b[p] == 0x0A || b[p] == 0x0D { lineStart = p + 1 }
            p += 1
        }
        if p == n { return .text }
        if b[p] == 0x7B { return .ndjson }
        guard p == lineStart else { return .text }
        for field in sseFieldStarts where hasPrefix(b, at: p, field) { return .sse }
        return .text
    }

    private static let sseFieldStarts: [[UInt8]] = ["event:", "data:", "id:", "retry:", ":"].map { Array($0.utf8) }

    private static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, at p: Int, _ prefix: [UInt8]) -> Bool {
        guard b.count - p >= prefix.count else { return false }
        for (k, byte) in prefix.enumerated() where b[p + k] != byte { return false }
        return true
    }

    /// The chunks of a capture without marks, as ranges of `b`.
    static func split(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        switch layout(b) {
        case .sse: return splitLines(b, ndjson: false)
        case .ndjson: return splitLines(b, ndjson: true)
        case .text: return splitText(b)
        }
    }

    /// SSE after each blank line, NDJSON after each line; blank lines join the chunk
    /// before them, so a new chunk starts only at a line with content.
    private static func splitLines(_ b: UnsafeBufferPointer<UInt8>, ndjson: Bool) -> [Range<Int>] {
        let n = b.count
        var ranges: [Range<Int>] = []
        var chunkStart = 0
        var chunkHasContent = false
        var boundary = false  // a chunk may end before the next line with content
        var s = 0
        while s < n {
            let e = lineEnd(b, from: s)
            let terminated = b[e - 1] == 0x0A
            let blank: Bool
            if ndjson {
                var p = s
                while p < e && (b[p] == 0x20 || b[p] == 0x09 || b[p] == 0x0D || b[p] == 0x0A) { p += 1 }
                blank = p == e
            } else {
                blank = terminated && (e - s == 1 || (e - s == 2 && b[s] == 0x0D))
            }
            if blank {
                if !ndjson && chunkHasContent { boundary = true }
            } else {
                if boundary && chunkHasContent {
                    ranges.append(chunkStart..<s)
                    chunkStart = s
                    boundary = false
                }
                chunkHasContent = true
                if ndjson && terminated { boundary = true }
            }
            s = e
        }
        if n > chunkStart { ranges.append(chunkStart..<n) }
        return ranges
    }

    /// Plain text in pieces of about 4 bytes (see ``init(_:tokensPerSecond:)``).
    private static func splitText(_ b: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let n = b.count
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(n / 4 + 1)
        var i = 0
        while i < n {
            let target = i + 4
            if n <= target {
                ranges.append(i..<n)
                break
            }
            // After a space, tab or LF, 2 to 6 bytes in, nearest 4 (the shorter on a tie).
            // Those bytes are ASCII, so always a scalar of their own.
            var cut = -1
            for d in 0..<5 {
                let c = target + (d + 1) / 2 * (d % 2 == 1 ? -1 : 1)  // 4, 3, 5, 2, 6 bytes
                guard c <= n else { continue }
                let byte = b[c - 1]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A {
                    cut = c
                    break
                }
            }
            if cut < 0 {
                // The scalar boundaries around `target`: before < target <= after.
                var before = i
                var after = i
                while after < target {
                    before = after
                    after += scalarLength(b, at: after)
                }
                cut = (before > i && target - before <= after - target) ? before : after
            }
            ranges.append(i..<cut)
            i = cut
        }
        return ranges
    }

    /// The length of the valid UTF-8 sequence starting at `p`, or 1 for an invalid byte.
    private static func scalarLength(_ b: UnsafeBufferPointer<UInt8>, at p: Int) -> Int {
        let n = b.count
        let lead = b[p]
        func within(_ q: Int, _ low: UInt8, _ high: UInt8) -> Bool {
            q < n && b[q] >= low && b[q] <= high
        }
        let second: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: second = 0x80...0xBF; length = 2
        case 0xE0: second = 0xA0...0xBF; length = 3
        case 0xE1...0xEC, 0xEE...0xEF: second = 0x80...0xBF; length = 3
        case 0xED: second = 0x80...0x9F; length = 3
        case 0xF0: second = 0x90...0xBF; length = 4
        case 0xF1...0xF3: second = 0x80...0xBF; length = 4
        case 0xF4: second = 0x80...0x8F; length = 4
        default: return 1
        }
        guard within(p + 1, second.lowerBound, second.upperBound) else { return 1 }
        for q in (p + 2)..<(p + length) where !within(q, 0x80, 0xBF) { return 1 }
        return length
    }
}
