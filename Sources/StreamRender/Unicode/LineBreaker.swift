/// A place where a line may (soft) or must (hard) end.
public struct LineBreakOpportunity: Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 offset of the break: the line ends before the byte at this offset.
    public var offset: Int
    /// A mandatory break (after LF, CR, CR LF, VT, FF, NEL, LS, PS).
    public var isHard: Bool

    public init(offset: Int, isHard: Bool) {
        self.offset = offset
        self.isHard = isHard
    }

    public var description: String { "\(offset)\(isHard ? "!" : "÷")" }
}

/// Finds line-break opportunities (UAX #14, ICU's default line rules).
///
/// Text that is ASCII, with at most the non-ASCII characters answers use most
/// (Latin-1, Greek and Cyrillic, dashes, quotes, arrows and symbols, most emoji and
/// their sequences, CJK ideographs, kana and Hangul: ``ASCIILineBreak/covers(_:)``),
/// is handled without ICU by the same rules restricted to the classes those have; it
/// gives exactly ICU's answer (differentially tested). Anything else goes through one
/// reused ICU line iterator.
///
/// Not thread-safe: one breaker per owner.
public final class LineBreaker {
    private let breaker = ICUBreaker(.line)
    /// When false, ICU answers for ASCII too (tests and benchmarks compare the two).
    @_spi(Benchmarks)
    public var usesASCIIFastPath = true

    public init() {}

    /// Calls `body` with each opportunity of `text` (valid UTF-8), in order: every
    /// offset after 0 where a line may end, including `text.count` (the end of text
    /// always allows a break). `isHard` marks mandatory breaks.
    ///
    /// - Complexity: O(n) in the bytes of `text`.
    public func forEachOpportunity(in text: UnsafeBufferPointer<UInt8>, _ body: (_ offset: Int, _ isHard: Bool) -> Void) {
        scanOpportunities(in: text, body)
    }

    /// ``forEachOpportunity(in:_:)``, telling whether the fast path (``ASCIILineBreak``)
    /// found them (true) or ICU.
    @discardableResult
    func scanOpportunities(in text: UnsafeBufferPointer<UInt8>, _ body: (_ offset: Int, _ isHard: Bool) -> Void) -> Bool {
        if text.isEmpty { return true }
        if usesASCIIFastPath && ASCIILineBreak.forEachOpportunityIfCovered(in: text, body) { return true }
        breaker.run(text)
        for k in breaker.boundaries.indices {
            body(breaker.boundaries[k], breaker.hard[k])
        }
        return false
    }

    /// The opportunities of `text`, in order.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    public func opportunities(in text: String) -> [LineBreakOpportunity] {
        var result: [LineBreakOpportunity] = []
        var copy = text
        copy.withUTF8 { buf in
            forEachOpportunity(in: buf) { result.append(LineBreakOpportunity(offset: $0, isHard: $1)) }
        }
        return result
    }
}

/// UAX #14 restricted to the line-break classes of ASCII characters and the
/// non-ASCII characters of ``covers(_:)``.
enum ASCIILineBreak {
    enum Class: UInt8 {
        case al, nu, sp, ex, qu, pr, po, op, cp, cl, `is`, hy, sy, ba, bk, cr, lf, cm
        /// Em dashes (LB17), ellipses (LB22), ideographs, kana and most emoji (ID, LB23a),
        /// Hangul syllables (LB27).
        case b2, `in`, id, h2, h3
        /// Emoji bases and modifiers (skin tones), the zero width joiner and regional
        /// indicators (LB8a, LB30a, LB30b): emoji sequences.
        case eb, em, zwj, ri
        /// Glue (LB12, LB12a): the no-break space and its kin, the combining double marks.
        case gl
        /// An opening bracket of East Asian width (`「（【`): OP, but not LB30's (a letter
        /// or digit before it does not hold it). Nonstarters (`々・：；`, LB16, LB21).
        case ow, ns
        /// Not covered: a character of ``table`` ICU decides (never reaches the rules).
        case uncovered
    }

