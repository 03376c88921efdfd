import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Issue 14: inputs that once cost far more per byte than prose (a long word with no
/// break opportunity, endless combining marks, a line that never ends) must still
/// give exactly the lines of one pass, however they arrive.
@Suite(.tags(.slow), .fullTierOnly) struct CliffTests {
    /// Deterministic hex digits (no line-break opportunity anywhere).
    static func hex(_ count: Int) -> String {
        var rng = SeededGenerator(seed: 14)
        let digits = Array("0123456789abcdef")
        return String((0..<count).map { _ in digits[Int(rng.next() % 16)] })
    }

    static func pieces(_ text: String, size: Int) -> [String] {
        let bytes = Array(text.utf8)
        var out: [String] = []
        var i = 0
        while i < bytes.count {
            var end = min(bytes.count, i + size)
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            out.append(String(decoding: bytes[i..<end], as: UTF8.self))
            i = end
        }
        return out
    }

    @Test func aHundredKilobyteWordWrapsTheSameByteByByteAndAtOnce() {
        let word = Self.hex(100_000) + " tail\n"
        for width in [1, 7, 80] {
            let settings = LayoutSettings(width: width)
            let whole = layOut([word], settings: settings, check: false)
            #expect(whole.lines.dropLast().allSatisfy { $0.width == width || $0.end == 100_000 }, "W\(width)")
            let bytewise = layOut(Array(word).map { String($0) }, settings: settings, check: false)
            #expect(firstDifference(bytewise.lines, whole.lines) == nil, "W\(width) byte by byte")
            #expect(firstDifference(bytewise.committed, whole.lines) == nil, "W\(width) committed")
            let deltas = layOut(Self.pieces(word, size: 4), settings: settings, check: false)
            #expect(firstDifference(deltas.lines, whole.lines) == nil, "W\(width) in 4-byte deltas")
        }
        // Against the reference (ICU over the whole paragraph), on a shorter word.
        let short = Self.hex(3_000) + "\n"
        let settings = LayoutSettings(width: 80)
        #expect(firstDifference(layOut(Array(short).map { String($0) }, settings: settings).lines,
                                ReferenceLayout.lines(of: short, settings: settings)) == nil)
    }

    @Test func longUnbreakableRunsOfEveryKindMatchTheReference() {
        let texts = [
            String(repeating: "日本語の文章と中文的句子", count: 300),
            String(repeating: "👍🏽👩‍👩‍👧‍👦🇫🇷1️⃣", count: 300),
            "e" + String(repeating: "\u{301}\u{316}", count: 3_000) + " x",
            String(repeating: "QUJD+/ZGVm=", count: 400),
        ]
        var rng = SeededGenerator(seed: TestSeed.base(0x14_0001))
        for text in texts {
            for settings in [LayoutSettings(width: 80), LayoutSettings(width: 13, policy: .wcwidth)] {
                let whole = layOut([text], settings: settings, check: false)
                #expect(firstDifference(whole.lines, ReferenceLayout.lines(of: text, settings: settings)) == nil,
                        "\(text.prefix(12)) \(settings)")
                let chunked = layOut(randomPieces(text, using: &rng, maxScalars: 6), settings: settings, check: false)
                #expect(firstDifference(chunked.lines, whole.lines) == nil, "\(text.prefix(12)) \(settings) chunked")
            }
        }
    }

    @Test func aLineOfZeroWidthClustersEndsAtItsByteLimit() {
        let floods = [
            "a" + String(repeating: "\u{200B}", count: 3_000) + "b",
            "e" + String(repeating: "\u{301}", count: 20_000) + " next",
            String(repeating: "x\u{200B}\u{200B}\u{200B}", count: 500),
        ]
        var rng = SeededGenerator(seed: TestSeed.base(0x14_0003))
        for text in floods {
            for settings in [LayoutSettings(width: 1, policy: .wcwidth), LayoutSettings(width: 3, policy: .wcwidth),
                             LayoutSettings(width: 80, policy: .wcwidth), LayoutSettings(width: 80)] {
                let whole = layOut([text], settings: settings)
                let cap = settings.width * GraphemeSegmenter.maximumClusterBytes
                #expect(whole.lines.allSatisfy { $0.end - $0.start <= cap }, "\(settings)")
                #expect(firstDifference(whole.lines, ReferenceLayout.lines(of: text, settings: settings)) == nil,
                        "\(text.prefix(3)) \(settings)")
                // The check walks the whole document, here one paragraph of up to 40 KB:
                // after each of its thousands of pieces it was 7% of the whole suite's CPU.
                let chunked = layOut(randomPieces(text, using: &rng, maxScalars: 5), settings: settings, checkEvery: 97)
                #expect(firstDifference(chunked.lines, whole.lines) == nil, "\(text.prefix(3)) \(settings) chunked")
                #expect(firstDifference(chunked.committed, whole.lines) == nil, "\(text.prefix(3)) \(settings) committed")
            }
        }
    }

    @Test func endlessCombiningMarksSegmentTheSameInAnyReadSize() {
        // Far longer than a cluster cap and than ICU's window: cut every 256 bytes.
        let text = Array(("e" + String(repeating: "\u{301}", count: 20_000) + "日本" + String(repeating: "🇫🇷", count: 500)).utf8)
        for policy in [WidthPolicy.grapheme, .wcwidth] {
            let whole = StreamingSegmentationTests.segment([text[...]], policy: policy)
            #expect(whole.allSatisfy { $0.bytes.count <= GraphemeSegmenter.maximumClusterBytes })
            #expect(whole.count > 20_000 * 2 / 256)
            let bytewise = StreamingSegmentationTests.segment(text.indices.map { text[$0...$0] }, policy: policy)
            #expect(whole == bytewise, "\(policy) byte by byte")
            let reads = StreamingSegmentationTests.segment(stride(from: 0, to: text.count, by: 4096).map {
                text[$0..<min(text.count, $0 + 4096)]
            }, policy: policy)
            #expect(whole == reads, "\(policy) in 4 KB reads")
            // ICU alone (no ASCII fast path) agrees.
            var icu = GraphemeSegmenter(policy: policy, usesASCIIFastPath: false)
            var icuClusters: [StreamingSegmentationTests.Cluster] = []
            let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { icuClusters.append(.init(bytes: Array($0), width: $1)) }
            icu.feed(text, sink)
            icu.finish(sink)
            #expect(icuClusters == whole, "\(policy) ICU only")
        }
    }
}

