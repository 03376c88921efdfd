import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The ASCII fast paths must give exactly ICU's answer.
@Suite struct FastPathDifferentialTests {
    /// Characters weighted towards the ones that drive UAX #14 numeric and
    /// punctuation rules, so rare rule interactions come up often.
    static let asciiAlphabet: [UInt8] = Array("aZ09 $%+-.,:;/()[]{}!?'\"|\\\t#&*<=>@^_`~\n\r".utf8) + [0x0B, 0x0C, 0x01, 0x7F]
    static let mixedPieces: [String] = [
        "a", "b", " ", "1", ".", "-", "(", ")", "\r", "\n", "\r\n", "\t", "\u{301}", "e\u{301}", "日", "本",
        "👍", "🏽", "\u{200D}", "\u{FE0F}", "\u{FE0E}", "❤", "🇫", "🇷", "👨‍👩‍👧", "#️⃣", "ก", "\u{0E33}",
        "\u{0600}", "\u{1100}", "\u{1161}", "\u{11A8}", "한", "\u{00AD}", "\u{2028}", "«", "»", "—", "€", "½",
    ]

    static func randomASCII(_ rng: inout SeededGenerator) -> [UInt8] {
        let length = Int.random(in: 1...24, using: &rng)
        return (0..<length).map { _ in asciiAlphabet.randomElement(using: &rng)! }
    }

    static func randomMixed(_ rng: inout SeededGenerator) -> [UInt8] {
        let count = Int.random(in: 1...16, using: &rng)
        var s = ""
        for _ in 0..<count {
            if Bool.random(using: &rng) {
                s += String(decoding: [asciiAlphabet.randomElement(using: &rng)!], as: UTF8.self)
            } else {
                s += mixedPieces.randomElement(using: &rng)!
            }
        }
        return Array(s.utf8)
    }

    @Test func asciiLineBreaksMatchICU() {
        let seed = TestSeed.base(0x5EED_0001)
        var rng = SeededGenerator(seed: seed)
        let fast = LineBreaker()
        let icu = LineBreaker.icuOnly()
        for iteration in 0..<50_000 {
            let text = Self.randomASCII(&rng)
            let a = fast.opportunities(in: String(decoding: text, as: UTF8.self))
            let b = icu.opportunities(in: String(decoding: text, as: UTF8.self))
            if a != b {
                Issue.record("seed \(seed) iteration \(iteration): \(text.debugString) fast \(a) ICU \(b)")
                return
            }
        }
    }

    /// The non-ASCII characters the fast path covers, and neighbours it must leave to
    /// ICU (other classes, or ones whose rules look at more than the class).
    static let coveredPieces = ["é", "À", "ÿ", "Ö", "ø", "×", "÷", "–", "—", "‘", "’", "“", "”", "…", "«", "»",
                                "°", "²", "±", "€", "£", "¡", "¿", "α", "Ж", "\u{301}", "•", "→", "⇒", "∞", "₂", "™", "✓",
                                "✅", "❤", "\u{FE0F}", "🚀", "😀", "👍", "🎉", "🧑",
                                // Emoji sequences: skin tones, joiners, flags, keycaps.
                                "\u{200D}", "\u{1F3FB}", "🏽", "👍🏽", "🧑🏿‍💻", "👩‍👩‍👧‍👦", "🏳️‍🌈", "🐈‍⬛", "🇫", "🇷", "🇫🇷", "🇯🇵",
                                "1️⃣", "❤️", "\u{2005}", "\u{200C}",
                                // Glue (LB12, LB12a): no-break spaces, a no-break hyphen, double marks.
                                "\u{00A0}", "\u{202F}", "\u{2007}", "\u{2011}", "\u{034F}", "\u{035C}", "\u{0361}",
                                "日", "本", "語", "\u{9FFF}", "\u{4E00}", "は", "の", "あ", "カ", "ン", "\u{30FA}", "\u{3042}",
                                "한", "국", "가", "각", "\u{D7A3}", "。", "、", "，",
                                // CJK punctuation: brackets of East Asian width (OP, not LB30's),
                                // closing ones, nonstarters, fullwidth marks.
                                "「", "」", "『", "』", "（", "）", "【", "】", "〈", "〉", "［", "］", "｛", "｝", "〝", "〟",
                                "｢", "｣", "｡", "､", "．", "：", "；", "・", "々", "〜", "ゝ", "ヽ", "！", "？", "「1」", "(「",
                                // Small kana and the prolonged sound mark (CJ: ICU's NS).
                                "ぁ", "っ", "ッ", "ー", "ャ", "ゕ", "\u{31F0}", "ッー」",
                                // Arabic (letters, marks, comma, question mark, digits, the number
                                // sign that goes before), Devanagari and Tamil (viramas, signs, danda).
                                "م", "ر", "ب", "ا", "\u{064E}", "\u{0651}", "،", "؟", "٣", "\u{0600}", "\u{061C}",
                                "क", "्", "ष", "ि", "।", "३", "த", "ம", "ி", "\u{0BCD}"]
    static let uncoveredPieces = ["‐", "\u{2028}", "\u{2060}", "\u{00B4}", "\u{200B}", "\u{1F1E5}", "\u{0E01}", "\u{0F0C}",
                                  "\u{3099}", "゛", "\u{1100}", "\u{11A8}", "〃",
                                  "\u{3000}", "㐀", "\u{1FAF9}", "\u{1000}", "\u{0F0B}", "ก"]