    /// Whether the text is ASCII but for characters of classes the fast path implements:
    /// Latin-1 letters, CJK ideographs and kana (ID; the small ones and `ー` NS), Hangul
    /// syllables (H2, H3) and CJK punctuation (`、。，」）` CL, `「（` OW, `・：` NS,
    /// `！？` EX), by hand; and
    /// from ``ranges`` (made from ICU's data) Latin-1 signs, Greek and Cyrillic,
    /// Armenian, Hebrew (``hebrewLetterStandsApart(_:at:length:_:)``), Arabic, the
    /// scripts of India and Sri Lanka, combining
    /// accents, dashes, quotes, arrows, symbols, emoji, skin tones, joiners and regional
    /// indicators. Em dashes alone sent most
    /// paragraphs of LLM answers to ICU, a degree sign or an emoji the rest.
    /// Continuation bytes are checked as the lead's.
    ///
    /// - Complexity: O(n) in the bytes.
    static func covers(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        table.withUnsafeBufferPointer { covers(text, table: $0) }
    }

    /// ``covers(_:)`` with ``table`` read once by the caller.
    static func covers(_ text: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<Class>) -> Bool {
        var k = 0
        let n = text.count
        while k < n {
            if text[k] < 0x80 {
                k += 1
                continue
            }
            guard let (_, length) = nonASCIIClass(text, at: k, table) else { return false }
            if text[k] == 0xD7 && !hebrewLetterStandsApart(text, at: k, length: length, table) { return false }
            k += length
        }
        return true
    }

    /// Whether the character at `k` (of `length` bytes, led by 0xD7: U+05C0...U+05FF)
    /// is not a Hebrew letter, or is one whose breaks are AL's: ICU's rules keep a
    /// Hebrew letter's hyphen or break-after with what follows (LB21a, `HL (HY | BA) ×`)
    /// and a solidus with the letter after it (LB21b), and ICU-8151 reads a hyphen
    /// before a letter; a letter with a hyphen, break-after or solidus beside it (marks
    /// between) is left to ICU.
    static func hebrewLetterStandsApart(_ text: UnsafeBufferPointer<UInt8>, at k: Int, length: Int,
                                        _ table: UnsafeBufferPointer<Class>) -> Bool {
        // U+05D0...U+05F2 (the letters; U+05EB...U+05EE are unassigned, not covered).
        guard length == 2, text[k + 1] >= 0x90, text[k + 1] <= 0xB2 else { return true }
        @inline(__always) func isJoining(_ c: Class?) -> Bool { c == .hy || c == .ba || c == .sy }
        var after = k + length
        while after < text.count {
            let (c, step) = classAndLength(text, after, table)
            if c != .cm { if c == .hy || c == .ba { return false }; break }
            after += step
        }
        var before = k
        while before > 0 {
            var start = before - 1
            while start > 0 && text[start] & 0xC0 == 0x80 { start -= 1 }
            let c = classAndLength(text, start, table).0
            if c != .cm { return !isJoining(c) }
            before = start
        }
        return true
    }

    /// A run of code points of one class (``ranges``).
    struct ClassRange {
        var first: UInt32
        var last: UInt32
        var lineClass: Class

        init(_ first: UInt32, _ last: UInt32, _ lineClass: Class) {
            self.first = first
            self.last = last
            self.lineClass = lineClass
        }
    }

    /// Where `scalar` is in ``table``: ASCII and U+0080...U+0DFF as themselves, then the
    /// other blocks of ``ranges`` one after the other.
    @inline(__always)
    static func tableIndex(_ scalar: UInt32) -> Int? {
        switch scalar {
        case 0...0xDFF: return Int(scalar)
        case 0x2000...0x2BFF: return Int(scalar - 0x2000 + 0xE00)
        case 0xFE00...0xFE0F: return Int(scalar - 0xFE00 + 0x1A00)
        case 0x1F300...0x1FAFF: return Int(scalar - 0x1F300 + 0x1A10)
        case 0x1F1E6...0x1F1FF: return Int(scalar - 0x1F1E6 + 0x2210)
        default: return nil
        }
    }

