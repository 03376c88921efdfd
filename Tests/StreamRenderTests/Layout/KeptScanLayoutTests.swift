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

    /// After R is forced on past no opportunity, the first scan reads as far as R can be
    /// forced on again (`ParagraphWrapper.farScanEnd`): the same lines as a scan grown
    /// from a window, whole and in random pieces, for paragraphs without spaces; and
    /// long runs without opportunities (hex for the fast path, bidi marks for ICU's)
    /// are scanned a quarter less at least (three windows from each restart were).
    @Test func aScanAfterAForcedRestartReadsItsReachAtOnce() {
        let seed = TestSeed.base(0x4EE9_5CA5)
        var rng = SeededGenerator(seed: seed)
        func layOut(_ text: [UInt8], width: Int, reach: Bool, cuts: [Int]) -> (lines: [VisualLine], scanned: Int) {
            var wrapper = ParagraphWrapper(settings: LayoutSettings(width: width))
            wrapper.usesOnePass = false
            wrapper.scansReachAfterForcedRestarts = reach
            let lines = wrapper.layOutGrowing(text, cuts: cuts, breakers: LayoutBreakers())
            return (lines, wrapper.scannedBytes)
        }
        for round in 0..<200 {
            var text = Self.randomParagraph(using: &rng)
            if round % 4 == 0 {
                // A run of bidi marks, some with a mark after them (ICU reads it).
                text += (0..<Int.random(in: 200...2_000, using: &rng)).map { _ in
                    ["\u{200E}", "\u{2066}", "\u{200F}\u{301}", "\u{200E}\u{35C}"].randomElement(using: &rng)!
                }.joined()
            }
            let bytes = Array(text.utf8)
            var cuts: [Int] = []
            if round % 2 == 1 {
                var at = 0
                while at < bytes.count { at += Int.random(in: 1...40, using: &rng); cuts.append(at) }
                cuts = cuts.map { var c = $0; while c < bytes.count && bytes[c] & 0xC0 == 0x80 { c -= 1 }; return c }
            }
            let width = [1, 3, 20, 80].randomElement(using: &rng)!
            let grown = layOut(bytes, width: width, reach: false, cuts: cuts)
            let reaching = layOut(bytes, width: width, reach: true, cuts: cuts)
            #expect(reaching.lines == grown.lines, "seed \(seed) round \(round) width \(width) cuts \(cuts.count)")
            if reaching.lines != grown.lines { return }
        }
        for text in [String(repeating: "0123456789abcdef", count: 4_000),
                     "$(" + String(repeating: "\u{200E}\u{2066}\u{200F}\u{301}\u{2069}\u{200E}\u{35C}", count: 3_000)] {
            let bytes = Array(text.utf8)
            let grown = layOut(bytes, width: 80, reach: false, cuts: [])
            let reaching = layOut(bytes, width: 80, reach: true, cuts: [])
            #expect(reaching.lines == grown.lines)
            // (Hex is cut every 256 bytes and scanned 384 past each cut: 1.5x, against 3x;
            // the marks' run 2.3x against 3.5x: some of its marks end at opportunities.)
            #expect(reaching.scanned * 4 < grown.scanned * 3, "scanned \(reaching.scanned) of \(bytes.count), grown \(grown.scanned)")
            #expect(text.hasPrefix("$") || reaching.scanned <= bytes.count * 8 / 5, "scanned \(reaching.scanned) of \(bytes.count)")
        }
    }
}
