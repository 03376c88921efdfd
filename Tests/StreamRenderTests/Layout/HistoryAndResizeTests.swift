import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct HistoryAndResizeTests {
    @Test func oldestParagraphsAreEvictedWholeAndCounted() {
        var view = WrappedDocument(settings: LayoutSettings(width: 10), limits: HistoryLimits(maximumLines: 20))
        for k in 0..<500 {
            view.append("paragraph \(k) has words\n")
            view._invariantCheck()
            #expect(view.layout.lineCount <= 20 + 3)  // limits apply before each append
        }
        view.finish()
        let lines = view.allLines()
        #expect(lines.count <= 20 + 3)
        #expect(view.evictedParagraphs > 400)
        #expect(view.evictedLines == view.evictedParagraphs * 3)  // "paragraph", "N has", "words"
        // No line refers to an evicted paragraph, and the last text is all there.
        #expect(lines.allSatisfy { view.document.paragraphNumbers.contains($0.paragraph) })
        #expect(texts(lines, view).suffix(3) == ["paragraph", "499 has", "words"])
    }

    @Test func theByteLimitBoundsMemoryForEndlessStreams() {
        var view = WrappedDocument(settings: LayoutSettings(width: 80), limits: HistoryLimits(maximumBytes: 10_000),
                                   maximumParagraphBytes: 1000)
        let line = String(repeating: "word ", count: 30)
        for _ in 0..<2000 {
            view.append(line)  // no line feed at all: paragraphs are split at 1000 bytes
            #expect(view.document.byteCount <= 10_000 + 1000)
        }
        view._invariantCheck()
        #expect(view.evictedBytes > 280_000)
    }

    @Test func resizeRewrapsToWhatAFreshLayoutGives() {
        var rng = SeededGenerator(seed: TestSeed.base(99))
        let text = RandomDocument.make(using: &rng, pieces: 400)
        var view = layOut(randomPieces(text, using: &rng), settings: LayoutSettings(width: 80)).view
        for width in [40, 7, 200, 1] {
            let settings = LayoutSettings(width: width)
            view.resize(to: settings)
            #expect(!view.layout.isRewrapComplete || view.document.paragraphNumbers.count == 1)
            // Viewport first: the tail is right before anything else is re-wrapped.
            let fresh = layOut([text], settings: settings).lines
            #expect(view.tailLines(5) == Array(fresh.suffix(5)), "width \(width)")
            #expect(view.allLines() == fresh, "width \(width)")
            #expect(view.layout.isRewrapComplete)
            view._invariantCheck()
        }
    }

    @Test func resizeWhileStreamingKeepsTheOpenParagraphIncremental() {
        var rng = SeededGenerator(seed: TestSeed.base(5))
        let text = RandomDocument.make(using: &rng, pieces: 300)
        let pieces = randomPieces(text, using: &rng)
        var view = WrappedDocument(settings: LayoutSettings(width: 30))
        for (k, piece) in pieces.enumerated() {
            view.append(piece)
            if k == pieces.count / 2 { view.resize(to: LayoutSettings(width: 13)) }
            view._invariantCheck()
        }
        view.finish()
        #expect(view.allLines() == layOut([text], settings: LayoutSettings(width: 13)).lines)
    }
}