    /// The class and length of the covered character at `k` (a non-ASCII lead byte).
    /// Curly quotes are plain QU as in ICU 72 (Unicode 15.0); Unicode 15.1's LB15a/b
    /// (ICU 74) tell opening from closing ones, which the differential test would
    /// catch on a newer ICU.
    @inline(__always)
    static func nonASCIIClass(_ text: UnsafeBufferPointer<UInt8>, at k: Int,
                              _ table: UnsafeBufferPointer<Class>) -> (Class, Int)? {
        let n = text.count
        let b0 = text[k]
        if b0 >= 0xC2 && b0 <= 0xDF, k + 1 < n, text[k + 1] & 0xC0 == 0x80 {
            // U+0080...U+07FF (Latin-1, Greek, Cyrillic, Armenian, Hebrew, Arabic...):
            // ``table`` holds them as themselves. (U+0800...U+0DFF, the scripts of India,
            // rarer, are read out of line, by ``otherClass(_:at:_:)``.)
            let c = table[Int(b0 & 0x1F) << 6 | Int(text[k + 1] & 0x3F)]
            return c == .uncovered ? nil : (c, 2)
        }
        if b0 >= 0xE1 && b0 <= 0xEF, k + 2 < n, text[k + 1] & 0xC0 == 0x80, text[k + 2] & 0xC0 == 0x80 {
            let scalar = UInt32(b0 & 0x0F) << 12 | UInt32(text[k + 1] & 0x3F) << 6 | UInt32(text[k + 2] & 0x3F)
            switch scalar {
            // CJK punctuation and fullwidth forms, by hand (ICU's classes: the
            // differential tests check each): Japanese and Chinese prose left the fast
            // path at its first bracket or fullwidth colon.
            case 0x3001, 0x3002, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F,
                 0xFF09, 0xFF0C, 0xFF0E, 0xFF3D, 0xFF5D, 0xFF60, 0xFF61, 0xFF63, 0xFF64:
                return (.cl, 3)
            case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D, 0xFF08, 0xFF3B, 0xFF5B,
                 0xFF5F, 0xFF62:
                return (.ow, 3)
            // (The prolonged sound mark and the small kana and katakana are CJ, which
            // ICU's default rules read as NS, UAX #14's strict reading: one `ー` in a
            // paragraph of Japanese sent it to ICU.)
            case 0x3005, 0x301C, 0x303B, 0x309D, 0x309E, 0x30FB, 0x30FC, 0x30FD, 0x30FE, 0x31F0...0x31FF, 0xFF1A, 0xFF1B:
                return (.ns, 3)
            case 0xFF01, 0xFF1F: return (.ex, 3)
            case 0x3041...0x3096, 0x30A1...0x30FA:
                switch scalar {
                case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
                     0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6:
                    return (.ns, 3)
                default: return (.id, 3)
                }
            case 0x4E00...0x9FFF: return (.id, 3)
            case 0xAC00...0xD7A3: return ((scalar - 0xAC00) % 28 == 0 ? .h2 : .h3, 3)
            default:
                // (No overlong form starts with these lead bytes; a surrogate has no index.)
                guard let index = tableIndex(scalar), table[index] != .uncovered else { return nil }
                return (table[index], 3)
            }
        }
        if b0 == 0xF0, k + 3 < n, text[k + 1] == 0x9F, text[k + 2] & 0xC0 == 0x80, text[k + 3] & 0xC0 == 0x80 {
            // U+1F000...U+1FFFF (emoji, regional indicators): ``table`` by ``tableIndex(_:)``.
            let scalar = 0x1F000 | UInt32(text[k + 2] & 0x3F) << 6 | UInt32(text[k + 3] & 0x3F)
            guard let index = tableIndex(scalar), table[index] != .uncovered else { return nil }
            return (table[index], 4)
        }
        return otherClass(text, at: k, table)
    }

