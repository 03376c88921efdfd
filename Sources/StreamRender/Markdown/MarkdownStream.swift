/// Streaming markdown: text arrives in pieces of any size; lines of finished blocks
/// come out once, final, and the open block's rendering is available at any time.
///
/// The text is kept as an open **region** (complete lines since the last cut, plus
/// the unfinished line). A cut is made before a complete line only when md4c's
/// parse says the blocks before it cannot change any more:
///
/// - before a line that starts a new top-level block: parsing the region with the
///   line gives the region's blocks plus one, of the kind the line alone gives;
/// - before a new top-level item of the same list (the earlier items are final; the
///   numbering goes on from them);
/// - inside a long paragraph (at least ``splitThreshold`` bytes), before a line that
///   cannot start a block or end a setext heading, when no inline construct (emphasis
///   or strikethrough run, code span, bracket, link destination) opened in the last
///   ``openConstructBytes`` is open (or the paragraph holds ``openParagraphBytes``)
///   and the line before does not end with a backslash or a hard break;
/// - inside a long unfinished line of a paragraph (the region and the line at least
///   ``splitThreshold`` bytes, the rest of a split line ``continuedSplitBytes``): at a
///   space between words, or inside a word of letters,
///   digits and non-ASCII characters only (see ``splitLongLine(complete:)``), so an
///   endless line is parsed, laid out and shown in parts too;
/// - at ``maximumRegionBytes`` (a deviation from a one-shot render, for bounded work).
///
/// Some cuts need no parse to confirm them (a line in the first column after a blank
/// line, an ATX heading), and blocks cut in one ``append(_:)`` that need nothing back
/// from their rendering are parsed together, once (see `held`).
///
/// An open top-level fenced code block bypasses the parser: each line is a code line
/// as soon as it is complete, and only the closing fence is looked for.
///
/// Every decision depends on the text alone, never on how it was cut into pieces,
/// so the lines are the same for every chunking; they equal `MarkdownRenderer`'s
/// rendering of the whole text, except where noted in docs/decisions/0008-markdown.md (late link
/// reference definitions, a setext underline after a paragraph split, regions cut
/// at the size limit).
///
/// Not `Sendable`: it holds a `MarkdownRenderer` (a class) and lexers; one stream per
/// answer.
@_spi(Benchmarks) public struct MarkdownStream {
    public let renderer: MarkdownRenderer
    /// A paragraph is split (where it safely can be) once its region is this long.
    public static let splitThreshold = 1024
    /// The rest of a line split already is split again once it is this long: a line
    /// over ``splitThreshold`` is not prose's (hex, CJK without line ends, an answer
    /// on one line, endless marks), and the smaller its open part, the less a frame
    /// renders again (endless combining marks cost 3.9x prose per byte in the inline
    /// view with parts of 1 KB).
    public static let continuedSplitBytes = 256
    /// A region longer than this is cut whatever it holds.
    public static let maximumRegionBytes = 256 << 10
    /// A list item line arriving while the region is shorter than this does not make
    /// the earlier items final yet (fewer parses for lists of short items). At 256 a
    /// list of a chat's size (300-500 bytes) was checked item by item once past it, two
    /// parses an item (plain output 1.05x-1.09x the instructions); the price is that
    /// plain output prints such a list's items in parts of up to this size (the live
    /// views show them at once, as the open block).
    public static let listBatchBytes = 512
    /// Link reference definitions kept for later regions.
    public static let maximumDefinitionBytes = 16 << 10

    private enum Continuation { case list(next: Int), paragraph }

    struct Fence {
        var character: UInt8
        var length: Int
        var indent: Int
    }

    private var heldCR = false
    private var region: [UInt8] = []
    private var partial: [UInt8] = []
    private var spareLine: [UInt8] = []
    private var fence: Fence?
    /// Whether the open block is a fenced code block: its lines are final once whole,
    /// and its last line, rendered again as it grows, keeps the text it has (at any
    /// width), unlike a table or a paragraph whose spans may close.
    var isInFence: Bool { fence != nil }
    /// Footnote definitions (`[^label]: text`), held for the end of the text block.
    private var footnotes = FootnoteCollector()
    /// The open fence's info word and, when the renderer collects blocks, its code.
    private var fenceInfo = ""
    private var fenceCode: [UInt8] = []
    /// The open fence's highlighter (nil: no language, or one we do not know).
    private var highlighter: Highlighter?
    /// Fence languages looked up, each with a highlighter that has lexed nothing (nil:
    /// none we know), the latest last: a chat's fences name a few languages, and the
    /// lookup and making the lexer cost 2,000 instructions a fence.
    private var fenceHighlighters: [FenceHighlighter] = []
    /// (A struct, not a tuple: a tuple's copy went through the runtime's generic witnesses.)
    private struct FenceHighlighter {
        var language: String
        var highlighter: Highlighter?
    }
    /// Finished fence lines given to a highlighter: each once (tests count them).
    private(set) var highlightedLines = 0
    /// The tokens of the fence line just lexed (kept: an array grown per line cost more
    /// than the lexing of a short one).
    private var lineTokens: [Token] = []
    private var continuation: Continuation?
    /// Whether any block has been output (the next one is preceded by a blank line).
    private var emittedBlocks = false
    /// The region's top-level shape when known (invalidated when a line is added unparsed).
    private var regionShape: MarkdownRenderer.Blocks?
    /// The kind of the region's last top-level block, as the last parse said, kept
    /// while lines that can only continue it are added unparsed.
    private var regionLastTag: MarkdownRenderer.Node.Tag?
    /// Lines added since the region's last block became a table (its delimiter row
    /// and the rows after it), and whether the region was checked for a table to stream.
    private var tableLines = 0
    private var tableChecked = false
    /// A table whose first rows are final: its header and delimiter lines, and the
    /// grid they and those rows fixed. Each later row is final when its line ends.
    private var openTable: (head: [UInt8], grid: MarkdownRenderer.TableGrid)?
    /// Lines of the open table not parsed yet (each with its line end), and how many:
    /// a read's rows are parsed together before its final lines are taken.
    private var pendingRows: [UInt8] = []
    private var pendingRowLines = 0
    private var lastLineBlank = false
    private var lastLineBackslash = false
    /// The last line ends with two spaces (a hard line break follows it).
    private var lastLineHardBreak = false
    /// The last final line continues its paragraph (split at a soft break): the next
    /// block's first line joins it, with the space the soft break is.
    private var joinPending = false
    /// The join is a soft break or a space (rendered as a space); false when a word
    /// was split (the parts join with nothing between them).
    private var joinsWithSpace = true
    // Splitting the unfinished line (``splitLongLine(complete:)``): how far it was
    // examined, where the piece not yet given to `lineInline` starts (0 or a space),
    // the inline state there, the last byte that is not a letter, digit or non-ASCII
    // (-1: none), whether a `|` came before `lineExamined`, whether the line's start
    // is plain paragraph text (nil: not known yet), and whether the line continues a
    // paragraph split inside it.
    private var lineExamined = 0
    private var linePieceStart = 0
    private var lineInline: InlineScanner?
    private var lineLastNonWord = -1
    private var linePipe = false
    private var lineStartsPlain: Bool?
    private var lineContinuesSplit = false
    /// Bytes after a split point that must be known (and, inside a word, be word
    /// bytes) before the split is made: enough to see `www.`, `http:` or a list
    /// marker coming.
    static let splitLookahead = 16
    /// The prefix of a line that decides whether it is plain paragraph text.
    static let plainPrefix = 64
    /// A line holding a `|` is split only past this many bytes: md4c makes a
    /// paragraph's only line a table's header row when a delimiter row follows, so a
    /// split before it could break a table; no header row is that long.
    public static let pipedLineBytes = 8 << 10
    /// An unfinished line that no rule above splits (a heading, a list item, a quote,
    /// a table row, an inline construct left open) is split anyway in its
    /// ``forcedSplitWindow`` bytes before this many bytes from its start: the open
    /// block a frame renders stays bounded for every line (a 10 MB heading was
    /// rendered whole at every frame). A deviation from a one-shot render, like
    /// ``maximumRegionBytes``; no real line is this long.
    public static let forcedSplitBytes = 16 << 10
    /// Where a forced split may fall: the last this many bytes before
    /// ``forcedSplitBytes`` (the rules above split only before them).
    static let forcedSplitWindow = 1 << 10
    /// An inline construct (emphasis or strikethrough run, code span, bracket, link
    /// destination) opened this many bytes before a split point no longer stops the
    /// split: it is taken to be literal text. A lone delimiter that nothing closes
    /// (`~300 ms`, `*args`, a stray backtick) would otherwise keep a paragraph, or a
    /// line that never ends, from splitting until ``forcedSplitBytes`` or
    /// ``maximumRegionBytes``, and the open block a frame renders grew with it. A
    /// deviation from a one-shot render only for a construct that spans more than
    /// this and a split point, and is closed after it.
    public static let openConstructBytes = 1 << 10
    /// A paragraph this long is split whatever is open: before its next line that
    /// can only continue it, or, in a line this long, by the forced split's rules
    /// (its ``forcedSplitWindow`` bytes before this many bytes from the line's start).
    /// Delimiters that nothing closes may come more often than
    /// ``openConstructBytes`` (`~300 ms … (~6 s) … *args`): the bound on the open
    /// block. The same deviation, for a construct open across this many bytes.
    public static let openParagraphBytes = 4 << 10
    /// Every line of the region is plain paragraph text (see ``isPlainLine``).
    private var allPlain = false
    /// The region is a tight bullet list of one-line items so far, each this marker
    /// alone or followed by a space and text without marks (``inertItemMarker(_:)``,
    /// `InlineScanner.hasMarks(_:)`), then blank lines at most. Nil when it is not.
    private var inertListMarker: UInt8?
    /// A line of the region starts a list item (a list may go on past a blank line: a
    /// loose list's next item, an indented line of an item).
    private var regionHasList = false
    /// A line of the region starts an HTML block (it takes a heading's line right after
    /// it; those that go on past a blank line are ``regionMayRunPastBlankLines``).
    private var regionHasHTML = false
    /// A line of the region may open a block that a blank line does not end: an HTML
    /// block (``mayOpenHTMLPastBlankLines(_:)``), or a fence the stream did not take
    /// as one (md4c takes a fence indented four columns or more that interrupts a
    /// paragraph; a fence in a list item).
    private var regionMayRunPastBlankLines = false
    /// The region's first line opens an HTML block that only a blank line ends (a block
    /// tag, CommonMark's type 6), and no blank line came since: while the parse says the
    /// region ends in an HTML block, every line goes on in it (``continuesBlock``).
    private var regionOpensHTMLBlock = false
    /// The region's open top-level list item, when the region began with a list item
    /// and every line since is known to be inside that item or to have begun the
    /// list's next item (see ``OpenItem``); nil when not known.
    private var openItem: OpenItem?
    /// The region's bytes ``openItem`` has followed: its lines are followed only when a
    /// line is to be checked (``followOpenItem()``), most regions never are.
    private var openItemFollowed = 0
    /// The region's first line may start an item: ``openItem`` is made from it when
    /// first followed (most regions are never checked).
    private var openItemPending = false
    /// Whether lines of an open item are known without parses (false: every line that
    /// may start a block is checked, for tests comparing the two).
    var knowsOpenItems = true
    /// A region this long is checked for a new block only at ``nextCheck`` bytes.
    static let checkedRegionBytes = 4 << 10
    private var nextCheck = 0
    private var inline = InlineScanner()
    private var definitions: [UInt8] = []
    private var finals: [StyledLine] = []
    private var scratch: [UInt8] = []
    /// Regions made final by cuts that need nothing back (a new top-level block began),
    /// held to be parsed together in one pass: parsed alone, a short block cost its
    /// parse's fixed part several times over (issue 24). A cut is held only when
    /// parsing the regions together gives what parsing them one by one gives: each
    /// region ends where a top-level block ends, none holds or follows a link reference
    /// definition (a definition applies to the whole text it is parsed with; newer md4c
    /// caps what references expand to per parse), none joins the line before or
    /// continues a list. Anything that renders or parses takes the held
    /// regions first (``flushHeld()``), so lines, code block and footnote numbers come
    /// in the text's order.
    private var held: [UInt8] = []
    /// Held regions are parsed once they reach this size (a bound on the tree a parse builds).
    static let heldBytes = 8 << 10
    /// Inert paragraphs (``cutInert()``) made final while regions were held: their
    /// regions, one after another, rendered without a parse after the held regions'
    /// lines, or held as markdown after all (``cutHolding()``). Never any without held
    /// regions.
    private var heldInertText: [UInt8] = []
    /// The text of each line of them, in ``heldInertText``.
    private var heldInert: [InertLine] = []

