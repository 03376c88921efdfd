import Foundation
import Testing

/// Math from the command line, default flags: drawn with Unicode; `--math off` gives
/// the source back as written.
@Suite struct MathCommandLineTests: EndToEnd {
    static let answer = """
        The roots of $ax^2 + bx + c = 0$ are \\(x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\\), for $a \\neq 0$.

        \\[
        \\mathbb{E}[X] = \\sum_{i=1}^{n} x_i\\,p_i
        \\]

        It costs $5-$10 a month.

        """

    @Test func mathIsDrawnWithUnicodeAndOffGivesTheSourceBack() throws {
        let on = try CommandLineTests.run(["--width", "100"], stdin: Data(Self.answer.utf8))
        #expect(on.status == 0, "\(on.stderr)")
        let shown = String(decoding: on.stdout, as: UTF8.self)
        #expect(shown.contains("The roots of ax² + bx + c = 0 are x = (-b ± √(b²-4ac))/2a, for a ≠ 0."), "\(shown)")
        let centred = shown.components(separatedBy: "\n").first { $0.contains("𝔼[X]") }
        #expect(centred?.hasPrefix(String(repeating: " ", count: 30)) == true && centred?.hasSuffix("𝔼[X] = ∑ᵢ₌₁ⁿ xᵢ pᵢ") == true,
                "\(centred ?? "no display line")")
        #expect(shown.contains("It costs $5-$10 a month."))
        let off = try CommandLineTests.run(["--width", "100", "--math", "off"], stdin: Data(Self.answer.utf8))
        #expect(String(decoding: off.stdout, as: UTF8.self) == Self.answer)
        let bad = try CommandLineTests.run(["--math", "maybe"], stdin: Data())
        #expect(bad.status == 2)
    }
}
