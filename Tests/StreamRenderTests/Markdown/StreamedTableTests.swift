import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Tables that stream (issue 26): column widths fixed by the header and the first
/// ``MarkdownRenderer/measuredTableRows`` rows, in the one-shot rendering too; after
/// those, each row final when its line ends, drawn once, never laid out again.
@Suite struct StreamedTableTests {
    static let measured = MarkdownRenderer.measuredTableRows

    /// A tall table with what rows hold in answers: alignments, styles, code, links,
    /// CJK and emoji, an escaped pipe, a row with no leading pipe, a footnote
    /// reference, and a later cell wider than its column; ended by a heading. Then a
    /// table ended by a blank line, a table too wide for a box (records), and a
    /// table in a list item (not streamed row by row: the item may go on).
    static let document: String = {
        var text = "Results:\n\n| # | Model | Score | Notes |\n|--:|:------|:-----:|-------|\n"
        for k in 1...60 {
            let notes: String
            switch k {
            case 3: notes = "see [docs](https://example.com/a/very/long/path/that/would/widen/the/column)"
            case 12: notes = "a much longer note that arrives after the measured rows and wraps inside its cell"
            case 20: notes = "日本語の説明 👩‍💻 wide"
            case 31: notes = "pipe \\| inside, `code | span`"
            case 40: notes = "cited[^perf]"
            default: notes = k % 7 == 0 ? "*fast*" : "ok"
            }
            text += k == 50 ? "\(k) | m\(k) | \(k * 3) | \(notes)\n" : "| \(k) | **m\(k)** | \(k * 3) | \(notes) |\n"
        }
        text += "\n## After\n\nText with a note[^perf].\n\n"
        text += "| a | b |\n|---|---|\n" + (1...12).map { "| \($0) | \($0 * $0) |\n" }.joined() + "\nDone.\n\n"
        let columns = 14
        text += "|" + (1...columns).map { " h\($0) |" }.joined() + "\n|" + String(repeating: "---|", count: columns) + "\n"
        text += (1...11).map { r in "|" + (1...columns).map { " r\(r)c\($0) |" }.joined() + "\n" }.joined()
        text += "\n- item\n\n  | x | y |\n  |---|---|\n" + (1...10).map { "  | \($0) | y\($0) |\n" }.joined()
        text += "\n[^perf]: Measured on one machine.\n"
        return text
    }()

    @Test func aTallTableStreamedInAnyChunkingEqualsOneShot() {
        let whole = MarkdownRenderer().render(Self.document)
        #expect(whole.contains { $0.plainText.hasPrefix("• h1: r1c1") }, "the wide table is drawn as records")
        expectEveryChunking(Self.document, rendersAs: whole, seed: 0x7AB1_E001, rounds: 12)
        // Many rows in one piece are parsed together (a row with an escaped pipe beside
        // rows without one among them): whole, and in large random pieces.
        #expect(firstDifference(streamMarkdown([Self.document]), whole) == nil, "in one piece")
        let seed = TestSeed.base(0x7AB1_E002)
        var rng = SeededGenerator(seed: seed)
        for round in 0..<12 {
            let pieces = randomPieces(Self.document, using: &rng, maxScalars: 2048)
            #expect(firstDifference(streamMarkdown(pieces), whole) == nil, "seed \(seed) round \(round)")
        }
    }

