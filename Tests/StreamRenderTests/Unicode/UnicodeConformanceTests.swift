import Testing
@_spi(Benchmarks) @testable import StreamRender

/// UAX #29 and UAX #14 conformance on the Unicode 15.0 test files that match ICU 72.
@Suite struct UnicodeConformanceTests {
    static let graphemeCases = BreakTestCase.parse(Fixtures.text("unicode/GraphemeBreakTest.txt"))
    static let lineCases = BreakTestCase.parse(Fixtures.text("unicode/LineBreakTest.txt"))

    /// Lines of LineBreakTest.txt (Unicode 15.0) that ICU 72 answers differently,
    /// by line number: ICU-8151 (a hyphen at the start of text or after a space
    /// before a number) and ICU-12017 (ICU's numeric tailoring of LB25).
    static let knownICULineBreakDeviations: Set<Int> = [
        2265, 2267, 2421, 2423, 2425, 2427, 2429, 2431, 2873, 2875,
        7477, 7576, 7577, 7578, 7579, 7580, 7581, 7583, 7584, 7585, 7586, 7587,
    ]

    func clusterEnds(_ bytes: [UInt8], fastPath: Bool, chunkSize: Int? = nil) -> [Int] {
        var segmenter = GraphemeSegmenter(policy: .grapheme, usesASCIIFastPath: fastPath)
        var ends: [Int] = []
        var total = 0
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { bytes, _ in total += bytes.count; ends.append(total) }
        if let size = chunkSize {
            var i = 0
            while i < bytes.count {
                segmenter.feed(bytes[i..<min(bytes.count, i + size)], sink)
                i += size
            }
        } else {
            segmenter.feed(bytes, sink)
        }
        segmenter.finish(sink)
        return ends
    }

    @Test func graphemeBreakTestPassesEveryLine() {
        #expect(Self.graphemeCases.count == 602)
        var passed = 0
        for c in Self.graphemeCases {
            let fast = clusterEnds(c.utf8, fastPath: true)
            let icu = clusterEnds(c.utf8, fastPath: false)
            let bytewise = clusterEnds(c.utf8, fastPath: true, chunkSize: 1)
            #expect(fast == c.breaks, "line \(c.lineNumber): \(c.source)")
            #expect(icu == c.breaks, "ICU only, line \(c.lineNumber)")
            #expect(bytewise == c.breaks, "byte by byte, line \(c.lineNumber)")
            if fast == c.breaks && icu == c.breaks && bytewise == c.breaks { passed += 1 }
        }
        #expect(passed == 602)
    }

    @Test func lineBreakTestPassesAllButTheKnownICUDeviations() {
        #expect(Self.lineCases.count == 7654)
        let breaker = LineBreaker()
        var failing: Set<Int> = []
        for c in Self.lineCases {
            var got: [Int] = []
            c.utf8.withUnsafeBufferPointer { buf in breaker.forEachOpportunity(in: buf) { offset, _ in got.append(offset) } }
            if got != c.breaks { failing.insert(c.lineNumber) }
        }
        let unexpected = failing.subtracting(Self.knownICULineBreakDeviations).sorted()
        let nowPassing = Self.knownICULineBreakDeviations.subtracting(failing).sorted()
        #expect(unexpected.isEmpty, "unexpected failures on lines \(unexpected)")
        #expect(nowPassing.isEmpty, "listed deviations now pass; remove them from the list: \(nowPassing)")
    }

    @Test func hardBreaksAreReportedAfterLineEnds() {
        let breaker = LineBreaker()
        for fast in [true, false] {
            breaker.usesASCIIFastPath = fast
            #expect(breaker.opportunities(in: "ab cd\r\nef\ngh").map(\.description) == ["3÷", "7!", "10!", "12÷"])
            #expect(breaker.opportunities(in: "x\n").map(\.description) == ["2!"])
            #expect(breaker.opportunities(in: "a\rb").map(\.description) == ["2!", "3÷"])
        }
        breaker.usesASCIIFastPath = true
        #expect(breaker.opportunities(in: "日本\u{2028}語").contains(LineBreakOpportunity(offset: 9, isHard: true)))
    }

    @Test func icuReportsUnicode15() {
        #expect(ICUInfo.unicodeVersion.hasPrefix("15.0"))
    }
}
