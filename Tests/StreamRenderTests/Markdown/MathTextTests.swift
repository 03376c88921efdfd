import Testing
@_spi(Benchmarks) @testable import StreamRender

/// `MathText` against the snippet table (Resources/math/snippets.tsv): LaTeX from LLM
/// answers with its expected Unicode, written by hand from the rule book
/// (docs/decisions/0020-math.md) apart from the code.
@Suite struct MathTextTests {
    static let rows: [(latex: String, expected: String, source: String)] = Fixtures.text("math/snippets.tsv")
        .split(separator: "\n", omittingEmptySubsequences: true)
        .filter { !$0.hasPrefix("#") }
        .map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (fields[0], fields[1], fields.count > 2 ? fields[2] : "")
        }

    @Test func theTableHasAtLeast100SnippetsFromAnswers() {
        #expect(Self.rows.count >= 100)
        #expect(Self.rows.filter { $0.source.hasPrefix("http") || $0.source.contains("/") }.count >= 60)
    }

    /// Footnote references are raised digit by digit from bytes; written out here apart
    /// from both that and the superscript table.
    @Test func raisedDigitsAreTheSuperscriptDigits() {
        #expect(String(decoding: MathText.raisedDigits(1234567890), as: UTF8.self) == "\u{B9}\u{B2}\u{B3}\u{2074}\u{2075}\u{2076}\u{2077}\u{2078}\u{2079}\u{2070}")
        #expect(String(decoding: MathText.raisedDigits(0), as: UTF8.self) == "\u{2070}")
        for number in 0...2_000 {
            #expect(MathText.raisedDigits(number) == Array(MathText.superscript(String(number))!.utf8), "\(number)")
        }
    }

    @Test func everySnippetConvertsAsTheRuleBookSays() {
        var failures: [String] = []
        for row in Self.rows {
            let got = MathText.unicode(row.latex)
            // Compare scalar by scalar: accents are written decomposed in the table.
            if Array(got.unicodeScalars) != Array(row.expected.unicodeScalars) {
                failures.append("\(row.latex)  →  \(got)  (expected \(row.expected))")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.rows.count):\n\(failures.joined(separator: "\n"))")
    }

    /// Nothing is dropped: every letter and digit of an unknown command's name and
    /// arguments is still in the output.
    @Test func unknownCommandsKeepTheirText() {
        for latex in ["\\boxed{x+1}", "\\color{red}{y}", "\\overset{def}{=}", "\\begin{equation}a=b\\end{equation}"] {
            let got = MathText.unicode(latex)
            for ch in latex where ch.isLetter || ch.isNumber { #expect(got.contains(ch), "\(latex) → \(got)") }
        }
    }
}
