import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Clusters the line-break rules read through (LB9: a bidi mark, or a mark or joiner
/// after one) do not count as an opportunity's lookahead: a rule's context may span any
/// number of them, and a paragraph that grows must wrap as it does whole.
@Suite struct ReadThroughLayoutTests {
    static let pieces = ["$", "€", "%", "(", "[", "-", ".", ",", "/", "1", "42", "a", "word", " ", "  ", "\t", "中",
                         "\u{200E}", "\u{200F}", "\u{061C}", "\u{2066}", "\u{2069}", "\u{202B}", "\u{FFF9}", "\u{E0001}",
                         "\u{301}", "\u{200D}", "\u{E0041}", "\u{94D}", "é", "\u{3035}", "\u{35C}", "\u{102B}"]

    /// `text` laid out whole, and as it grows to each of `cuts`, without the one-pass path.
    static func lines(_ text: [UInt8], width: Int, policy: WidthPolicy = .grapheme, cuts: [Int])
        -> (whole: [VisualLine], growing: [VisualLine]) {
        var whole = ParagraphWrapper(settings: LayoutSettings(width: width, policy: policy))
        var growing = ParagraphWrapper(settings: LayoutSettings(width: width, policy: policy))
        growing.usesOnePass = false
        return (whole.layOutGrowing(text, cuts: [], breakers: LayoutBreakers()),
                growing.layOutGrowing(text, cuts: cuts, breakers: LayoutBreakers()))
    }

    /// Cuts of `bytes` between scalars, at most `longest` bytes apart.
    static func randomCuts(_ bytes: [UInt8], longest: Int, using rng: inout SeededGenerator) -> [Int] {
        var cuts: [Int] = []
        var at = 0
        while at < bytes.count {
            at += Int.random(in: 1...longest, using: &rng)
            var c = min(at, bytes.count)
            while c < bytes.count && bytes[c] & 0xC0 == 0x80 { c -= 1 }
            cuts.append(c)
        }
        return cuts
    }

    @Test func aNumberAfterBidiMarksWrapsAsWhole() {
        for (mark, marks) in [0, 1, 4, 5, 12, 40].map({ ("\u{200E}", $0) }) + [("\u{3035}", 5), ("\u{3035}", 13)] {
            let text = Array(("aaaa bbbb $(" + String(repeating: mark, count: marks) + "12345678").utf8)
            var starts: [Int] = []
            for k in text.indices where text[k] & 0xC0 != 0x80 && k > 0 { starts.append(k) }
            for width in [10, 12, 14] {
                // Cut once at each scalar boundary, and at all of them.
                for cuts in starts.map({ [$0] }) + [starts] {
                    let (whole, growing) = Self.lines(text, width: width, cuts: cuts)
                    #expect(growing == whole, "\(marks) of \(mark.unicodeScalars.first!), width \(width), cuts \(cuts)")
                    if growing != whole { return }
                }
            }
        }
    }

    /// After a space a bidi mark is an opportunity (LB10 makes it a letter); after a
    /// letter, a tab or another mark it is none (LB9). Streamed or whole, as ICU says.
    @Test func bidiMarksAfterASpaceOrALetterWrapAsWhole() {
        for before in [" ", "x", "\t", "x \u{200F}"] {
            for marks in [1, 3, 9] {
                let text = Array(("aaaa bbbb" + before + String(repeating: "\u{200E}", count: marks) + "cccccccc dd").utf8)
                var starts: [Int] = []
                for k in text.indices where text[k] & 0xC0 != 0x80 && k > 0 { starts.append(k) }
                for width in [9, 10, 12, 14] {
                    let reference = ReferenceLayout.lines(text, settings: LayoutSettings(width: width))
                    for cuts in starts.map({ [$0] }) + [starts] {
                        let (whole, growing) = Self.lines(text, width: width, cuts: cuts)
                        #expect(growing == whole && whole == reference, "\(before.debugDescription), \(marks) marks, width \(width), cuts \(cuts)")
                        if growing != whole || whole != reference { return }
                    }
                }
            }
        }
    }

    @Test func paragraphsWithMarksWithoutBasesWrapAsWhole() {
        let seed = TestSeed.base(0x2EAD_7A1C)
        var rng = SeededGenerator(seed: seed)
        var againstReference = 0
        defer { #expect(againstReference > 300, "seed \(seed): \(againstReference)") }
        for round in 0..<600 {
            var text = ""
            let length = Int.random(in: 10...160, using: &rng)
            while text.unicodeScalars.count < length {
                if Bool.random(using: &rng) {
                    // A number's context (LB25) with marks without bases in it.
                    let marks = { (rng: inout SeededGenerator) in
                        String(repeating: ["\u{200E}", "\u{2066}", "\u{200F}\u{301}", "\u{3035}"].randomElement(using: &rng)!,
                               count: Int.random(in: 0...9, using: &rng))
                    }
                    text += ["", "$", "€", "%"].randomElement(using: &rng)! + marks(&rng) + ["", "(", "-"].randomElement(using: &rng)!
                    text += marks(&rng) + ["", ".", ","].randomElement(using: &rng)! + marks(&rng)
                    if Bool.random(using: &rng) { text += "12" }
                    continue
                }
                let piece = Self.pieces.randomElement(using: &rng)!
                text += String(repeating: piece, count: Int.random(in: 0..<3, using: &rng) == 0 ? Int.random(in: 1...8, using: &rng) : 1)
            }
            let bytes = Array(text.utf8)
            let cuts = Self.randomCuts(bytes, longest: 12, using: &rng)
            let width = [3, 5, 8, 13, 30].randomElement(using: &rng)!
            let policy = [WidthPolicy.grapheme, .wcwidth, .scalars].randomElement(using: &rng)!
            let (whole, growing) = Self.lines(bytes, width: width, policy: policy, cuts: cuts)
            #expect(growing == whole, "seed \(seed) round \(round) width \(width) \(policy): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if growing != whole { return }
            // And as ICU breaks the whole paragraph (the reference), unless a restart was
            // forced out of context (decision 0007).
            if OnePassLayoutTests.restartsOutOfContext(bytes, width: width, policy: policy) == 0 {
                let reference = ReferenceLayout.lines(bytes, settings: LayoutSettings(width: width, policy: policy))
                #expect(whole == reference, "seed \(seed) round \(round) width \(width) \(policy) against the reference")
                if whole != reference { return }
                againstReference += 1
            }
        }
    }

    /// Where a restart is forced at a cluster that is not an opportunity, it prefers one
    /// `readsAsInContext` accepts: ICU's reading from there is its reading in context.
    @Test func readingFromARestartThatReadsAsInContextIsReadingInContext() {
        let seed = TestSeed.base(0x2EAD_C0DE)
        var rng = SeededGenerator(seed: seed)
        let icu = LineBreaker.icuOnly()
        let alphabet = ["a", "Z", "é", "ω", "ж", "中", "가", "1", "42", "-", "\u{2010}", "/", ".", ",", ":", ";", ")", "]", "}",
                        "(", "$", "%", "'", "\"", "!", "?", "|", "\u{AD}", "–", "—", "\u{301}", "\u{200D}", "א", "#", "+", "&", "_"]
        var checked = 0
        for iteration in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 2...16, using: &rng) { text += alphabet.randomElement(using: &rng)! }
            let bytes = Array(text.utf8)
            let all = icu.opportunities(in: text).map(\.offset)
            bytes.withUnsafeBufferPointer { buffer in
                for q in 1..<buffer.count where buffer[q] & 0xC0 != 0x80 && ParagraphWrapper.readsAsInContext(buffer, at: q) {
                    let fromQ = icu.opportunities(in: String(decoding: bytes[q...], as: UTF8.self)).map { q + $0.offset }
                    let expected = all.filter { $0 > q }
                    #expect(fromQ == expected, "seed \(seed) iteration \(iteration): \(text.debugDescription) from \(q)")
                    if fromQ != expected { return }
                    checked += 1
                }
            }
        }
        #expect(checked > 5_000, "seed \(seed): \(checked)")
    }

    /// A cluster read through after a tab or another one read through is never an
    /// opportunity (LB9), so the wrapper decides it without a scan. ICU's line breaker
    /// (its fast path off) is the oracle.
    @Test func noOpportunityBeforeAClusterThatJoinsThePrevious() {
        let seed = TestSeed.base(0x2EAD_B1D1)
        var rng = SeededGenerator(seed: seed)
        let icu = LineBreaker.icuOnly()
        let alphabet = ["a", "1", "(", "$", " ", "\t", "-", "/", ")", "中", "😀", "ก", "\u{200E}", "\u{200F}", "\u{2066}",
                        "\u{2069}", "\u{FFF9}", "\u{3035}", "\u{E0001}", "\u{200D}", "\u{301}", "\u{E31}", "\u{102B}", "\u{35C}",
                        "\u{34F}", "\u{F7F}", "\u{200C}", "\u{FF9E}", "\u{E0020}", "\u{1F3FD}"]
        var checked = 0
        for iteration in 0..<4_000 {
            var text = ""
            for _ in 0..<Int.random(in: 2...14, using: &rng) { text += alphabet.randomElement(using: &rng)! }
            let opportunities = Set(icu.opportunities(in: text).map(\.offset))
            var offset = 0, afterControl = false
            for cluster in text {
                var bytes = String(cluster)
                let readThrough = bytes.utf8.first! >= 0x80 && bytes.withUTF8 {
                    ParagraphWrapper.isReadThrough($0, afterControl: afterControl)
                }
                if readThrough && afterControl && offset > 0 {
                    checked += 1
                    #expect(!opportunities.contains(offset), "seed \(seed) iteration \(iteration): \(text.unicodeScalars.map { String($0.value, radix: 16) }) at \(offset)")
                    if opportunities.contains(offset) { return }
                }
                afterControl = readThrough || cluster == "\t"
                offset += bytes.utf8.count
            }
        }
        #expect(checked > 3_000, "seed \(seed): \(checked)")
    }

    /// Long runs of bidi marks (with marks after some, read through or not) cost time in
    /// proportion to their length, streamed or whole: the lookahead's walk goes on from
    /// where it stopped, and the clusters after the first of a run need no scan. (A run
    /// of M marks cost O(M²): 300,000 took 10 s.) And they wrap as they do whole.
    @Test func longRunsOfBidiMarksCostTheirLength() {
        let seed = TestSeed.base(0x2EAD_0B1D)
        var rng = SeededGenerator(seed: seed)
        // Units read through whole, then two that are not (U+035C is of class GL, a tab BA).
        let runs = ["\u{200E}", "\u{2066}", "\u{200E}\u{301}", "\u{2069}\u{200D}", "\u{200F}\u{35C}", "\t\u{301}"]
        for round in 0..<5 {
            var text = ["aaaa bbbb $(", "word ", "x", "\t"].randomElement(using: &rng)!
            let unit = round == 0 ? runs[0] : runs.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 15_000...25_000, using: &rng) {
                text += Int.random(in: 0..<50, using: &rng) == 0 ? runs[Int.random(in: 0..<4, using: &rng)] : unit
            }
            text += ["12345678", " end", "a"].randomElement(using: &rng)!
            let bytes = Array(text.utf8)
            let cuts = Self.randomCuts(bytes, longest: 40, using: &rng)
            let width = [8, 13, 80].randomElement(using: &rng)!
            var whole = ParagraphWrapper(settings: LayoutSettings(width: width))
            whole.usesOnePass = false
            var growing = ParagraphWrapper(settings: LayoutSettings(width: width))
            growing.usesOnePass = false
            let wholeLines = whole.layOutGrowing(bytes, cuts: [], breakers: LayoutBreakers())
            let growingLines = growing.layOutGrowing(bytes, cuts: cuts, breakers: LayoutBreakers())
            let context = "seed \(seed) round \(round): \(unit.unicodeScalars.map { String($0.value, radix: 16) }), \(bytes.count) bytes"
            #expect(growingLines == wholeLines, "\(context)")
            for (name, wrapper) in [("whole", whole), ("growing", growing)] {
                #expect(wrapper.scannedBytes <= 8 * bytes.count, "\(context): \(name) scanned \(wrapper.scannedBytes)")
                #expect(wrapper.lookaheadSteps <= 2 * bytes.count, "\(context): \(name) walked \(wrapper.lookaheadSteps)")
            }
        }
    }

    @Test func whatIsReadThrough() {
        func check(_ text: String, afterControl: Bool) -> Bool {
            var copy = text
            return copy.withUTF8 { ParagraphWrapper.isReadThrough($0, afterControl: afterControl) }
        }
        #expect(check("\u{200E}", afterControl: false))
        #expect(check("\u{2069}", afterControl: false))
        #expect(check("\u{E0001}", afterControl: false))
        #expect(check("\u{3035}", afterControl: false))
        #expect(!check("\u{301}", afterControl: false))
        #expect(check("\u{301}", afterControl: true))
        #expect(check("\u{200D}", afterControl: true))
        #expect(check("\u{E0041}", afterControl: true))
        // Marks LB9 does not attach (class GL, BA or NS) count as lookahead like any other.
        #expect(!check("\u{35C}", afterControl: true))
        #expect(!check("\u{F7F}", afterControl: true))
        #expect(!check("\u{FF9E}", afterControl: true))
        // Thai and Myanmar marks (class SA) are CM by LB1.
        #expect(check("\u{E31}", afterControl: true))
        #expect(check("\u{102B}", afterControl: true))
        #expect(!check("中", afterControl: true))
        #expect(!check("é", afterControl: false))
        #expect(!check("👍", afterControl: false))
    }
}
