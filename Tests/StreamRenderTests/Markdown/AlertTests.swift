import Testing
import TestSupport
@_spi(Benchmarks) @testable import StreamRender

/// GitHub's alerts: `> [!NOTE]` alone on a quote's first line becomes the quote's
/// label, in the kind's colour; nothing else of the quote is lost, and the rendering
/// is the same in every chunking.
@Suite struct AlertTests {
    /// GitHub's own examples (docs.github.com, "Basic writing and formatting syntax",
    /// Alerts; CC BY 4.0), plus the forms GitHub also accepts.
    static let examples = """
    > [!NOTE]
    > Useful information that users should know, even when skimming content.

    > [!TIP]
    > Helpful advice for doing things better or more easily.

    > [!IMPORTANT]
    > Key information users need to know to achieve their goal.

    > [!WARNING]
    > Urgent info that needs immediate user attention to avoid problems.

    > [!CAUTION]
    > Advises about risks or negative outcomes of certain actions.

    > [!note]
    >
    > Lower case, then a blank line in the quote.
    """

    static func plain(_ text: String, theme: MarkdownTheme = .monochrome) -> [String] {
        MarkdownRenderer(options: MarkdownOptions(theme: theme)).render(text + "\n").map(\.plainText)
    }

    @Test func theFiveKindsShowTheirLabelsAndAllTheirText() {
        let lines = Self.plain(Self.examples)
        #expect(lines == [
            "│ Note", "│ Useful information that users should know, even when skimming content.", "",
            "│ Tip", "│ Helpful advice for doing things better or more easily.", "",
            "│ Important", "│ Key information users need to know to achieve their goal.", "",
            "│ Warning", "│ Urgent info that needs immediate user attention to avoid problems.", "",
            "│ Caution", "│ Advises about risks or negative outcomes of certain actions.", "",
            "│ Note", "│ Lower case, then a blank line in the quote.",
        ])
        #expect(!lines.joined().contains("[!"))
    }

    /// What follows the marker on its line's break goes on as the alert's text: after a
    /// hard break the next lines, styled; after a soft break the rest of the line too.
    @Test func theTextAfterTheMarkersBreakKeepsItsLinesAndStyles() {
        #expect(Self.plain("> [!NOTE]\\\n> *x* y") == ["│ Note", "│ x y"])
        #expect(Self.plain("> [!NOTE]\n> a\\\n> b") == ["│ Note", "│ a", "│ b"])
        let lines = MarkdownRenderer(options: MarkdownOptions()).render("> [!TIP]\\\n> **bold** text\n")
        #expect(lines.count == 2 && lines[1].spans.first?.text == "bold"
                && lines[1].spans.first?.style.attributes.contains(.bold) == true, "\(lines)")
    }

    @Test func otherQuotesStayQuotes() {
        #expect(Self.plain("> [!TIP] not alone on its line") == ["│ [!TIP] not alone on its line"])
        #expect(Self.plain("> [!HINT]\n> not a kind") == ["│ [!HINT] not a kind"])
        #expect(Self.plain("> Plain quote.") == ["│ Plain quote."])
        #expect(Self.plain("[!NOTE]\nnot in a quote") == ["[!NOTE] not in a quote"])
    }

    @Test func theBarAndLabelTakeTheKindsColour() {
        let theme = MarkdownTheme.dark
        let lines = MarkdownRenderer(options: MarkdownOptions(theme: theme)).render("> [!WARNING]\n> Careful.\n")
        #expect(lines.count == 2)
        #expect(lines[0].spans.map(\.style) == [theme.alerts.warning.merged(with: Style(attributes: .bold))])
        #expect(lines.allSatisfy { $0.format.firstPrefix.first?.style == theme.alerts.warning })
        // A plain quote keeps the theme's bar.
        let quote = MarkdownRenderer(options: MarkdownOptions(theme: theme)).render("> Careful.\n")
        #expect(quote[0].format.firstPrefix.first?.style == theme.quoteBar)
    }

    @Test func streamedAlertsEqualTheOneShotRenderingInEveryChunking() {
        let text = Self.examples + "\n\nAfter the alerts.\n"
        let oneShot = MarkdownRenderer(options: MarkdownOptions()).render(text)
        let seed = TestSeed.base(7117)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<40 {
            let pieces = randomChunks(Array(text.utf8), using: &rng, maxChunk: round < 10 ? 3 : 40)
                .map { String(decoding: $0, as: UTF8.self) }
            // (Pieces cut inside a UTF-8 sequence: the examples are ASCII.)
            let streamed = streamMarkdown(pieces)
            #expect(streamed == oneShot, "seed \(seed) round \(round): \(firstDifference(streamed, oneShot) ?? "")")
        }
    }
}
