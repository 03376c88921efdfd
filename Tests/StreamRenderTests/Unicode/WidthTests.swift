import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct WidthTests {
    func singleCluster(_ text: String, _ policy: WidthPolicy) -> Int? {
        let clusters = GraphemeSegmenter.clusters(of: text, policy: policy)
        return clusters.count == 1 ? clusters[0].width : nil
    }

    @Test func everyFullyQualifiedEmojiIsTwoColumnsUnderGrapheme() {
        var checked = 0
        for line in Fixtures.text("unicode/emoji-test.txt").split(separator: "\n") {
            let parts = line.split(separator: ";", maxSplits: 1)
            guard parts.count == 2, parts[1].trimmingPrefix(" ").hasPrefix("fully-qualified") else { continue }
            var scalars = String.UnicodeScalarView()
            for hex in parts[0].split(separator: " ") {
                scalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!)
            }
            let text = String(scalars)
            #expect(singleCluster(text, .grapheme) == 2, "\(parts[0]) \(line.split(separator: "#").last ?? "")")
            checked += 1
        }
        #expect(checked == 3655)  // emoji-test.txt 15.0: fully-qualified count
    }

    /// W and F code points that are non-spacing marks (Mn): `wcwidth` (and the Python
    /// package) give them 0, because they join the preceding character. The wide
    /// spacing marks (Mc: U+302E, U+302F, U+16FF0, U+16FF1) are 2, as glibc says.
    static let wideCombiningMarks: Set<UInt32> = [0x302A, 0x302B, 0x302C, 0x302D, 0x3099, 0x309A, 0x16FE4]

    /// The scalars measured without ICU (CJK ideographs, Hangul syllables) are, by
    /// ICU's own properties, two columns under either policy: East Asian Wide, not
    /// emoji, not a mark or format character, not a joining Hangul jamo.
    @Test func everyScalarOfTheWideFastPathIsWideByICUsProperties() {
        var checked = 0
        for v in UInt32(0x3400)...0x3FFFD where DisplayWidth.isPlainWide(v) {
            let p = ScalarProperties.of(v)
            let zeroWidthCategory = [ScalarProperties.nonSpacingMark, ScalarProperties.enclosingMark, ScalarProperties.format,
                                     ScalarProperties.lineSeparator, ScalarProperties.paragraphSeparator].contains(p.generalCategory)
            let wide = p.isWideOrFullwidth && !p.isEmoji && !p.isExtendedPictographic && !p.isDefaultIgnorable
                && !zeroWidthCategory && p.hangulSyllableType != 2 && p.hangulSyllableType != 3
            if !wide { Issue.record("U+\(String(v, radix: 16, uppercase: true)) is in the fast path but not plainly wide"); return }
            checked += 1
        }
        #expect(checked > 100_000)
    }

    /// The cache of recent scalars' properties (two ways a set) answers as ICU does,
    /// however lookups interleave: small working sets drawn again and again, so scalars
    /// of one set meet and evict each other (U+200F and U+061C shared a slot).
    @Test func cachedScalarPropertiesAreICUs() {
        let seed = TestSeed.base(0x5EED_0C4C)
        var rng = SeededGenerator(seed: seed)
        let planes: [ClosedRange<UInt32>] = [0...0x7FF, 0x2000...0x2BFF, 0x3000...0x9FFF, 0xFE00...0xFFFF, 0x1F000...0x1FAFF,
                                             0x10000...0x10FFFF]
        var checked = 0
        for round in 0..<400 {
            var working: [UInt32] = round == 0 ? [0x200F, 0x061C, 0x200E, 0x2066] : []
            while working.count < Int.random(in: 2...40, using: &rng) {
                working.append(UInt32.random(in: planes.randomElement(using: &rng)!, using: &rng))
            }
            for _ in 0..<200 {
                let scalar = working.randomElement(using: &rng)!
                guard ScalarProperties.of(scalar).bits == ScalarProperties.uncached(scalar).bits else {
                    Issue.record("seed \(seed) round \(round): U+\(String(scalar, radix: 16, uppercase: true))")
                    return
                }
                checked += 1
            }
        }
        #expect(checked == 80_000)
    }

    @Test func eastAsianWideAndFullwidthAreTwoColumns() {
        var checked = 0
        for line in Fixtures.text("unicode/EastAsianWidth.txt").split(separator: "\n") {
            let body = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = body.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, fields[1] == "W" || fields[1] == "F" else { continue }
            let bounds = fields[0].split(separator: ".", omittingEmptySubsequences: true).map { UInt32($0, radix: 16)! }
            for value in bounds[0]...(bounds.last!) {
                let scalar = Unicode.Scalar(value)!
                #expect(singleCluster(String(scalar), .grapheme) == 2, "U+\(String(value, radix: 16)) grapheme")
                let expected = Self.wideCombiningMarks.contains(value) ? 0 : 2
                #expect(DisplayWidth.wcwidth(scalar) == expected, "U+\(String(value, radix: 16)) wcwidth")
                checked += 1
            }
        }
        #expect(checked > 180_000)
    }

    /// Where the Python wcwidth package (0.7.0, Unicode 17.0 tables) disagrees with
    /// Unicode 15.0 as ICU 72 implements it: (first, last, ours, python's, why).
    static let pythonWcwidthDifferences: [(UInt32, UInt32, Int, Int, String)] = [
        (0x2630, 0x2637, 1, 2, "trigrams: East Asian Width N in 15.0, W since 16.0"),
        (0x268A, 0x268F, 1, 2, "monograms and digrams: N in 15.0, W since 16.0"),
        (0x3164, 0x3164, 2, 0, "HANGUL FILLER: Default_Ignorable since 16.0"),
        (0x4DC0, 0x4DFF, 1, 2, "hexagrams: N in 15.0, W since 16.0"),
        (0xFFA0, 0xFFA0, 1, 0, "HALFWIDTH HANGUL FILLER: Default_Ignorable since 16.0"),
    ]

    @Test func wcwidthAgreesWithThePythonPackageExceptForUnicodeVersionChanges() {
        var compared = 0, spacingMarks = 0
        var differences: [UInt32: (Int, Int)] = [:]
        for line in Fixtures.text("wcwidth/python-wcwidth.txt").split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: " ")
            let first = UInt32(f[0], radix: 16)!, last = UInt32(f[1], radix: 16)!, python = Int(f[2])!
            for value in first...last {
                let ours = DisplayWidth.wcwidth(Unicode.Scalar(value)!)
                // Python says -1 for C0/C1 controls; ours is 0 by design (documented).
                var comparable = python < 0 ? 0 : python
                // Spacing marks: 1 as glibc and tmux draw them, where Python says 0 (documented).
                let p = ScalarProperties.of(value)
                if p.generalCategory == ScalarProperties.spacingMark && python == 0 {
                    comparable = p.isWideOrFullwidth ? 2 : 1
                    spacingMarks += 1
                }
                if ours != comparable { differences[value] = (ours, python) }
                compared += 1
            }
        }
        #expect(compared > 60_000)
        #expect(spacingMarks > 250)
        var expected: [UInt32: (Int, Int)] = [:]
        for (first, last, ours, python, _) in Self.pythonWcwidthDifferences {
            for value in first...last { expected[value] = (ours, python) }
        }
        let unexpected = differences.filter { entry in expected[entry.key].map { $0 != entry.value } ?? true }
        let missing = expected.keys.filter { differences[$0] == nil }
        #expect(unexpected.isEmpty, "new differences: \(unexpected.keys.sorted().prefix(20).map { String($0, radix: 16) })")
        #expect(missing.isEmpty, "recorded differences that no longer differ: \(missing.sorted().map { String($0, radix: 16) })")
    }

    @Test(arguments: [
        ("a", 1, 1), ("日", 2, 2), ("e\u{301}", 1, 1), ("❤️", 2, 1), ("❤", 1, 1), ("❤︎", 1, 1),
        ("👍", 2, 2), ("👍🏽", 2, 4), ("👨‍👩‍👧", 2, 2), ("🇫🇷", 2, 2), ("#️⃣", 2, 1), ("⌚︎", 1, 2),
        ("한", 2, 2), ("\u{1100}\u{1161}\u{11A8}", 2, 2), ("☝🏻", 2, 3), ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", 2, 2), ("\u{200D}", 0, 0),
        ("\u{0600}1", 1, 2), ("ก", 1, 1), ("கா", 1, 2), ("कि", 1, 2), ("க்", 1, 1), ("\r\n", 0, 0), ("\t", 0, 0), ("\u{1B}", 0, 0), ("\u{85}", 0, 0),
    ])
    func namedClusterWidths(text: String, grapheme: Int, wcwidth: Int) {
        #expect(singleCluster(text, .grapheme) == grapheme, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(singleCluster(text, .wcwidth) == wcwidth, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func ambiguousWidthIsASetting() {
        let wide = WidthPolicy(mode: .grapheme, ambiguousIsWide: true)
        #expect(DisplayWidth.of("α±", policy: .grapheme) == 2)
        #expect(DisplayWidth.of("α±", policy: wide) == 4)
        #expect(DisplayWidth.of("α±", policy: WidthPolicy(mode: .wcwidth, ambiguousIsWide: true)) == 4)
        #expect(DisplayWidth.of("abc", policy: wide) == 3)
    }

    @Test func widthsNeverCrashOnControlsOrUnassigned() {
        var text = ""
        for value in Array(0..<0x100) + [0x378, 0xE0000, 0x10FFFF, 0xFFFF, 0xE01EF] {
            text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
        }
        for policy in [WidthPolicy.grapheme, .wcwidth] {
            #expect(DisplayWidth.of(text, policy: policy) >= 0)
        }
    }
}