    /// After a streamed table's rows, a long line of prose with no `|` is a row (md4c's
    /// rule), not a paragraph split off before the box; a row past the forced split
    /// (16 KiB) is cut into rows in place, nothing lost, nothing out of order; a line
    /// that ends the table numbers its footnote references once, as one shot does.
    @Test func longRowsAndLinesAfterATallTable() {
        let head = "| n | note |\n|---|---|\n" + (1...10).map { "| \($0) | r\($0) |\n" }.joined()
        let prose = Array(repeating: "words that go on", count: 100).joined(separator: " ")
        let text = head + prose + "\n| 12 | r12 |\n\nAfter.\n"
        let whole = MarkdownRenderer().render(text)
        #expect(firstDifference(streamMarkdown([text]), whole) == nil)
        expectEveryChunking(text, rendersAs: whole, seed: 0x7AB1_E003, rounds: 6)
        // A 20 KiB row: split (a documented deviation), in order and whole.
        let long = "| 11 | " + String(repeating: "abcdefgh ", count: 20 << 7) + "|"
        let lines = streamMarkdown([head, long + "\n| 12 | r12 |\n"]).map(\.plainText)
        let joined = lines.joined(separator: "\n")
        let r10 = joined.range(of: "r10"), r12 = joined.range(of: "r12")
        #expect(r10 != nil && r12 != nil && r10!.upperBound < r12!.lowerBound)
        #expect(joined.filter { $0 == "a" }.count == 20 << 7, "letters lost or repeated")
        // Footnotes: a quote ends the table; a code span across its lines hides `[^a]`.
        let notes = head + "> see `x [^a]\n> y` and [^b]\n\n[^a]: A.\n[^b]: B.\n"
        let noted = MarkdownRenderer().render(notes)
        #expect(firstDifference(streamMarkdown(notes.split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }),
                                noted) == nil, "line by line")
        expectEveryChunking(notes, rendersAs: noted, seed: 0x7AB1_E004, rounds: 6)
    }

    /// Lines of a streamed table, one line at a time: nothing final until a row
    /// past the measured ones shows the table is tall; then the table so far; then
    /// each row at its line end, exactly the lines the one-shot rendering has for it;
    /// the bottom line last.
    @Test func rowsAfterTheMeasuredOnesAreFinalWhenTheirLineEnds() {
        let rows = (1...30).map { "| \($0) | value \($0) | \(String(repeating: "x", count: $0 % 9)) |" }
        let text = "| key | value | note |\n|---|---|---|\n" + rows.map { $0 + "\n" }.joined()
        let whole = MarkdownRenderer().render(text)
        var stream = MarkdownStream()
        var finals: [StyledLine] = []
        #expect(stream.append("| key | value | note |\n|---|---|---|\n").isEmpty)
        for (k, row) in rows.enumerated() {
            let got = stream.append(row + "\n")
            if k < Self.measured {
                #expect(got.isEmpty, "row \(k + 1) is final before the widths are fixed")
            } else if k == Self.measured {
                // The top line, the header, its rule, the measured rows and this one.
                #expect(got == Array(whole.prefix(Self.measured + 4)), "\(got.map(\.plainText))")
            } else {
                #expect(got.count == 1 && got == [whole[finals.count]], "row \(k + 1): \(got.map(\.plainText))")
            }
            finals += got
        }
        #expect(stream.provisionalLines() == [whole.last!], "the bottom line closes the box while it streams")
        finals += stream.finish()
        #expect(finals == whole)
    }

    /// The width rule, in the one-shot rendering: in a tall table, each measured
    /// column gets room to grow (`10` after `9` fits), and a later cell wider than that
    /// wraps inside its column (the box keeps its width); within the measured rows, a
    /// cell widens its column. A short table is fitted to its cells, as before.
    @Test func aLaterWiderCellWrapsInsideItsColumn() {
        let wide = "a long note that is wider"
        func table(rows: Int, wideRow: Int) -> [String] {
            let body = (1...rows).map { "| \($0) | \($0 == wideRow ? wide : "ok") |\n" }.joined()
            return MarkdownRenderer().render("| n | note |\n|---|---|\n" + body).map(\.plainText)
        }
        // `n` and `1`…`8`: 1 + 2 columns; `note`: 4 + 2.
        let late = table(rows: 12, wideRow: Self.measured + 1)
        #expect(late[0] == "┌─────┬────────┐", "\(late)")
        #expect(late.contains("│ 9   │ a long │") && late.contains("│     │ note   │") && late.contains("│ 10  │ ok     │"),
                "\(late.joined(separator: "\n"))")
        #expect(Set(late.map { DisplayWidth.of($0, policy: .grapheme) }).count == 1)
        let early = table(rows: 12, wideRow: Self.measured)
        let grown = wide.count + MarkdownRenderer.tableHeadroom(wide.count)
        #expect(early.contains("│ 8   │ \(wide + String(repeating: " ", count: grown - wide.count)) │"), "\(early.joined(separator: "\n"))")
        let short = table(rows: Self.measured, wideRow: 2)
        #expect(short[0] == "┌───┬───────────────────────────┐" && short.contains("│ 2 │ \(wide) │"), "\(short.joined(separator: "\n"))")
    }

    /// The row being typed is shown in the box (an unclosed `**` speculated, not
    /// shown) above the bottom line; a line that ends the table shows the closed box,
    /// then its own block.
    @Test func theRowBeingTypedIsDrawnInTheBox() {
        var stream = MarkdownStream()
        let head = "| n | name |\n|---|---|\n" + (1...Self.measured + 1).map { "| \($0) | n\($0) |\n" }.joined()
        var finals = stream.append(head)
        #expect(finals.count == Self.measured + 4)
        finals += stream.append("| 10 | **bo")
        let typing = stream.provisionalLines().map(\.plainText)
        #expect(typing == ["│ 10  │ bo     │", "└─────┴────────┘"], "\(typing)")
        let bold = stream.provisionalLines()[0].spans.first { $0.text == "bo" }
        #expect(bold?.style.attributes.contains(.bold) == true)
        // (md4c takes a `#` or a fence line for a row; a list item ends the table.)
        finals += stream.append("ld** |\n- Aft")
        #expect(stream.provisionalLines().map(\.plainText) == ["└─────┴────────┘", "", "• Aft"], "\(stream.provisionalLines().map(\.plainText))")
        finals += stream.append("er\n") + stream.finish()
        let whole = MarkdownRenderer().render(head + "| 10 | **bold** |\n- After\n")
        #expect(finals == whole, "\(firstDifference(finals, whole) ?? "")")
    }

    /// A committed row is never laid out again, and rows after a narrower width keep
    /// the box the first rows fixed (the layout wraps the lines, as it wraps any line
    /// wider than the screen).
    @Test func aWidthChangeMidTableKeepsTheBox() {
        var stream = MarkdownStream(options: MarkdownOptions(width: 60))
        let head = "| name | value |\n|---|---|\n" + (1...Self.measured + 1).map { "| row \($0) | value \($0) |\n" }.joined()
        let first = stream.append(head)
        #expect(first.count == Self.measured + 4)
        stream.width = 20
        let next = stream.append("| row 10 | value 10 |\n") + stream.finish()
        let widths = Set((first.dropFirst() + next).map { DisplayWidth.of($0.plainText, policy: .grapheme) })
        #expect(widths.count == 1, "\((first + next).map(\.plainText))")
    }
}