    /// The class and length of a character ``nonASCIIClass(_:at:_:)`` has no branch for,
    /// by its code point (a truncated or malformed sequence: none). Kept out of line:
    /// the branches above are the common case, inlined in each caller.
    @inline(never)
    static func otherClass(_ text: UnsafeBufferPointer<UInt8>, at k: Int,
                           _ table: UnsafeBufferPointer<Class>) -> (Class, Int)? {
        let n = text.count
        let b0 = text[k]
        let length: Int
        var scalar: UInt32
        switch b0 {
        case 0xC2...0xDF: length = 2; scalar = UInt32(b0 & 0x1F)
        case 0xE0...0xEF: length = 3; scalar = UInt32(b0 & 0x0F)
        case 0xF0...0xF4: length = 4; scalar = UInt32(b0 & 0x07)
        default: return nil
        }
        guard k + length <= n else { return nil }
        for j in 1..<length {
            let b = text[k + j]
            guard b & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(b & 0x3F)
        }
        // An overlong form is not the character it encodes (ICU reads U+FFFD).
        guard scalar >= (length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000) else { return nil }
        guard let index = tableIndex(scalar), table[index] != .uncovered else { return nil }
        return (table[index], length)
    }

    /// The class of the character starting at `k`, or nil at a continuation byte
    /// (inside a character: no opportunity, no state). `table` is ``table``, read
    /// once by the caller (each read of the global checked its initialisation).
    @inline(__always)
    static func classAt(_ text: UnsafeBufferPointer<UInt8>, _ k: Int, _ table: UnsafeBufferPointer<Class>) -> Class? {
        classAndLength(text, k, table).0
    }

    /// ``classAt(_:_:_:)`` and the bytes to the next character to read (1 past a byte
    /// that is not a covered character's first).
    @inline(__always)
    static func classAndLength(_ text: UnsafeBufferPointer<UInt8>, _ k: Int,
                               _ table: UnsafeBufferPointer<Class>) -> (Class?, Int) {
        let b = text[k]
        if b < 0x80 { return (table[Int(b)], 1) }
        if b & 0xC0 == 0x80 { return (nil, 1) }
        guard let (c, length) = nonASCIIClass(text, at: k, table) else { return (.al, 1) }
        return (c, length)
    }

    /// The class of each character the fast path covers: LineBreak.txt for
    /// U+0000...U+007F, then ``ranges`` at ``tableIndex(_:)`` (``Class/uncovered``
    /// elsewhere).
    static let table: [Class] = {
        var t = [Class](repeating: .uncovered, count: 0x222A)
        for c in 0..<0x80 { t[c] = .al }
        // (Classes change between Unicode versions: another ICU decides them itself.)
        if ICUInfo.implementsUnicode(rangesUnicodeVersion) {
            for range in ranges {
                for scalar in range.first...range.last { t[tableIndex(scalar)!] = range.lineClass }
            }
        }
        for c in 0..<0x20 { t[c] = .cm }
        t[0x09] = .ba; t[0x0A] = .lf; t[0x0B] = .bk; t[0x0C] = .bk; t[0x0D] = .cr
        t[0x20] = .sp; t[0x21] = .ex; t[0x22] = .qu; t[0x24] = .pr; t[0x25] = .po
        t[0x27] = .qu; t[0x28] = .op; t[0x29] = .cp; t[0x2B] = .pr; t[0x2C] = .is
        t[0x2D] = .hy; t[0x2E] = .is; t[0x2F] = .sy
        for c in 0x30...0x39 { t[c] = .nu }
        t[0x3A] = .is; t[0x3B] = .is; t[0x3F] = .ex; t[0x5B] = .op; t[0x5C] = .pr
        t[0x5D] = .cp; t[0x7B] = .op; t[0x7C] = .ba; t[0x7D] = .cl; t[0x7F] = .cm
        return t
    }()

