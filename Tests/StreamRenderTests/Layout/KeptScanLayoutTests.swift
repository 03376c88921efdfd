import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// R forced on at an opportunity keeps the scan made from before it when the line
/// breaker's fast path made it (`ParagraphWrapper.moveRestart`): its reading in
/// context must be what a rescan from R, reading R as the text's start, finds. The
/// same lines with the scan kept and with a rescan at every forced restart, for
/// paragraphs with no space for hundreds of bytes (emoji, CJK, numbers, brackets,
/// quotes, hyphens, slashes, marks, flags, joiners, and characters only ICU reads),
/// whole and in random pieces.
@Suite struct KeptScanLayoutTests {
    static let pieces = ["🚀", "👍🏽", "🧑🏿‍💻", "🇫🇷", "🇯", "❤️", "1️⃣", "中", "文", "。", "、", "가", "ア",
                         "a", "x", "Z", "1", "42", "3.5", "$", "%", "(", ")", "[", "]", "{", "}", "\"", "'", "-", "—", "/",
                         ".", ",", ":", ";", "!", "?", "–", "…", "«", "»", "\u{301}", "\u{200D}", "\u{A0}", "é", "α", "+",
                         "#", "€", "°", "•", "→", "™", "\u{2011}", "\u{202F}", "¿",
                         // Not covered (ICU reads the scans that reach them): some scans are kept, some not.
                         "ー", "「", "ッ", "\u{200B}"]

    static func randomParagraph(using rng: inout SeededGenerator) -> String {
        var text = ""
        let length = [200, 1_500, 5_000].randomElement(using: &rng)!
        // Mostly one kind now and then (runs of emoji, of digits, of brackets).
        while text.utf8.count < length {
            let piece = pieces.randomElement(using: &rng)!
            text += String(repeating: piece, count: Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 1...12, using: &rng) : 1)
            if Int.random(in: 0..<200, using: &rng) == 0 { text += " " }
        }
        return text
    }

    static func layOut(_ text: [UInt8], width: Int, policy: WidthPolicy, keeps: Bool, cuts: [Int]) -> (lines: [VisualLine], kept: Int) {
        var wrapper = ParagraphWrapper(settings: LayoutSettings(width: width, policy: policy))
        wrapper.usesOnePass = false
        wrapper.keepsScansAtRestarts = keeps
        let lines = wrapper.layOutGrowing(text, cuts: cuts, breakers: LayoutBreakers())
        return (lines, wrapper.scansKeptAtRestarts)
    }

    @Test func keptScansGiveTheLinesOfRescans() {
        let seed = TestSeed.base(0x4EE9_5CA4)
        var rng = SeededGenerator(seed: seed)
        var kept = 0
        for round in 0..<250 {
            let text = Array(Self.randomParagraph(using: &rng).utf8)
            let width = [1, 2, 3, 7, 20, 80].randomElement(using: &rng)!
            let policy = [WidthPolicy.grapheme, .wcwidth].randomElement(using: &rng)!
            var cuts: [Int] = []
            if Int.random(in: 0..<2, using: &rng) == 0 {
                var at = 0
                while at < text.count { at += Int.random(in: 1...40, using: &rng); cuts.append(at) }
                cuts = cuts.map { var c = $0; while c < text.count && text[c] & 0xC0 == 0x80 { c -= 1 }; return c }
            }
            let rescanned = Self.layOut(text, width: width, policy: policy, keeps: false, cuts: cuts)
            let keeping = Self.layOut(text, width: width, policy: policy, keeps: true, cuts: cuts)
            #expect(rescanned.kept == 0)
            kept += keeping.kept
            #expect(keeping.lines == rescanned.lines, "seed \(seed) round \(round) width \(width) \(policy) cuts \(cuts.count)")
            if keeping.lines != rescanned.lines { return }
        }
        #expect(kept > 1_000, "seed \(seed): only \(kept) scans kept")
    }
}
