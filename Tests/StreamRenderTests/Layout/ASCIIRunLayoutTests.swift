import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// Runs of printable ASCII placed from their bytes (`ParagraphWrapper.placeASCIIRun`)
/// against the cluster-by-cluster path they stand in for: the same lines, for long
/// paragraphs of words, long runs without spaces (hex, base64: past the forced
/// restarts), runs of spaces, and what ends a run (a mark joining the letter before
/// it, an emoji, CJK, a tab, a line separator, Thai), at widths from 1 column, first
/// and other lines of different widths, fed whole and in random pieces down to single
/// bytes. Also against the reference layout, written apart from both.
@Suite struct ASCIIRunLayoutTests {
    static let words = ["a", "word", "streaming", "the", "of", "render", "terminal", "x", "e.g.", "don't", "(see", "ok)",
                        "1,234.56", "$5", "10%", "A-B", "x/y", "--", "-", "/", "\"q\"", "#1", "https://example.com/a/b-c?x=1"]
    /// What ends a run of printable ASCII: a mark joins the letter before it.
    static let breakers = ["e\u{301}", "\u{301}", "—", "“", "”", "🚀", "👩‍👩‍👧", "中文", "\t", "\u{2028}", "ภาษาไทย", "\u{200B}",
                           "x" + String(repeating: "\u{301}", count: 40), "é", "가"]

    static func randomParagraph(using rng: inout SeededGenerator) -> String {
        var text = ""
        let length = [60, 400, 3_000, 9_000].randomElement(using: &rng)!
        let breakerOdds = [0, 20, 200].randomElement(using: &rng)!
        while text.utf8.count < length {
            let roll = Int.random(in: 0..<100, using: &rng)
            if roll < 3 {
                // A run without a space: letters alone have no opportunity; a slash or a
                // hyphen gives one now and then (base64, URLs); past 256 bytes the
                // cluster path forces its restart anywhere.
                let alphabet = ["abcdef0123456789", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/",
                                "abc-def/ghi."].randomElement(using: &rng)!
                text += String((0..<Int.random(in: 20...700, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            } else if roll < 6 {
                text += String(repeating: " ", count: Int.random(in: 2...120, using: &rng))
            } else if breakerOdds > 0 && Int.random(in: 0..<breakerOdds, using: &rng) == 0 {
                text += breakers.randomElement(using: &rng)!
            } else {
                text += words.randomElement(using: &rng)!
            }
            text += " "
        }
        return text
    }

    /// The lines of `text` from the cluster path, runs placed from their bytes or not,
    /// fed in pieces ending at `cuts` before it is complete.
    static func lines(_ text: [UInt8], first: Int, other: Int, policy: WidthPolicy = .grapheme, runs: Bool,
                      cuts: [Int] = []) -> [VisualLine] {
        layOut(text, first: first, other: other, policy: policy, runs: runs, cuts: cuts).lines
    }

    /// ``lines(_:first:other:policy:runs:cuts:)`` and the bytes placed as runs.
    static func layOut(_ text: [UInt8], first: Int, other: Int, policy: WidthPolicy = .grapheme, runs: Bool,
                       cuts: [Int] = []) -> (lines: [VisualLine], fromRuns: Int) {
        var wrapper = ParagraphWrapper(settings: LayoutSettings(width: max(first, other), policy: policy))
        wrapper.setLineWidths(first: first, other: other)
        wrapper.usesOnePass = false
        wrapper.usesASCIIRuns = runs
        // What it may print of the current line is text it has placed.
        let lines = wrapper.layOutGrowing(text, cuts: cuts, breakers: LayoutBreakers()) { wrapper, cut in
            #expect(wrapper.certainEnd <= cut)
        }
        return (lines, wrapper.bytesPlacedFromRuns)
    }

    /// Cut points at scalar starts: a few large pieces, many small ones, or single bytes.
    static func randomCuts(_ text: [UInt8], using rng: inout SeededGenerator) -> [Int] {
        var cuts: [Int]
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: cuts = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Int.random(in: 0...text.count, using: &rng) }
        case 1:
            cuts = []
            var at = 0
            while at < text.count { at += Int.random(in: 1...9, using: &rng); cuts.append(at) }
        default: cuts = Array(1..<text.count)
        }
        // (The document holds whole scalars: a paragraph so far never ends inside one.)
        return cuts.map { var c = $0; while c < text.count && c > 0 && text[c] & 0xC0 == 0x80 { c -= 1 }; return c }.sorted()
    }

    @Test func runsGiveTheClusterPathsLines() {
        let seed = TestSeed.base(0xA5C1_1A77)
        var rng = SeededGenerator(seed: seed)
        var multiLine = 0, bytes = 0, fromRuns = 0
        for round in 0..<300 {
            let text = Array(Self.randomParagraph(using: &rng).utf8)
            let first = Int.random(in: 1...100, using: &rng)
            let other = Int.random(in: 0..<3, using: &rng) == 0 ? first : Int.random(in: 1...100, using: &rng)
            let policy = [WidthPolicy.grapheme, .wcwidth, WidthPolicy(mode: .grapheme, ambiguousIsWide: true)]
                .randomElement(using: &rng)!
            let cuts = text.count > 3_000 && Int.random(in: 0..<4, using: &rng) > 0 ? [] : Self.randomCuts(text, using: &rng)
            let slow = Self.lines(text, first: first, other: other, policy: policy, runs: false)
            let whole = Self.lines(text, first: first, other: other, policy: policy, runs: true)
            let (streamed, runBytes) = Self.layOut(text, first: first, other: other, policy: policy, runs: true, cuts: cuts)
            bytes += text.count
            fromRuns += runBytes
            #expect(whole == slow, "seed \(seed) round \(round) widths \(first)/\(other) \(policy)")
            #expect(streamed == slow, "seed \(seed) round \(round) widths \(first)/\(other) \(policy) cuts \(cuts.count)")
            // (Past 192 bytes without an opportunity the cluster path forces its restart
            // anywhere, and its scan from there can differ from the whole text's, as
            // decision 0007 says: the reference reads the whole text.)
            if first == other && policy == .grapheme && !text.split(separator: 0x20).contains(where: { $0.count > 150 }) {
                #expect(whole == ReferenceLayout.lines(text, settings: LayoutSettings(width: first, policy: policy)),
                        "seed \(seed) round \(round) width \(first) against the reference")
            }
            if slow.count > 3 { multiLine += 1 }
        }
        #expect(multiLine > 150, "seed \(seed): \(multiLine)")  // most paragraphs wrap: the runs are what is tested
        #expect(fromRuns * 2 > bytes, "\(fromRuns) of \(bytes) bytes placed as runs")
    }