    @Test func commonNonASCIILineBreaksMatchICU() {
        let seed = TestSeed.base(0x5EED_0003)
        var rng = SeededGenerator(seed: seed)
        let fast = LineBreaker()
        let icu = LineBreaker.icuOnly()
        var covered = 0
        for iteration in 0..<50_000 {
            var s = ""
            let uncovered = iteration % 8 == 0
            for _ in 0..<Int.random(in: 1...20, using: &rng) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0, 1: s += String(decoding: [Self.asciiAlphabet.randomElement(using: &rng)!], as: UTF8.self)
                case 2: s += ["a", "1", " ", "-", "(", "\""].randomElement(using: &rng)!
                default: s += Self.coveredPieces.randomElement(using: &rng)!
                }
            }
            if uncovered {
                // At the start, the end or in between.
                let at = [s.startIndex, s.endIndex, s.index(s.startIndex, offsetBy: s.count / 2)][iteration / 8 % 3]
                s.insert(contentsOf: Self.uncoveredPieces.randomElement(using: &rng)!, at: at)
            }
            let text = Array(s.utf8)
            let a = fast.opportunities(in: s), b = icu.opportunities(in: s)
            let covers = text.withUnsafeBufferPointer { ASCIILineBreak.covers($0) }
            if covers == uncovered || a != b {
                Issue.record("seed \(seed) iteration \(iteration): \(text.debugString) covers \(covers) fast \(a) ICU \(b)")
                return
            }
            if covers { covered += 1 }
        }
        #expect(covered > 40_000)
        // A truncated sequence, and neighbours of covered ones by their last byte, are not covered.
        for bytes: [UInt8] in [[0xE2, 0x80], [0xC3], [0x61, 0xE2], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3, 0x41], [0x80],
                               [0xC2, 0xAD, 0xC4], [0xE6, 0x97], [0xEA, 0xB0], [0xF8, 0x88, 0x80, 0x80],
                               [0xE0, 0x80, 0xA0], [0xE0, 0x80, 0x8A], [0xF0, 0x82, 0x80, 0x90], [0xED, 0xA0, 0x80]] {
            #expect(!bytes.withUnsafeBufferPointer { ASCIILineBreak.covers($0) }, "\(bytes)")
        }
    }

    /// Emoji sequences the fast path now takes (LB8a, LB30a, LB30b): runs of regional
    /// indicators of odd and even length, joiners in chains, at the start and after a
    /// space, skin tones after bases and after other emoji, selectors and marks between.
    @Test func emojiSequencesBreakAsICUSays() {
        let seed = TestSeed.base(0x5EED_000E)
        var rng = SeededGenerator(seed: seed)
        let fast = LineBreaker()
        let icu = LineBreaker.icuOnly()
        let pieces = ["😀", "🎉", "🚀", "👍", "🏽", "\u{1F3FB}", "👩", "🧑", "💻", "\u{200D}", "\u{FE0F}", "\u{20E3}", "🇫", "🇷",
                      "🇯", "🇵", "❤", "✨", "🔥", "🐈", "⬛", "🏳", "🌈", "\u{301}", "1", "#", " ", "a", "(", ")", "-", "%", "$",
                      "日", "。", "—"]
        var covered = 0
        for iteration in 0..<30_000 {
            let s = (0..<Int.random(in: 1...14, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let text = Array(s.utf8)
            guard text.withUnsafeBufferPointer({ ASCIILineBreak.covers($0) }) else { continue }
            covered += 1
            let a = fast.opportunities(in: s), b = icu.opportunities(in: s)
            if a != b {
                Issue.record("seed \(seed) iteration \(iteration): \(text.debugString) fast \(a) ICU \(b)")
                return
            }
        }
        #expect(covered > 20_000, "\(covered)")
    }

    /// Wrapping near line ends reads from restarts: the last opportunity in a stretch is
    /// the whole text's (ICU's), whatever came before the restart (numbers, hyphens,
    /// brackets, quotes, spaces, marks, hard breaks); and opportunities said to be
    /// surely near are near.
    @Test func readingFromARestartFindsWhatTheWholeTextHas() {
        let seed = TestSeed.base(0x5EED_0007)
        var rng = SeededGenerator(seed: seed)
        let icu = LineBreaker.icuOnly()
        var checked = 0, near = 0, notNear = 0
        for iteration in 0..<20_000 {
            var s = ""
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0, 1: s += String(decoding: [Self.asciiAlphabet.randomElement(using: &rng)!], as: UTF8.self)
                case 2: s += ["a", "ab", "1", " ", " x", "-", "(", "\"", "\u{301}"].randomElement(using: &rng)!
                case 3: s += Self.coveredPieces.randomElement(using: &rng)!
                default: s += ["word ", "the ", "line-", "x", " y"].randomElement(using: &rng)!
                }
            }
            let text = Array(s.utf8)
            guard text.count > 1, text.withUnsafeBufferPointer({ ASCIILineBreak.covers($0) }) else { continue }
            let all = icu.opportunities(in: s).map(\.offset)
            text.withUnsafeBufferPointer { buffer in
                for _ in 0..<8 {
                    let start = Int.random(in: 0..<(text.count - 1), using: &rng)
                    let limit = Int.random(in: (start + 1)..<text.count, using: &rng)
                    let expected = all.last { $0 > start && $0 <= limit }
                    let found = ASCIILineBreak.lastOpportunity(in: buffer, after: start, through: limit)
                    if found != expected {
                        Issue.record("seed \(seed) iteration \(iteration): \(text.debugString) after \(start) through \(limit): \(String(describing: found)), ICU \(String(describing: expected))")
                    }
                    checked += 1
                }
                let gap = Int.random(in: 1...24, using: &rng)
                if ASCIILineBreak.surelyNear(buffer, maximumGap: gap) {
                    near += 1
                    let gaps = zip([0] + all, all + [text.count]).map { $1 - $0 }
                    #expect(gaps.allSatisfy { $0 <= gap }, "seed \(seed) iteration \(iteration): \(text.debugString) gap \(gap)")
                } else {
                    notNear += 1
                }
            }
        }
        #expect(checked > 100_000 && near > 1_000 && notNear > 1_000, "seed \(seed): \(checked) \(near) \(notNear)")
    }

    /// The layout keeps its scan when R is forced on to an opportunity because the fast
    /// path reads the text from there as it reads it in context: every opportunity
    /// after one, read from it as the text's start, is the whole text's. (From other
    /// places it is not: `1/2` read from the slash breaks before the 2.)
    @Test func readingFromAnOpportunityIsReadingInContext() {
        let seed = TestSeed.base(0x5EED_0019)
        var rng = SeededGenerator(seed: seed)
        let extra = ["1", "12", "3.5", "1/2", "$", "%", "(", ")", "[", "]", "\"", "'", "/", ".", ",", "!", "?", ":", "+", "#",
                     "(1)", "$(", "-1", ".5"]
        var checked = 0
        for iteration in 0..<20_000 {
            var s = ""
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: s += String(decoding: [Self.asciiAlphabet.randomElement(using: &rng)!], as: UTF8.self)
                case 1: s += extra.randomElement(using: &rng)!
                default: s += Self.coveredPieces.randomElement(using: &rng)!
                }
            }
            let text = Array(s.utf8)
            text.withUnsafeBufferPointer { buffer in
                guard ASCIILineBreak.covers(buffer) else { return }
                var all: [LineBreakOpportunity] = []
                ASCIILineBreak.forEachOpportunity(in: buffer) { all.append(LineBreakOpportunity(offset: $0, isHard: $1)) }
                for q in all.map(\.offset) where q < text.count {
                    var fromQ: [LineBreakOpportunity] = []
                    ASCIILineBreak.forEachOpportunity(in: UnsafeBufferPointer(rebasing: buffer[q...])) {
                        fromQ.append(LineBreakOpportunity(offset: q + $0, isHard: $1))
                    }
                    let expected = all.filter { $0.offset > q }
                    if fromQ != expected {
                        Issue.record("seed \(seed) iteration \(iteration): \(text.debugString) from \(q): \(fromQ), in context \(expected)")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 50_000, "seed \(seed): \(checked)")
    }

    /// Every character of the fast path's ranges (made from ICU's data), in contexts
    /// that exercise each rule its class takes part in, gives ICU's breaks.
    @Test func everyRangeCharacterBreaksAsICUSays() {
        let fast = LineBreaker()
        let icu = LineBreaker.icuOnly()
        let contexts = ["a{}b", "{} a", " {}", "1{}2", "({})", "{}{}", "{} {}", "x{}-y", "{}\u{301}x", "\"{}\"", "{}%",
                        "$ {}", "{}(", "){}", "a.{}", "{}!", "{}—{}", "日{}本", "{}…", "9{}.5", "{}'s", "- {}", "{}/x", "{}\n{}",
                        "👍{}", "{}🏽", "{}\u{200D}👩", "\u{200D}{}", "🇫{}", "{}🇫", "🇫🇷{}🇯", " \u{200D}{}"]
        var checked = 0
        // Generated from one ICU: with another Unicode version, none is taken (ICU decides).
        guard ICUInfo.implementsUnicode(ASCIILineBreak.rangesUnicodeVersion) else {
            #expect(!Array("°α→😀".utf8).withUnsafeBufferPointer { ASCIILineBreak.covers($0) })
            return
        }
        for range in ASCIILineBreak.ranges {
            for value in range.first...range.last {
                let c = String(Character(Unicode.Scalar(value)!))
                for context in contexts {
                    // (Literal: a search for `{}` before a combining mark finds none.)
                    let text = context.replacingOccurrences(of: "{}", with: c, options: .literal)
                    #expect(!text.contains("{}"))
                    let covers = Array(text.utf8).withUnsafeBufferPointer { ASCIILineBreak.covers($0) }
                    let a = fast.opportunities(in: text), b = icu.opportunities(in: text)
                    // (A Hebrew letter before a hyphen is ICU's: LB21a.)
                    let leftToICU = (0x5D0...0x5F2).contains(value) && context == "x{}-y"
                    if covers == leftToICU || a != b {
                        Issue.record("U+\(String(value, radix: 16, uppercase: true)) in \(context.debugDescription): covers \(covers) fast \(a) ICU \(b)")
                        return
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 100_000)
    }

    /// Hebrew letters are AL to the fast path but where a hyphen, a break-after (the
    /// maqaf, `|`) or a solidus stands beside one, marks between: there ICU's LB21a and
    /// LB21b (and its reading of a hyphen before a letter) differ, and ICU decides.
    @Test func hebrewLettersBreakAsICUSays() {
        let seed = TestSeed.base(0x5EED_0035)
        var rng = SeededGenerator(seed: seed)
        let fast = LineBreaker()
        let icu = LineBreaker.icuOnly()
        let pieces = ["ש", "ל", "ו", "ם", "\u{05EF}", "\u{05B8}", "\u{05BC}", "\u{05BE}", "\u{05F3}", "-", "/", "|", " ", "a", "1",
                      ".", ",", "(", ")", "\"", "\u{2010}", "\u{301}", "م"]
        var covered = 0, uncovered = 0
        for iteration in 0..<40_000 {
            let s = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let text = Array(s.utf8)
            guard text.withUnsafeBufferPointer({ ASCIILineBreak.covers($0) }) else {
                uncovered += 1
                continue
            }
            covered += 1
            let a = fast.opportunities(in: s), b = icu.opportunities(in: s)
            if a != b {
                Issue.record("seed \(seed) iteration \(iteration): \(text.debugString) fast \(a) ICU \(b)")
                return
            }
        }
        #expect(covered > 10_000 && uncovered > 5_000, "\(covered) \(uncovered)")
        for (text, covers) in [("שלום-עולם", false), ("שָ-ם", false), ("ש־ל", false), ("a/ש", false), ("-ש", false), ("ש/a", true),
                               ("שלום עולם.", true), ("ש - ל", true), ("(שלום)", true)] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { ASCIILineBreak.covers($0) } == covers, "\(text)")
        }
    }

    @Test func graphemeFastPathMatchesICU() {
        let seed = TestSeed.base(0x5EED_0002)
        var rng = SeededGenerator(seed: seed)
        for iteration in 0..<20_000 {
            let text = Bool.random(using: &rng) ? Self.randomASCII(&rng) : Self.randomMixed(&rng)
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let fast = segment(text, policy: policy, fastPath: true)
                let icu = segment(text, policy: policy, fastPath: false)
                if fast.map(\.0) != icu.map(\.0) || fast.map(\.1) != icu.map(\.1) {
                    Issue.record("seed \(seed) iteration \(iteration) \(policy): \(text.debugString) fast \(fast) ICU \(icu)")
                    return
                }
            }
        }
    }

    func segment(_ bytes: [UInt8], policy: WidthPolicy, fastPath: Bool) -> [([UInt8], Int)] {
        var segmenter = GraphemeSegmenter(policy: policy, usesASCIIFastPath: fastPath)
        var out: [([UInt8], Int)] = []
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { out.append((Array($0), $1)) }
        segmenter.feed(bytes, sink)
        segmenter.finish(sink)
        return out
    }
}

extension Array where Element == UInt8 {
    var debugString: String {
        String(decoding: self, as: UTF8.self).unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
    }
}