/// Markdown: a long line is split into final parts as it arrives, and the parts
/// still render as the one-shot paragraph.
@Suite(.tags(.slow), .fullTierOnly) struct MarkdownLongLineTests {
    static let lines: [(String, String)] = [
        ("hex", CliffTests.hex(20_000)),
        ("prose", String(repeating: "The parser keeps a partial line until its newline arrives, and **only then** decodes the `event`. ", count: 200)),
        ("cjk", String(repeating: "流式渲染把模型的回答一块一块地显示在终端里，每一块的代价应当与它的长度成正比。", count: 150)),
        ("emoji", String(repeating: "👍🏽👩‍👩‍👧‍👦🇫🇷1️⃣✨", count: 600)),
        ("zalgo", String(repeating: "z\u{301}\u{316}a\u{302}l\u{303}\u{317}\u{318}g\u{304}o ", count: 800)),
        ("base64", String(repeating: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo+/w==", count: 500)),
        // (Closed within `openConstructBytes` of its opening, across the threshold: a
        // longer one is shown literally.)
        ("emphasis open past the threshold", String(repeating: "plain words ", count: 50) + "*"
            + String(repeating: "emphasised words ", count: 40) + "end* and "
            + String(repeating: "plain words ", count: 200)),
        ("url in a long word", String(repeating: "x", count: 1_100) + "www.example.com/" + String(repeating: "y", count: 1_200)
            + " http://example.com " + String(repeating: "z", count: 1_500)),
        ("pipe", String(repeating: "a | b ", count: 400)),
    ]

    /// `document` through a stream in 4-byte pieces: its final lines, how many of
    /// them were final before the end, and the largest open block (region and
    /// unfinished line) between pieces.
    static func streamInFours(_ document: String) -> (finals: [StyledLine], beforeEnd: Int, largestOpen: Int) {
        var stream = MarkdownStream()
        var finals: [StyledLine] = []
        var largestOpen = 0
        for piece in CliffTests.pieces(document, size: 4) {
            finals += stream.append(piece)
            largestOpen = max(largestOpen, stream.openRegionBytes + stream.openLineBytes)
        }
        let beforeEnd = finals.count
        finals += stream.finish()
        return (finals, beforeEnd, largestOpen)
    }

    static func documents(_ line: String) -> [String] {
        [line + "\n", "# Title\n\n" + line + "\n\nAfter.\n", "Intro line\n" + line + " more\nnext line\n",
         "- item\n\n" + line + "\n", line]
    }

    @Test(arguments: lines.map(\.0))
    func aLongLineStreamedEqualsOneShot(_ name: String) {
        let line = Self.lines.first { $0.0 == name }!.1
        var rng = SeededGenerator(seed: TestSeed.base(0x14_0002))
        for (d, document) in Self.documents(line).enumerated() {
            let whole = MarkdownRenderer().render(document)
            let deltas = CliffTests.pieces(document, size: 4)
            #expect(firstDifference(streamMarkdown(deltas), whole) == nil, "\(name) document \(d) in 4-byte deltas")
            for round in 0..<3 {
                let pieces = randomPieces(document, using: &rng, maxScalars: [3, 40, 900][round])
                #expect(firstDifference(streamMarkdown(pieces, provisional: round == 0), whole) == nil,
                        "\(name) document \(d) round \(round)")
            }
        }
    }

    @Test func anEndlessLineIsFinalInPartsAndTheOpenBlockStaysSmall() {
        for (name, line) in Self.lines where ["hex", "prose", "cjk", "emoji", "zalgo", "base64"].contains(name) {
            let (finals, beforeEnd, largestOpen) = Self.streamInFours(line)
            #expect(beforeEnd >= line.utf8.count / 2_048, "\(name): \(beforeEnd) final parts before the end")
            #expect(largestOpen < MarkdownStream.splitThreshold + 600, "\(name): the open block grew to \(largestOpen) bytes")
            #expect(finals.prefix(beforeEnd).dropFirst().allSatisfy { $0.joinsPrevious }, "\(name)")
            #expect(MarkdownStream.merged(finals) == MarkdownRenderer().render(line), "\(name)")
        }
    }

    @Test func aLineWithAPipeOrAnOpenConstructIsNotSplitThere() {
        // A `|` past the line's plain start may make it a table's header row: not
        // split before 8 KB. A line with a `|` in its first 64 bytes is not plain
        // paragraph text: split only by the forced split, at 16 KB.
        func firstFinal(_ line: String) -> (at: Int?, merged: [StyledLine]) {
            var stream = MarkdownStream()
            var finals: [StyledLine] = []
            var firstFinalAt: Int?
            var fed = 0
            for piece in CliffTests.pieces(line, size: 4) {
                finals += stream.append(piece)
                fed += piece.utf8.count
                if firstFinalAt == nil && !finals.isEmpty { firstFinalAt = fed }
            }
            finals += stream.finish()
            return (firstFinalAt, MarkdownStream.merged(finals))
        }
        let piped = String(repeating: "plain words ", count: 10) + String(repeating: "a | b ", count: 4_000)
        let late = firstFinal(piped)
        #expect((late.at ?? 0) > MarkdownStream.pipedLineBytes, "first part final after \(late.at ?? 0) bytes")
        #expect(late.merged == MarkdownRenderer().render(piped))
        let tableLike = String(repeating: "a | b ", count: 4_000)
        let early = firstFinal(tableLike)
        #expect(early.at == MarkdownStream.forcedSplitBytes + MarkdownStream.splitLookahead,
                "a line starting like a table row was split after \(early.at ?? 0) bytes, not only by the forced split")
        #expect(early.merged == MarkdownRenderer().render(tableLike))
        // Emphasis opened at the start: nothing is final while it may still close
        // (`openConstructBytes`); past that it is taken to be a literal `*`.
        let open = "*" + String(repeating: "emphasised words ", count: 200)
        let opened = firstFinal(open)
        #expect((opened.at ?? 0) > MarkdownStream.openConstructBytes, "first part final after \(opened.at ?? 0) bytes")
        #expect((opened.at ?? .max) < MarkdownStream.openConstructBytes + MarkdownStream.splitThreshold)
        #expect(opened.merged == MarkdownRenderer().render(open))
    }

    /// A delimiter nothing closes (`~300 ms` opens a strikethrough, `*args` emphasis)
    /// stops blocking splits `openConstructBytes` after it, and a paragraph is split
    /// by `openParagraphBytes` whatever is open: the open block of a line or
    /// paragraph full of them stays bounded, and, as nothing closes them, the result
    /// is the one-shot render's in every chunking. A construct open across a
    /// split point is closed only inside its own brackets: a `~` in a link's text
    /// does not close the one before the link, so the link is never split.
    @Test func aDelimiterNothingClosesStopsBlockingSplits() {
        let prose = String(repeating: "the first recommendation shows up after ~300 ms instead of after the whole answer (~6 s) has arrived, and "
            + String(repeating: "words of plain prose ", count: 60) + "calls f(*args) then ", count: 12)
        // The first split point (past 1 KB, the `~` then a kilobyte old) falls inside
        // the link's text; the `~` there must not close the first one.
        let link = "~300 ms " + String(repeating: "plain words ", count: 58) + "[a link whose text~ runs "
            + String(repeating: "on and on ", count: 60) + "to the end](https://example.com/x) and after "
            + String(repeating: "plain words ", count: 200)
        let seed = TestSeed.base(0x14_0004)
        var rng = SeededGenerator(seed: seed)
        for (name, line) in [("approximations", prose), ("link after an open tilde", link)] {
            for document in [line + "\n", "Intro line\n" + line + "\nnext line\n",
                             line.replacingOccurrences(of: " and ", with: "\nand ") + "\n"] {
                let (finals, _, largestOpen) = Self.streamInFours(document)
                // (A line of the paragraph may follow the split its region waits for.)
                let bound = MarkdownStream.openParagraphBytes + 2_048
                #expect(largestOpen < bound, "\(name): the open block grew to \(largestOpen) bytes")
                let whole = MarkdownRenderer().render(document)
                #expect(firstDifference(MarkdownStream.merged(finals), whole) == nil, "\(name) in 4-byte pieces")
                let pieces = randomPieces(document, using: &rng, maxScalars: 300)
                #expect(firstDifference(streamMarkdown(pieces), whole) == nil, "\(name): random pieces, seed \(seed)")
            }
        }
        // A `|` keeps a line from splitting before `pipedLineBytes` (it may be a
        // table's header row); the rest of a line split once is not, so its `|` do
        // not hold it back.
        let piped = String(repeating: "plain words ", count: 6) + "a | b "
            + String(repeating: String(repeating: "plain words ", count: 120) + "a | b ", count: 12)
        var pipedStream = MarkdownStream()
        var pipedFinals: [StyledLine] = []
        var fed = 0, firstFinalAt = 0, largestAfter = 0
        for piece in CliffTests.pieces(piped, size: 4) {
            pipedFinals += pipedStream.append(piece)
            fed += piece.utf8.count
            if firstFinalAt == 0 && !pipedFinals.isEmpty { firstFinalAt = fed }
            if firstFinalAt > 0 { largestAfter = max(largestAfter, pipedStream.openRegionBytes + pipedStream.openLineBytes) }
        }
        pipedFinals += pipedStream.finish()
        #expect(firstFinalAt > MarkdownStream.pipedLineBytes, "first part final after \(firstFinalAt) bytes")
        #expect(largestAfter < MarkdownStream.splitThreshold + 600, "after the first split the open block grew to \(largestAfter) bytes")
        #expect(MarkdownStream.merged(pipedFinals) == MarkdownRenderer().render(piped))
        // The deviation: emphasis closed more than `openConstructBytes` after it
        // opened, across a split point, is shown literally.
        let long = "*" + String(repeating: "emphasised words ", count: 200) + "end* and after"
        let streamed = streamMarkdown(CliffTests.pieces(long, size: 4))
        #expect(streamed.map(\.plainText).joined().hasPrefix("*emphasised"))
        #expect(streamed.map(\.plainText).joined().contains("end*"))
    }

    /// Lines no rule splits (a heading, a list item, a quote, an emphasis left open, a
    /// table row) are split anyway before 16 KB: the open block stays bounded, every
    /// chunking gives the same lines, and the text is the one-shot render's.
    @Test func aLineNoRuleSplitsIsSplitBeforeSixteenKilobytes() {
        let words = String(repeating: "words of a line that never ends ", count: 1_600)
        let lines = [
            ("heading", "# " + words),
            ("list item", "- " + words),
            ("quote", "> " + words),
            ("open emphasis", "*" + words),
            ("table row", "| " + String(repeating: "cell | ", count: 8_000)),
            ("hex heading", "## " + CliffTests.hex(60_000)),
        ]
        let seed = TestSeed.base(0x14_0003)
        var rng = SeededGenerator(seed: seed)
        for (name, line) in lines {
            let document = "Before.\n\n" + line + "\n\nAfter.\n"
            let (finals, _, largestOpen) = Self.streamInFours(document)
            let streamed = MarkdownStream.merged(finals)
            #expect(largestOpen < MarkdownStream.forcedSplitBytes + 64, "\(name): the open block grew to \(largestOpen) bytes")
            #expect(firstDifference(streamMarkdown([document]), streamed) == nil, "\(name): whole vs 4-byte pieces")
            let pieces = randomPieces(document, using: &rng, maxScalars: 2_000)
            #expect(firstDifference(streamMarkdown(pieces), streamed) == nil, "\(name): random pieces, seed \(seed)")
            // The same characters as the one-shot render, but for the spaces a split
            // may drop or add at a join.
            let oneShot = MarkdownRenderer().render(document)
            func letters(_ lines: [StyledLine]) -> String { String(lines.map(\.plainText).joined().filter { !$0.isWhitespace }) }
            #expect(letters(streamed) == letters(oneShot), "\(name): the text differs from a one-shot render")
        }
    }
}
