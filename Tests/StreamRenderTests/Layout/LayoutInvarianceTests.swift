import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Streaming invariance: however the text is cut into deltas, the final lines are
/// those of one pass, and those of the simple reference layout.
/// The first difference between two layouts, or nil (keeps failure messages short).
func firstDifference(_ a: [VisualLine], _ b: [VisualLine]) -> String? {
    if a == b { return nil }
    for k in 0..<max(a.count, b.count) {
        let x = k < a.count ? a[k].description : "none"
        let y = k < b.count ? b[k].description : "none"
        if x != y { return "line \(k): \(x) vs \(y) (\(a.count) vs \(b.count) lines)" }
    }
    return "same descriptions"
}

@Suite(.tags(.slow), .fullTierOnly) struct LayoutInvarianceTests {
    static let widths = [1, 2, 3, 7, 20, 40, 80, 200]
    static let policies: [WidthPolicy] = [.grapheme, .wcwidth]

    /// The properties every layout has: no line wider than W; the lines of a
    /// paragraph give it back with only spaces dropped between them; no line starts
    /// or ends inside a cluster.
    static func checkProperties(_ lines: [VisualLine], _ view: WrappedDocument, _ settings: LayoutSettings,
                                _ context: @autoclosure () -> String) {
        var byParagraph: [Int: [VisualLine]] = [:]
        for line in lines {
            #expect(line.width <= settings.width, "line wider than \(settings.width): \(line) \(context())")
            byParagraph[line.paragraph, default: []].append(line)
        }
        for (number, group) in byParagraph {
            let text = view.document[paragraph: number].text
            var boundaries = Set([0])
            var offset = 0
            for c in GraphemeSegmenter.clusters(ofUTF8: text, policy: settings.policy) {
                offset += c.cluster.utf8.count
                boundaries.insert(offset)
            }
            var rebuilt: [UInt8] = []
            var position = 0
            for line in group {
                #expect(boundaries.contains(line.start) && boundaries.contains(line.end), "cluster split: \(line) \(context())")
                let gap = text[position..<line.start]
                #expect(gap.allSatisfy { $0 == 0x20 }, "non-space dropped before \(line) \(context())")
                rebuilt.append(contentsOf: gap)
                rebuilt.append(contentsOf: text[line.start..<line.end])
                position = line.end
            }
            #expect(text[position...].allSatisfy { $0 == 0x20 }, "non-space dropped at the end of ¶\(number) \(context())")
            rebuilt.append(contentsOf: text[position...])
            #expect(rebuilt == text, "¶\(number) not given back \(context())")
        }
    }

    @Test func randomDocumentsLayOutTheSameInEveryChunking() {
        let seed = TestSeed.base(20261122)
        var rng = SeededGenerator(seed: seed)
        var chunkings = 0
        for doc in 0..<50 {
            let text = RandomDocument.make(using: &rng, pieces: Int.random(in: 1...120, using: &rng))
            let settings = LayoutSettings(width: Self.widths.randomElement(using: &rng)!,
                                          tabSize: [1, 4, 8].randomElement(using: &rng)!,
                                          policy: Self.policies.randomElement(using: &rng)!)
            let context = "seed \(seed) doc \(doc) \(settings)"
            let whole = layOut([text], settings: settings)
            Self.checkProperties(whole.lines, whole.view, settings, context)
            let reference = ReferenceLayout.lines(of: text, settings: settings)
            #expect(firstDifference(whole.lines, reference) == nil, "differs from the reference: \(context) text \(text.debugDescription)")
            let scalarByScalar = layOut(text.unicodeScalars.map { String($0) }, settings: settings)
            #expect(firstDifference(scalarByScalar.lines, whole.lines) == nil, "scalar by scalar: \(context) text \(text.debugDescription)")
            for k in 0..<20 {
                let pieces = randomPieces(text, using: &rng)
                let chunked = layOut(pieces, settings: settings)
                #expect(firstDifference(chunked.lines, whole.lines) == nil, "chunking \(k): \(context) pieces \(pieces.debugDescription)")
                #expect(firstDifference(chunked.committed, whole.lines) == nil, "committed lines, chunking \(k): \(context)")
                chunkings += 1
            }
        }
        #expect(chunkings == 1000)
    }

    @Test(arguments: ["answers/coding-answer.md", "answers/multilingual.md", "answers/music-recommendations.txt"])
    func fixturesLayOutTheSameInEveryChunking(_ name: String) {
        let text = Fixtures.text(name)
        let seed = TestSeed.base(4242)
        var rng = SeededGenerator(seed: seed)
        var wholes: [LayoutSettings: [VisualLine]] = [:]
        for policy in Self.policies {
            for width in [3, 40, 80, 200] {
                let settings = LayoutSettings(width: width, policy: policy)
                let whole = layOut([text], settings: settings)
                Self.checkProperties(whole.lines, whole.view, settings, "\(name) \(settings)")
                #expect(firstDifference(whole.lines, ReferenceLayout.lines(of: text, settings: settings)) == nil,
                        "\(name) \(settings) differs from the reference")
                #expect(firstDifference(layOut(text.unicodeScalars.map { String($0) }, settings: settings, check: false).lines, whole.lines) == nil,
                        "\(name) \(settings) scalar by scalar")
                wholes[settings] = whole.lines
            }
        }
        let all = Array(wholes.keys).sorted { ($0.width, $0.policy.description) < ($1.width, $1.policy.description) }
        for k in 0..<1000 {
            let settings = all[k % all.count]
            let pieces = randomPieces(text, using: &rng, maxScalars: 24)
            let chunked = layOut(pieces, settings: settings, check: k % 50 == 0)
            #expect(firstDifference(chunked.lines, wholes[settings]!) == nil, "seed \(seed) chunking \(k) \(name) \(settings)")
        }
    }
}

