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
}