    /// Number context for LB25, which ICU implements as UAX #14's regular
    /// expression (example 7) rather than as pairs.
    struct NumberState {
        /// The text so far ends inside `NU (NU | SY | IS)*`.
        var inNumber = false
        /// The text so far ends in `NU (NU | SY | IS)* (CL | CP)`.
        var afterNumberClose = false

        mutating func advance(to b: Class) {
            let wasInNumber = inNumber
            switch b {
            case .nu: inNumber = true; afterNumberClose = false
            case .sy, .is: afterNumberClose = false  // inNumber unchanged
            case .cl, .cp: afterNumberClose = wasInNumber; inNumber = false
            default: inNumber = false; afterNumberClose = false
            }
        }
    }

    static func forEachOpportunity(in text: UnsafeBufferPointer<UInt8>, _ body: (Int, Bool) -> Void) {
        table.withUnsafeBufferPointer { forEachOpportunity(in: text, table: $0, body) }
    }

    /// Calls `body` with the opportunities of `text` and returns true if the fast path
    /// covers it; else returns false and calls nothing.
    static func forEachOpportunityIfCovered(in text: UnsafeBufferPointer<UInt8>, _ body: (Int, Bool) -> Void) -> Bool {
        table.withUnsafeBufferPointer { table in
            guard covers(text, table: table) else { return false }
            forEachOpportunity(in: text, table: table, body)
            return true
        }
    }

