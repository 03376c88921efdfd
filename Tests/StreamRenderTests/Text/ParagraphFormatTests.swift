import Testing
@_spi(Benchmarks) @testable import StreamRender

@Suite struct ParagraphFormatTests {
    /// A prefix piece never carries a control to the terminal (shown as a symbol, or
    /// dropped for line ends and tabs); clean pieces are kept as given.
    @Test func piecesAreSanitisedAndCleanOnesKept() {
        for clean in ["   ", "• ", "│ ", "↪ ", "1. ", "[12] ", "é ", ""] {
            #expect(ParagraphFormat.Piece(clean).text == clean)
        }
        for dirty in ["\u{1B}[31m> ", "a\tb", "line\nend", "x\u{7F}", "c1\u{85}", "\r\n"] {
            let text = ParagraphFormat.Piece(dirty).text
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(dirty.debugDescription) → \(text.debugDescription)")
        }
        #expect(ParagraphFormat.Piece("a\tb").text == "ab")
    }

    /// Interning gives one number per distinct format and the same number again for an
    /// equal one, however the formats come (in a row, taking turns, back after many
    /// others), also when their keys collide (keys cut to two bits: every format
    /// shares a key with others and equality decides).
    @Test func internedFormatsKeepTheirNumbers() {
        let bullet = Style(foreground: .ansi(3))
        func item(_ n: Int) -> ParagraphFormat {
            ParagraphFormat(firstPrefix: [.init("\(n). ", style: bullet)], continuationPrefix: [.init("   ")])
        }
        let bar = ParagraphFormat(firstPrefix: [.init("│ ")], continuationPrefix: [.init("│ ")])
        let linked = ParagraphFormat(firstPrefix: [.init("│ ", style: Style(hyperlink: "https://x.y"))], continuationPrefix: [.init("│ ")])
        let rule = ParagraphFormat(fill: .init("─"))
        let wraps = ParagraphFormat(continuationPrefix: [.init("↪ ")], wrapsLikeTerminal: true)
        let formats = (1...300).map(item) + [bar, linked, rule, wraps, ParagraphFormat(firstPrefix: [.init("• ")])]
        for mask: UInt64 in [.max, 3] {
            var table = ParagraphFormatTable()
            table.keyMask = mask
            #expect(table.intern(.plain) == 0)
            let ids = formats.map { table.intern($0) }
            #expect(Set(ids).count == formats.count && !ids.contains(0), "mask \(mask)")
            // Again, in another order, with equal formats made anew.
            for k in stride(from: formats.count - 1, through: 0, by: -7) {
                #expect(table.intern(formats[k]) == ids[k], "mask \(mask) format \(k)")
                #expect(table.intern(bar) == ids[300] && table.intern(item(1)) == ids[0])
            }
            #expect(table.count == formats.count + 1)
            for (k, id) in ids.enumerated() { #expect(table[id] == formats[k]) }
        }
    }

    /// A format is a value however its parts are kept: a copy keeps what it had when a
    /// part of the original is set, parts set back to nothing make it plain, and formats
    /// made apart compare and hash by what they draw.
    @Test func formatsAreValuesWhateverHoldsTheirParts() {
        var format = ParagraphFormat(firstPrefix: [.init("• ")], continuationPrefix: [.init("  ")])
        let copy = format
        format.firstPrefix = [.init("◦ ")]
        #expect(copy.firstPrefix == [.init("• ")] && format.firstPrefix == [.init("◦ ")])
        #expect(format.continuationPrefix == [.init("  ")] && format != copy)
        format.firstPrefix = []
        format.continuationPrefix = []
        #expect(format.isPlain && format == .plain && format.hashValue == ParagraphFormat.plain.hashValue)
        let twin = ParagraphFormat(firstPrefix: [.init("• ")], continuationPrefix: [.init("  ")])
        #expect(twin == copy && twin.hashValue == copy.hashValue)
        let wraps = ParagraphFormat(continuationPrefix: [.init("↪ ")], wrapsLikeTerminal: true)
        #expect(wraps.continuationPrefix.isEmpty && !wraps.isPlain)
        var unwrapped = wraps
        unwrapped.wrapsLikeTerminal = false
        #expect(unwrapped.continuationPrefix == [.init("↪ ")], "the prefix hidden while it wraps like a terminal")
        // Nested in a list item: the marker first, the item's pad before each other line.
        let nested = ParagraphFormat(firstPrefix: [.init("│ ")], continuationPrefix: [.init("│ ")], fill: .init("─"))
            .nested(in: [.init("1. ")], other: .init("   "))
        #expect(nested == ParagraphFormat(firstPrefix: [.init("1. "), .init("│ ")], continuationPrefix: [.init("   "), .init("│ ")],
                                          fill: .init("─")))
        #expect(!wraps.nested(in: [.init("• ")], other: .init("  "), wrapsLikeTerminal: false).wrapsLikeTerminal)
        // A format changed after it was interned is a new one; the first keeps its number.
        var table = ParagraphFormatTable()
        let first = table.intern(copy)
        var changed = copy
        changed.fill = .init("─")
        let second = table.intern(changed)
        #expect(first != second && table.intern(copy) == first && table.intern(twin) == first && table[second] == changed)
    }

    /// A format met again after others (neither of the last two interned) is found by
    /// its box, with its number.
    @Test func aFormatMetAgainAfterOthersKeepsItsNumber() {
        var table = ParagraphFormatTable()
        let formats = (0..<5).map { ParagraphFormat(firstPrefix: [.init("\($0). ")]) }
        let ids = formats.map { table.intern($0) }
        for k in [0, 2, 4, 1, 3, 0] { #expect(table.intern(formats[k]) == ids[k], "format \(k)") }
        #expect(table.count == formats.count + 1)
    }
}