    @Test func whatEndsARunGoesTheClusterWay() {
        // A mark after the last letter of a run joins it; a line separator is a
        // mandatory break; an emoji, a tab and Thai are clusters the run path never makes.
        func scalarStarts(_ text: [UInt8]) -> [Int] { (1..<text.count).filter { text[$0] & 0xC0 != 0x80 } }
        let letters = String(repeating: "abc ", count: 30)
        for tail in ["e\u{301}f", "\u{2028}next line", "🚀 rocket", "\tx", "ภาษาไทย ok", "x" + String(repeating: "\u{301}", count: 300)] {
            let text = Array((letters + tail + " " + letters).utf8)
            for width in [1, 7, 40] {
                let slow = Self.lines(text, first: width, other: width, runs: false)
                #expect(Self.lines(text, first: width, other: width, runs: true) == slow, "\(tail) at \(width)")
                #expect(Self.lines(text, first: width, other: width, runs: true, cuts: scalarStarts(text)) == slow,
                        "\(tail) at \(width), byte by byte")
            }
        }
        // One line of hex: cut at the width, every line but the last full.
        let hex = Array(String(repeating: "0123456789abcdef", count: 64).utf8)
        let (lines, fromRuns) = Self.layOut(hex, first: 80, other: 80, runs: true, cuts: [100, 700, 701])
        #expect(lines.count == 13 && lines.dropLast().allSatisfy { $0.width == 80 } && lines.last?.width == 64)
        #expect(fromRuns > 900, "\(fromRuns) bytes placed as runs")
    }
}