    /// With `restart` above 0, the opportunities from `restart` on, read from there:
    /// the byte before it must be an ASCII letter (``isRestart(_:at:)``). With
    /// `limit`, none past it.
    private static func forEachOpportunity(in text: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<Class>,
                                           restart: Int = 0, through limit: Int = .max,
                                           _ body: (Int, Bool) -> Void) {
        let n = text.count
        var prev = Class.al
        // The character before is a zero width joiner (LB8a); the regional indicators
        // in a row that `prev` ends (LB30a).
        var afterZWJ = false
        var indicators = 0
        if restart == 0 {
            prev = classAt(text, 0, table) ?? .al
            afterZWJ = prev == .zwj
            indicators = prev == .ri ? 1 : 0
            if prev == .cm || prev == .zwj { prev = .al }  // LB10
        }
        var lastNonSpace = prev
        var number = NumberState()
        number.advance(to: prev)
        var lineStart = 0
        // Whether the character that `prev` classifies starts a line or follows a space.
        // (After a restart, `prev` is a letter: this is read only once a later one is.)
        var prevStartsWord = true
        // (Character by character: the bytes inside one were each read as none.)
        var next = max(1, restart)
        let end = limit < n ? limit + 1 : n
        while next < end {
            let k = next
            let byte = text[k]
            let c: Class?
            if byte < 0x80 {
                c = table[Int(byte)]
                next = k + 1
                if (prev == .al || prev == .nu) && (c == .al || c == .nu) && !afterZWJ {
                    // Letters and digits never break between them (LB23, LB25, LB28): most
                    // of a text's bytes, in a loop of their own.
                    var last = c!
                    var j = next
                    while j < end {
                        let b = text[j]
                        guard b < 0x80 else { break }
                        let t = table[Int(b)]
                        guard t == .al || t == .nu else { break }
                        last = t
                        j &+= 1
                    }
                    prevStartsWord = false
                    prev = last
                    number.advance(to: last)
                    lastNonSpace = last
                    next = j
                    continue
                }
            } else {
                if byte &- 0xE4 <= 0xE9 - 0xE4 && (prev == .id || prev == .h2 || prev == .h3) && !afterZWJ && isIdeograph(text, k) {
                    // Ideographs after an ideograph, a kana or a Hangul syllable: no rule
                    // but LB31 applies (none reads further back: the number, the last
                    // class that is not a space, the joiner and the indicators are
                    // theirs), so each starts with an opportunity. CJK was read a rule
                    // chain per character.
                    next = ideographRunEnd(text, from: k, end: end, body)
                    prevStartsWord = false
                    prev = .id
                    number = NumberState()
                    lastNonSpace = .id
                    indicators = 0
                    continue
                }
                if byte & 0xFE == 0xCC && prev != .sp && prev != .bk && prev != .lf && prev != .cr {
                    // A run of combining marks (U+0300...U+037F's CM) after a character:
                    // LB9 (LB8a after a joiner) only lets them join it. Text stacked
                    // with marks was read mark by mark, and rescanned.
                    let j = combiningMarksEnd(text, from: k, end: end, table: table)
                    if j > k {
                        afterZWJ = false
                        next = j
                        continue
                    }
                }
                let (found, length) = classAndLength(text, k, table)
                c = found
                next = k + length
            }
            let a = prev
            guard var b = c else { continue }
            if (a == .al || a == .nu) && (b == .al || b == .nu) && !afterZWJ {
                // Letters and digits never break between them (LB23, LB25, LB28): most
                // of a text's bytes, without the rules below.
                prevStartsWord = false
                prev = b
                number.advance(to: b)
                lastNonSpace = b
                continue
            }
            if (b == .id || b == .eb) && (a == .id || a == .eb || a == .h2 || a == .h3) && !afterZWJ {
                // Between ideographs, emoji and Hangul syllables only LB31 applies (an
                // emoji and a skin tone, LB30b, is EB EM): an opportunity, and the
                // state is b's alone, as after the rules below.
                body(k, false)
                prevStartsWord = false
                prev = b
                number = NumberState()
                lastNonSpace = b
                indicators = 0
                continue
            }
            let isZWJ = b == .zwj
            if a == .bk || a == .lf || (a == .cr && b != .lf) {
                body(k, true)  // LB4, LB5
                lineStart = k
                if b == .cm || isZWJ { b = .al }
            } else if a == .cr {
                // CR × LF
            } else if b == .bk || b == .cr || b == .lf || b == .sp {
                // LB6, LB7
            } else if afterZWJ {
                // LB8a: ZWJ × (`prev` is never a space here: a mark or joiner after it
                // takes its class, LB9).
                if b == .cm || isZWJ {
                    afterZWJ = isZWJ
                    continue
                }
            } else if (b == .cm || isZWJ) && a != .sp {
                // LB9: X (CM | ZWJ)* takes X's class; no break inside.
                afterZWJ = isZWJ
                continue
            } else {
                if b == .cm || isZWJ { b = .al }  // LB10
                if a == .ri && b == .ri {
                    if indicators % 2 == 0 { body(k, false) }  // LB30a: pairs
                } else if a == .eb && b == .em {
                    // LB30b: EB × EM
                } else if breaks(a, b, lastNonSpace: lastNonSpace, number: number, hyphenStartsWord: prevStartsWord,
                                 numberFollows: { numberStarts(after: k, in: text, table: table, allowingInfix: $0) }) {
                    body(k, false)
                }
            }
            afterZWJ = isZWJ
            indicators = b == .ri ? (a == .ri ? indicators + 1 : 1) : 0
            prevStartsWord = k == lineStart || (prev == .sp && lastNonSpace != .op && lastNonSpace != .ow)
            prev = b
            number.advance(to: b)
            if b != .sp { lastNonSpace = b }
        }
        guard limit >= n else { return }
        let last = text[n - 1] < 0x80 ? table[Int(text[n - 1])] : .al
        body(n, last == .bk || last == .cr || last == .lf)
    }

    /// Reports an opportunity before each ideograph of the run at `k` (before `end`);
    /// returns the run's end. (Out of line, as the next: inlined, they took the loop's
    /// registers, and CJK and emoji took 3% more instructions.)
    @inline(never)
    static func ideographRunEnd(_ text: UnsafeBufferPointer<UInt8>, from k: Int, end: Int, _ body: (Int, Bool) -> Void) -> Int {
        var j = k
        while j < end && isIdeograph(text, j) {
            body(j, false)
            j &+= 3
        }
        return j
    }