extension WidthTests {
    /// Under wcwidth the scalar after a ZWJ and a flag's second regional indicator are
    /// not measured: tmux 3.3 draws them in the cell before (measured: `a👨‍👩‍👧` and
    /// `a🇫🇷` leave the cursor at column 3). Skin tones and VS16 stay per code point,
    /// as tmux has them (`a🧑🏿` leaves it at 5, `a🧑🏿‍🤝‍🧑🏻` at 7).
    @Test func aScalarAfterAJoinerJoinsItsCellUnderWcwidth() {
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(DisplayWidth.of(family, policy: .wcwidth) == 2)
        #expect(DisplayWidth.of(family, policy: .grapheme) == 2)
        let cells = CellSplitter(policy: .wcwidth).cells(of: "a" + family + "b")
        #expect(cells.map(\.width) == [1, 2, 1])
        #expect(cells.map(\.text).joined() == "a" + family + "b")
        #expect(DisplayWidth.of("👍🏽", policy: .wcwidth) == 4)
        #expect(DisplayWidth.of("🧑🏿\u{200D}🤝\u{200D}🧑🏻", policy: .wcwidth) == 6)
        #expect(DisplayWidth.of("🇫🇷🇩🇪", policy: .wcwidth) == 4)
        #expect(CellSplitter(policy: .wcwidth).cells(of: "🇫🇷🇩🇪").map(\.width) == [2, 2])
        #expect(DisplayWidth.of("❤️", policy: .wcwidth) == 1)
    }
}

extension WidthTests {
    /// The word-at-a-time check against the byte rule: every byte value at every
    /// offset of buffers 1 to 19 bytes long (two words and a tail), in printable text.
    @Test func printableASCIICheckAgreesWithTheByteRuleAtEveryOffset() {
        var disagreements = 0
        for length in 1...19 {
            for offset in 0..<length {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a") &+ UInt8(offset % 26), count: length)
                    bytes[offset] = UInt8(value)
                    let expected = bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
                    if bytes.withUnsafeBufferPointer(DisplayWidth.isPrintableASCII) != expected { disagreements += 1 }
                }
            }
        }
        #expect(disagreements == 0)
        #expect([UInt8]().withUnsafeBufferPointer(DisplayWidth.isPrintableASCII))
    }
}
