import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Rendered lines go into the document by taking their buffers (`StyledDocument.adoptAsIs`)
/// or by copying them: in any chunking, with the open block shown between pieces, the
/// document keeps its invariants after every step and ends with the lines one piece gives.
@Suite struct MarkdownDocumentInvariantTests {
    static let text = """
        # A heading with `code` and **bold**

        A paragraph of plain words that goes on long enough to wrap at forty columns, \
        with *emphasis*, a [link](https://example.com/a) and a footnote[^1].

        - a tight item
        - another, with `code`
          1. nested and numbered
          2. again

        > a quote that also goes on long enough to wrap at forty columns
        > and a second line

        ```swift
        let x = 1 // a comment
        print(x)
        ```

        | name | value | note |
        | --- | ---: | :---: |
        | a | 1 | first |
        | b | 22 | second row |
        | c | 333 | third |
        | d | 4444 | fourth |

        ---

        \(String(repeating: "a long paragraph made of many words ", count: 60))

        Tabs\tand  spaces  kept,  trailing two  
        a hard break.

        [^1]: The footnote's text.

        """

    private static func lines(_ pieces: [String], provisional: Bool, check: Bool) -> [String] {
        var view = WrappedDocument(settings: LayoutSettings(width: 40), markdown: MarkdownOptions())
        for piece in pieces {
            view.append(piece)
            if check { view.document._invariantCheck() }
            if provisional {
                view.updateProvisional()
                if check { view.document._invariantCheck() }
            }
        }
        view.finish()
        if check { view.document._invariantCheck() }
        return view.allLines().map { view.plainText(of: $0) }
    }

    @Test func everyChunkingKeepsTheDocumentWholeAndGivesTheSameLines() {
        let whole = Self.lines([Self.text], provisional: false, check: true)
        #expect(whole.count > 30)
        let seed = TestSeed.base(0xD0C_0020)
        var rng = SeededGenerator(seed: seed)
        let bytes = Array(Self.text.utf8)
        for round in 0..<12 {
            var pieces: [String] = [], start = 0
            while start < bytes.count {
                var end = min(bytes.count, start + Int.random(in: 1...(round.isMultiple(of: 3) ? 3 : 64), using: &rng))
                while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
                pieces.append(String(decoding: bytes[start..<end], as: UTF8.self))
                start = end
            }
            let chunked = Self.lines(pieces, provisional: round.isMultiple(of: 2), check: true)
            #expect(chunked == whole, "seed \(seed) round \(round)")
        }
    }
}