    /// The end of the run of combining marks of class CM from U+0300...U+037F at `k`
    /// (`k` when there is none).
    @inline(never)
    static func combiningMarksEnd(_ text: UnsafeBufferPointer<UInt8>, from k: Int, end: Int,
                                  table: UnsafeBufferPointer<Class>) -> Int {
        var j = k
        let stop = min(end, text.count - 1)
        while j < stop {
            let lead = text[j]
            guard lead & 0xFE == 0xCC, table[Int(lead & 0x1F) << 6 | Int(text[j &+ 1] & 0x3F)] == .cm else { break }
            j &+= 2
        }
        return j
    }

    /// A CJK ideograph (U+4E00...U+9FFF, class ID) starts at `k`: lead byte E4 (from
    /// B8 on) to E9, with its two continuation bytes there.
    @inline(__always)
    static func isIdeograph(_ text: UnsafeBufferPointer<UInt8>, _ k: Int) -> Bool {
        let b0 = text[k]
        guard b0 &- 0xE4 <= 0xE9 - 0xE4, k + 2 < text.count else { return false }
        let b1 = text[k + 1]
        return (b0 != 0xE4 || b1 >= 0xB8) && b1 & 0xC0 == 0x80 && text[k + 2] & 0xC0 == 0x80
    }

    /// Whether the scan may start at `k` knowing nothing before it: after an ASCII
    /// letter (AL), every part of the state is the same whatever came earlier (the
    /// class before is AL, so is the last that is not a space, no number is open, no
    /// joiner came just before and no regional indicator is counted, and whether a
    /// hyphen starts a word is read only when a hyphen comes next).
    @inline(__always)
    static func isRestart(_ text: UnsafeBufferPointer<UInt8>, at k: Int) -> Bool {
        k > 0 && isLetter(text[k - 1])
    }