extension LayoutInvarianceTests {
    /// Long runs without spaces move the restart point by force (after 64 bytes at
    /// an opportunity, 256 anywhere); the lines must still not depend on the chunking.
    @Test func longRunsWithoutSpacesLayOutTheSameInEveryChunking() {
        let seed = TestSeed.base(77)
        var rng = SeededGenerator(seed: seed)
        let runs = [
            String(repeating: "中文字符日本語の文章です。", count: 40),
            String(repeating: "x", count: 3000),
            String(repeating: "e\u{301}👍🏽-", count: 200),
            String(repeating: "$(12.50)", count: 150),
        ]
        for (k, text) in runs.enumerated() {
            for width in [1, 7, 80] {
                let settings = LayoutSettings(width: width)
                let whole = layOut([text], settings: settings, check: false)
                #expect(firstDifference(whole.lines, ReferenceLayout.lines(of: text, settings: settings)) == nil, "run \(k) width \(width)")
                for c in 0..<10 {
                    let chunked = layOut(randomPieces(text, using: &rng, maxScalars: 40), settings: settings, check: c == 0)
                    #expect(firstDifference(chunked.lines, whole.lines) == nil, "seed \(seed) run \(k) width \(width) chunking \(c)")
                }
            }
        }
    }
}

extension LayoutInvarianceTests {
    /// ICU breaks Thai, Lao, Khmer and Myanmar with a dictionary over each run of such
    /// text, so an opportunity inside a run depends on where the run's scan ends: a
    /// scan must never end inside a run at a point that depends on how much has
    /// arrived. Runs of 5-400 words, cut at random (single scalars included).
    @Test func dictionaryScriptRunsLayOutTheSameInEveryChunking() {
        let seed = TestSeed.base(20261126)
        var rng = SeededGenerator(seed: seed)
        let words: [[String]] = [
            ["ภาษา", "ไทย", "การ", "เขียน", "โปรแกรม", "คอมพิวเตอร์", "ประเทศ", "สวัสดี", "ความ", "รัก", "ข้อมูล", "ระบบ", "ที่", "และ", "เป็น"],
            ["ພາສາ", "ລາວ", "ສະບາຍດີ", "ປະເທດ", "ຂໍ້ມູນ", "ລະບົບ", "ແລະ", "ເປັນ", "ທີ່", "ການ"],
            ["ភាសា", "ខ្មែរ", "សួស្តី", "ប្រទេស", "ព័ត៌មាន", "ប្រព័ន្ធ", "និង", "ជា", "ដែល", "ការ"],
            ["မြန်မာ", "ဘာသာ", "မင်္ဂလာပါ", "နိုင်ငံ", "သတင်း", "စနစ်", "နှင့်", "ဖြစ်", "သည်", "များ"],
        ]
        var layouts = 0
        for k in 0..<64 {
            let script = words[k % words.count]
            // No space at all, a space every 40, 20 or 8 words; now and then a number,
            // a comma or a combining mark inside a run.
            let spaces = [0, 40, 20, 8][k / 4 % 4]
            var text = ""
            for _ in 0..<Int.random(in: 5...400, using: &rng) {
                text += script.randomElement(using: &rng)!
                if spaces > 0 && Int.random(in: 0..<spaces, using: &rng) == 0 { text += " " }
                switch Int.random(in: 0..<60, using: &rng) {
                case 0: text += "42"
                case 1: text += ","
                case 2: text += "\u{301}"
                default: break
                }
            }
            for width in [23, 40, 80] {
                let settings = LayoutSettings(width: width)
                let whole = layOut([text], settings: settings, check: false)
                for c in 0..<4 {
                    let pieces = c == 0 ? text.unicodeScalars.map { String($0) }
                        : randomPieces(text, using: &rng, maxScalars: [3, 12, 60][c - 1])
                    let chunked = layOut(pieces, settings: settings, check: false)
                    #expect(firstDifference(chunked.lines, whole.lines) == nil,
                            "seed \(seed) text \(k) width \(width) chunking \(c)")
                    layouts += 1
                }
            }
        }
        #expect(layouts == 768)
    }

    /// A real Thai document (PyThaiNLP's manual, Resources/real/markdown) laid out as
    /// text in random chunkings at narrow widths.
    @Test func aThaiDocumentLaysOutTheSameInEveryChunking() {
        let seed = TestSeed.base(1126)
        var rng = SeededGenerator(seed: seed)
        let text = Fixtures.text("real/markdown/pythainlp--pythainlp-1-6-thai.md")
        for width in [17, 23, 40] {
            let settings = LayoutSettings(width: width)
            let whole = layOut([text], settings: settings, check: false)
            for c in 0..<12 {
                let chunked = layOut(randomPieces(text, using: &rng, maxScalars: [2, 9, 40][c % 3]), settings: settings, check: false)
                #expect(firstDifference(chunked.lines, whole.lines) == nil, "seed \(seed) width \(width) chunking \(c)")
            }
        }
    }
}
