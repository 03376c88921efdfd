import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Paragraphs that wrap like a terminal (code lines in live views): cut at the exact
/// width between clusters, spaces kept, so the rows joined are the source line.
@Suite struct TerminalWrapTests {
    static func layOut(_ pieces: [String], width: Int, prefix: String = "") -> (lines: [VisualLine], text: [UInt8]) {
        var document = StyledDocument()
        var layout = DocumentLayout(settings: LayoutSettings(width: width))
        document.setFormat(ParagraphFormat(firstPrefix: prefix.isEmpty ? [] : [.init(prefix)],
                                           continuationPrefix: [.init("↪ ")], wrapsLikeTerminal: true))
        for piece in pieces {
            document.append(piece)
            layout.update(from: document)
        }
        document.finish()
        layout.update(from: document)
        return (layout.allLines(in: document), Array(document[paragraph: 0].text))
    }

    static let shellLine = "curl -sS -X POST \"$API/v1/messages\" -H 'content-type: application/json' "
        + "-H \"x-api-key: $KEY\"    --data '{\"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"日本語 👩‍👩‍👧 ok\"}]}' | jq ."

    @Test func rowsFillTheWidthAndJoinToTheSource() {
        for width in [7, 20, 33, 40, 80] {
            let (lines, text) = Self.layOut([Self.shellLine], width: width, prefix: "   ")
            #expect(lines.count > 1)
            // Contiguous: no byte dropped or repeated between rows (spaces included).
            #expect(lines.first?.start == 0 && lines.last?.end == text.count)
            for (a, b) in zip(lines, lines.dropFirst()) { #expect(a.end == b.start, "width \(width)") }
            // Every row but the last is full, or one short where a wide cluster moved on.
            for (k, line) in lines.enumerated().dropLast() {
                let room = k == 0 ? width - 3 : width  // no continuation prefix
                let next = lines[k + 1]
                let nextWidth = DisplayWidth.of(String(decoding: text[next.start..<min(next.end, next.start + 4)], as: UTF8.self))
                #expect(line.width == room || (line.width == room - 1 && nextWidth >= 2), "width \(width) row \(k): \(line)")
            }
        }
    }

    @Test func everyChunkingCutsTheSameRows() {
        let seed = TestSeed.base(2613)
        var rng = SeededGenerator(seed: seed)
        for width in [9, 40] {
            let whole = Self.layOut([Self.shellLine], width: width).lines
            #expect(Self.layOut(Self.shellLine.unicodeScalars.map { String($0) }, width: width).lines == whole)
            for round in 0..<50 {
                let pieces = randomPieces(Self.shellLine, using: &rng)
                #expect(Self.layOut(pieces, width: width).lines == whole, "seed \(seed) round \(round) width \(width)")
            }
        }
    }

    /// A complete line of printable ASCII is cut straight from its bytes
    /// (`ParagraphWrapper.cutPrintableASCII`): the lines the cluster path makes of it,
    /// whole or streamed in pieces, at widths from 1 column, first and other lines of
    /// different widths, spaces (runs, leading, trailing) kept.
    @Test func printableASCIIIsCutAsTheClusterPathCutsIt() {
        let seed = TestSeed.base(0x7E2A_C0DE)
        var rng = SeededGenerator(seed: seed)
        let words = ["let", "x", " ", "  ", "    ", "=", "foo(bar, baz)", "\"a b\"", "// note", "0x1F", "-", "->", "{", "}", ";",
                     String(repeating: "ab", count: 40)]
        var cutLines = 0
        for round in 0..<1_500 {
            let text = Array((0..<Int.random(in: 0...40, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined().utf8)
            let first = Int.random(in: 1...90, using: &rng)
            let other = Bool.random(using: &rng) ? first : Int.random(in: 1...90, using: &rng)
            let cuts = (0..<Int.random(in: 0...5, using: &rng)).map { _ in Int.random(in: 0...text.count, using: &rng) }.sorted()
            func lines(onePass: Bool, cuts: [Int] = []) -> [VisualLine] {
                var wrapper = ParagraphWrapper(settings: LayoutSettings(width: max(first, other)))
                wrapper.setLineWidths(first: first, other: other, cutsAnywhere: true)
                wrapper.usesOnePass = onePass
                return wrapper.layOutGrowing(text, cuts: cuts, breakers: LayoutBreakers())
            }
            let fast = lines(onePass: true)
            #expect(fast == lines(onePass: false), "seed \(seed) round \(round) widths \(first)/\(other)")
            #expect(fast == lines(onePass: true, cuts: cuts), "seed \(seed) round \(round) cuts \(cuts)")
            // Marked simple (the drawer does not measure them again), as wide as their bytes.
            #expect(fast.allSatisfy { $0.isSimple && $0.width == $0.end - $0.start }, "seed \(seed) round \(round)")
            if fast.count > 1 { cutLines += fast.count }
        }
        #expect(cutLines > 5_000, "seed \(seed): \(cutLines)")
    }
}
