import Testing
import Foundation
@_spi(Benchmarks) @testable import StreamRender

/// Footnotes as GitHub shows them: references raised to their number, in the order
/// first referenced; definitions at the end of the text, none lost.
@Suite struct FootnoteTests {
    /// GitHub Docs, "Basic writing and formatting syntax", Footnotes (CC BY 4.0).
    static let gitHubDocs = """
        Here is a simple footnote[^1].

        A footnote can also have multiple lines[^2].

        [^1]: My reference.
        [^2]: To add line breaks within a footnote, prefix new lines with 2 spaces.
          This is a second line.

        """

    /// cmark-gfm's footnote spec example (test/extensions.txt, BSD-2-Clause).
    static let cmarkGFM = """
        This is some text![^1]. Other text.[^footnote].

        Here's a thing[^other-note].

        And another thing[^codeblock-note].

        This doesn't have a referent[^nope].


        [^other-note]:       no code block here (spaces are stripped away)

        [^codeblock-note]:
                this is now a code block (8 spaces indentation)

        [^1]: Some *bolded* footnote definition.

        Hi!

        [^footnote]:
            > Blockquotes can be in a footnote.

                as well as code blocks

            or, naturally, simple paragraphs.

        [^unused]: This is unused.

        """

    static func words(_ text: String) -> [String] {
        text.split { !$0.isLetter && !("0"..."9").contains($0) }.map(String.init)
    }

    @Test func gitHubsExampleRaisesReferencesAndListsNotesAtTheEnd() {
        let rendered = MarkdownRenderer(options: MarkdownOptions(width: 100)).render(Self.gitHubDocs)
        let lines = text(rendered).components(separatedBy: "\n")
        #expect(lines[0] == "Here is a simple footnote¹.")
        #expect(lines[2] == "A footnote can also have multiple lines².")
        #expect(rendered[4].format.fill?.text == "─")  // the rule
        #expect(lines[5] == "[1] My reference.")
        #expect(lines[6] == "[2] To add line breaks within a footnote, prefix new lines with 2 spaces. This is a second line.")
        #expect(lines.count == 7)
    }

    @Test func cmarkGFMsExampleKeepsEveryWordInReferenceOrder() {
        let shown = text(MarkdownRenderer(options: MarkdownOptions(width: 100)).render(Self.cmarkGFM))
        // Referenced order: 1, footnote, other-note, codeblock-note, nope (no definition).
        #expect(shown.contains("This is some text!¹. Other text.²."))
        #expect(shown.contains("Here's a thing³."))
        #expect(shown.contains("And another thing⁴."))
        #expect(shown.contains("This doesn't have a referent⁵."))
        let notes = shown.components(separatedBy: "\n").drop { !$0.hasPrefix("Hi!") }
        #expect(notes.contains("[1] Some bolded footnote definition."))
        #expect(notes.contains("[3] no code block here (spaces are stripped away)"))
        #expect(notes.contains { $0.hasPrefix("[2]") } && notes.contains { $0.hasPrefix("[4]") } && notes.contains { $0.hasPrefix("[6]") })
        // No word of the source is lost (the labels become numbers).
        let source = Self.cmarkGFM.replacingOccurrences(of: #"\[\^[^\]]+\]:?"#, with: " ", options: .regularExpression)
        let shownWords = Set(Self.words(shown))
        #expect(Self.words(source).filter { !shownWords.contains($0) } == [])
    }

    @Test func referencesInCodeAndDefinitionsInFencesAreNotFootnotes() {
        let shown = text(MarkdownRenderer().render("Use `[^0-9]` here.\n\n```\n[^1]: not a note\n```\n"))
        #expect(shown == "Use [^0-9] here.\n\n1\n[^1]: not a note")
    }

    /// A reference shows its number before its definition arrives; the streamed
    /// rendering equals the one-shot one in any chunking.
    @Test(arguments: ["gitHubDocs", "cmarkGFM"])
    func everyChunkingRendersFootnotesAsOneShot(_ name: String) {
        let document = name == "gitHubDocs" ? Self.gitHubDocs : Self.cmarkGFM
        let whole = MarkdownRenderer().render(document)
        var stream = MarkdownStream(options: MarkdownOptions())
        _ = stream.append("Early claim[^1] in a paragraph")
        #expect(text(stream.provisionalLines()) == "Early claim¹ in a paragraph")
        expectEveryChunking(document, rendersAs: whole, seed: 2612)
    }
}

extension FootnoteTests {
    /// A repeated label's later definitions, and definitions past the held bound, are
    /// rendered where they stand: memory stays bounded, no word is lost, and the
    /// streamed rendering still equals the one-shot one.
    @Test func heldFootnotesAreBoundedAndDuplicatesStandWhereTheyAre() {
        let twice = "A claim[^1].\n\n[^1]: First note.\n[^1]: Second note, same label.\n\nMore[^2].\n\n[^2]: Other.\n"
        let shown = text(MarkdownRenderer().render(twice))
        #expect(shown.contains("¹: Second note, same label."), "\(shown)")  // where it was written
        #expect(shown.hasSuffix("[1] First note.\n[2] Other."), "\(shown)")
        #expect(streamMarkdown(twice.unicodeScalars.map { String($0) }) == MarkdownRenderer().render(twice))
        // Many distinct notes: those past the bound stay in place; every word is kept.
        let many = (1...3000).map { "Claim \($0)[^n\($0)].\n\n[^n\($0)]: Note number \($0) with some words to weigh it.\n\n" }.joined()
        let whole = MarkdownRenderer().render(many)
        let held = whole.filter { $0.format.firstPrefix.first?.text.hasPrefix("[") == true }.count
        #expect(held > 100 && held < 3000, "\(held) held")
        let words = Set(text(whole).split { !$0.isLetter && !("0"..."9").contains($0) })
        #expect((1...3000).allSatisfy { words.contains(Substring("\($0)")) })
        let seed = TestSeed.base(2614)
        var rng = SeededGenerator(seed: seed)
        #expect(streamMarkdown(randomPieces(many, using: &rng, maxScalars: 200)) == whole, "seed \(seed)")
    }
}
