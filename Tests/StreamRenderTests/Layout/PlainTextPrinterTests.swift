import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct PlainTextPrinterTests {
    func printed(_ pieces: [String], _ settings: LayoutSettings) -> (output: String, partialFlushes: Int) {
        var printer = PlainTextPrinter(settings: settings)
        var output = ""
        var flushes = 0
        for piece in pieces {
            let chunk = printer.append(piece)
            if !chunk.isEmpty && !chunk.hasSuffix("\n") { flushes += 1 }
            output += chunk
        }
        output += printer.finish()
        return (output, flushes)
    }


    @Test func whatIsPrintedIsTheFinalLayoutInEveryChunking() {
        let seed = TestSeed.base(31337)
        var rng = SeededGenerator(seed: seed)
        for doc in 0..<40 {
            let text = RandomDocument.make(using: &rng, pieces: Int.random(in: 1...100, using: &rng))
            let settings = LayoutSettings(width: [1, 5, 20, 80].randomElement(using: &rng)!,
                                          tabSize: [4, 8].randomElement(using: &rng)!,
                                          policy: [.grapheme, .wcwidth].randomElement(using: &rng)!)
            let final = layOut([text], settings: settings)
            let expected = texts(final.lines, final.view).map { $0 + "\n" }.joined()
            for k in 0..<25 {
                let result = printed(randomPieces(text, using: &rng), settings)
                if result.output != expected {
                    let a = result.output.split(separator: "\n", omittingEmptySubsequences: false)
                    let b = expected.split(separator: "\n", omittingEmptySubsequences: false)
                    let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                    Issue.record("seed \(seed) doc \(doc) chunking \(k) \(settings): line \(i): \(i < a.count ? String(a[i]).debugDescription : "none") vs \(i < b.count ? String(b[i]).debugDescription : "none")")
                    break
                }
            }
        }
    }

    @Test func theCurrentLineIsFlushedAsItGrows() {
        let words = Array(repeating: "word", count: 30).joined(separator: " ")
        var printer = PlainTextPrinter(settings: LayoutSettings(width: 200))
        var printed = ""
        var received = 0
        var worstLag = 0
        for character in words {
            printed += printer.append(String(character))
            received += 1
            worstLag = max(worstLag, received - printed.count)
        }
        printed += printer.finish()
        // One line, not final until the end, yet printed along the way: it trails
        // what arrived by the lookahead (4 clusters), a rescan batch (8) and a word.
        #expect(worstLag <= 20, "printing trailed by \(worstLag) characters")
        #expect(printed == words + "\n")
    }

    @Test func printedTextNeverHoldsAControlByte() {
        let hostile = "a\u{1B}]0;title\u{07}b\u{1B}[2Jc\u{1B}]52;c;aGVsbG8=\u{07}d\re\u{85}f\u{9B}g\u{7F}h\u{0}"
        for width in [1, 2, 80] {
            let out = printed(hostile.map { String($0) }, LayoutSettings(width: width)).output
            #expect(out.utf8.allSatisfy { $0 >= 0x20 || $0 == 0x0A }, "width \(width): \(out.debugDescription)")
        }
    }
}
