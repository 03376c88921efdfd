import Testing
@_spi(Benchmarks) @testable import StreamRender

/// The wrapper's fast path for a complete line that fits and holds only clusters of
/// one scalar of a known width (ASCII, box drawing, Latin-1, dashes and quotes, CJK,
/// emoji shown as emoji):
/// the lines it gives are the reference layout's, under every policy.
@Suite struct SimpleLineTests {
    static let pieces = ["a", "b", " ", "|", "─", "│", "┌", "┼", "╳", "é", "中", "—", "²", "₂", "・", "가", "각", "Ａ",
                         "▀", "x y", "  ", "\u{301}", "\u{3099}", "\u{FE0F}", "\u{1160}", "\u{11A8}", "🚀", "\u{AD}", "\u{3000}"]

    static func randomText(using rng: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<40 {
            let length = Int.random(in: 0...50, using: &rng)
            // Most lines box drawing and ASCII only; some with a character outside them.
            let pool = Int.random(in: 0..<4, using: &rng) == 0 ? pieces : Array(pieces.prefix(18))
            text += (0..<length).map { _ in pool.randomElement(using: &rng)! }.joined() + "\n"
        }
        return text
    }

    @Test func boxDrawingLinesLayOutAsTheReference() {
        let seed = TestSeed.base(0x51_4E01)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<20 {
            let text = Self.randomText(using: &rng)
            for settings in [LayoutSettings(width: 30), LayoutSettings(width: 45, policy: .wcwidth),
                             LayoutSettings(width: 45, policy: WidthPolicy(mode: .grapheme, ambiguousIsWide: true))] {
                let laid = layOut(randomPieces(text, using: &rng, maxScalars: 16), settings: settings, check: false)
                #expect(firstDifference(laid.lines, ReferenceLayout.lines(of: text, settings: settings)) == nil,
                        "seed \(seed) round \(round) \(settings)")
            }
        }
    }

    /// A blank line (a closed empty paragraph) is laid out without the wrapper: its line is
    /// the one the wrapper gives an empty paragraph, in any format, at any width, with
    /// lines' cells marked or not; the empty paragraph after the text's last line end
    /// still shows none.
    @Test func aBlankLineIsTheLineTheWrapperGivesIt() {
        let quote = ParagraphFormat(firstPrefix: [.init("> ")], continuationPrefix: [.init("> ")])
        for marks in [false, true] {
            for width in [1, 2, 7, 80] {
                let settings = LayoutSettings(width: width)
                var wrapper = ParagraphWrapper(settings: settings)
                wrapper.marksCells = marks
                var made: [VisualLine] = []
                [UInt8]().withUnsafeBufferPointer {
                    wrapper.advance($0, closed: true, breakers: LayoutBreakers()) { made.append($0) }
                }
                var document = StyledDocument()
                var layout = DocumentLayout(settings: settings)
                layout.marksCells = marks
                document.append("\n")
                document.setFormat(quote)
                document.append("\nx\n\n")
                document.finish()
                var lines: [VisualLine] = []
                layout.update(from: document) { lines.append($0) }
                #expect(lines.count == 4, "width \(width) marks \(marks): \(lines)")
                for (k, number) in [(0, 0), (1, 1), (3, 3)] where k < lines.count && made.count == 1 {
                    var expected = made[0]
                    expected.paragraph = number
                    // (Hints too: `==` leaves them out.)
                    #expect(lines[k] == expected && lines[k].isSimple == expected.isSimple
                            && lines[k].cellsAreBytes == expected.cellsAreBytes, "width \(width) marks \(marks) paragraph \(number)")
                }
            }
        }
    }

    @Test func simpleWidthIsTheDisplayWidthOfBoxDrawingAndASCII() {
        for text in ["", "abc", "│ a │ b │", "┌──┬──┐", "─" + String(repeating: "x", count: 20)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { SimpleText.width($0, ambiguousIsWide: false) }
                    == DisplayWidth.of(text), "\(text)")
        }
        for text in ["▀", "a\u{301}", "│\u{301}", "\u{1F44D}\u{1F3FD}", "\u{2764}", "🇫🇷", "\u{1F600}\u{FE0F}", "👩‍💻", "가\u{11A8}", "か\u{3099}", "中\u{FE00}", "\u{AD}", "\u{A0}"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { SimpleText.width($0, ambiguousIsWide: false) } == nil, "\(text)")
        }
        // Controls and DEL, after ASCII, after other scalars and alone (a wrong step here
        // once looped for ever).
        for text in ["a\tb", "é\u{7}", "\u{7F}", "中\n", "│\u{1B}[0m", "\u{0}"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { SimpleText.width($0, ambiguousIsWide: false) } == nil,
                    "\(text.debugDescription)")
        }
        // Box drawing and ideographs, known from their first bytes, beside their neighbours.
        for (text, width) in [("┌─┬─┐", 5), ("╿╀│", 3), ("丸一龥", 6), ("䷿", nil), ("a─中b", 5), ("中─", 3)] as [(String, Int?)] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { SimpleText.width($0, ambiguousIsWide: false) } == width,
                    "\(text)")
        }
        #expect(Array("│ a │".utf8).withUnsafeBufferPointer { SimpleText.width($0, ambiguousIsWide: true) } == nil)
        #expect(Array("a b".utf8).withUnsafeBufferPointer { SimpleText.width($0, ambiguousIsWide: true) } == 3)
    }

    /// The generated emoji data (a bit per scalar of the emoji block, ranges elsewhere)
    /// against the properties it was made from, as the linked ICU reports them.
    @Test(.enabled(if: ICUInfo.implementsUnicode(SimpleText.emojiUnicodeVersion)))
    func theEmojiDataIsWhatICUSays() {
        var count = 0
        for scalar: UInt32 in 0...0x1FFFF {
            let p = ScalarProperties.of(scalar)
            let expected = p.eastAsianWidth == 5 && p.isEmojiPresentation && p.isExtendedPictographic && !p.isEmojiModifier
                && p.fastGraphemeClass == 1 && p.generalCategory != ScalarProperties.unassigned
            if SimpleText.isEmojiInData(scalar) != expected {
                Issue.record("U+\(String(scalar, radix: 16)): \(!expected)")
                return
            }
            if expected { count += 1 }
        }
        #expect(count > 1_000)
    }

    /// Every scalar the fast path takes, against the width code under each mode, and
    /// against Swift's own grapheme breaking (an implementation apart from ours): each
    /// stands as a cluster of its own beside any other (one sample of each range, and
    /// Hangul syllables with and without a final consonant).
    @Test func everySimpleScalarIsItsOwnClusterOfTheWidthEveryModeGives() {
        let ranges: [ClosedRange<UInt32>] = [0x0...0x7F, 0xA0...0x100, 0x100...0x530, 0x590...0x700, 0x2000...0x20A0, 0x2500...0x2580, 0x3000...0x3100,
                                             0x4E00...0x9FFF, 0xAC00...0xD7A4, 0xFF00...0xFF61, 0x2300...0x2BFF,
                                             0x1F000...0x1FAFF]
        let taken = ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init).filter { SimpleText.width(of: $0.value) != nil }
        #expect(taken.count > 30_000)
        #expect(taken.filter { SimpleText.isEmoji($0.value) }.count > 1_000)
        let neighbours = ["a", " ", "é", "ą", "Ω", "ж", "ש", "ب", "—", "₂", "─", "、", "か", "カ", "中", "가", "각", "Ａ", "🚀", "✅"]
        let policies = WidthPolicy.Mode.allCases.map { WidthPolicy(mode: $0) }
        for scalar in taken {
            let alone = String(scalar)
            let width = SimpleText.width(of: scalar.value)!
            // No mark (`LineDrawer.standalone` writes them as they are, unlooked-up).
            let p = scalar.properties
            #expect(!p.isGraphemeExtend && p.generalCategory != .spacingMark && p.generalCategory != .nonspacingMark
                    && p.generalCategory != .enclosingMark, "U+\(String(scalar.value, radix: 16)) is a mark")
            for policy in policies {
                #expect(DisplayWidth.of(alone, policy: policy) == width, "U+\(String(scalar.value, radix: 16)) \(policy)")
            }
            for other in neighbours {
                #expect((alone + other).count == 2 && (other + alone).count == 2 && (alone + alone).count == 2,
                        "U+\(String(scalar.value, radix: 16)) beside \(other)")
            }
        }
        // Ranges' neighbours that join or differ stay out.
        for excluded: UInt32 in [0x0, 0x9, 0xA, 0x1B, 0x1F, 0x7F, 0x85, 0xA0, 0xAD, 0x300, 0x36F, 0x378, 0x3A2, 0x483, 0x489,
                                 0x5B0, 0x5BF, 0x5C7, 0x5EB, 0x600, 0x605, 0x610, 0x61C, 0x64B, 0x670, 0x6D6, 0x6DD,
                                 0x200B, 0x200D, 0x2028, 0x2029, 0x3000,
                                 0x302A, 0x3099, 0x309A, 0xFF9E, 0x1F1E6, 0x1F3FB, 0x1F3FF, 0x1F321, 0x1F336, 0xFE0F,
                                 0x1FAF9] {
            #expect(SimpleText.width(of: excluded) == nil, "U+\(String(excluded, radix: 16))")
        }
    }
}
