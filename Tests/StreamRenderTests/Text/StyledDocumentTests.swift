import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct StyledDocumentTests {
    func runs(_ p: StyledDocument.Paragraph) -> [String] {
        p.styleRuns.map { "\($0.range.lowerBound)..<\($0.range.upperBound):\($0.style.rawValue)" }
    }

    @Test func stylesAreInternedOncePerDistinctStyle() {
        var table = StyleTable()
        let bold = Style(attributes: .bold)
        let a = table.intern(bold)
        let b = table.intern(Style(attributes: [.bold]))
        let link = table.intern(Style(foreground: .rgb(1, 2, 3), hyperlink: "https://example.com"))
        #expect(a == b)
        #expect(a != link && a != .plain)
        #expect(table.intern(.plain) == .plain)
        #expect(table.count == 3)
        #expect(table[link].hyperlink == "https://example.com")
        #expect(table[a] == bold)
    }

    /// `setPlainFormat()` is `setFormat(.plain)` without the format: format 0, over a
    /// format set before it.
    @Test func thePlainFormatIsSetAsPlainIs() {
        var doc = StyledDocument()
        let listed = ParagraphFormat(firstPrefix: [.init("• ")], continuationPrefix: [.init("  ")])
        doc.setFormat(listed)
        doc.append("a")
        doc.endLine()
        doc.setFormat(listed)
        doc.setPlainFormat()
        doc.append("b")
        doc.endLine()
        doc.setFormat(.plain)
        doc.append("c")
        doc._invariantCheck()
        #expect(doc[paragraph: 0].format != 0 && doc.formats[doc[paragraph: 0].format] == listed)
        #expect(doc[paragraph: 1].format == 0 && doc[paragraph: 2].format == 0)
        #expect(doc.formats[0] == .plain)
    }

    @Test func appendingInOneStyleExtendsItsRun() {
        var doc = StyledDocument()
        let bold = doc.styles.intern(Style(attributes: .bold))
        doc.append("ab")
        doc.append("cd")
        doc.append("ef", style: bold)
        doc._invariantCheck()
        #expect(runs(doc[paragraph: 0]) == ["0..<4:0", "4..<6:\(bold.rawValue)"])
        #expect(doc[paragraph: 0].style(at: 5) == bold)
        #expect(doc[paragraph: 0].style(at: 1) == .plain)
    }

    /// A rendered line's buffer becomes its paragraph's text when the paragraph has
    /// none: the same text and runs as appending it, the line left with the
    /// paragraph's empty buffer; refused (nothing changed) after text or with much more
    /// room than text.
    @Test func anEmptyParagraphTakesALinesBufferWhole() {
        let bold = Style(attributes: .bold)
        let text = Array("plain bold more".utf8)
        let pieces: [(end: Int, style: Style)] = [(6, .plain), (10, bold), (11, bold), (15, .plain)]
        var adopted = StyledDocument(), appended = StyledDocument()
        var buffer = text
        #expect(adopted.adoptAsIs(&buffer) { runs, styles in
            for piece in pieces { StyledDocument.addRun(&runs, end: piece.end, style: piece.style, in: &styles) }
        })
        #expect(buffer.isEmpty)
        var start = 0
        for run in pieces {
            text.withUnsafeBufferPointer { appended.appendAsIs(UnsafeBufferPointer(rebasing: $0[start..<run.end]), style: run.style) }
            start = run.end
        }
        adopted._invariantCheck()
        #expect(adopted[paragraph: 0].text == text)
        #expect(runs(adopted[paragraph: 0]) == runs(appended[paragraph: 0]))
        #expect(runs(adopted[paragraph: 0]).count == 3)
        #expect(adopted.byteCount == appended.byteCount && adopted.totalBytes == 15)
        // The paragraph has text now: the next line is appended, not taken.
        var more = Array("x".utf8)
        #expect(!adopted.adoptAsIs(&more) { runs, styles in StyledDocument.addRun(&runs, end: 1, style: .plain, in: &styles) })
        #expect(more == Array("x".utf8) && adopted.byteCount == 15)
        adopted.endLine()
        var roomy: [UInt8] = []
        roomy.reserveCapacity(4 * StyledDocument.adoptedRoom)
        roomy += "y".utf8
        #expect(!adopted.adoptAsIs(&roomy) { runs, styles in StyledDocument.addRun(&runs, end: 1, style: .plain, in: &styles) })
        #expect(roomy == Array("y".utf8) && adopted[paragraph: 1].text.isEmpty)
        // Nothing, and more than a paragraph holds, are not taken either.
        var none: [UInt8] = []
        #expect(!adopted.adoptAsIs(&none) { _, _ in })
        var small = StyledDocument(maximumParagraphBytes: 4)
        var long = Array("abcdef".utf8)
        #expect(!small.adoptAsIs(&long) { runs, styles in StyledDocument.addRun(&runs, end: 6, style: .plain, in: &styles) })
        #expect(long == Array("abcdef".utf8) && small.byteCount == 0)
        // An empty run adds nothing: the runs are those of the text.
        var gapped = Array("abcdef".utf8)
        #expect(adopted.adoptAsIs(&gapped) { runs, styles in
            for (end, style) in [(3, Style.plain), (3, bold), (6, .plain)] { StyledDocument.addRun(&runs, end: end, style: style, in: &styles) }
        })
        #expect(runs(adopted[paragraph: 1]) == ["0..<6:0"])
        adopted._invariantCheck()
    }

    /// A line whose runs stop short of its text is appended as before (only the text the
    /// runs cover), not taken whole.
    @Test func aLineWithRunsShortOfItsTextIsNotTaken() {
        var line = StyledLine(format: .plain, bytes: Array("abcdef".utf8), runs: [StyledLine.Run(end: 4, look: Style.plain.look)])
        var doc = StyledDocument()
        let shortTaken = line.moveText(into: &doc)
        #expect(!shortTaken)
        #expect(doc[paragraph: 0].text.isEmpty && doc.byteCount == 0)
        var whole = StyledLine(format: .plain, bytes: Array("abcdef".utf8), runs: [StyledLine.Run(end: 6, look: Style.plain.look)])
        let wholeTaken = whole.moveText(into: &doc)
        #expect(wholeTaken)
        #expect(doc[paragraph: 0].text == Array("abcdef".utf8) && whole.isEmpty)
        doc._invariantCheck()
    }

    /// A provisional paragraph that took a line's buffer is dropped as one that copied it.
    @Test func aTakenProvisionalParagraphIsDiscardedWhole() {
        var doc = StyledDocument()
        doc.append("final")
        doc.endLine()
        doc.markProvisional()
        var line = Array("shown for now".utf8)
        #expect(doc.adoptAsIs(&line) { runs, styles in StyledDocument.addRun(&runs, end: 13, style: .plain, in: &styles) })
        doc._invariantCheck()
        #expect(doc.byteCount == 18)
        doc.discardProvisional()
        doc._invariantCheck()
        #expect(doc.byteCount == 5 && doc[paragraph: 1].text.isEmpty)
        #expect(doc[paragraph: 0].text == Array("final".utf8))
    }

    @Test func restyleSplitsAndMergesRuns() {
        var doc = StyledDocument()
        let red = doc.styles.intern(Style(foreground: .red))
        let blue = doc.styles.intern(Style(foreground: .blue))
        doc.append("0123456789")
        doc.restyle(TextPosition(paragraph: 0, offset: 3)..<TextPosition(paragraph: 0, offset: 6), to: red)
        doc._invariantCheck()
        #expect(runs(doc[paragraph: 0]) == ["0..<3:0", "3..<6:\(red.rawValue)", "6..<10:0"])
        #expect(doc.endPosition == TextPosition(paragraph: 0, offset: 10))
        doc.restyle(TextPosition(paragraph: 0, offset: 5)..<TextPosition(paragraph: 0, offset: 8), to: blue)
        doc._invariantCheck()
        #expect(runs(doc[paragraph: 0]) == ["0..<3:0", "3..<5:\(red.rawValue)", "5..<8:\(blue.rawValue)", "8..<10:0"])
        // Restyling back to plain merges the neighbours.
        doc.restyle(TextPosition(paragraph: 0, offset: 3)..<TextPosition(paragraph: 0, offset: 8), to: .plain)
        doc._invariantCheck()
        #expect(runs(doc[paragraph: 0]) == ["0..<10:0"])
    }

    @Test func restyleSpansParagraphsAndIgnoresEvictedOnes() {
        var doc = StyledDocument()
        let red = doc.styles.intern(Style(foreground: .red))
        doc.append("aaa\nbbb\nccc")
        doc.restyle(TextPosition(paragraph: 0, offset: 1)..<TextPosition(paragraph: 2, offset: 2), to: red)
        doc._invariantCheck()
        #expect(runs(doc[paragraph: 0]) == ["0..<1:0", "1..<3:\(red.rawValue)"])
        #expect(runs(doc[paragraph: 1]) == ["0..<3:\(red.rawValue)"])
        #expect(runs(doc[paragraph: 2]) == ["0..<2:\(red.rawValue)", "2..<3:0"])
        doc.evictParagraphs(before: 2)
        doc.restyle(TextPosition(paragraph: 0, offset: 0)..<TextPosition(paragraph: 2, offset: 3), to: .plain)
        doc._invariantCheck()
        #expect(doc.paragraphNumbers == 2..<3)
        #expect(runs(doc[paragraph: 2]) == ["0..<3:0"])
        #expect(doc.evictedParagraphs == 2 && doc.evictedBytes == 6 && doc.byteCount == 3)
    }

    @Test func lineEndsAreNormalisedAcrossDeltas() {
        var doc = StyledDocument()
        for piece in ["a\r", "\nb\r", "c\r"] {
            doc.append(piece)
            doc._invariantCheck()
        }
        doc.finish()
        doc._invariantCheck()
        let texts = doc.paragraphNumbers.map { String(decoding: doc[paragraph: $0].text, as: UTF8.self) }
        #expect(texts == ["a", "b", "c", ""])
        #expect(doc[paragraph: 0].endsWithLineFeed)
    }

    @Test func controlsBecomeVisibleSymbols() {
        var doc = StyledDocument()
        doc.append("x\u{1B}[2J\u{07}\u{9B}\u{7F}\ty")
        doc._invariantCheck()
        #expect(String(decoding: doc[paragraph: 0].text, as: UTF8.self) == "x\u{241B}[2J\u{2407}\u{FFFD}\u{2421}\ty")
    }

    @Test func anEndlessLineIsSplitAtTheSizeLimitOnAScalarBoundary() {
        var doc = StyledDocument(maximumParagraphBytes: 10)
        for _ in 0..<7 { doc.append("é") }  // 2 bytes each
        doc.append("abc")
        doc._invariantCheck()
        #expect(doc.paragraphNumbers == 0..<2)
        #expect(doc[paragraph: 0].text.count == 10)
        #expect(!doc[paragraph: 0].endsWithLineFeed && doc[paragraph: 0].isClosed)
        #expect(String(decoding: doc[paragraph: 1].text, as: UTF8.self) == "ééabc")
        var odd = StyledDocument(maximumParagraphBytes: 5)
        odd.append("aaaa中")  // 中 is 3 bytes: it cannot straddle the limit
        odd._invariantCheck()
        #expect(odd[paragraph: 0].text.count == 4)
    }
}
