import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Tables with plain ASCII cells wider than their column, GFM's rule for a header row
/// that does not match its delimiter row, and every HTML5 entity (issue 23).
@Suite struct TableAndEntityTests {
    static func plain(_ markdown: String, width: Int) -> [String] {
        let sink = BufferSink()
        let configuration = StreamRenderer.Configuration(output: .plain, layout: LayoutSettings(width: width),
            input: .init(format: .text))
        let renderer = StreamRenderer(configuration: configuration, sink: sink, clock: ManualClock())
        renderer.feed(Array(markdown.utf8))
        renderer.finish()
        return String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Every line of a box-drawn table starts and ends with a border and is `width` wide or less.
    static func expectBoxed(_ lines: [String], width: Int, _ comment: String) {
        let table = lines.filter { !$0.isEmpty }
        #expect(!table.isEmpty, "\(comment)")
        let widths = Set(table.map { DisplayWidth.of($0, policy: .grapheme) })
        #expect(widths.count == 1, "\(comment): rows of one width: \(table)")
        #expect((widths.first ?? 0) <= width, "\(comment)")
        for line in table {
            #expect(["│", "┌", "├", "└"].contains(String(line.prefix(1))) && ["│", "┐", "┤", "┘"].contains(String(line.suffix(1))),
                    "\(comment): \(line)")
        }
    }

    @Test(arguments: [30, 50, 80])
    func aPlainASCIICellWiderThanItsColumnWrapsInsideTheBox(_ width: Int) {
        let markdown = "| Name | Description |\n|---|---|\n| foo | a long description that goes on and on past the width, "
            + "with-a-very-long-hyphenated-word-in-it-that-must-be-cut |\n| bar | short |\n"
        let lines = Self.plain(markdown, width: width)
        Self.expectBoxed(lines, width: width, "width \(width)")
        let text = lines.joined(separator: " ").filter { !"│─┌┐└┘├┤┬┴┼ ".contains($0) }
        #expect(text.contains("alongdescriptionthatgoesonandonpastthewidth"), "no word lost: \(text)")
    }

    /// A word cut after zero-width clusters (a zero-width space, then spaces) keeps the
    /// line within its column: the spaces before the word are dropped, not counted out.
    @Test func aWordCutAfterZeroWidthTextStaysInItsColumn() {
        for cell in ["\u{200B} abcdefghijklmnopqrstuvwxyz", "\u{200B}\u{200B}   abcdefghijklmnopqrstuvwxyz x"] {
            for width in [16, 20, 24] {
                let lines = Self.plain("| a | b |\n|---|---|\n| \(cell) | y |\n", width: width)
                Self.expectBoxed(lines, width: width, "\(cell.debugDescription) at \(width)")
            }
        }
    }

    @Test func aCellThatExactlyFillsItsColumnKeepsTheBorderOnItsLine() {
        for n in 15...25 {
            let lines = Self.plain("| Name | Desc |\n|---|---|\n| foo | \(String(repeating: "x", count: n)) |\n", width: 30)
            Self.expectBoxed(lines, width: 30, "cell of \(n)")
        }
    }

    @Test func aHeaderRowWithMoreCellsThanTheDelimiterRowIsAParagraph() {
        // GFM spec example 203.
        #expect(Self.plain("| abc | def |\n| --- |\n| bar |\n", width: 80) == ["| abc | def | | --- | | bar |", ""])
        // Matching counts (an escaped pipe is no border) stay a table.
        let table = Self.plain("| a | b |\n| --- | --- |\n| x | y\\|z |\n", width: 80)
        Self.expectBoxed(table, width: 80, "escaped pipe")
        #expect(table.contains { $0.contains("y|z") })
    }

    @Test func everyHTML5NamedEntityDecodes() {
        #expect(Self.plain("&AElig; &HilbertSpace; &ClockwiseContourIntegral; &ngE; &bogus;\n", width: 80)
                == ["Æ ℋ ∲ ≧̸ &bogus;", ""])
        #expect(HTMLEntities.text(named: "amp") == "&")
        #expect(HTMLEntities.text(named: "NotNestedGreaterGreater") == "⪢̸")
        #expect(HTMLEntities.text(named: "nope") == nil)
    }

    /// Entities as md4c reports them, read from their bytes: decimal and hex numbers (a
    /// null, a surrogate or a number past Unicode is U+FFFD; one past 32 bits, or with
    /// no digits, is no entity), names, and what is no entity at all.
    @Test func entityBytesDecode() {
        func decode(_ entity: String) -> String? {
            var entity = entity
            return entity.withUTF8 { Entities.decode(utf8: $0) }
        }
        #expect(decode("&#123;") == "{" && decode("&#x1F600;") == "😀" && decode("&#X41;") == "A")
        #expect(decode("&#0;") == "\u{FFFD}" && decode("&#xD800;") == "\u{FFFD}" && decode("&#x110000;") == "\u{FFFD}")
        #expect(decode("&#99999999999;") == nil && decode("&#x;") == nil && decode("&#;") == nil && decode("&#12a;") == nil)
        #expect(decode("&amp;") == "&" && decode("&hearts;") == "♥" && decode("&bogus;") == nil)
        #expect(decode("amp;") == nil && decode("&amp") == nil && decode("&;") == nil)
        #expect(Self.plain("&#123;&#x1F600;&#0;&hearts; &#99999999999;\n", width: 80) == ["{😀\u{FFFD}♥ &#99999999999;", ""])
    }

    /// The lookup is a binary search of the list: it must be sorted by bytes, and it
    /// must find each name (the first, the last, and the prefixes of longer ones such as
    /// `not`, `sup` and `sup1`) with the scalars written on its line.
    @Test func theEntityListIsSortedAndEveryNameIsFound() {
        let text = HTMLEntities.list.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2125)
        let names = lines.map { $0.split(separator: " ")[0] }
        for k in names.indices.dropFirst() {
            #expect(Array(names[k - 1].utf8).lexicographicallyPrecedes(Array(names[k].utf8)), "\(names[k - 1]) \(names[k])")
        }
        for line in lines {
            let fields = line.split(separator: " ")
            var scalars = String.UnicodeScalarView()
            for hex in fields.dropFirst() { scalars.append(Unicode.Scalar(UInt32(hex, radix: 16)!)!) }
            #expect(HTMLEntities.text(named: fields[0]) == String(scalars), "\(fields[0])")
        }
        #expect(HTMLEntities.text(named: "not") == "¬")
        #expect(HTMLEntities.text(named: "notin") == "∉")
        #expect(HTMLEntities.text(named: "sup") == "⊃")
        #expect(HTMLEntities.text(named: "sup1") == "¹")
        #expect(HTMLEntities.text(named: "AElig") == "Æ")
        #expect(HTMLEntities.text(named: "zwnj") == "\u{200C}")
        for missing in ["", "A", "AEli", "AEligg", "aelig ", "zwnjz", "zz", "no t", "amp\nAMP", "\u{0}"] {
            #expect(HTMLEntities.text(named: missing[...]) == nil, "\(missing.debugDescription)")
        }
    }
}
