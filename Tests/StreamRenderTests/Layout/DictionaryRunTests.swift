import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Where the wrapper's scans may end around Thai, Lao, Khmer and Myanmar runs
/// (`ParagraphWrapper.dictionaryRunEnd`, which walks bytes), against an oracle that
/// finds the runs from the text's scalars first: a scan ends inside a run only at
/// that run's cut, passes no run's cut, and stops short of the end asked for only at
/// a cut.
@Suite struct DictionaryRunTests {
    /// A run: its first byte, the end of its last scalar, and the scalar boundaries in it.
    struct Run {
        var start: Int
        var end: Int
        var boundaries: [Int]
    }

    static func runs(_ scalars: [Unicode.Scalar], from origin: Int) -> [Run] {
        var runs: [Run] = []
        var offset = 0
        var current: Run?
        for s in scalars {
            let size = String(s).utf8.count
            defer { offset += size }
            if offset < origin { continue }
            let v = s.value
            if ParagraphWrapper.isDictionaryScalar(v) || (current != nil && ParagraphWrapper.joinsDictionaryRun(v)) {
                if current == nil { current = Run(start: offset, end: offset, boundaries: []) }
                current!.boundaries.append(offset)
                current!.end = offset + size
            } else if let run = current {
                runs.append(run)
                current = nil
            }
        }
        if let run = current { runs.append(run) }
        return runs
    }

    /// Paragraphs without a scalar of a dictionary run may be laid out in one pass, even
    /// when their lead bytes are those of such scalars (Indic, Georgian, Hangul jamo,
    /// Vietnamese); any one such scalar sends a paragraph the cluster-by-cluster way.
    @Test func onlyScalarsOfDictionaryScriptsCount() {
        func contains(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBufferPointer { ParagraphWrapper.containsDictionaryScalar($0) }
        }
        for text in ["नमस्ते दुनिया", "தமிழ் மொழி", "ქართული", "\u{1100}\u{1161}", "Tiếng Việt", "ꙮ", "plain", ""] {
            #expect(!contains(text), "\(text)")
        }
        for text in ["ภาษาไทย", "ລາວ", "ភាសាខ្មែរ", "မြန်မာ", "\u{AA80}", "नमस्ते ก", "a\u{1000}"] {
            #expect(contains(text), "\(text)")
        }
        // Against the scalars, for every scalar with one of the three lead bytes.
        for value in UInt32(0x800)...0xAFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(contains("a" + String(scalar) + "b") == ParagraphWrapper.isDictionaryScalar(value), "U+\(String(value, radix: 16))")
        }
    }

    @Test func scansEndOnlyAtRunEndsOrCuts() {
        let seed = TestSeed.base(20261126)
        var rng = SeededGenerator(seed: seed)
        // Runs of every lead byte (Thai and Lao E0, Khmer and Myanmar E1, Myanmar
        // Extended-A and Tai Viet EA); joiners of every lead byte (CC, E1, E2, EF); text
        // of the same lead bytes outside any run (Devanagari, Georgian, Hangul).
        let pieces = ["ภาษา", "ไทย", "คอมพิวเตอร์", "ລາວ", "ខ្មែរ", "မြန်မာ", "ꩠꩡ", "ꪀꪁ", " ", "42", ",", "\u{301}", "\u{1AB0}",
                      "\u{1DC0}", "\u{200D}", "\u{FE0F}", "नमस्ते", "Ⴀ", "한", "中文", "👍🏽", "é", "x"]
        let window = ParagraphWrapper.scanWindow
        var checked = 0
        for k in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 1...200, using: &rng) {
                // Mostly run text, so that runs outgrow a window.
                text += Int.random(in: 0..<4, using: &rng) == 0 ? pieces.randomElement(using: &rng)! : pieces[Int.random(in: 0...7, using: &rng)]
            }
            let scalars = Array(text.unicodeScalars)
            var boundaries = [0]
            for s in scalars { boundaries.append(boundaries.last! + String(s).utf8.count) }
            let bytes = Array(text.utf8)
            for _ in 0..<6 {
                let origin = boundaries[Int.random(in: 0..<boundaries.count, using: &rng)]
                let later = boundaries.filter { $0 >= origin }
                let lookahead = later.randomElement(using: &rng)!
                // Now and then inside a scalar (the scan backs up to its start).
                var end = later.filter { $0 >= lookahead }.randomElement(using: &rng)!
                let asked = end < bytes.count && Bool.random(using: &rng) ? end + 1 : end
                if asked != end && (asked == bytes.count || bytes[asked] & 0xC0 != 0x80) { end = asked }
                let final = Bool.random(using: &rng)
                let context = "seed \(seed) text \(k) origin \(origin) lookahead \(lookahead) end \(asked) final \(final)"
                let result = bytes.withUnsafeBufferPointer {
                    ParagraphWrapper.dictionaryRunEnd($0, from: asked, origin: origin, lookahead: lookahead, final: final)
                }
                checked += 1
                // The oracle: runs in order; a run the scan reaches is cut at the last
                // scalar before its limit, or must be waited for while it reaches the
                // text's end; the scan goes on past `end` to the end of a run it is in.
                var expected: Int? = end
                for run in Self.runs(scalars, from: origin) where run.start < end {
                    let limit = run.start + window * max(1, (lookahead - run.start + window - 1) / window)
                    let cut = (run.boundaries + [run.end]).last { $0 <= limit }!
                    if cut < run.end {
                        expected = cut
                        break
                    }
                    if run.end == bytes.count && !final {
                        expected = nil
                        break
                    }
                    expected = max(end, run.end)
                }
                #expect(result == expected, "\(context)")
            }
        }
        #expect(checked == 2400)
    }
}
