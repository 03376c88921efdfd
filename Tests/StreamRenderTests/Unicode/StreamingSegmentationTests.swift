import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Streaming invariance: any chunking gives the one-pass clusters and widths.
@Suite(.tags(.slow), .fullTierOnly) struct StreamingSegmentationTests {
    struct Cluster: Equatable, CustomStringConvertible {
        var bytes: [UInt8]
        var width: Int
        var description: String { "\(bytes.debugString)/\(width)" }
    }

    static func segment(_ chunks: [ArraySlice<UInt8>], policy: WidthPolicy) -> [Cluster] {
        var segmenter = GraphemeSegmenter(policy: policy)
        var out: [Cluster] = []
        var reported = 0
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { reported += $0.count; out.append(Cluster(bytes: Array($0), width: $1)) }
        for chunk in chunks {
            segmenter.feed(chunk, sink)
            // The stable prefix is exactly what has been reported.
            precondition(segmenter.stableByteCount == reported)
        }
        segmenter.finish(sink)
        return out
    }

    /// The clusters ICU alone finds (no fast path), in one pass.
    static func segmentByICUAlone(_ bytes: [UInt8], policy: WidthPolicy) -> [Cluster] {
        var icu = GraphemeSegmenter(policy: policy, usesASCIIFastPath: false)
        var clusters: [Cluster] = []
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { clusters.append(Cluster(bytes: Array($0), width: $1)) }
        icu.feed(bytes, sink)
        icu.finish(sink)
        return clusters
    }

    static let adversarial: [UInt8] = Array((
        "e\u{301}\u{302} 👨‍👩‍👧‍👦 🇫🇷🇩🇪🇯 ❤️ #️⃣ \r\n \r \n 👍🏽 ⌚︎ ก\u{0E33} 한\u{11A8} \u{0600}1 "
        + "a" + String(repeating: "\u{301}", count: 300) + " 日本語の文章。"
    ).utf8) + [0xF0, 0x9F, 0x98, 0x41, 0xC3, 0x28, 0xFF, 0xE2, 0x82]  // then invalid UTF-8

    static let texts: [(String, [UInt8])] = [
        ("multilingual.md", Fixtures.data("answers/multilingual.md")),
        ("coding-answer.md", Fixtures.data("answers/coding-answer.md")),
        ("music-recommendations.txt", Fixtures.data("answers/music-recommendations.txt")),
        ("adversarial", adversarial),
    ]

    @Test func tenThousandRandomChunkingsMatchTheOnePassResult() {
        let seed = TestSeed.base(0x5EED_0004)
        var rng = SeededGenerator(seed: seed)
        var runs = 0
        for (name, bytes) in Self.texts {
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let whole = Self.segment([bytes[...]], policy: policy)
                let bytewise = Self.segment(bytes.indices.map { bytes[$0...$0] }, policy: policy)
                #expect(whole == bytewise, "\(name) \(policy): byte by byte differs")
                let iterations = name == "coding-answer.md" ? 500 : 1_500
                for iteration in 0..<iterations {
                    let chunks = randomChunks(bytes, using: &rng, maxChunk: 12)
                    let got = Self.segment(chunks, policy: policy)
                    runs += 1
                    if got != whole {
                        let firstDiff = zip(got, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, whole.count)
                        Issue.record("seed \(seed) \(name) \(policy) iteration \(iteration): cluster \(firstDiff) differs: \(got[firstDiff...].prefix(3)) vs \(whole[firstDiff...].prefix(3))")
                        return
                    }
                }
            }
        }
        #expect(runs == 10_000)
    }

    /// Pieces from every Grapheme_Cluster_Break class next to each other and to the
    /// classes with no rule (Other: ASCII, an em dash, superscripts, CJK, a lone
    /// emoji), which are cut without ICU: the default segmenter equals ICU alone on
    /// random strings of them, in random chunkings, under both policies.
    static let classPieces: [String] = [
        "a", " ", ".", "—", "²", "₂", "日", "語", "©", "😀", "👍", "ｆ",  // Other
        "é", "ж", "│", "ア", "・", "。", "✅",                              // more simple scalars (SimpleText)
        "\u{301}", "\u{200D}", "\u{FE0F}", "\u{1F3FD}",                 // Extend, ZWJ, VS16, a skin tone
        "\u{0903}", "\u{0E33}", "\u{0600}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{AC01}",  // SpacingMark, Prepend, Hangul L V T LV LVT
        "\u{1F1EB}", "\u{1F1F7}", "\r", "\n", "\r\n", "\t", "\u{85}",    // regional indicators, controls
        "\u{0915}\u{094D}\u{0937}", "क", "\u{094D}",                      // a conjunct, a consonant, a virama
        "\u{20E3}", "\u{0E31}", "\u{0ACD}", "👩", "🏳", "\u{1F3FB}",        // a keycap, a Thai mark, a virama, pictographs, a tone
        "🧑🏿‍💻", "🏳️‍🌈", "👩‍👩‍👧‍👦", "❤️", "1️⃣",                                  // whole emoji sequences
        "\u{200E}", "\u{2066}", "\u{AD}", "\u{2028}", "\u{200B}", "\u{E0001}", "\u{200C}",  // controls that are not ASCII, ZWNJ
    ]

    @Test func randomStringsOfEveryBreakClassSegmentAsICUAloneDoes() {
        let seed = TestSeed.base(0x5EED_0007)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<400 {
            let text = (0..<Int.random(in: 1...40, using: &rng)).map { _ in Self.classPieces.randomElement(using: &rng)! }.joined()
            let bytes = Array(text.utf8)
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let want = Self.segmentByICUAlone(bytes, policy: policy)
                let got = Self.segment(randomChunks(bytes, using: &rng, maxChunk: 9), policy: policy)
                #expect(got == want, "seed \(seed) round \(round) \(policy): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
                if got != want { return }
            }
        }
    }

    /// Marks, joiners and indicators in long runs, so that clusters pass the cap (cut
    /// by the fast rules where they know every scalar, by ICU where not) and runs of
    /// regional indicators pair up across chunks: the default segmenter equals ICU alone.
    @Test func longRunsOfJoiningScalarsSegmentAsICUAloneDoes() {
        let seed = TestSeed.base(0x5EED_0017)
        var rng = SeededGenerator(seed: seed)
        let bases = ["a", "ж", "日", "👩", "🇫", "\u{301}", "\u{200D}", "क", "\u{1100}", " ", "\u{200E}", "\u{AD}"]
        let joiners = ["\u{301}", "\u{302}", "\u{0E31}", "\u{0903}", "\u{FE0F}", "\u{1F3FD}", "\u{200D}", "👩", "🇫", "\u{094D}", "\u{20E3}",
                       "\u{200F}", "\u{2069}"]
        var fastClusters = 0
        for round in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                text += bases.randomElement(using: &rng)!
                // Mostly one kind repeated (up to past the cap), now and then another.
                let main = joiners.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 0...200, using: &rng) {
                    text += Int.random(in: 0..<20, using: &rng) == 0 ? joiners.randomElement(using: &rng)! : main
                }
            }
            let bytes = Array(text.utf8)
            for policy in [WidthPolicy.grapheme, .wcwidth] {
                let want = Self.segmentByICUAlone(bytes, policy: policy)
                let whole = Self.segment([bytes[...]], policy: policy)
                let got = Self.segment(randomChunks(bytes, using: &rng, maxChunk: 40), policy: policy)
                #expect(whole == want, "seed \(seed) round \(round) \(policy) whole: \(text.unicodeScalars.prefix(12).map { String($0.value, radix: 16) })")
                #expect(got == want, "seed \(seed) round \(round) \(policy) chunked: \(text.unicodeScalars.prefix(12).map { String($0.value, radix: 16) })")
                if got != want || whole != want { return }
            }
            bytes.withUnsafeBufferPointer { buf in
                if case .end = GraphemeSegmenter.fastCluster(buf, from: 0, end: buf.count, closed: true) { fastClusters += 1 }
            }
        }
        // (The fast rules took the first cluster of many texts: the comparison tested them.)
        #expect(fastClusters > 100, "seed \(seed): the fast rules took only \(fastClusters) first clusters")
    }

    @Test func theLastClusterIsProvisionalUntilMoreInputOrTheEnd() {
        var segmenter = GraphemeSegmenter()
        var out: [String] = []
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { bytes, _ in out.append(String(decoding: bytes, as: UTF8.self)) }
        segmenter.feed(Array("ab e".utf8), sink)
        #expect(out == ["a", "b", " "])
        #expect(segmenter.provisionalText == Array("e".utf8))
        segmenter.feed(Array("\u{301}".utf8), sink)
        #expect(out == ["a", "b", " "])
        segmenter.feed(Array("👍".utf8).prefix(2), sink)  // half an emoji: nothing is certain yet
        #expect(out == ["a", "b", " "])
        #expect(segmenter.stableByteCount == 3)
        segmenter.feed(Array("👍".utf8).suffix(2), sink)
        #expect(out == ["a", "b", " ", "e\u{301}"])
        #expect(segmenter.stableByteCount == 3 + 3)
        segmenter.feed(Array("🏽".utf8), sink)
        #expect(out.count == 4)
        segmenter.finish(sink)
        #expect(out == ["a", "b", " ", "e\u{301}", "👍🏽"])
    }

    @Test func aCRAtTheEndOfAChunkJoinsALFInTheNext() {
        let chunks: [ArraySlice<UInt8>] = [Array("a\r".utf8)[...], Array("\nb".utf8)[...]]
        let clusters = Self.segment(chunks, policy: .grapheme)
        #expect(clusters.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a", "\r\n", "b"])
    }

    @Test func endlessClustersAreCutSoTheProvisionalTailStaysBounded() {
        var segmenter = GraphemeSegmenter()
        var longest = 0
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { bytes, _ in longest = max(longest, bytes.count) }
        segmenter.feed(Array("a".utf8), sink)
        for _ in 0..<10_000 {
            segmenter.feed(Array("\u{301}".utf8), sink)
            #expect(segmenter.provisionalText.count <= GraphemeSegmenter.maximumClusterBytes + 4)
        }
        segmenter.finish(sink)
        #expect(longest <= GraphemeSegmenter.maximumClusterBytes)
    }
}