    /// A line of an inert paragraph or list (``cutInert()``): its text, and whether it is
    /// an item of a bullet list and starts its block (after a blank line between blocks).
    struct InertLine {
        var text: Range<Int>
        var isItem: Bool
        var startsBlock: Bool
    }
    /// Held inert paragraphs this many or more are worth a parse of the regions before
    /// them; fewer are held as markdown with the next region: a parse's fixed part costs
    /// more than one inert paragraph's share of the held regions' parse (a paragraph, a
    /// heading, a quote and an inert paragraph again and again took 1.035x the
    /// instructions when each inert one cost a parse).
    static let inertRunWorthAParse = 2
    /// Held inert paragraphs are made final, with the regions before them, at this many.
    static let heldInertLimit = 256

    public init(options: MarkdownOptions = MarkdownOptions()) {
        renderer = MarkdownRenderer(options: options)
    }

    /// Tables are fitted to this width from now on.
    public var width: Int {
        get { renderer.options.width }
        set { renderer.options.width = max(1, newValue) }
    }

    // MARK: - Input

    /// Appends text; returns the lines that became final.
    ///
    /// - Complexity: amortized O(n) in the bytes of `text`, plus, for each line
    ///   completed that may start a block, a parse of the open region.
    @_spi(Benchmarks) public mutating func append(_ text: String) -> [StyledLine] {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            // Line ends found by memchr: for LF alone when the text holds no CR (most).
            let hasCR = ByteSearch.contains(0x0D, in: bytes)
            var start = 0
            var i = 0
            while i < bytes.count {
                if !hasCR && !heldCR {
                    i = ByteSearch.find(0x0A, base, from: i, to: bytes.count)
                    if i == bytes.count { break }
                }
                let byte = bytes[i]
                if heldCR {
                    heldCR = false
                    if byte == 0x0A { start = i + 1; i += 1; continue }  // CR LF: the CR ended the line
                }
                guard byte == 0x0A || byte == 0x0D else { i += 1; continue }
                partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i]))
                completeLine()
                heldCR = byte == 0x0D
                start = i + 1
                i += 1
            }
            if start < bytes.count { partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        splitLongLine(complete: false)
        flushRows()
        return takeFinals()
    }

    /// Ends the text: the open block is final.
    ///
    /// - Complexity: one parse of the open region.
    @_spi(Benchmarks) public mutating func finish() -> [StyledLine] {
        heldCR = false
        if !partial.isEmpty { completeLine() }
        flushRows()
        if fence != nil {
            closeFence()
        } else if !region.isEmpty && !cutInert() {
            cut()
        }
        closeTable()
        flushHeld()
        let notes = footnotes.takeAll()
        if !notes.isEmpty {
            // GitHub shows footnotes at the end: so do we, after the text block.
            if emittedBlocks { finals.append(.blank) }
            finals += renderer.footnoteSection(notes)
            emittedBlocks = true
        }
        return takeFinals()
    }

    /// Ends the open fence (its closing line, or the end of the text).
    private mutating func closeFence() {
        fence = nil
        if renderer.collectsCodeBlocks {
            renderer.renderedCodeBlocks.append(CodeBlock(number: renderer.codeBlocksNumbered, info: fenceInfo,
                                                         code: String(decoding: fenceCode, as: UTF8.self)))
        }
        fenceCode.removeAll()
        // (A very long line's tokens are not held on: a block's lines are short again.)
        if lineTokens.capacity > Self.keptLineTokens { lineTokens = [] }
    }

    /// The room for tokens kept across fenced blocks.
    private static let keptLineTokens = 1024

    private mutating func takeFinals() -> [StyledLine] {
        flushHeld()
        // (Handed over, not copied: emptying a shared array made a new one per call.)
        var taken: [StyledLine] = []
        swap(&taken, &finals)
        return taken
    }

    /// Takes back lines `append`, `finish` or `provisionalLines` returned, once their
    /// text has been copied or taken (a line whose paragraph took its text holds that
    /// paragraph's empty buffer): their arrays are filled again by the lines to come, and
    /// `lines`' room is kept for the next lines made final.
    ///
    /// - Complexity: O(n) in the lines.
    mutating func recycle(_ lines: inout [StyledLine]) {
        renderer.recycle(&lines)
        if finals.isEmpty && finals.capacity < lines.capacity { swap(&finals, &lines) }
    }

    private mutating func completeLine() {
        splitLongLine(complete: true)
        // The line leaves `partial` for a spare buffer, which `partial` becomes after it
        // (a buffer a line allocated and freed showed in profiles: lines are short).
        var line: [UInt8] = []
        swap(&line, &spareLine)
        swap(&line, &partial)
        let continuing = lineContinuesSplit
        resetLineSplit()
        process(line, continuingSplit: continuing)
        line.removeAllKeepingCapacity()
        swap(&line, &spareLine)
    }

    private mutating func resetLineSplit() {
        lineExamined = 0
        linePieceStart = 0
        // (Set only when set: assigning nil released the old nil, a call per line.)
        if lineInline != nil { lineInline = nil }
        lineLastNonWord = -1
        linePipe = false
        lineStartsPlain = nil
        lineContinuesSplit = false
    }

    // MARK: - Long lines

    /// Letters, digits and non-ASCII bytes.
    @inline(__always)
    private static func isWordByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)
    }

    /// Bytes a word may be split between: word bytes, and `+`, `/` and `=` (base64),
    /// which md4c gives no meaning inside a word (no delimiter, escape, entity,
    /// link or autolink starts with them; `:`, `@` and `.` stay out).
    @inline(__always)
    private static func isInertByte(_ b: UInt8) -> Bool {
        isWordByte(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "/") || b == UInt8(ascii: "=")
    }

    /// Splits the unfinished line of a paragraph once the region and the line hold
    /// ``splitThreshold`` bytes, so that a line that never ends (a megabyte of hex, a
    /// CJK answer without line ends) is rendered in parts of about that size instead
    /// of whole at every frame. The part before the split is final at once, its last
    /// line `StyledLine.continues`; the rest joins it (`StyledLine.joinsPrevious`),
    /// as after a paragraph split at a line end.
    ///
    /// A split point is the first, at or after the threshold, of
    /// - a single space after a non-space and before an ASCII letter or a non-ASCII
    ///   character, where no inline construct is open (the space is dropped and the
    ///   join is a space, as md4c renders it);
    /// - a scalar boundary between two letters, digits or non-ASCII characters inside
    ///   a word that, from its start (a space or the line's) to ``splitLookahead``
    ///   bytes past the point, holds only those and `+ / =` (``isInertByte(_:)``),
    ///   with no inline construct open before it (the join is nothing: no delimiter,
    ///   entity, escape or link can span the point).
    /// The line must start as plain paragraph text (``isPlainLine(_:)`` of its first
    /// ``plainPrefix`` bytes), start a paragraph or continue a region of such lines,
    /// and hold no `|` before the point unless it is ``pipedLineBytes`` long (the rest
    /// of a line split once is no header row: its `|` do not count). Each
    /// decision waits for ``splitLookahead`` bytes after the point (or the line's
    /// end), so it depends on the text alone, not on its chunking.
    /// Deviations from a one-shot render (see docs/decisions/0008-markdown.md): a table header row
    /// longer than ``pipedLineBytes`` or whose first `|` comes after a split, the rest
    /// of a split line followed by a delimiter row (a table here, text in one shot),
    /// a setext underline after a split line, and an e-mail autolink whose local part
    /// spans a split in a word.
    ///
    /// - Complexity: amortized O(n) in the bytes added to the line, plus a parse of
    ///   each part made final.
    private mutating func splitLongLine(complete: Bool) {
        guard fence == nil else { return }
        let k = Self.splitLookahead
        while true {
            let n = partial.count
            // No split point before the threshold: nothing to look at yet.
            let threshold = lineContinuesSplit ? Self.continuedSplitBytes : Self.splitThreshold
            guard region.count + n >= threshold else { return }
            if lineStartsPlain == nil {
                guard complete || n >= Self.plainPrefix else { return }
                let prefix = Array(partial[..<min(n, Self.plainPrefix)])
                if openTable != nil || !Self.isPlainLine(prefix) {
                    // (After a streamed table's rows any text line is a row.)
                    lineStartsPlain = false
                } else if region.isEmpty || (allPlain && !lastLineBlank) {
                    lineStartsPlain = true
                } else {
                    // The line follows a blank line or a block other than a paragraph:
                    // it may start a new paragraph (the region is then final, as
                    // ``process(_:continuingSplit:)`` will find) or continue the
                    // block. Asked (one parse) only of a line that may be split.
                    guard n >= Self.splitThreshold else {
                        if complete { lineStartsPlain = false }
                        return
                    }
                    // (Nothing after a plain line's first bytes changes the blocks before it.)
                    lineStartsPlain = shapes(adding: prefix).startsBlock != nil
                    if lineStartsPlain == true { cut() }
                }
            }
            guard lineStartsPlain == true else {
                if forceSplit(complete: complete) { continue }
                return
            }
            if lineInline == nil { lineInline = region.isEmpty ? InlineScanner() : inline }
            var split: (at: Int, space: Bool)?
            var p = lineExamined
            // Paragraph text is split by the forced split's rules at
            // ``openParagraphBytes``, a line with a `|` at ``forcedSplitBytes``.
            while p < n && p < (linePipe ? Self.forcedSplitBytes : Self.openParagraphBytes) - Self.forcedSplitWindow
                    && (complete || p + k < n) {
                let b = partial[p]
                if region.count + p >= threshold && (!linePipe || p >= Self.pipedLineBytes) && p > 0 {
                    if b == 0x20 {
                        let next = p + 1 < n ? partial[p + 1] : 0x20
                        if partial[p - 1] != 0x20 && partial[p - 1] != 0x09 && (next >= 0x80 || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A)) {
                            scanLine(to: p)
                            if lineInline!.isBalanced(openedSince: lineInline!.position - Self.openConstructBytes) { split = (p, true) }
                        }
                    } else if Self.isWordByte(b) && b & 0xC0 != 0x80 && Self.isWordByte(partial[p - 1])
                                && (lineLastNonWord < 0 || partial[lineLastNonWord] == 0x20) && p + k <= n
                                && partial[p..<(p + k)].allSatisfy(Self.isInertByte) {
                        // The word holds nothing the scanner follows: its state is the
                        // one at the word's start.
                        scanLine(to: max(0, lineLastNonWord))
                        // (The scanner stands at the word's start, `p` past it.)
                        let since = lineInline!.position + (p - linePieceStart) - Self.openConstructBytes
                        if lineInline!.isBalanced(openedSince: since) { split = (p, false) }
                    }
                }
                if split != nil { break }
                if !Self.isInertByte(b) { lineLastNonWord = p }
                // (The rest of a line split already is no table's header row.)
                if b == UInt8(ascii: "|") && !lineContinuesSplit { linePipe = true }
                p += 1
            }
            lineExamined = p
            guard let (at, space) = split else {
                let limit = Self.openParagraphBytes
                // (The loop found no `|` before `lineExamined`: only the rest is looked at.)
                if !linePipe && !lineContinuesSplit && n >= limit + k
                    && partial[min(lineExamined, limit)..<limit].contains(UInt8(ascii: "|")) { linePipe = true }
                if forceSplit(complete: complete, limit: linePipe ? Self.forcedSplitBytes : limit) { continue }
                return
            }
            // The part before the point is the region's last (unfinished) line.
            region += partial[..<at]
            cut(continuing: true, joinsWithSpace: space)
            partial.removeFirst(space ? at + 1 : at)
            continuation = .paragraph
            resetLineSplit()
            lineStartsPlain = true  // a letter, digit or non-ASCII character starts it
            lineContinuesSplit = true
        }
    }

    /// Splits an unfinished line that reached `limit` (plus the lookahead: the
    /// ``forcedSplitBytes``, or ``openParagraphBytes`` for paragraph text) with no
    /// split made by the rules of ``splitLongLine(complete:)`` (which look only before
    /// the window): at the last single space before a letter or non-ASCII character
    /// in the window (the join is the space), or else at the last scalar boundary
    /// before `limit` (the join is nothing). The
    /// point depends on the line's bytes alone. The part before it is rendered as the
    /// block the line started (final at once); the rest continues as paragraph text
    /// joined to it.
    ///
    /// - Complexity: O(``forcedSplitWindow``) plus a parse of the part made final.
    @discardableResult
    private mutating func forceSplit(complete: Bool, limit: Int = forcedSplitBytes) -> Bool {
        guard fence == nil, partial.count >= limit + Self.splitLookahead else { return false }
        var at = limit
        var space = false
        var p = limit - 1
        while p > limit - Self.forcedSplitWindow {
            let next = partial[p + 1]
            if partial[p] == 0x20 && partial[p - 1] != 0x20 && partial[p - 1] != 0x09
                && (next >= 0x80 || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A)) {
                at = p
                space = true
                break
            }
            p -= 1
        }
        if !space { while partial[at] & 0xC0 == 0x80 { at -= 1 } }
        if openTable != nil {
            // A row of a streamed table: its first part is a row (or ends the table), after
            // the rows before it; the rest goes on as the next line.
            flushRows()
            let piece = Array(partial[..<at])
            partial.removeFirst(space ? at + 1 : at)
            resetLineSplit()
            lineContinuesSplit = true
            processAfterFootnotes(piece, continuingSplit: false)
            return true
        }
        region += partial[..<at]
        cut(continuing: true, joinsWithSpace: space)
        partial.removeFirst(space ? at + 1 : at)
        continuation = .paragraph
        resetLineSplit()
        lineContinuesSplit = true
        return true
    }

    /// Gives `lineInline` the line up to `end` (a space, or 0). Pieces that start and
    /// end at spaces scan as the whole line would: no delimiter run, code span
    /// fence or `](` spans a space, and a space reads as the line's edge does.
    private mutating func scanLine(to end: Int) {
        guard end > linePieceStart else { return }
        lineInline!.scan(Array(partial[linePieceStart..<end]))
        linePieceStart = end
    }

    /// The region's top-level blocks before and after `line` is added, and the line's
    /// own shape when it starts a new top-level block there: the blocks before stay
    /// as they were, one more follows, and it is what the line parses to alone (not,
    /// say, a table whose header was the line before).
    private mutating func shapes(adding line: [UInt8])
        -> (before: MarkdownRenderer.Blocks, after: MarkdownRenderer.Blocks, startsBlock: MarkdownRenderer.Blocks?) {
        let before = shape(region: region)
        var test = region
        test += line
        test.append(0x0A)
        // With inline content: when the line starts a block, the blocks before it are
        // rendered from this parse (one pass per block, not a check and a render).
        let after = shape(region: test, withInlines: true)
        let beforeTags = before.tags, afterTags = after.tags
        guard afterTags.count == beforeTags.count + 1 && Array(afterTags.dropLast()) == beforeTags else { return (before, after, nil) }
        let alone = shape(region: line + [0x0A])
        return (before, after, alone.count == 1 && alone.nodes[0].tag == afterTags.last ? alone : nil)
    }

    // MARK: - Lines

    private mutating func process(_ line: [UInt8], continuingSplit: Bool = false) {
        if let f = fence {
            if Self.closes(line, f) {
                closeFence()
            } else {
                // (From the line's bytes: no `String` per line of code, and no slice of the
                // line, which retained it.)
                line.withUnsafeBufferPointer { line in
                    let stripped = UnsafeBufferPointer(rebasing: line[Self.stripped(line, f.indent)...])
                    if renderer.collectsCodeBlocks {
                        fenceCode.append(contentsOf: stripped)
                        fenceCode.append(0x0A)
                    }
                    appendCodeLine(stripped)
                }
            }
            return
        }
        if footnotes.take(line, continuingSplit: continuingSplit) { return }
        if openTable != nil && !continuingSplit && Self.isTableText(line) {
            pendingRows += line
            pendingRows.append(0x0A)
            pendingRowLines += 1
            return
        }
        flushRows()
        processAfterFootnotes(line, continuingSplit: continuingSplit)
    }

    /// A line that can only be a row after a table's (md4c's rule: text, not a list
    /// item, quote, rule, HTML or link reference definition): it starts with `|`, a
    /// letter or a non-ASCII character.
    static func isTableText(_ line: [UInt8]) -> Bool {
        guard let b = line.first(where: { $0 != 0x20 && $0 != 0x09 }) else { return false }
        return b == UInt8(ascii: "|") || b >= 0x80 || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
    }

    /// The open table's pending rows parsed in one pass and made final; a line among
    /// them that ended the table (which ``isTableText(_:)`` should have kept out) and
    /// the lines after it go on as any line.
    private mutating func flushRows() {
        guard let table = openTable, pendingRowLines > 0 else { return }
        var lines: [UInt8] = []
        swap(&lines, &pendingRows)
        let count = pendingRowLines
        pendingRowLines = 0
        let (rendered, rows) = parseRows(table, lines[...], count: count)
        guard rows < count else {
            finals += rendered
            return
        }
        // A line ended the table: the rows alone again.
        var start = 0
        for _ in 0..<rows { start = lines[start...].firstIndex(of: 0x0A)! + 1 }
        finals += parseRows(table, lines[..<start], count: rows).lines
        closeTable()
        while start < lines.count {
            let end = lines[start...].firstIndex(of: 0x0A)!
            processAfterFootnotes(Array(lines[start..<end]), continuingSplit: false)
            start = end + 1
        }
        flushRows()
    }

    /// ``process(_:continuingSplit:)`` for a line that is no footnote's.
    private mutating func processAfterFootnotes(_ line: [UInt8], continuingSplit: Bool) {
        let blank = Self.isBlank(line)
        if let table = openTable {
            if !blank, let rows = tableRow(table, line) {
                finals += rows
                return
            }
            // A blank line or a line that starts another block ends the table.
            closeTable()
        }
        if region.isEmpty {
            if !blank { start(line, continuing: continuingSplit ? .paragraph : nil) }
            return
        }
        // After a blank line, a line that starts in the first column (or any line, after
        // a paragraph) starts a new top-level block, unless the region holds a block that
        // goes on past blank lines (``regionMayRunPastBlankLines``: an HTML comment or
        // `<pre>` not closed on its line, which a blank line does not end as it ends a
        // `<div>`, or a fence md4c took; a list, for a line that is an item or is
        // indented: it may be the list's) or the line is a link reference definition
        // (which the region keeps, so that it applies to the blocks before it). This
        // spares the three parses below per block. So does an ATX heading in the first
        // column right after any line: it interrupts a paragraph, is no paragraph's
        // lazy continuation, and ends a list or quote it is not indented into (not a
        // table, which a region without `|` cannot hold, nor an HTML block).
        let startsHeading = !lastLineBlank && line.first == UInt8(ascii: "#") && Self.isATXHeading(line)
            && !ByteSearch.contains(UInt8(ascii: "|"), in: region)
        if !blank && (lastLineBlank ? !regionMayRunPastBlankLines || leavesOpenItem(line) : startsHeading && !regionHasHTML),
           let k = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
           line[k] != UInt8(ascii: "["), k == 0 || allPlain, !regionHasList || !Self.isListItem(line) {
            cutHolding()
            start(line, continuing: nil)
            return
        }
        // A `|` line right after a table's line is its next row, a `>` line right after
        // a quote's goes on in it: neither can start another top-level block, so no
        // parse checks it (a parse per row of a growing region made tables quadratic).
        // So does any line of an HTML block that only a blank line ends (a parse per line
        // made `<div>` and 20,000 lines 21 s).
        let continuesBlock = !blank && !lastLineBlank
            && (regionLastTag.map { Self.continuesBlock($0, line) } == true || (regionOpensHTMLBlock && regionLastTag == .html))
        // Items of a short list region are not checked one by one (a parse each): the
        // region takes a few before its earlier items are made final.
        let batchedItem = !lastLineBlank && region.count < Self.listBatchBytes && Self.isListItem(line)
        if !blank && !batchedItem && !continuesBlock && (lastLineBlank || Self.mayStartBlock(line)) {
            // A long region whose checks keep finding no new block is checked again only
            // once it has grown by a quarter: its checks cost O(its length) in all, not a
            // parse of all of it per line (lines of `<span` or of one-line comments took
            // 30 s for 300 KB). Not cutting is safe: the region is rendered whole later.
            if region.count >= Self.checkedRegionBytes && region.count < nextCheck {
                addBounded(line, shape: nil)
                return
            }
            // Inside the region's open top-level item, or its list's next item: what
            // the parses below would find, known without them (``OpenItem``). (A list's
            // nested items and the lines after its blank lines each cost two parses of
            // the whole list: real documents' lists took 3-5x mdflow's instructions.)
            followOpenItem()
            if let item = openItem {
                let indent = Self.indent(line)
                if indent >= item.column && !item.nextMayLeave {
                    // No new block, no new item: as the check would, then added.
                    if region.count >= Self.checkedRegionBytes { nextCheck = region.count + region.count / 4 }
                    addBounded(line, shape: nil)
                    return
                }
                if indent < item.column, let first = Self.listItemStart(line) {
                    // The earlier items are final, rendered as the region parses alone;
                    // the line is the list's next item, or starts a list of its own.
                    let next = cut()
                    start(line, continuing: first.marker == item.marker ? .list(next: next) : nil)
                    return
                }
                if lastLineBlank && Self.startsBlockAfterBlank(line, below: item) {
                    cut()
                    start(line, continuing: nil)
                    return
                }
            }
            let (before, after, startsBlock) = shapes(adding: line)
            if let startsBlock {
                cut(parsed: after.droppingLast())
                start(line, continuing: nil, shape: startsBlock)
                return
            }
            // A list that grew by one item grew at the line.
            if after.tags == before.tags && after.last?.tag.isList == true
                && after.last!.childCount == before.last!.childCount + 1 {
                // A new top-level item of the same list: the earlier items are final,
                // rendered from this parse less the new item when that is what the
                // region parses to alone (no blank line before the item, which makes
                // the list loose; no link reference definition in it).
                let next: Int
                if !lastLineBlank && !Self.holdsDefinition(line) {
                    next = cut(parsed: after.droppingLastChild())
                } else {
                    next = cut()
                }
                start(line, continuing: .list(next: next))
                return
            }
            if region.count >= Self.checkedRegionBytes { nextCheck = region.count + region.count / 4 }
            // A line checked inside the open item (md4c might have taken it out) that left
            // the top-level blocks as they were is in the item: it stays open. (Out of
            // it, only a link reference definition would have added no block.)
            let stillOpen = openItem.map { Self.indent(line) >= $0.column } == true
                && after.tags == before.tags && after.last?.childCount == before.last?.childCount && !Self.holdsDefinition(line)
            addBounded(line, shape: after)
            if stillOpen && openItem != nil {
                openItem!.blanks = 0
                openItemFollowed = region.count
            }
            // A setext underline ends its heading, which nothing after it can change (but
            // a link reference definition, for a `[` in it): final now, as an ATX heading
            // is. (Kept open, `a`, `=` again and again cost a parse of the whole run per
            // line: 30 KB took 19 s.)
            if case .heading = after.last?.tag, !region.isEmpty, Self.isSetextUnderline(line),
               !ByteSearch.contains(UInt8(ascii: "["), in: region) {
                cutHolding()
            }
            return
        }
        if !blank && allPlain && !lastLineBlank && region.count >= Self.splitThreshold && Self.isPlainLine(line)
            && (inline.isBalanced(openedSince: inline.position - Self.openConstructBytes) || region.count >= Self.openParagraphBytes)
            && !lastLineBackslash && !lastLineHardBreak {
            cut(continuing: true)
            start(line, continuing: .paragraph)
            return
        }
        addBounded(line, shape: nil)
    }

    /// ``add(_:shape:)``, then a cut when the region has grown past ``maximumRegionBytes``,
    /// or the start of a streamed table when its first rows are in.
    private mutating func addBounded(_ line: [UInt8], shape known: MarkdownRenderer.Blocks?) {
        add(line, shape: known)
        if region.count > Self.maximumRegionBytes {
            cut()
            lastLineBlank = false
        } else if tableLines == MarkdownRenderer.measuredTableRows + 2 && !tableChecked {
            streamTable()
        }
    }

    // MARK: - Tables, row by row

    /// The region ends in a table with its delimiter row and one row more than
    /// `MarkdownRenderer.measuredTableRows` (one parse checks it): its widths are
    /// fixed, so all of it is final but the table's bottom line, and the table's later
    /// rows are drawn one by one in that grid.
    private mutating func streamTable() {
        flushHeld()
        tableChecked = true
        let rows = MarkdownRenderer.measuredTableRows + 1
        // Rows that came as a table's continuation left no shape: the parse that checks
        // the table is the one that renders it.
        let parsed = regionShape == nil ? shape(region: region, withInlines: true) : nil
        let blocks = parsed ?? shape(region: region)
        guard let last = blocks.last, case .table = last.kind,
              blocks.tree.children(of: last).last.map({ $0.tag == .tableBody && $0.childCount == rows }) == true else { return }
        // The header and delimiter lines: the two lines before the last `rows`.
        var starts: [Int] = [0]
        for k in region.indices.dropLast() where region[k] == 0x0A { starts.append(k + 1) }
        guard starts.count >= rows + 2 else { return }
        let head = Array(region[starts[starts.count - rows - 2]..<starts[starts.count - rows]])
        renderer.lastTableGrid = nil
        cut(parsed: parsed)
        guard let grid = renderer.lastTableGrid else { return }
        if !grid.isRecords, !finals.isEmpty { finals.removeLast() }  // the bottom line, drawn when the table ends
        // Rows are parsed after the delimiter line and a header of one-letter cells (the
        // column count and alignments are all a row's parse takes from them; a header of
        // empty cells has no text, and the check for a header whose cell count differs
        // from its delimiter row's took the first row for the header); records label
        // each cell with the header's text, so they keep it.
        let delimiter = head[(head.firstIndex(of: 0x0A)! + 1)...]
        openTable = (grid.isRecords ? head : Array(("|" + String(repeating: " x |", count: grid.columns) + "\n").utf8) + delimiter, grid)
    }

    /// `lines` (`count` of them, each with its line end) after the open table's head,
    /// parsed: the rows they start with, drawn, and how many. When fewer than `count`
    /// are rows (a line ended the table), the footnote numbers the parse gave are taken
    /// back: the lines after the rows are parsed again as what they are.
    private mutating func parseRows(_ table: (head: [UInt8], grid: MarkdownRenderer.TableGrid),
                                    _ lines: ArraySlice<UInt8>, count: Int) -> (lines: [StyledLine], rows: Int) {
        flushHeld()
        let numbers = renderer.footnoteNumbers
        fillScratch(table.head[...], lines)
        let parsed = renderer.tableRows(&scratch, count: scratch.count, grid: table.grid)
        if parsed.rows < count { renderer.footnoteNumbers = numbers }
        return parsed
    }

    /// `line` as the open table's next row, or nil when it is not one.
    private mutating func tableRow(_ table: (head: [UInt8], grid: MarkdownRenderer.TableGrid), _ line: [UInt8]) -> [StyledLine]? {
        let (rendered, rows) = parseRows(table, (line + [0x0A])[...], count: 1)
        return rows == 1 ? rendered : nil
    }

    /// Ends the open table, if any: its bottom line is final.
    private mutating func closeTable() {
        guard let table = openTable else { return }
        flushHeld()
        finals += renderer.tableBottom(table.grid)
        openTable = nil
    }

    /// Starts a region (or a fenced code block) with `line`.
    private mutating func start(_ line: [UInt8], continuing: Continuation?, shape known: MarkdownRenderer.Blocks? = nil) {
        continuation = continuing
        // A line that starts with a letter starts no block but a paragraph: none of the
        // checks below is made for it (each looked for the line's first character).
        let startsText = Self.startsWithText(line)
        if !startsText, let opener = Self.fenceOpener(line) {
            flushHeld()
            // (A plain opener's language read off the line: the parse of it alone that
            // finds what md4c makes of it cost 5,600 instructions a fence.)
            var language = known == nil ? Self.plainFenceLanguage(line, opener) : nil
            if language == nil {
                let alone = known ?? shape(region: line + [0x0A])
                if alone.count == 1, case .code(true) = alone.nodes[0].kind { language = alone.tree.string(alone.nodes[0].info) }
            }
            if let language {
                if emittedBlocks { finals.append(.blank) }
                emittedBlocks = true
                // Numbered now, as the label shows; reported when the fence closes.
                renderer.codeBlocksNumbered += 1
                if let label = renderer.codeLabel(language, number: renderer.codeBlocksNumbered) { finals.append(label) }
                fence = opener
                fenceInfo = language
                fenceCode.removeAll()
                highlighter = renderer.options.highlightsCode ? freshHighlighter(for: language) : nil
                continuation = nil
                return
            }
        }
        clearRegion()
        let plain = Self.isPlainLine(line)
        allPlain = plain
        inline = InlineScanner()
        lastLineBlank = false
        // (The first byte first: the call, per region, cost the demo 0.1% of its instructions.)
        regionOpensHTMLBlock = continuing == nil && !startsText && line.first.map { $0 == UInt8(ascii: "<") || $0 == 0x20 } == true
            && Self.opensHTMLBlockToBlankLine(line)
        add(line, shape: known, plain: plain)
        // (The rest of a split line is no item, whatever its bytes.)
        if case .paragraph = continuing {} else if !startsText && knowsOpenItems { openItemPending = true }
        // A line starting with `>` starts a blockquote, whatever follows: the `>` lines
        // right after it go on in it without a parse (``continuesBlock(_:_:)``).
        if known == nil, !startsText, let k = Self.blockStart(line), line[k] == UInt8(ascii: ">") { regionLastTag = .quote }
        // An ATX heading is one line that nothing after it can change (but a link
        // reference definition on the next line, for a heading holding a `[`): final
        // at its line end (held with the read's other blocks), without a parse of the
        // next line to find that it starts a new block.
        if continuing == nil && !startsText && Self.isATXHeading(line) && !ByteSearch.contains(UInt8(ascii: "["), in: line) { cutHolding() }
    }

    /// `plain`: whether `line` ``isPlainLine(_:)``, when known.
    private mutating func add(_ line: [UInt8], shape known: MarkdownRenderer.Blocks?, plain: Bool? = nil) {
        // The region is a paragraph, open: a list item may interrupt it.
        let afterParagraph = allPlain && !lastLineBlank && !region.isEmpty
        followInertList(line)
        // (Through its bytes: appending the array retained and released it per line.)
        line.withUnsafeBufferPointer { region.append(contentsOf: $0) }
        region.append(0x0A)
        if known != nil || regionShape != nil { regionShape = known }
        if let known { regionLastTag = known.last?.tag }
        let blank = Self.isBlank(line)
        if blank { regionOpensHTMLBlock = false }
        tableLines = regionLastTag == .table && !blank ? tableLines + 1 : 0
        lastLineBlank = blank
        lastLineBackslash = line.last == UInt8(ascii: "\\")
        lastLineHardBreak = line.count >= 2 && line[line.count - 1] == 0x20 && line[line.count - 2] == 0x20
        if !blank && !(plain ?? Self.isPlainLine(line)) {
            allPlain = false
            if Self.isListItem(line) {
                regionHasList = true
                // A list that interrupts the region's paragraph (a bullet item with text,
                // or an ordered one numbered 1, md4c's rule) is its last block, its item open.
                if afterParagraph && openItem == nil && !openItemPending && knowsOpenItems, let item = Self.listItemStart(line),
                   item.marker == UInt8(ascii: "-") || item.marker == UInt8(ascii: "+") || item.marker == UInt8(ascii: "*")
                    || Self.listItemNumber(line) == 1 {
                    openItem = item
                    openItemFollowed = region.count
                }
            }
            // (At any indentation: md4c starts an HTML block that interrupts a paragraph
            // however far the line is indented.)
            if let k = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) {
                if line[k] == UInt8(ascii: "<") {
                    regionHasHTML = true
                    if Self.mayOpenHTMLPastBlankLines(line) { regionMayRunPastBlankLines = true }
                } else if (line[k] == UInt8(ascii: "`") || line[k] == UInt8(ascii: "~")) && line[k...].prefix(3).allSatisfy({ $0 == line[k] }) && line.count - k >= 3 {
                    regionMayRunPastBlankLines = true
                }
            }
        }
        if allPlain { inline.scan(line, lineEnd: true) }
    }

    /// Whether the region's open top-level item is known and `line`, after a blank line,
    /// starts a block after its list (``startsBlockAfterBlank(_:below:)``): a fence or
    /// HTML block in the item, which a blank line does not end, ends with the item.
    private mutating func leavesOpenItem(_ line: [UInt8]) -> Bool {
        guard openItem != nil || openItemPending else { return false }
        followOpenItem()
        return openItem.map { Self.startsBlockAfterBlank(line, below: $0) } == true
    }

    /// ``openItem`` brought up to the region's end: the lines added since it was last
    /// followed, each taken by ``item(after:adding:)`` or, blank,
    /// ``item(after:addingBlankAfter:)``.
    ///
    /// - Complexity: O(n) in the bytes added since (each byte is followed once).
    private mutating func followOpenItem() {
        if openItemPending {
            openItemPending = false
            (openItem, openItemFollowed) = region.withUnsafeBufferPointer { text in
                let end = ByteSearch.find(0x0A, text.baseAddress!, from: 0, to: text.count)
                return (Self.listItemStart(UnsafeBufferPointer(rebasing: text[..<end])), end + 1)
            }
        }
        guard var item = openItem, openItemFollowed < region.count else { return }
        openItem = region.withUnsafeBufferPointer { text -> OpenItem? in
            let base = text.baseAddress!
            var start = openItemFollowed
            // The line before `start` (the region's first line is followed already).
            var from = start - 1
            while from > 0 && text[from - 1] != 0x0A { from -= 1 }
            var previous = from..<(start - 1)
            while start < text.count {
                let end = ByteSearch.find(0x0A, base, from: start, to: text.count)
                let line = UnsafeBufferPointer(rebasing: text[start..<end])
                if Self.isBlank(line) {
                    item = Self.item(after: item, addingBlankAfter: UnsafeBufferPointer(rebasing: text[previous]))
                } else {
                    guard let next = Self.item(after: item, adding: line) else { return nil }
                    item = next
                }
                previous = start..<end
                start = end + 1
            }
            return item
        }
        openItemFollowed = region.count
    }

    /// Renders the region as final; returns the number the next item of its last
    /// list would have.
    ///
    /// `continuing`: the region is a paragraph split at a soft break; its last line
    /// `StyledLine.continues` and the next block's first line joins it.
    /// `parsed`: the region's blocks, already parsed with their inlines.
    @discardableResult
    private mutating func cut(continuing: Bool = false, joinsWithSpace: Bool = true,
                              parsed: MarkdownRenderer.Blocks? = nil) -> Int {
        flushHeld()
        let blocks: MarkdownRenderer.Blocks
        if let parsed {
            blocks = parsed
        } else {
            fillScratch(region[...])
            blocks = renderer.tree(&scratch, count: scratch.count)
        }
        let before = finals.count
        let lastList = Self.compose(blocks, renderer: renderer, listStart: listStart, into: &finals, emitted: &emittedBlocks,
                                    continued: continuation != nil, join: joinPending ? self.joinsWithSpace : nil)
        let made = finals.count > before
        if continuing, made { finals[finals.count - 1].continues = true }
        joinPending = continuing && made
        self.joinsWithSpace = joinsWithSpace
        if blocks.count == 0, region.first(where: { $0 != 0x20 }) == UInt8(ascii: "["), definitions.count + region.count <= Self.maximumDefinitionBytes {
            // Link reference definitions only: later regions are parsed after them.
            definitions += region
            definitions.append(0x0A)
        }
        var next = 1
        if let list = lastList { next = list.start + list.items }
        clearRegion()
        continuation = nil
        return next
    }

    /// Makes the region final as ``cut(continuing:joinsWithSpace:parsed:)`` does, for a
    /// caller that needs no list number back: held with the regions before it
    /// (``held``) when parsing them together changes nothing.
    private mutating func cutHolding() {
        if cutInert() { return }
        // No join (a region that made no lines would pass the join on to the next),
        // no list numbering, no definition (`]:`; a region of definitions starts with `[`),
        // and no definitions before: newer md4c caps the text references may expand to
        // per parse (md4c issue 238), which would make one parse differ from several.
        guard continuation == nil && !joinPending && definitions.isEmpty, region.first(where: { $0 != 0x20 && $0 != 0x09 }) != UInt8(ascii: "["),
              !Self.holdsDefinition(region) else {
            cut()
            return
        }
        if !heldInert.isEmpty {
            if heldInert.count >= Self.inertRunWorthAParse {
                flushHeld()
            } else {
                heldInertText.withUnsafeBufferPointer { held.append(contentsOf: $0) }
                heldInertText.removeAll(keepingCapacity: true)
                heldInert.removeAll(keepingCapacity: true)
            }
        }
        // (Through its buffer: `+=` takes the region owned, a retain and a release.)
        region.withUnsafeBufferPointer { held.append(contentsOf: $0) }
        clearRegion()
        if held.count >= Self.heldBytes { flushHeld() }
    }

    /// Makes the region final without a parse when md4c would give its text as it is, in
    /// the plain style: a paragraph of one line of inert text (``singleLineEnd(_:)`` finds
    /// the line, and `InlineScanner.hasMarks` is false), or a tight bullet list of such
    /// lines or empty items (``inertListMarker``), each a line in the list's item
    /// format. Most paragraphs of a chat are a line like this, and a parse (with the
    /// tree it builds and the rendering from it) cost several times the rest of their
    /// way: tiny paragraphs cost 5x prose (issue 24). After held regions it is held
    /// too (``heldInert``), so that lines come in the text's order.
    ///
    /// Returns false, changing nothing, when the region is neither (or continues a split
    /// paragraph, or joins the line before).
    private mutating func cutInert() -> Bool {
        guard continuation == nil && !joinPending else { return false }
        if allPlain && !inline.hasMarks, let end = Self.singleLineEnd(region) {
            takeInert(paragraphEnd: end)
        } else if inertListMarker != nil && knowsInertLists {
            takeInert(paragraphEnd: nil)
        } else {
            return false
        }
        clearRegion()
        return true
    }

    /// Whether tight bullet lists of inert items are made final without a parse (false:
    /// parsed as any region, for tests comparing the two).
    var knowsInertLists = true

    /// Makes the region's inert lines final, or holds them after the held regions: a
    /// paragraph's line (`paragraphEnd`), or else a list's items (the marker alone, or the
    /// marker, a space and the text; then blank lines).
    private mutating func takeInert(paragraphEnd: Int?) {
        let holds = !held.isEmpty, base = heldInertText.count
        // (The region moved out and read through its buffer: a slice of it was an
        // atomic retain and release a paragraph.)
        var text: [UInt8] = []
        swap(&text, &region)
        text.withUnsafeBufferPointer { bytes in
            func take(_ range: Range<Int>, isItem: Bool, startsBlock: Bool) {
                if holds {
                    heldInert.append(InertLine(text: (base + range.lowerBound)..<(base + range.upperBound), isItem: isItem,
                                               startsBlock: startsBlock))
                } else {
                    emitInert(UnsafeBufferPointer(rebasing: bytes[range]), isItem: isItem, startsBlock: startsBlock)
                }
            }
            if let paragraphEnd { return take(0..<paragraphEnd, isItem: false, startsBlock: true) }
            var start = 0
            while start < bytes.count && bytes[start] != 0x0A && bytes[start] != 0x20 && bytes[start] != 0x09 {
                let end = ByteSearch.find(0x0A, bytes.baseAddress!, from: start, to: bytes.count)
                take(min(start + 2, end)..<end, isItem: true, startsBlock: start == 0)
                start = end + 1
            }
        }
        if holds { heldInertText.append(contentsOf: text) }
        swap(&text, &region)
        if heldInert.count >= Self.heldInertLimit { flushHeld() }
    }

    /// `text`, an inert paragraph's or list item's, made final after the blocks before
    /// it: as md4c gives it, in the plain style (an item in the format of a top-level
    /// bullet list's items); `startsBlock`: a blank line first, after another block.
    private mutating func emitInert(_ text: UnsafeBufferPointer<UInt8>, isItem: Bool = false, startsBlock: Bool = true) {
        if startsBlock {
            if emittedBlocks { finals.append(.blank) }
            emittedBlocks = true
        }
        var line = renderer.freshLine(format: isItem ? renderer.bulletItemFormat() : .plain)
        if !text.isEmpty { line.appendRun(text, style: .plain) }
        finals.append(consume line)
    }

    /// The end of the region's first line when the region is that line and blank
    /// lines only, and the line has no space at either end (md4c strips them; two at
    /// the end are a hard break before a line). Nil otherwise.
    ///
    /// - Complexity: O(n) in the region's bytes.
    static func singleLineEnd(_ region: [UInt8]) -> Int? {
        region.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            let n = bytes.count
            let end = ByteSearch.find(0x0A, base, from: 0, to: n)
            guard end > 0, end < n, bytes[0] != 0x20, bytes[end - 1] != 0x20 else { return nil }
            for k in (end + 1)..<n where bytes[k] != 0x0A && bytes[k] != 0x20 && bytes[k] != 0x09 { return nil }
            return end
        }
    }

    /// A finished line of the open fence, highlighted when its language is known.
    /// (The highlighter is called through optional chaining, in place: comparing it
    /// with nil or matching it copied it, lexer and all, per line.)
    private mutating func appendCodeLine(_ code: UnsafeBufferPointer<UInt8>) {
        guard highlighter?.finishLine(utf8: code, into: &lineTokens) != nil else { return finals.append(renderer.codeLine(utf8: code)) }
        highlightedLines += 1
        finals.append(renderer.codeLine(utf8: code, tokens: lineTokens))
    }

    /// Whether `text` has a `]` right before a `:`, as a link reference definition does.
    static func holdsDefinition(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { bytes in
            var k = 0
            while true {
                k = ByteSearch.find(UInt8(ascii: ":"), bytes.baseAddress!, from: k, to: bytes.count)
                if k == bytes.count { return false }
                if k > 0 && bytes[k - 1] == UInt8(ascii: "]") { return true }
                k += 1
            }
        }
    }

    /// Parses and renders the held regions (see ``held``): their lines become final.
    @inline(__always)
    private mutating func flushHeld() {
        if !held.isEmpty { renderHeld() }
    }

    private mutating func renderHeld() {
        fillScratch(held[...])
        held.removeAll(keepingCapacity: true)
        let blocks = renderer.tree(&scratch, count: scratch.count)
        // Composed as when they were held: no continuation, no join (`joinPending` is
        // false while regions are held: only a cut sets it, and a cut renders them first).
        Self.compose(blocks, renderer: renderer, listStart: nil, into: &finals, emitted: &emittedBlocks, continued: false, join: nil)
        // (As in `cutInert`: the text moved out, read through its buffer; by index.)
        var inertText: [UInt8] = []
        swap(&inertText, &heldInertText)
        inertText.withUnsafeBufferPointer { text in
            for k in heldInert.indices {
                emitInert(UnsafeBufferPointer(rebasing: text[heldInert[k].text]), isItem: heldInert[k].isItem,
                          startsBlock: heldInert[k].startsBlock)
            }
        }
        swap(&inertText, &heldInertText)
        heldInert.removeAll(keepingCapacity: true)
        heldInertText.removeAll(keepingCapacity: true)
    }

    /// The region emptied, with what was known of its blocks.
    private mutating func clearRegion() {
        region.removeAllKeepingCapacity()
        if regionShape != nil { regionShape = nil }
        regionLastTag = nil
        tableLines = 0
        tableChecked = false
        regionHasList = false
        regionHasHTML = false
        regionMayRunPastBlankLines = false
        regionOpensHTMLBlock = false
        openItem = nil
        openItemPending = false
        nextCheck = 0
        inertListMarker = nil
    }

    /// Follows ``inertListMarker`` with `line`, before the region takes it.
    @inline(__always)
    private mutating func followInertList(_ line: [UInt8]) {
        if region.isEmpty {
            inertListMarker = Self.inertItemMarker(line)
        } else if inertListMarker == nil || Self.isBlank(line) {
            return
        } else if lastLineBlank || Self.inertItemMarker(line) != inertListMarker {
            // (After a blank line the list is loose, or over.)
            inertListMarker = nil
            return
        }
        // (A list's text with a mark is parsed: it is looked at no further.)
        if inertListMarker != nil && line.count > 2
            && line.withUnsafeBufferPointer({ InlineScanner.hasMarks(UnsafeBufferPointer(rebasing: $0[2...])) }) {
            inertListMarker = nil
        }
    }

    /// The marker of `line` when it is a bullet list item at the first column that is
    /// the marker alone, or the marker, a space and text that starts no block (a letter
    /// or a character not ASCII: ``startsWithText(_:)``) and ends in no space; nil otherwise.
    static func inertItemMarker(_ line: [UInt8]) -> UInt8? {
        guard let m = line.first, m == UInt8(ascii: "-") || m == UInt8(ascii: "*") || m == UInt8(ascii: "+") else { return nil }
        if line.count == 1 { return m }
        guard line.count > 2, line[1] == 0x20, line[line.count - 1] != 0x20 else { return nil }
        return startsText(line[2]) ? m : nil
    }

    private var listStart: Int? {
        if case .list(let next) = continuation { return next }
        return nil
    }

    /// Renders `blocks` (`listStart` renumbers a first ordered list) onto the end of
    /// `lines`, with a blank line between blocks (none before the first when
    /// `continued`); `join`: the first line joins the paragraph before (with a space,
    /// or none). Lines are rendered where they stay (an array per block, moved on
    /// line by line, copied them). Returns the last block's list, if it is one.
    ///
    /// - Complexity: O(n) in the blocks' lines (amortized: `lines` grows as by append).
    @discardableResult
    private static func compose(_ blocks: MarkdownRenderer.Blocks, renderer: MarkdownRenderer, listStart: Int?,
                                into lines: inout [StyledLine], emitted: inout Bool, continued: Bool,
                                join: Bool?) -> MarkdownRenderer.ListInfo? {
        var list: MarkdownRenderer.ListInfo?
        for k in 0..<blocks.count {
            if emitted && !(k == 0 && continued) { lines.append(.blank) }
            let start = lines.count
            list = renderer.render(blocks, at: k, listStart: listStart, into: &lines)
            if k == 0, let space = join, lines.count > start { lines[start] = joining(lines[start], space: space) }
            emitted = true
        }
        return list
    }

    /// `line` as the continuation of the paragraph before: the space a soft break
    /// is (unless a word was split), then its text.
    static func joining(_ line: StyledLine, space: Bool = true) -> StyledLine {
        var joined = StyledLine(format: line.format, spans: space ? [StyledLine.Span(" ")] : [])
        joined.append(line)
        joined.continues = line.continues
        joined.joinsPrevious = true
        return joined
    }

    /// The lines with each line that joins the one before merged into it: what a
    /// one-shot render gives.
    ///
    /// - Complexity: O(n) in the lines' bytes.
    @_spi(Benchmarks) public static func merged(_ lines: [StyledLine]) -> [StyledLine] {
        var result: [StyledLine] = []
        for line in lines {
            if line.joinsPrevious, !result.isEmpty, result[result.count - 1].continues {
                result[result.count - 1].append(line)
                result[result.count - 1].continues = line.continues
            } else {
                result.append(line)
            }
        }
        return result
    }

    /// `scratch` made the link reference definitions so far, then `text` and `more`:
    /// what md4c parses (one buffer; the definitions apply to what follows them).
    private mutating func fillScratch(_ text: ArraySlice<UInt8>, _ more: ArraySlice<UInt8> = []) {
        scratch.removeAll(keepingCapacity: true)
        scratch += definitions
        scratch += text
        scratch += more
    }

    private mutating func shape(region text: [UInt8], withInlines: Bool = false) -> MarkdownRenderer.Blocks {
        flushHeld()
        if !withInlines, text.count == region.count, text == region, let regionShape { return regionShape }
        fillScratch(text[...])
        if withInlines { return renderer.tree(&scratch, count: scratch.count) }
        return renderer.shape(&scratch, count: scratch.count).blocks
    }

    // MARK: - The open block

    /// Bytes of the open region (complete lines), for tests of the split rules.
    var openRegionBytes: Int { region.count }
    /// Bytes of the unfinished line held (tests of the long-line splits).
    var openLineBytes: Int { partial.count }

    /// The open block as it would render if the text ended now, with speculation:
    /// an unfinished line that may become a code fence is hidden; trailing lines
    /// starting with `|` are hidden until a delimiter row makes them a table; an
    /// unclosed emphasis, strikethrough, code span or link is closed (its opening
    /// delimiter hidden, the text after it styled as it will most likely end), and a
    /// delimiter run just typed is hidden.
    ///
    /// - Complexity: O(r) in the open region's bytes (one to three parses).
    @_spi(Benchmarks) public mutating func provisionalLines() -> [StyledLine] {
        flushRows()  // (none pending after `append`)
        flushHeld()
        guard let table = openTable else { return openBlockLines() }
        // A streamed table: the row being typed, then the table's bottom line.
        if !partial.isEmpty {
            var text = definitions
            text += table.head
            let rowStart = text.count
            text += partial
            Self.hideTypedDelimiters(&text)
            var scanner = InlineScanner()
            scanner.scan(Array(text[rowStart...]), base: rowStart)
            scanner.speculate(&text)
            text.append(0x0A)
            let (rows, count) = provisionally { $0.renderer.tableRows(&text, count: text.count, grid: table.grid) }
            if count == 1 { return rows + renderer.tableBottom(table.grid) }
        }
        return renderer.tableBottom(table.grid) + openBlockLines()
    }

    /// A delimiter run still being typed at the very end of `text` removed.
    private static func hideTypedDelimiters(_ text: inout [UInt8]) {
        if let last = text.last, "*_~`".utf8.contains(last) {
            while let b = text.last, b == last { text.removeLast() }
        }
    }

    /// `body` run, then the renderer's numbering of code blocks and footnotes put back:
    /// the open block's are numbered as they will be once final, then forgotten.
    private mutating func provisionally<T>(_ body: (inout Self) -> T) -> T {
        let (numbered, kept, footnoteNumbers) = (renderer.codeBlocksNumbered, renderer.renderedCodeBlocks.count, renderer.footnoteNumbers)
        let result = body(&self)
        renderer.codeBlocksNumbered = numbered
        renderer.renderedCodeBlocks.removeSubrange(kept...)
        renderer.footnoteNumbers = footnoteNumbers
        return result
    }

    /// The open region (with the unfinished line) rendered, with speculation.
    private mutating func openBlockLines() -> [StyledLine] {
        if let f = fence {
            if partial.isEmpty || Self.mayClose(partial, f) { return [] }
            let code = String(decoding: Self.strip(partial, f.indent), as: UTF8.self)
            return [renderer.codeLine(code, tokens: highlighter?.peekLine(code) ?? [])]
        }
        var text = definitions
        let bodyStart = text.count
        text += region
        if !partial.isEmpty && Self.fenceOpenerPrefix(partial) == nil { text += partial }
        if text.count == bodyStart { return [] }
        var shape = renderer.shape(&text, count: text.count)
        // A table's header waits for its delimiter row.
        if shape.blocks.last?.tag != .table {
            var end = text.count
            while end > bodyStart {
                var lineStart = end - 1
                if text[lineStart] == 0x0A && lineStart > bodyStart { lineStart -= 1 }
                while lineStart > bodyStart && text[lineStart - 1] != 0x0A { lineStart -= 1 }
                let line = text[lineStart..<end]
                guard let first = line.firstIndex(where: { $0 != 0x20 }), first - lineStart <= 3, line[first] == UInt8(ascii: "|") else { break }
                end = lineStart
            }
            if end < text.count {
                text.removeSubrange(end...)
                shape = renderer.shape(&text, count: text.count)
            }
        }
        if !shape.endsInRaw {
            if !partial.isEmpty { Self.hideTypedDelimiters(&text) }
            var scanner = InlineScanner()
            let lastParagraph = Self.lastParagraphStart(text, from: bodyStart)
            var lineStart = lastParagraph
            while lineStart < text.count {
                let lineEnd = text[lineStart...].firstIndex(of: 0x0A) ?? text.count
                scanner.scan(Array(text[lineStart..<lineEnd]), skipMarkers: true, base: lineStart)
                lineStart = lineEnd + 1
            }
            scanner.speculate(&text)
        }
        let listStart = listStart, continued = continuation != nil, join = joinPending ? joinsWithSpace : nil
        var lines: [StyledLine] = []
        var emitted = emittedBlocks
        provisionally { stream in
            let blocks = stream.renderer.tree(&text, count: text.count)
            Self.compose(blocks, renderer: stream.renderer, listStart: listStart, into: &lines, emitted: &emitted,
                         continued: continued, join: join)
        }
        return lines
    }

    private static func lastParagraphStart(_ text: [UInt8], from start: Int) -> Int {
        var k = text.count
        if k > start && text[k - 1] == 0x0A { k -= 1 }
        while k > start {
            guard let nl = text[start..<k].lastIndex(of: 0x0A) else { return start }
            if isBlank(Array(text[(nl + 1)..<k])) { return k }
            k = nl
        }
        return start
    }

    // MARK: - Line classes

    /// Footnote text held for the end of a text block at most; a definition past it, or
    /// a second one of a label already held, is rendered where it stands (memory stays
    /// bounded; nothing is dropped).
    public static let maximumFootnoteBytes = 64 << 10

    /// A footnote definition's start: `[^label]:` after at most three spaces; the
    /// label (1 to 999 bytes, no space or bracket) and where the text starts.
    static func footnoteDefinition(_ line: [UInt8]) -> (label: String, content: Int)? {
        var k = 0
        while k < line.count && k < 3 && line[k] == 0x20 { k += 1 }
        guard k + 1 < line.count, line[k] == UInt8(ascii: "["), line[k + 1] == UInt8(ascii: "^") else { return nil }
        let labelStart = k + 2
        var e = labelStart
        while e < line.count, line[e] != UInt8(ascii: "]"), line[e] != UInt8(ascii: "["), line[e] != 0x20, line[e] != 0x09 { e += 1 }
        guard e > labelStart, e - labelStart <= 999, e + 1 < line.count, line[e] == UInt8(ascii: "]"),
              line[e + 1] == UInt8(ascii: ":") else { return nil }
        var content = e + 2
        while content < line.count && (line[content] == 0x20 || line[content] == 0x09) { content += 1 }
        return (String(decoding: line[labelStart..<e], as: UTF8.self), content)
    }

    enum FootnoteContinuation: Equatable {
        /// The line goes on in the definition, as this text.
        case line([UInt8])
        case blank
        case end
    }

    /// What `line` does to an open footnote definition: a non-blank line goes on in it
    /// (lazily, as in a paragraph), after a blank line only when indented by four
    /// spaces (a further paragraph, quote or code of the note); up to four spaces of
    /// indentation are taken off.
    static func footnoteContinuation(_ line: [UInt8], afterBlank: Bool) -> FootnoteContinuation {
        if isBlank(line) { return .blank }
        if afterBlank && indent(line) < 4 { return .end }
        var k = 0
        while k < line.count && k < 4 && line[k] == 0x20 { k += 1 }
        return .line((afterBlank ? [0x0A, 0x0A] : [0x0A]) + line[k...])
    }

    /// `text` without its footnote definitions (outside top-level fences), and the
    /// definitions: the same lines `MarkdownStream` holds back, for one-shot renders.
    static func splitFootnotes(_ text: [UInt8]) -> (body: [UInt8], footnotes: [MarkdownRenderer.Footnote]) {
        var body: [UInt8] = []
        var footnotes = FootnoteCollector()
        var fence: Fence?
        var start = 0
        while start < text.count {
            let end = text[start...].firstIndex(of: 0x0A) ?? text.count
            var line = Array(text[start..<end])
            if line.last == 0x0D { line.removeLast() }
            let next = min(text.count, end + 1)
            defer { start = next }
            if let f = fence {
                if closes(line, f) { fence = nil }
            } else if footnotes.take(line) {
                continue
            } else if !footnotes.isOpen {
                fence = fenceOpener(line)
            }
            body += text[start..<next]
        }
        return (body, footnotes.takeAll())
    }

    static func isBlank<Line: Collection<UInt8>>(_ line: Line) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    static func indent<Line: Collection<UInt8>>(_ line: Line) -> Int {
        var n = 0
        for b in line {
            if b == 0x20 { n += 1 } else if b == 0x09 { n += 4 - n % 4 } else { break }
        }
        return n
    }

    /// Where a block's marker would be: the first byte after at most three columns of
    /// indentation; nil for a blank line or an indented (code) one.
    static func blockStart(_ line: [UInt8]) -> Int? {
        guard indent(line) <= 3 else { return nil }
        return line.firstIndex { $0 != 0x20 && $0 != 0x09 }
    }

    /// Could start a block at the top level (checked with the parser before a cut).
    static func mayStartBlock(_ line: [UInt8]) -> Bool {
        guard let k = blockStart(line) else { return false }
        let first = line[k]
        let next: UInt8? = k + 1 < line.count ? line[k + 1] : nil
        let isSpace = { (b: UInt8?) in b == nil || b == 0x20 || b == 0x09 }
        switch first {
        case UInt8(ascii: "#"), UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "|"):
            return true
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            return line[k...].prefix { $0 == first }.count >= 3  // a fence
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
            // A list item, a thematic break or a setext underline.
            return isSpace(next) || line[k...].allSatisfy { $0 == first || $0 == 0x20 || $0 == 0x09 }
        case UInt8(ascii: "_"), UInt8(ascii: "="):
            return line[k...].allSatisfy { $0 == first || $0 == 0x20 || $0 == 0x09 }
        case 0x30...0x39:
            var j = k
            while j < line.count && (0x30...0x39).contains(line[j]) { j += 1 }
            return j - k <= 9 && j < line.count && (line[j] == UInt8(ascii: ".") || line[j] == UInt8(ascii: ")"))
                && isSpace(j + 1 < line.count ? line[j + 1] : nil)
        default:
            return false
        }
    }

    /// `=`s or `-`s (one kind, no space between) after at most three spaces, then only
    /// spaces or tabs: after a paragraph's line, a setext heading's underline.
    static func isSetextUnderline(_ line: [UInt8]) -> Bool {
        guard let k = blockStart(line), line[k] == UInt8(ascii: "=") || line[k] == UInt8(ascii: "-") else { return false }
        let mark = line[k]
        var j = k
        while j < line.count && line[j] == mark { j += 1 }
        while j < line.count && (line[j] == 0x20 || line[j] == 0x09) { j += 1 }
        return j == line.count
    }

    /// `#` to `######` after at most three spaces, then a space, a tab or the line's end.
    static func isATXHeading(_ line: [UInt8]) -> Bool {
        guard let k = blockStart(line), line[k] == UInt8(ascii: "#") else { return false }
        var j = k
        while j < line.count && line[j] == UInt8(ascii: "#") { j += 1 }
        return j - k <= 6 && (j == line.count || line[j] == 0x20 || line[j] == 0x09)
    }

    /// Whether `line`, right after a line of a top-level block of kind `tag`, can only
    /// go on in that block: a `|` line in a table, a `>` line in a quote (at most
    /// three spaces of indentation, as block starts have).
    static func continuesBlock(_ tag: MarkdownRenderer.Node.Tag, _ line: [UInt8]) -> Bool {
        guard let k = blockStart(line) else { return false }
        switch tag {
        case .table: return line[k] == UInt8(ascii: "|")
        case .quote: return line[k] == UInt8(ascii: ">")
        default: return false
        }
    }

    /// Whether `line` opens an HTML block that only a blank line ends: `<` or `</`, then a
    /// block tag, then a space, a tab, `>`, `/>` or the line's end (CommonMark's type 6;
    /// the tags every version since 0.13 lists, which md4c lists too).
    ///
    /// - Complexity: O(1) (a tag is at most 10 bytes).
    static func opensHTMLBlockToBlankLine(_ line: [UInt8]) -> Bool {
        guard let k = blockStart(line), line[k] == UInt8(ascii: "<") else { return false }
        var j = k + 1
        if j < line.count && line[j] == UInt8(ascii: "/") { j += 1 }
        let nameStart = j
        while j < line.count && j - nameStart <= 10
                && ((line[j] | 0x20 >= UInt8(ascii: "a") && line[j] | 0x20 <= UInt8(ascii: "z")) || (line[j] >= 0x31 && line[j] <= 0x36)) {
            j += 1
        }
        guard j > nameStart, j - nameStart <= 10 else { return false }
        if j < line.count {
            let b = line[j]
            guard b == 0x20 || b == 0x09 || b == UInt8(ascii: ">")
                    || (b == UInt8(ascii: "/") && j + 1 < line.count && line[j + 1] == UInt8(ascii: ">")) else { return false }
        }
        let name = String(decoding: line[nameStart..<j], as: UTF8.self).lowercased()
        return htmlBlockTags.contains(name)
    }

    /// Whether `line` may open an HTML block that a blank line does not end (CommonMark's
    /// types 1 to 5: `<script`, `<pre`, `<style`, `<textarea`, `<!--`, `<?`, `<!` and a
    /// letter, `<![CDATA[`) and does not close it itself; true for any other line
    /// starting with `<!` or `<?`, and for the four tags whatever follows them. Types
    /// 6 and 7 end at a blank line.
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func mayOpenHTMLPastBlankLines(_ line: [UInt8]) -> Bool {
        guard let k = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), line[k] == UInt8(ascii: "<"), k + 1 < line.count else { return false }
        let rest = line[(k + 1)...]
        func closes(_ end: String, after start: Int) -> Bool {
            let end = Array(end.utf8)
            guard line.count - start >= end.count else { return false }
            for j in start...(line.count - end.count) where line[j..<(j + end.count)].elementsEqual(end) { return true }
            return false
        }
        if rest.starts(with: "!--".utf8) { return !closes("-->", after: k + 4) }
        if rest.first == UInt8(ascii: "!") || rest.first == UInt8(ascii: "?") { return true }
        let name = rest.prefix { $0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z") }.map { $0 | 0x20 }
        return ["script", "pre", "style", "textarea"].contains { name.elementsEqual($0.utf8) }
    }

    static let htmlBlockTags: Set<String> = [
        "address", "article", "aside", "blockquote", "body", "center", "details", "div", "dl", "figure", "footer",
        "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "li", "main", "nav", "ol", "p", "section",
        "table", "tbody", "td", "th", "thead", "tr", "ul",
    ]

    /// A top-level list item that stays open while lines come (``openItem``). By
    /// md4c's container rule (CommonMark's), a line indented at least to the item's
    /// content column is inside the item, blank lines between or not: it can neither
    /// end the list nor start a top-level block. A line indented less that is a list
    /// item with the same marker (and no thematic break) is the list's next item: md4c
    /// looks for that before anything but a fence's closing line or a thematic break.
    /// A list item with another marker is the first of a new top-level list (md4c
    /// looks for a new container next). Any other line indented less may end the item,
    /// and nothing more is known.
    ///
    /// One exception, md4c 0.4.8's: after a blank line that finds no block open (a
    /// second blank line, or one after a line that ended its block), md4c looks for an
    /// item that began with two blank lines by reading the last bytes of its block
    /// store as a block, which are the last line's offsets, and may take the next line
    /// out of the item: such a line is not known (``nextMayLeave``).
    ///
    /// (The link reference definitions a region is parsed after end with a blank line,
    /// so the region's first item interrupts no paragraph.)
    struct OpenItem {
        /// Where the item's content starts (md4c's `contents_indent`).
        var column: Int
        /// `-`, `+` or `*`, or an ordered item's `.` or `)`: items with the same one
        /// are one list's.
        var marker: UInt8
        /// Blank lines since the item's last non-blank line.
        var blanks = 0
        /// That line may have ended its block by itself (``mayEndItsBlock(_:)``), once
        /// a blank line follows it (asked only then).
        var lastMayEndBlock = false

        /// md4c may take the next non-blank line out of the item.
        var nextMayLeave: Bool { blanks >= 2 || (blanks == 1 && lastMayEndBlock) }
    }

    /// `line` as the first line of a list item with text on it; nil when it is none, or
    /// its indentation or the spaces after its marker hold a tab or the spaces are more
    /// than four (the content is then indented code). Nil is always safe: the lines
    /// after it are then checked by parses.
    ///
    /// - Complexity: O(n) in the line's bytes (a thematic break is looked for).
    static func listItemStart(_ line: [UInt8]) -> OpenItem? {
        line.withUnsafeBufferPointer(listItemStart)
    }

    static func listItemStart(_ b: UnsafeBufferPointer<UInt8>) -> OpenItem? {
        // (Most lines a region starts with are no item: told by their first byte.)
        guard let first = b.first, first == 0x20 || first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: "*") || (first >= 0x30 && first <= 0x39) else { return nil }
        let n = b.count
        var k = 0
        while k < n && b[k] == 0x20 { k += 1 }
        guard k <= 3, k < n else { return nil }
        let marker: UInt8
        var end = k
        switch b[k] {
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
            marker = b[k]
            end += 1
        case 0x30...0x39:
            while end < n && end - k < 9 && b[end] >= 0x30 && b[end] <= 0x39 { end += 1 }
            guard end < n, b[end] == UInt8(ascii: ".") || b[end] == UInt8(ascii: ")") else { return nil }
            marker = b[end]
            end += 1
        default:
            return nil
        }
        var content = end
        while content < n && b[content] == 0x20 { content += 1 }
        guard content > end, content - end <= 4, content < n, b[content] != 0x09 else { return nil }
        if marker == UInt8(ascii: "-") || marker == UInt8(ascii: "*") {
            // A thematic break (`- - -`): three marks or more, nothing but spaces between.
            var marks = 0
            for j in k..<n {
                if b[j] == marker { marks += 1 } else if b[j] != 0x20 && b[j] != 0x09 { marks = 0; break }
            }
            if marks >= 3 { return nil }
        }
        return OpenItem(column: content, marker: marker)
    }

    /// The number an ordered list item's line starts with (nil for none or past 9 digits).
    static func listItemNumber(_ line: [UInt8]) -> Int? {
        guard let k = line.firstIndex(where: { $0 != 0x20 }) else { return nil }
        var number = 0, j = k
        while j < line.count && j - k < 9, line[j] >= 0x30 && line[j] <= 0x39 {
            number = number * 10 + Int(line[j] - 0x30)
            j += 1
        }
        return j > k ? number : nil
    }

    /// The region's open top-level item once non-blank `line` is added after `item`
    /// (see ``OpenItem``): the same item, the list's next, a new list's first, or nil
    /// (not known).
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func item(after item: OpenItem, adding line: UnsafeBufferPointer<UInt8>) -> OpenItem? {
        if indent(line) >= item.column {
            guard !item.nextMayLeave else { return nil }
            var item = item
            item.blanks = 0
            return item
        }
        return listItemStart(line)
    }

    /// The region's open top-level item once a blank line is added after `item`, whose
    /// line before the blank one is `previous`.
    ///
    /// - Complexity: O(n) in `previous`' bytes.
    static func item(after item: OpenItem, addingBlankAfter previous: UnsafeBufferPointer<UInt8>) -> OpenItem {
        var item = item
        if item.blanks == 0 { item.lastMayEndBlock = mayEndItsBlock(previous) }
        item.blanks += 1
        return item
    }

    /// Whether `line`, after a blank line in a region whose open top-level item is
    /// `item`, starts a top-level block after the list: indented less than the item's
    /// content, it leaves the list (md4c), and after a blank line no paragraph is open
    /// for it to go on lazily. Not for a list item (the list's next, or one that
    /// ``listItemStart(_:)`` does not know, as an empty one), a line a fence open in the
    /// item could take as its closing line (md4c then ends the list with no block), or a
    /// `[` (a link reference definition is no block).
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func startsBlockAfterBlank(_ line: [UInt8], below item: OpenItem) -> Bool {
        guard indent(line) < item.column, !isBlank(line), !isListItem(line),
              line.first(where: { $0 != 0x20 && $0 != 0x09 }) != UInt8(ascii: "[") else { return false }
        if let (spaces, _, run) = fenceRun(line), run >= 3, line[(spaces + run)...].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return false }
        return true
    }

    /// Whether md4c may end `line`'s block at the line itself, leaving none open: past
    /// its indentation and container marks (`>`, list markers), nothing (a container
    /// opened alone), a heading's `#`, a fence's backtick or tilde, or only thematic
    /// break or setext underline characters; or a `>` anywhere (an HTML block's end).
    /// Errs towards true: true only means the line after a blank line is checked.
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func mayEndItsBlock(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        if let base = b.baseAddress, ByteSearch.find(UInt8(ascii: ">"), base, from: 0, to: n) < n { return true }
        let isSpace = { (k: Int) in k == n || b[k] == 0x20 || b[k] == 0x09 }
        var k = 0
        marks: while true {
            while k < n && (b[k] == 0x20 || b[k] == 0x09) { k += 1 }
            guard k < n else { return true }
            switch b[k] {
            case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
                guard isSpace(k + 1) else { break marks }
                k += 1
            case 0x30...0x39:
                var j = k
                while j < n && j - k < 9 && b[j] >= 0x30 && b[j] <= 0x39 { j += 1 }
                guard j < n, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: ")"), isSpace(j + 1) else { break marks }
                k = j + 1
            default:
                break marks
            }
        }
        switch b[k] {
        case UInt8(ascii: "#"), UInt8(ascii: "`"), UInt8(ascii: "~"):
            return true
        default:
            for j in k..<n {
                let c = b[j]
                guard c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: "*") || c == UInt8(ascii: "=")
                        || c == 0x20 || c == 0x09 else { return false }
            }
            return true
        }
    }

    /// Whether `line` starts with a letter (ASCII or not) in its first column: it can
    /// only start or continue a paragraph (or a table's row).
    ///
    /// - Complexity: O(1).
    static func startsWithText(_ line: [UInt8]) -> Bool {
        guard let b = line.first else { return false }
        return startsText(b)
    }

    /// A letter (ASCII) or the first byte of a character that is not ASCII.
    @inline(__always)
    static func startsText(_ b: UInt8) -> Bool {
        b >= 0x80 || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
    }

    /// A bullet or ordered list item marker (what the parser confirms before a cut).
    static func isListItem(_ line: [UInt8]) -> Bool {
        guard let k = blockStart(line) else { return false }
        let first = line[k]
        let next: UInt8? = k + 1 < line.count ? line[k + 1] : nil
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            return next == nil || next == 0x20 || next == 0x09
        }
        return (0x30...0x39).contains(first) && mayStartBlock(line)
    }

    /// Text that can only continue a paragraph: no block start, no table cell, no
    /// setext underline, no link reference definition.
    static func isPlainLine(_ line: [UInt8]) -> Bool {
        // A line that starts with a letter starts no block: only a `|` (a cell) matters.
        if startsWithText(line) { return !ByteSearch.contains(UInt8(ascii: "|"), in: line) }
        guard let k = blockStart(line) else { return false }
        if ByteSearch.contains(UInt8(ascii: "|"), in: line) || mayStartBlock(line) { return false }
        switch line[k] {
        case UInt8(ascii: "["), UInt8(ascii: ":"), UInt8(ascii: "<"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "="):
            return false  // definitions, table delimiters, underlines
        default: break
        }
        return true
    }

    /// A fence opener: up to three spaces, three or more backticks or tildes, and
    /// for backticks an info string without one.
    static func fenceOpener(_ line: [UInt8]) -> Fence? {
        guard let (spaces, c, run) = fenceRun(line), run >= 3 else { return nil }
        if c == UInt8(ascii: "`") && line[(spaces + run)...].contains(c) { return nil }
        return Fence(character: c, length: run, indent: spaces)
    }

    /// A highlighter for a fence naming `language` that has lexed nothing (nil for a
    /// language we do not know), from ``fenceHighlighters`` when it was looked up before.
    ///
    /// - Complexity: O(k) in the languages remembered (at most 8), plus one lookup.
    private mutating func freshHighlighter(for language: String) -> Highlighter? {
        for k in fenceHighlighters.indices.reversed() where fenceHighlighters[k].language == language {
            return fenceHighlighters[k].highlighter
        }
        if fenceHighlighters.count == 8 { fenceHighlighters.removeFirst() }
        let made = HighlightLanguage.named(language).map(Highlighter.init)
        fenceHighlighters.append(FenceHighlighter(language: language, highlighter: made))
        return made
    }

    /// The language md4c gives the fenced code block `line` opens alone (the first
    /// word of its info string), when the info string is printable ASCII (or tabs)
    /// without a backslash (an escape md4c resolves; it keeps an entity's text as it
    /// is, as `MarkdownRenderer.string` reads it); nil otherwise.
    ///
    /// - Complexity: O(n) in the line's bytes.
    static func plainFenceLanguage(_ line: [UInt8], _ opener: Fence) -> String? {
        line.withUnsafeBufferPointer { bytes -> String? in
            var start = opener.indent + opener.length
            for k in start..<bytes.count {
                let b = bytes[k]
                guard (b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\\")) || b == 0x09 else { return nil }
            }
            // (md4c skips spaces only: after a tab the language is empty.)
            while start < bytes.count && bytes[start] == 0x20 { start += 1 }
            var end = start
            while end < bytes.count && bytes[end] != 0x20 && bytes[end] != 0x09 { end += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// An unfinished line that may still become a fence opener (hidden meanwhile).
    static func fenceOpenerPrefix(_ line: [UInt8]) -> Int? {
        guard let (spaces, _, run) = fenceRun(line) else { return nil }
        if run < 3 && spaces + run < line.count { return nil }  // a code span, not a fence
        return run
    }

    /// Up to three spaces, then a run of backticks or tildes: (spaces, character, run).
    private static func fenceRun(_ line: [UInt8]) -> (Int, UInt8, Int)? {
        let spaces = line.prefix { $0 == 0x20 }.count
        guard spaces <= 3, spaces < line.count else { return nil }
        let c = line[spaces]
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        return (spaces, c, line[spaces...].prefix { $0 == c }.count)
    }

    static func closes(_ line: [UInt8], _ f: Fence) -> Bool {
        let spaces = line.prefix { $0 == 0x20 }.count
        guard spaces <= 3 else { return false }
        let run = line[spaces...].prefix { $0 == f.character }.count
        guard run >= f.length else { return false }
        return line[(spaces + run)...].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// An unfinished line that may still become the closing fence.
    static func mayClose(_ line: [UInt8], _ f: Fence) -> Bool {
        let spaces = line.prefix { $0 == 0x20 }.count
        if spaces == line.count { return spaces <= 3 }
        guard spaces <= 3 else { return false }
        let run = line[spaces...].prefix { $0 == f.character }.count
        guard run > 0 else { return false }
        if spaces + run == line.count { return true }
        return run >= f.length && line[(spaces + run)...].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// A code line with up to the opener's indentation removed.
    static func strip(_ line: [UInt8], _ indent: Int) -> ArraySlice<UInt8> {
        line[line.withUnsafeBufferPointer { stripped($0, indent) }...]
    }

    /// Where ``strip(_:_:)`` starts `line`.
    static func stripped(_ line: UnsafeBufferPointer<UInt8>, _ indent: Int) -> Int {
        var k = 0
        while k < indent && k < line.count && line[k] == 0x20 { k += 1 }
        return k
    }
}

/// Follows inline delimiters through paragraph text: emphasis and strikethrough
/// runs (with CommonMark's flanking rules), code spans, brackets and link
/// destinations. The stream splits a paragraph only where nothing is open; the
/// open block's rendering closes what is open (speculation).
struct InlineScanner {
    private enum Opener {
        case run(UInt8, Int, at: Int)
        case code(Int, at: Int)
        case bracket(at: Int)
        case destination(at: Int)

        var at: Int {
            switch self {
            case .run(_, _, let at), .code(_, let at), .bracket(let at), .destination(let at): at
            }
        }
    }

    private var stack: [Opener] = []
    /// Where a run closed an opener of another length (matching is too subtle to
    /// follow from there), if one did.
    private var confusedAt: Int?
    /// Where the next line scanned without a `base` starts: the bytes scanned so far,
    /// plus one for each line's end (``scan(_:skipMarkers:base:)``'s `lineEnd`).
    private(set) var position = 0
    /// Where the last delimiter run (or code-span or bracket opener) ended, if it
    /// ended the text scanned.
    private var trailing: (start: Int, end: Int)?
    /// A byte scanned may be read by md4c as more than text, with the flags the
    /// renderer parses with: one of its mark characters (a backslash, a backtick,
    /// `* _ ~ & ; < > [ ] $ @ : |`), a `.` after `www` (any case: the permissive www
    /// autolink), a control byte (C0, DEL or C1, which the renderer cleans) or a tab.
    /// (`!` is one only before `[`, NUL a control byte.) Without any, a paragraph's
    /// text is what md4c gives and the renderer keeps.
    private(set) var hasMarks = false

    /// Nothing is open that started at or after `start` (a position as in
    /// ``position``): openers before it, and a confusion before it, are taken to
    /// be literal text. The stream uses it to split past a delimiter left open far
    /// back (`~300 ms` opens a strikethrough that nothing may ever close).
    func isBalanced(openedSince start: Int) -> Bool {
        if let confusedAt, confusedAt >= start { return false }
        return stack.allSatisfy { $0.at < start }
    }

    private static func isSpace(_ b: UInt8?) -> Bool { b == nil || b == 0x20 || b == 0x09 || b == 0x0A }
    private static func isPunct(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return (0x21...0x2F).contains(b) || (0x3A...0x40).contains(b) || (0x5B...0x60).contains(b) || (0x7B...0x7E).contains(b)
    }

    /// Scans one line, or a piece of one that starts and ends at a space (`base`:
    /// its offset in the text, ``position`` when not given; `lineEnd`: a line's end
    /// follows it).
    mutating func scan(_ line: [UInt8], skipMarkers: Bool = false, base: Int? = nil, lineEnd: Bool = false) {
        var i = 0
        let n = line.count
        let base = base ?? position
        position = base + n + (lineEnd ? 1 : 0)
        if skipMarkers { i = Self.skipMarkers(line) }
        trailing = nil
        while i < n {
            // Outside a code span or a destination, text that is neither a delimiter
            // nor a mark (``hasMarks``) is skipped to the next byte that is.
            switch stack.last {
            case .code?, .destination?: break
            default:
                while i < n && Self.isText(line[i]) { i += 1 }
                if i == n { return }
            }
            let b = line[i]
            if case .code(let length, _)? = stack.last {
                if b == UInt8(ascii: "`") {
                    let run = line[i...].prefix { $0 == b }.count
                    if run == length { stack.removeLast() }
                    i += run
                } else {
                    i += 1
                }
                continue
            }
            if case .destination? = stack.last, b != UInt8(ascii: ")"), b != UInt8(ascii: "\\") {
                // A link's destination holds no emphasis, code or brackets (`~` in a URL);
                // a space ends it (what follows is a title, or the `(` opened no link).
                if b == 0x20 || b == 0x09 { stack.removeLast() }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\\"):
                hasMarks = true
                i += 2
                continue
            case UInt8(ascii: "`"):
                hasMarks = true
                let run = line[i...].prefix { $0 == b }.count
                stack.append(.code(run, at: base + i))
                if i + run == n { trailing = (base + i, base + i + run) }
                i += run
                continue
            case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                hasMarks = true
                let run = line[i...].prefix { $0 == b }.count
                let before: UInt8? = i > 0 ? line[i - 1] : nil
                let after: UInt8? = i + run < n ? line[i + run] : nil
                let left = !Self.isSpace(after) && (!Self.isPunct(after) || Self.isSpace(before) || Self.isPunct(before))
                let right = !Self.isSpace(before) && (!Self.isPunct(before) || Self.isSpace(after) || Self.isPunct(after))
                var canOpen = left, canClose = right
                if b == UInt8(ascii: "_") {
                    canOpen = left && (!right || Self.isPunct(before))
                    canClose = right && (!left || Self.isPunct(after))
                }
                var closed = false
                // A closer matches a run opened after the last open bracket only (a
                // run outside a link's text cannot close inside it; when the bracket
                // turns out not to be a link this is conservative: more stays open).
                let floor = (stack.lastIndex(where: { opener in
                    switch opener { case .bracket, .destination: true; default: false }
                }) ?? -1) + 1
                if canClose, let k = stack[floor...].lastIndex(where: { if case .run(b, _, _) = $0 { return true }; return false }) {
                    if case .run(_, let length, _) = stack[k], length != run { confusedAt = base + i }
                    stack.removeSubrange(k...)
                    closed = true
                }
                if !closed && canOpen {
                    stack.append(.run(b, run, at: base + i))
                    if i + run == n { trailing = (base + i, base + i + run) }
                }
                i += run
                continue
            case UInt8(ascii: "["):
                hasMarks = true
                stack.append(.bracket(at: base + i))
                if i + 1 == n { trailing = (base + i, base + i + 1) }
            case UInt8(ascii: "]"):
                hasMarks = true
                if let k = stack.lastIndex(where: { if case .bracket = $0 { return true }; return false }) {
                    stack.removeSubrange(k...)
                    if i + 1 < n && line[i + 1] == UInt8(ascii: "(") {
                        stack.append(.destination(at: base + i + 1))
                        i += 2
                        continue
                    }
                }
            case UInt8(ascii: ")"):
                if case .destination? = stack.last { stack.removeLast() }
            case UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "$"),
                 UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "|"):
                hasMarks = true
            case 0xC2:
                if Self.leadsC1(line, i) { hasMarks = true }
            case UInt8(ascii: "."):
                if Self.followsWWW(line, i) { hasMarks = true }
            default:
                if b < 0x20 || b == 0x7F { hasMarks = true }
            }
            i += 1
        }
    }

    /// Bytes below 64 and from 64 to 127 (bit `b`, `b - 64`) that are not text to the
    /// scan: its delimiters (a backslash, a backtick, `* _ ~ [ ]`) and the marks
    /// (``hasMarks``: `& ; < > $ @ : |`, `.`, control bytes, DEL; and 0xC2, which leads
    /// the C1 controls, in ``isText(_:)``). A test checks them.
    static let notText: (UInt64, UInt64) = (0x5C00_4450_FFFF_FFFF, 0xD000_0001_B800_0001)

    /// Whether a scan of `text` alone would find a mark (``hasMarks``): a byte that is
    /// neither text nor a `.` not after `www` nor a 0xC2 leading no C1 control. (Every
    /// construct the scan follows opens with a mark, so the first one tells.)
    ///
    /// - Complexity: O(n) in the bytes up to the first mark.
    static func hasMarks(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = text.count
        while i < n {
            let b = text[i]
            if !isText(b) {
                switch b {
                case UInt8(ascii: "."): if followsWWW(text, i) { return true }
                case 0xC2: if leadsC1(text, i) { return true }
                default: return true
                }
            }
            i += 1
        }
        return false
    }

    /// Whether the `.` at `i` follows `www` (any case): the permissive www autolink.
    @inline(__always)
    private static func followsWWW<Text: RandomAccessCollection<UInt8>>(_ text: Text, _ i: Int) -> Bool where Text.Index == Int {
        i >= 3 && text[i - 1] | 0x20 == 0x77 && text[i - 2] | 0x20 == 0x77 && text[i - 3] | 0x20 == 0x77
    }

    /// Whether the 0xC2 at `i` leads a C1 control (U+0080 to U+009F): the renderer cleans it.
    @inline(__always)
    private static func leadsC1<Text: RandomAccessCollection<UInt8>>(_ text: Text, _ i: Int) -> Bool where Text.Index == Int {
        i + 1 < text.count && text[i + 1] < 0xA0
    }

    /// Not a delimiter nor a mark: nothing the scan follows.
    @inline(__always)
    static func isText(_ b: UInt8) -> Bool {
        if b >= 0x80 { return b != 0xC2 }  // (0xC2 leads the C1 controls)
        return b < 64 ? notText.0 >> UInt64(b) & 1 == 0 : notText.1 >> UInt64(b - 64) & 1 == 0
    }

    /// Where a line's text starts after quote, list, task and heading markers.
    private static func skipMarkers(_ line: [UInt8]) -> Int {
        var i = 0
        let n = line.count
        while true {
            while i < n && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
            guard i < n else { return i }
            let b = line[i]
            if b == UInt8(ascii: ">") { i += 1; continue }
            if (b == UInt8(ascii: "-") || b == UInt8(ascii: "*") || b == UInt8(ascii: "+")) && (i + 1 == n || line[i + 1] == 0x20) {
                i += 1
                continue
            }
            if (0x30...0x39).contains(b) {
                var j = i
                while j < n && (0x30...0x39).contains(line[j]) { j += 1 }
                if j < n && (line[j] == UInt8(ascii: ".") || line[j] == UInt8(ascii: ")")) && (j + 1 == n || line[j + 1] == 0x20) {
                    i = j + 1
                    continue
                }
            }
            if b == UInt8(ascii: "[") && i + 2 < n && line[i + 2] == UInt8(ascii: "]") && " xX".utf8.contains(line[i + 1]) {
                i += 3
                continue
            }
            if b == UInt8(ascii: "#") {
                var j = i
                while j < n && line[j] == b { j += 1 }
                if j - i <= 6 && (j == n || line[j] == 0x20) { i = j; continue }
            }
            return i
        }
    }

    /// Closes what is open at the end of `text` (before a final line feed), after
    /// removing a delimiter run that ends the text.
    mutating func speculate(_ text: inout [UInt8]) {
        guard !stack.isEmpty else { return }
        var end = text.count
        if end > 0 && text[end - 1] == 0x0A { end -= 1 }
        var closers: [UInt8] = []
        var removed = 0..<0
        if let t = trailing, t.end == end {
            removed = t.start..<t.end
            stack.removeLast()
        }
        // A construct open longer than the stream lets it block a split is shown
        // as it will be final: literal.
        for opener in stack.reversed() where opener.at >= end - MarkdownStream.openConstructBytes {
            switch opener {
            case .run(let c, let length, _): closers += repeatElement(c, count: length)
            case .code(let length, _): closers += repeatElement(UInt8(ascii: "`"), count: length)
            case .bracket: closers += Array("]()".utf8)
            case .destination: closers.append(UInt8(ascii: ")"))
            }
        }
        text.insert(contentsOf: closers, at: end)
        text.removeSubrange(removed)
    }
}

/// The footnote definitions of a text block, held for its end: the one reading of the
/// lines that the stream and one-shot renders share, so both hold the same ones.
struct FootnoteCollector {
    private var held: [MarkdownRenderer.Footnote] = []
    /// The labels held, lower-cased (a second definition of one is not held).
    private var labels: Set<String> = []
    private var bytes = 0
    /// Whether the last definition goes on in the next line, and whether a blank line
    /// followed it (then only indented lines go on in it).
    private(set) var isOpen = false
    private var afterBlank = false

    /// Takes `line` into a held definition when it starts or continues one (a line
    /// taken is not part of the text); `continuingSplit`: the rest of a long line cut
    /// before. A definition past `MarkdownStream.maximumFootnoteBytes`, or a second
    /// one of a label already held, is not taken and ends the one before.
    ///
    /// - Complexity: O(n) in the bytes of `line`.
    mutating func take(_ line: [UInt8], continuingSplit: Bool = false) -> Bool {
        let bound = MarkdownStream.maximumFootnoteBytes
        if continuingSplit {
            guard isOpen else { return false }
            guard bytes + line.count <= bound else { isOpen = false; return false }
            append(line)  // the rest of a long definition line
            return true
        }
        if let start = MarkdownStream.footnoteDefinition(line) {
            let text = Array(line[start.content...])
            let label = start.label.lowercased()
            guard bytes + text.count <= bound, !labels.contains(label) else { isOpen = false; return false }
            labels.insert(label)
            held.append(.init(label: start.label, text: []))
            append(text)
            (isOpen, afterBlank) = (true, false)
            return true
        }
        guard isOpen else { return false }
        switch MarkdownStream.footnoteContinuation(line, afterBlank: afterBlank) {
        case .line(let text) where bytes + text.count <= bound:
            append(text)
            return true
        case .line, .end: isOpen = false  // past the bound, or after a blank: the rest stands where it is
        case .blank: afterBlank = true    // and the blank line goes on in the text
        }
        return false
    }

    private mutating func append(_ text: [UInt8]) {
        held[held.count - 1].text += text
        bytes += text.count
    }

    /// The definitions held, in order; the collector starts again empty.
    mutating func takeAll() -> [MarkdownRenderer.Footnote] {
        defer { self = FootnoteCollector() }
        return held
    }
}
