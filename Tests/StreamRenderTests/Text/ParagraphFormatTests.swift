import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct ParagraphFormatTests {
    /// A prefix piece never carries a control to the terminal (shown as a symbol, or
    /// dropped for line ends and tabs); clean pieces are kept as given.
    @Test func piecesAreSanitisedAndCleanOnesKept() {
        for clean in ["   ", "• ", "│ ", "↪ ", "1. ", "[12] ", "é ", ""] {
            #expect(ParagraphFormat.Piece(clean).text == clean)
        }
        for dirty in ["\u{1B}[31m> ", "a\tb", "line\nend", "x\u{7F}", "c1\u{85}", "\r\n"] {
            let text = ParagraphFormat.Piece(dirty).text
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(dirty.debugDescription) → \(text.debugDescription)")
        }
        #expect(ParagraphFormat.Piece("a\tb").text == "ab")
    }
}
