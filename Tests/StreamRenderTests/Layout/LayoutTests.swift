import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct LayoutTests {
    func shown(_ text: String, width: Int, tabSize: Int = 8, policy: WidthPolicy = .grapheme) -> [String] {
        let result = layOut([text], settings: LayoutSettings(width: width, tabSize: tabSize, policy: policy))
        return texts(result.lines, result.view)
    }

    @Test func wrapsAtSpacesAndDropsTheWrapSpaces() {
        #expect(shown("hello world foo", width: 11) == ["hello world", "foo"])
        #expect(shown("aaaa bbbb", width: 4) == ["aaaa", "bbbb"])
        #expect(shown("aaaa     bbbb", width: 6) == ["aaaa", "bbbb"])
    }

    @Test func aWordWiderThanTheLineBreaksBetweenClusters() {
        #expect(shown("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(shown("e\u{301}e\u{301}e\u{301}", width: 2) == ["e\u{301}e\u{301}", "e\u{301}"])
    }

    @Test func aWideClusterNeverStraddlesTheEdge() {
        #expect(shown("a中文", width: 4) == ["a中", "文"])
        #expect(shown("ab👨‍👩‍👧", width: 3) == ["ab", "👨‍👩‍👧"])
    }

    @Test func aClusterWiderThanTheLineIsAReplacementOfTheFullWidth() {
        let result = layOut(["中a"], settings: LayoutSettings(width: 1))
        #expect(result.lines.map(\.isReplacement) == [true, false])
        #expect(result.lines.map(\.width) == [1, 1])
        #expect(texts(result.lines, result.view) == ["\u{FFFD}", "a"])
        // Under wcwidth a thumb with a skin tone is 4 columns wide (two wide scalars).
        let wc = layOut(["👍🏽"], settings: LayoutSettings(width: 3, policy: .wcwidth))
        #expect(wc.lines.map(\.width) == [3])
        #expect(wc.lines.first?.isReplacement == true)
    }

    @Test func tabsExpandToTheNextTabStopAndAreCutAtTheEdge() {
        #expect(shown("a\tb", width: 80) == ["a       b"])
        #expect(shown("a\tb", width: 80, tabSize: 4) == ["a   b"])
        let result = layOut(["abcdef\tx"], settings: LayoutSettings(width: 7))
        // The tab at column 6 is cut to one column; "x" then wraps after it.
        #expect(result.lines.map(\.width) == [7, 1])
    }

    @Test func lineEndsAndMandatoryBreaks() {
        #expect(shown("a\r\nb\rc\nd", width: 10) == ["a", "b", "c", "d"])
        #expect(shown("a\n\nb", width: 10) == ["a", "", "b"])
        #expect(shown("a\n", width: 10) == ["a"])
        #expect(shown("", width: 10) == [])
        #expect(shown("a\u{2028}b", width: 10).count == 2)
    }

    @Test func spacesAtTheEndOfAParagraphHangPastTheEdge() {
        let result = layOut(["abc" + String(repeating: " ", count: 20)], settings: LayoutSettings(width: 5))
        #expect(result.lines.map(\.width) == [5])
    }

    @Test func controlSequencesInContentBecomeVisibleSymbols() {
        let hostile = "a\u{1B}]0;title\u{07}b\u{1B}[2Jc\u{1B}]52;c;aGVsbG8=\u{07}d\re\u{85}f\u{9B}g\u{7F}"
        for width in [1, 3, 80] {
            let result = layOut(randomPiecesFixed(hostile), settings: LayoutSettings(width: width))
            let all = texts(result.lines, result.view).joined(separator: "\n")
            for b in all.utf8 { #expect(b >= 0x20 || b == 0x0A, "control byte \(b) reached the output") }
            #expect(all.contains("\u{241B}"))  // ESC as a visible symbol
        }
    }

    func randomPiecesFixed(_ text: String) -> [String] {
        var rng = SeededGenerator(seed: 7)
        return randomPieces(text, using: &rng, maxScalars: 3)
    }

    @Test func committedLinesAreFinalAndComeInOrder() {
        var rng = SeededGenerator(seed: TestSeed.base(11))
        let text = RandomDocument.make(using: &rng, pieces: 300)
        let result = layOut(randomPieces(text, using: &rng), settings: LayoutSettings(width: 20))
        #expect(result.committed == result.lines)
    }
}
