import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Streaming invariance: any chunking gives the one-pass clusters and widths.
@Suite struct StreamingSegmentationTests {
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
