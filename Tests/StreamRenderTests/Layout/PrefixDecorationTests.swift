import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The prefix a line shows (`DocumentLayout.decoration(of:in:)`): its pieces cut to
/// the prefix's column cluster by cluster and padded to it, whole pieces of printable
/// ASCII kept without measuring each character.
@Suite struct PrefixDecorationTests {
    typealias Piece = ParagraphFormat.Piece

    static func shown(_ first: [Piece], _ other: [Piece], width: Int) -> (first: [Piece], other: [Piece]) {
        var document = StyledDocument()
        let id = document.formats.intern(ParagraphFormat(firstPrefix: first, continuationPrefix: other))
        let layout = DocumentLayout(settings: LayoutSettings(width: width, tabSize: 4, policy: .wcwidth))
        let decoration = layout.decoration(of: id, in: document)
        return (decoration.first, decoration.other)
    }

    @Test func piecesAreCutToTheColumnAndPadded() {
        let bold = Style(attributes: .bold)
        // (Expected values written out by hand.)
        let cases: [(first: [Piece], other: [Piece], width: Int, shownFirst: [Piece], shownOther: [Piece])] = [
            // A nested bullet after an ordered item's indentation: ASCII, then not.
            ([Piece("   "), Piece("• ", style: bold)], [Piece("     ")], 80,
             [Piece("   "), Piece("• ", style: bold)], [Piece("     ")]),
            ([Piece("│ "), Piece("10. ", style: bold), Piece("▪ ")], [Piece("│ "), Piece("      ")], 80,
             [Piece("│ "), Piece("10. ", style: bold), Piece("▪ ")], [Piece("│ "), Piece("      ")]),
            // Cut at the width less one column: within an ASCII piece, within a wide character.
            ([Piece("1234. "), Piece("• ")], [Piece("        ")], 5, [Piece("1234")], [Piece("    ")]),
            ([Piece("  "), Piece("漢 ")], [Piece("   ")], 4, [Piece("  "), Piece(" ")], [Piece("   ")]),
            ([Piece("12. ", style: bold)], [Piece("    ")], 4, [Piece("12.", style: bold)], [Piece("   ")]),
        ]
        for c in cases {
            let shown = Self.shown(c.first, c.other, width: c.width)
            #expect(shown.first == c.shownFirst, "\(c.first) at \(c.width)")
            #expect(shown.other == c.shownOther, "\(c.other) at \(c.width)")
        }
    }
}
