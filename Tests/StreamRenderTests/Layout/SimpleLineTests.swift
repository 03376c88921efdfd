import Testing
@testable import StreamRender

/// The wrapper's fast path for a complete line that fits and holds only one-column
/// clusters (printable ASCII, box drawing: code lines, table rows): the lines it gives
/// are the reference layout's, under every policy.
@Suite struct SimpleLineTests {
    static let pieces = ["a", "b", " ", "|", "─", "│", "┌", "┼", "╳", "é", "中", "▀", "x y", "  "]

    static func randomText(using rng: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<40 {
            let length = Int.random(in: 0...50, using: &rng)
            // Most lines box drawing and ASCII only; some with a character outside them.
            let pool = Int.random(in: 0..<4, using: &rng) == 0 ? pieces : Array(pieces.prefix(9))
            text += (0..<length).map { _ in pool.randomElement(using: &rng)! }.joined() + "\n"
        }
        return text
    }

    @Test func boxDrawingLinesLayOutAsTheReference() {
        let seed = TestSeed.base(0x51_4E01)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<20 {
            let text = Self.randomText(using: &rng)
            for settings in [LayoutSettings(width: 30), LayoutSettings(width: 45, policy: .wcwidth),
                             LayoutSettings(width: 45, policy: WidthPolicy(mode: .grapheme, ambiguousIsWide: true))] {
                let laid = layOut(randomPieces(text, using: &rng, maxScalars: 16), settings: settings, check: false)
                #expect(firstDifference(laid.lines, ReferenceLayout.lines(of: text, settings: settings)) == nil,
                        "seed \(seed) round \(round) \(settings)")
            }
        }
    }

    @Test func simpleWidthIsTheDisplayWidthOfBoxDrawingAndASCII() {
        for text in ["", "abc", "│ a │ b │", "┌──┬──┐", "─" + String(repeating: "x", count: 20)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { ParagraphWrapper.simpleWidth($0, ambiguousIsWide: false) }
                    == DisplayWidth.of(text), "\(text)")
        }
        for text in ["é", "│中│", "▀", "a\u{301}", "│\u{301}", "\u{1F600}"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { ParagraphWrapper.simpleWidth($0, ambiguousIsWide: false) } == nil, "\(text)")
        }
        #expect(Array("│ a │".utf8).withUnsafeBufferPointer { ParagraphWrapper.simpleWidth($0, ambiguousIsWide: true) } == nil)
        #expect(Array("a b".utf8).withUnsafeBufferPointer { ParagraphWrapper.simpleWidth($0, ambiguousIsWide: true) } == 3)
    }
}
