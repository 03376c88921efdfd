import Foundation
import Testing
@_spi(Benchmarks) @testable import StreamRender

/// Styled lines (`--color always` into a pipe): the plain output's text with SGR and
/// links around it, never a cursor movement, the same in every chunking.
@Suite struct StyledLinesTests {
    /// The text without SGR (`ESC [ digits ; m`) and OSC 8 links; nil when any other
    /// escape sequence is there (the oracle: nothing but styles may be added).
    static func strippingStyles(_ bytes: [UInt8]) -> String? {
        var out: [UInt8] = []
        var k = 0
        while k < bytes.count {
            guard bytes[k] == 0x1B else { out.append(bytes[k]); k += 1; continue }
            guard k + 1 < bytes.count else { return nil }
            if bytes[k + 1] == 0x5B {  // CSI: only digits and ';' then 'm'
                var j = k + 2
                while j < bytes.count, bytes[j] == 0x3B || (0x30...0x39).contains(bytes[j]) { j += 1 }
                guard j < bytes.count, bytes[j] == 0x6D else { return nil }
                k = j + 1
            } else if bytes[k + 1] == 0x5D, k + 4 < bytes.count, bytes[k + 2] == 0x38, bytes[k + 3] == 0x3B {  // OSC 8
                var j = k + 4
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == 0x5C) { j += 1 }
                guard j + 1 < bytes.count else { return nil }
                k = j + 2
            } else {
                return nil
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let capabilities = TerminalCapabilities.full

    static func styled(_ chunks: [String], width: Int, markdown: Bool = true) -> [UInt8] {
        var printer = PlainTextPrinter(settings: LayoutSettings(width: width), markdown: markdown ? MarkdownOptions(hyperlinks: true) : nil,
                                       pen: SGRPen(capabilities: capabilities))
        var out: [UInt8] = []
        for chunk in chunks { printer.append(chunk, into: &out) }
        printer.finish(into: &out)
        return out
    }

    static func plain(_ text: String, width: Int, markdown: Bool = true) -> String {
        var printer = PlainTextPrinter(settings: LayoutSettings(width: width), markdown: markdown ? MarkdownOptions(hyperlinks: true) : nil)
        return printer.append(text) + printer.finish()
    }

    /// A pen asked by style id writes what it writes asked by the style, links on and
    /// off, for changes longer than the 32 bytes the encoder remembers too, each time
    /// a change comes back.
    @Test func aPenAskedByIdWritesWhatItWritesAskedByStyle() {
        var styles = StyleTable()
        let long = Style(foreground: .rgb(255, 254, 253), background: .rgb(200, 201, 202),
                         attributes: [.bold, .italic, .underline, .strikethrough, .inverse])
        let all = [Style.plain, Style(attributes: .bold), long, Style(foreground: .ansi(3), hyperlink: "https://example.com/a"),
                   Style(foreground: .ansi(3), hyperlink: "https://example.com/b"), Style(background: .rgb(1, 2, 3))]
        let ids = all.map { styles.intern($0) }
        var rng = SeededGenerator(seed: TestSeed.base(0x5E4_0001))
        let order = (0..<400).map { _ in Int.random(in: 0..<all.count, using: &rng) }
        for capabilities in [TerminalCapabilities.full, .full.withoutHyperlinks, TerminalCapabilities()] {
            let byStyle = SGRPen(capabilities: capabilities), byID = SGRPen(capabilities: capabilities)
            var want: [UInt8] = [], got: [UInt8] = []
            var changes: [Int: Set<[UInt8]>] = [:]
            for (k, n) in order.enumerated() {
                let before = want.count
                byStyle.change(to: all[n], into: &want)
                byID.change(to: ids[n], in: styles, into: &got)
                #expect(got == want, "seed \(TestSeed.base(0x5E4_0001)) step \(k) \(capabilities)")
                if k > 0 { changes[order[k - 1] * 10 + n, default: []].insert(Array(want[before...])) }
            }
            // The same change is written the same way every time (remembered or not).
            #expect(changes.values.allSatisfy { $0.count == 1 }, "\(capabilities)")
            #expect(changes.keys.contains(2 * 10 + 0) || changes.keys.contains(0 * 10 + 2))
        }
        var out: [UInt8] = []
        SGRPen(capabilities: .full).change(to: long, into: &out)
        #expect(out.count > 32, "the long change fits the encoder's memory: \(out.count) bytes")
    }

    /// A pen putting a line together (`LineAssembly`, the printer's straight path),
    /// asked by style or by look, writes what it writes into an array, with text
    /// between the changes, links on and off, changes remembered or longer than the
    /// encoder remembers, past the assembly's first capacity.
    @Test func aPenWritingIntoALineAssemblyWritesWhatItWritesIntoAnArray() {
        let seed = TestSeed.base(0x11E_A55E)
        var rng = SeededGenerator(seed: seed)
        let all = [Style.plain, Style(attributes: .bold), Style(foreground: .ansi(5)), Style(foreground: .ansi(6), attributes: .italic),
                   Style(foreground: .rgb(255, 254, 253), background: .rgb(200, 201, 202),
                         attributes: [.bold, .italic, .underline, .strikethrough, .inverse]),
                   Style(foreground: .ansi(3), hyperlink: "https://example.com/a"), Style(hyperlink: "https://example.com/b")]
        for capabilities in [TerminalCapabilities.full, .full.withoutHyperlinks, TerminalCapabilities()] {
            let toArray = SGRPen(capabilities: capabilities), toLine = SGRPen(capabilities: capabilities)
            let line = LineAssembly(capacity: 16)
            var want: [UInt8] = [], got: [UInt8] = []
            for step in 0..<600 {
                let style = all.randomElement(using: &rng)!
                let text = Array(String(repeating: "ab ", count: Int.random(in: 0...3, using: &rng)).utf8)
                toArray.change(to: style, into: &want)
                want += text
                if style.hyperlink == nil && Bool.random(using: &rng) {
                    toLine.change(toLook: style.look, into: line)
                } else {
                    toLine.change(to: style, into: line)
                }
                text.withUnsafeBufferPointer { line.append($0) }
                if Int.random(in: 0..<40, using: &rng) == 0 || step == 599 {
                    line.move(into: &got)
                    #expect(line.count == 0)
                    #expect(got == want, "seed \(seed) step \(step) \(capabilities)")
                }
            }
            #expect(want.count > 2_000)
        }
    }

    /// A styled answer changes style a few dozen ways, again and again: each change is
    /// worked out once, then remembered (two changes that met in one slot of the
    /// encoder's cache evicted each other every line: 7,400 worked out again a MiB).
    @Test func anAnswersPenChangesAreWorkedOutOnce() {
        let text = ["coding-answer.md", "multilingual.md", "python-dedupe.md", "sqlite-wal.md", "git-undo.md"]
            .map { String(decoding: Fixtures.data("answers/\($0)"), as: UTF8.self) }.joined(separator: "\n\n")
        for colors in [TerminalCapabilities.ColorSupport.ansi16, .palette256, .truecolor] {
            let pen = SGRPen(capabilities: TerminalCapabilities(colors: colors))
            var printer = PlainTextPrinter(settings: LayoutSettings(width: 80), markdown: MarkdownOptions(), pen: pen)
            var out: [UInt8] = []
            // (The second copy meets the first's end: changes of its own.)
            printer.append(text + "\n\n" + text, into: &out)
            let first = pen.changesWorkedOut
            for _ in 0..<3 { printer.append("\n\n" + text, into: &out) }
            printer.finish(into: &out)
            #expect(first > 20, "\(colors)")
            #expect(pen.changesWorkedOut == first, "\(colors): \(pen.changesWorkedOut - first) changes worked out again")
        }
    }

    @Test(arguments: MarkdownCorpus.fixtures + ["answers/sqlite-wal.md", "answers/python-dedupe.md", "real/markdown/glamour--example.md",
                                                "real/markdown/streamdown--cjk-table.md", "real/markdown/mdcat--common-mark.md"])
    func styledLinesAreThePlainTextWithStylesInEveryChunking(_ name: String) throws {
        let text = String(decoding: Fixtures.data(name), as: UTF8.self)
        for width in [30, 80] {
            let whole = Self.styled([text], width: width)
            let stripped = try #require(Self.strippingStyles(whole), "\(name) at \(width): an escape sequence other than SGR or OSC 8")
            #expect(stripped == Self.plain(text, width: width), "\(name) at \(width)")
            #expect(whole.count > stripped.utf8.count, "\(name) at \(width): no style written")
            let seed = TestSeed.base(0x5354_594C) &+ UInt64(width)
            var rng = SeededGenerator(seed: seed)
            for round in 0..<20 {
                let bytes = Array(text.utf8)
                let chunks = randomChunks(bytes, using: &rng, maxChunk: round % 2 == 0 ? 3 : 200)
                    .map { String(decoding: $0, as: UTF8.self) }
                // Chunks cut mid-UTF-8 are decoded with U+FFFD here: only compare whole-scalar cuts.
                guard chunks.joined() == text else { continue }
                #expect(Self.styled(chunks, width: width) == whole, "\(name) at \(width), seed \(seed) round \(round)")
            }
        }
    }

    /// Bold, a heading's colour, a link and code come out as SGR and OSC 8; each
    /// printed line leaves no style open (a pager may show any line alone).
    @Test func stylesAreWrittenAndClosedOnEveryLine() throws {
        let text = "# Title\n\nSome **bold**, a [link](https://example.com) and `code` in a paragraph long enough to wrap.\n"
        let out = String(decoding: Self.styled([text], width: 30), as: UTF8.self)
        #expect(out.contains("\u{1B}[0;1") || out.contains(";1m") || out.contains("[1m"), "\(out.debugDescription)")
        #expect(out.contains("\u{1B}]8;;https://example.com\u{1B}\\"), "\(out.debugDescription)")
        for line in out.split(separator: "\n") where line.contains("\u{1B}") {
            // The last SGR of the line resets, and any link is closed after it opened.
            let lastSGR = line.ranges(of: "\u{1B}[").last.map { String(line[$0.lowerBound...].prefix { $0 != "m" }) + "m" }
            #expect(lastSGR == "\u{1B}[0m" || lastSGR == "\u{1B}[m", "\(line.debugDescription)")
            #expect(line.components(separatedBy: "\u{1B}]8;;\u{1B}\\").count - 1 == line.components(separatedBy: "\u{1B}]8;;h").count - 1,
                    "\(line.debugDescription)")
        }
    }

    /// Without markdown the text streams as it does in plain output (the certain part
    /// of the current line printed at once), styled by nothing but resets.
    @Test func textWithoutMarkdownStreamsAsPlainDoes() throws {
        let text = "a line that keeps growing without a line end for a while\nand a second\n"
        let out = Self.styled([text], width: 20, markdown: false)
        #expect(Self.strippingStyles(out) == Self.plain(text, width: 20, markdown: false))
    }
}