    /// An ASCII letter, A-Z or a-z. (The lexers' `ASCII.isLetter` is the same test; the
    /// Unicode layer uses no other.)
    @inline(__always)
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }

    /// Whether no two opportunities of `text` (its ends included) are more than
    /// `maximumGap` bytes apart, known from those that are sure: a letter after a
    /// letter and a space (LB18, nothing before the letter can hold it) is one.
    /// False when those alone leave a wider gap (the others may still close it).
    ///
    /// - Precondition: ``covers(_:)`` is true of `text`.
    /// - Complexity: O(n) at most; O(n / `maximumGap`) on prose, which has such
    ///   letters every few bytes (each window is searched from its far end).
    static func surelyNear(_ text: UnsafeBufferPointer<UInt8>, maximumGap: Int) -> Bool {
        var previous = 0
        while text.count - previous > maximumGap {
            var q = previous + maximumGap
            while q > previous && !(text[q - 1] == 0x20 && isRestart(text, at: q - 1) && isLetter(text[q])) {
                q -= 1
            }
            if q == previous { return false }
            previous = q
        }
        return true
    }

    /// The last opportunity of `text` after `start` and at or before `limit` (before
    /// the text's end), or nil: scans back from `limit` one stretch at a time, each
    /// read from a restart (``isRestart(_:at:)``), until one has an opportunity or
    /// `start` is passed. Wrapping near the line ends reads a few bytes a line instead
    /// of the whole paragraph.
    ///
    /// - Precondition: ``covers(_:)`` is true of `text`, and ``surelyNear(_:maximumGap:)``
    ///   (or a letter at most that far before each stretch: the scan back is bounded by it).
    /// - Complexity: O(`limit` - `start` + the gap) in the bytes.
    static func lastOpportunity(in text: UnsafeBufferPointer<UInt8>, after start: Int, through limit: Int) -> Int? {
        table.withUnsafeBufferPointer { table in
            var high = limit
            while high > start {
                var restart = high
                while restart > 0 && !isRestart(text, at: restart) { restart -= 1 }
                var found: Int?
                forEachOpportunity(in: text, table: table, restart: restart, through: high) { at, _ in found = at }
                if let found { return found > start ? found : nil }
                high = restart - 1
                // No opportunity between two letters (LB28): the rest of a word a line
                // ends inside is passed at once, not read back a scan a letter.
                while high > start && isLetter(text[high]) && isLetter(text[high - 1]) { high -= 1 }
            }
            return nil
        }
    }

    /// Whether a number (`NU`, or `IS? NU` as ICU's LB25 reads it when
    /// `allowingInfix`) starts after the character at `k` and the combining marks
    /// it absorbs (LB9).
    static func numberStarts(after k: Int, in text: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<Class>,
                             allowingInfix: Bool) -> Bool {
        var j = k + 1
        var sawInfix = false
        while j < text.count {
            guard let c = classAt(text, j, table) else {
                j += 1
                continue
            }
            j += 1
            if c == .cm || c == .zwj { continue }
            if c == .nu { return true }
            if c == .is && allowingInfix && !sawInfix { sawInfix = true; continue }
            return false
        }
        return false
    }

    @inline(__always)
    static func breaks(_ a: Class, _ b: Class, lastNonSpace: Class, number: NumberState, hyphenStartsWord: Bool,
                       numberFollows: (_ allowingInfix: Bool) -> Bool) -> Bool {
        if a == .gl { return false }  // LB12 GL ×
        if b == .gl && a != .sp && a != .ba && a != .hy { return false }  // LB12a [^SP BA HY] × GL
        if (lastNonSpace == .op || lastNonSpace == .ow) && b != .sp { return false }  // LB14 OP SP* ×
        // ICU 72 already breaks before a number that starts with a decimal point
        // after a space (" .35"), as Unicode 15.1's LB15c later does.
        if a == .sp && b == .is && numberFollows(false) { return true }
        switch b {
        case .cl, .cp, .ex, .is, .sy: return false  // LB13
        default: break
        }
        if lastNonSpace == .qu && (b == .op || b == .ow) { return false }  // LB15 QU SP* × OP
        if (lastNonSpace == .cl || lastNonSpace == .cp) && b == .ns { return false }  // LB16 (CL | CP) SP* × NS
        if lastNonSpace == .b2 && b == .b2 { return false }  // LB17 B2 SP* × B2
        if a == .sp { return true }  // LB18
        if a == .qu || b == .qu { return false }  // LB19
        if b == .ba || b == .hy || b == .ns { return false }  // LB21
        if b == .in { return false }  // LB22
        switch (a, b) {
        case (.pr, .id), (.id, .po), (.pr, .eb), (.eb, .po), (.pr, .em), (.em, .po): return false  // LB23a
        case (.h2, .po), (.h3, .po), (.pr, .h2), (.pr, .h3): return false  // LB27
        default: break
        }
        // ICU-8151: ICU keeps a hyphen that starts a line or follows a space with
        // the letter after it (a minus sign, not a word-joining hyphen).
        if hyphenStartsWord && a == .hy && b == .al { return false }
        switch (a, b) {
        case (.al, .nu), (.nu, .al): return false  // LB23
        case (.pr, .al), (.po, .al), (.al, .pr), (.al, .po): return false  // LB24
        case (.pr, .nu), (.po, .nu), (.op, .nu), (.ow, .nu), (.hy, .nu): return false  // LB25
        case (.is, .nu): return false  // LB25 as ICU tailors it (ICU-12017)
        case (.pr, .op), (.pr, .ow), (.pr, .hy), (.po, .op), (.po, .ow), (.po, .hy):
            if numberFollows(true) { return false }  // LB25 (PR | PO) × (OP | HY) IS? NU
        default: break
        }
        if number.inNumber && (b == .nu || b == .sy || b == .is || b == .cl || b == .cp) { return false }
        if (number.inNumber || number.afterNumberClose) && (b == .po || b == .pr) { return false }
        switch (a, b) {
        case (.al, .al): return false  // LB28
        case (.is, .al): return false  // LB29
        case (.al, .op), (.nu, .op), (.cp, .al), (.cp, .nu): return false  // LB30
        default: return true  // LB31
        }
    }
}
