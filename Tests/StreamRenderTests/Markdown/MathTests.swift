import Testing
@_spi(Benchmarks) @testable import StreamRender

/// LaTeX math in markdown: where it is found, how it is drawn, and that streaming
/// does not change it (docs/decisions/0020-math.md).
@Suite struct MathTests {
    static func render(_ markdown: String, math: Bool = true, width: Int = 80) -> String {
        text(MarkdownRenderer(options: MarkdownOptions(width: width, math: math)).render(markdown))
    }

    @Test func everyDelimiterIsFound() {
        #expect(Self.render("a $x^2$ b") == "a x² b")
        #expect(Self.render("a \\(x^2\\) b") == "a x² b")
        #expect(Self.render("a $$x^2$$ b") == "a x² b")  // display math inside text is inline
        #expect(Self.render("a \\[x^2\\] b") == "a x² b")
    }

    /// md4c reads `\,` and `\{` as markdown escapes; the math is taken from the source.
    @Test func markdownEscapesInsideMathAreLaTeXs() {
        #expect(Self.render("\\(\\{x \\mid x > 0\\}\\)") == "{x ∣ x > 0}")
        #expect(Self.render("\\(a\\,b\\;c\\!d\\)") == "a b cd")
        #expect(Self.render("\\(a*b*c\\) and \\(x_1 + y_1\\)") == "a*b*c and x₁ + y₁")
        #expect(Self.render("$\\{x\\}$") == "{x}")
    }

    @Test func moneyAndCodeAreNotMath() {
        #expect(Self.render("from $5-$10 a month") == "from $5-$10 a month")
        #expect(Self.render("it costs $5 and $10") == "it costs $5 and $10")
        #expect(Self.render("`$x^2$` and `\\(x\\)`") == "$x^2$ and \\(x\\)")
        #expect(Self.render("```\n$x^2$ \\(y\\)\n```") == "1\n$x^2$ \\(y\\)")
        #expect(Self.render("\\\\(x\\\\)") == "\\(x\\)")  // escaped backslashes: no math
        #expect(Self.render("\\(\\) and \\[\\\\\\]") == "() and [\\]")  // escaped punctuation (GFM example 308)
    }

    @Test func mathOffShowsTheSourceAsWritten() {
        let source = "Roots $x = \\frac{-b}{2a}$, \\(\\alpha\\,\\beta\\) and $$\\sum_i x_i$$ end."
        #expect(Self.render(source, math: false) == source)
        #expect(Self.render("\\[\\{a\\}\\]", math: false) == "\\[\\{a\\}\\]")
    }

    @Test func displayMathAloneIsCentred() {
        let lines = MarkdownRenderer(options: MarkdownOptions(width: 40)).render("Text.\n\n$$\\sum_{i=1}^{n} i$$\n\nMore.")
        let shown = lines.map(\.plainText)
        #expect(shown[2] == String(repeating: " ", count: 16) + "∑ᵢ₌₁ⁿ i")  // (40 - 7) / 2
        #expect(lines[2].spans.last?.style == MarkdownTheme.dark.math)
        #expect(Self.render("\\[\nx = 1\n\\]", width: 11) == "   x = 1")
        // Wider than the width: not padded; with other text: not centred.
        #expect(Self.render("$$\\alpha\\beta\\gamma\\delta$$", width: 4) == "αβγδ")
        #expect(Self.render("Then $$x$$ follows.") == "Then x follows.")
    }

    @Test func unknownCommandsAreLeftAsWritten() {
        #expect(Self.render("$\\boxed{\\alpha} + \\foo$") == "\\boxed{α} + \\foo")
        #expect(Self.render("\\(\\unknowncmd{x}{y}\\)") == "\\unknowncmd{x}{y}")
    }

    /// Streamed in any chunking, math renders as one-shot (the spans sit in
    /// paragraphs, which are cut only between blocks here).
    @Test func everyChunkingRendersMathAsOneShot() {
        let document = """
            The quadratic formula: $x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$, where $a \\neq 0$.

            $$
            \\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}
            $$

            1. Softmax: \\(\\sigma(z)_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}\\)
            2. Sets: \\(\\mathbb{N} \\subset \\mathbb{Z} \\subset \\mathbb{R}\\), prices $5-$10.

            > Bayes: \\[P(A \\mid B) = \\frac{P(B \\mid A)\\,P(A)}{P(B)}\\]

            | f | f′ |
            | --- | --- |
            | $x^n$ | $nx^{n-1}$ |
            """
        let whole = MarkdownRenderer().render(document)
        let shown = text(whole)
        for expected in ["x = (-b ± √(b²-4ac))/2a, where a ≠ 0.", "∫₀^∞ e^(-x²) dx = (√π)/2", "σ(z)ᵢ = (e^(zᵢ))/(∑ⱼ e^(zⱼ))",
                         "ℕ ⊂ ℤ ⊂ ℝ, prices $5-$10.", "P(A ∣ B) = (P(B ∣ A) P(A))/(P(B))", "nxⁿ⁻¹"] {
            #expect(shown.contains(expected), "\(expected) in \(shown)")
        }
        expectEveryChunking(document, rendersAs: whole, seed: 2611)
    }
}
