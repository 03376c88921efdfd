import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Clusters the line-break rules read through (LB9: a bidi mark, or a mark or joiner
/// after one) do not count as an opportunity's lookahead: a rule's context may span any
/// number of them, and a paragraph that grows must wrap as it does whole.
@Suite struct ReadThroughLayoutTests {
    static let pieces = ["$", "€", "%", "(", "[", "-", ".", ",", "/", "1", "42", "a", "word", " ", "  ", "\t", "中",
                         "\u{200E}", "\u{200F}", "\u{061C}", "\u{2066}", "\u{2069}", "\u{202B}", "\u{FFF9}", "\u{E0001}",
                         "\u{301}", "\u{200D}", "\u{E0041}", "\u{94D}", "é", "\u{3035}"]

    /// `text` laid out whole, and as it grows to each of `cuts`, without the one-pass path.
    static func lines(_ text: [UInt8], width: Int, policy: WidthPolicy = .grapheme, cuts: [Int])
        -> (whole: [VisualLine], growing: [VisualLine]) {
        var whole = ParagraphWrapper(settings: LayoutSettings(width: width, policy: policy))
        var growing = ParagraphWrapper(settings: LayoutSettings(width: width, policy: policy))
        growing.usesOnePass = false
        return (whole.layOutGrowing(text, cuts: [], breakers: LayoutBreakers()),
                growing.layOutGrowing(text, cuts: cuts, breakers: LayoutBreakers()))
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

    @Test func paragraphsWithMarksWithoutBasesWrapAsWhole() {
        let seed = TestSeed.base(0x2EAD_7A1C)
        var rng = SeededGenerator(seed: seed)
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
            var cuts: [Int] = []
            var at = 0
            while at < bytes.count {
                at += Int.random(in: 1...12, using: &rng)
                var c = min(at, bytes.count)
                while c < bytes.count && bytes[c] & 0xC0 == 0x80 { c -= 1 }
                cuts.append(c)
            }
            let width = [3, 5, 8, 13, 30].randomElement(using: &rng)!
            let policy = [WidthPolicy.grapheme, .wcwidth, .scalars].randomElement(using: &rng)!
            let (whole, growing) = Self.lines(bytes, width: width, policy: policy, cuts: cuts)
            #expect(growing == whole, "seed \(seed) round \(round) width \(width) \(policy): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            if growing != whole { return }
        }
    }

    /// Where a restart is forced at a cluster that is not an opportunity, it prefers one
    /// `readsAsInContext` accepts: ICU's reading from there is its reading in context.
    @Test func readingFromARestartThatReadsAsInContextIsReadingInContext() {
        let seed = TestSeed.base(0x2EAD_C0DE)
        var rng = SeededGenerator(seed: seed)
        let icu = LineBreaker()
        icu.usesASCIIFastPath = false
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
        #expect(checked > 5_000, "\(checked)")
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
        #expect(!check("中", afterControl: true))
        #expect(!check("é", afterControl: false))
        #expect(!check("👍", afterControl: false))
    }
}
