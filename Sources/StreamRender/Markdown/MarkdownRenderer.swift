import CMD4C

/// One line of rendered markdown: text pieces in styles, framed by a
/// `ParagraphFormat` (list bullets, quote bars, code continuation marks, rules).
/// The layout wraps it at the width left after its prefix.
@_spi(Benchmarks) public struct StyledLine: Hashable, Sendable {
    public struct Span: Hashable, Sendable {
        public var text: String
        public var style: Style
        public init(_ text: String, style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// A style over the bytes from the end of the run before it (or 0) to `end`: its
    /// look, and its link as a number in the link targets of the run's holder (a line's,
    /// a parse's, a table's). Plain words: runs are copied and freed without reference
    /// counting (a `Style` in each, with its optional `String`, made a call to retain or
    /// release for each run copied, emptied or freed: issue 24).
    struct Run: Hashable, Sendable {
        var end: Int
        /// The style's ``Style/look``.
        var look: UInt64
        /// 0 without a link; otherwise one more than the place of its target in the
        /// holder's link targets.
        var link: Int

        init(end: Int, look: UInt64, link: Int = 0) {
            self.end = end
            self.look = look
            self.link = link
        }

        /// A run of `style`, its link (if any) numbered in `targets`.
        init(end: Int, style: Style, targets: inout [String]) {
            self.end = end
            look = style.look
            link = Self.number(style.hyperlink, in: &targets)
        }

        /// The number of link `target` in `targets` (0 for none): the last one when it
        /// is the same (a link's text in several styles), else appended.
        static func number(_ target: String?, in targets: inout [String]) -> Int {
            guard let target else { return 0 }
            if targets.last != target { targets.append(target) }
            return targets.count
        }

        /// The run's style, its link read from `targets` (its holder's).
        func style<Targets: RandomAccessCollection<String>>(_ targets: Targets) -> Style where Targets.Index == Int {
            var style = Style(look: look)
            if link != 0 { style.hyperlink = targets[link - 1] }
            return style
        }

        /// Whether the run is in `style` (its link read from `targets`).
        func isIn(_ style: Style, _ targets: [String]) -> Bool {
            look == style.look && (link == 0 ? style.hyperlink == nil : style.hyperlink == targets[link - 1])
        }

        /// The run moved `shift` bytes on, into a holder whose link targets are `targets`
        /// (its own are `from`).
        func moved(by shift: Int, from: [String], to targets: inout [String]) -> Run {
            Run(end: end + shift, look: look, link: link == 0 ? 0 : Self.number(from[link - 1], in: &targets))
        }
    }

    public var format: ParagraphFormat
    /// The text, flat: the spans' UTF-8 bytes one after another and their style runs
    /// (no `String` per piece of text and no span array per line on the way from md4c
    /// to the document; issue 24). Valid UTF-8.
    private(set) var bytes: [UInt8] = []
    private(set) var runs: [Run] = []
    /// The targets of the runs' links (``Run/link``): most lines have none.
    private(set) var linkTargets: [String] = []
    /// The paragraph goes on: the next line given joins it (a long paragraph that
    /// was made final in parts while it streamed).
    public var continues = false
    /// The line goes on the paragraph of the line before (which ``continues``); its
    /// format is that paragraph's.
    public var joinsPrevious = false

    public init(format: ParagraphFormat = .plain, spans: [Span] = []) {
        self.format = format
        if !spans.isEmpty { self.spans = spans }  // (the setter empties the arrays first)
    }

    /// A line of `bytes` in `runs` (each ending within `bytes`, the last at its end),
    /// their links' targets in `linkTargets`.
    init(format: ParagraphFormat = .plain, bytes: [UInt8], runs: [Run], linkTargets: [String] = []) {
        self.format = format
        self.bytes = bytes
        self.runs = runs
        self.linkTargets = linkTargets
    }

    /// Lines are equal when their text, runs and runs' styles are (not the numbers
    /// their links have).
    public static func == (a: StyledLine, b: StyledLine) -> Bool {
        guard a.format == b.format, a.continues == b.continues, a.joinsPrevious == b.joinsPrevious, a.bytes == b.bytes,
              a.runs.count == b.runs.count else { return false }
        for k in a.runs.indices {
            let x = a.runs[k], y = b.runs[k]
            guard x.end == y.end, x.look == y.look, (x.link == 0) == (y.link == 0) else { return false }
            if x.link != 0 && a.linkTargets[x.link - 1] != b.linkTargets[y.link - 1] { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(bytes)
        hasher.combine(continues)
        hasher.combine(joinsPrevious)
        for run in runs {
            hasher.combine(run.end)
            hasher.combine(run.look)
        }
    }

    /// The style of `run` (one of the line's).
    func style(of run: Run) -> Style { run.style(linkTargets) }

    /// The text in styled pieces, one a run (made from the flat text when read; set,
    /// a run a span, merged or not as given).
    ///
    /// - Complexity: O(n) in the line's bytes, read or written.
    public var spans: [Span] {
        get {
            var start = 0
            return runs.map { run in
                defer { start = run.end }
                return Span(String(decoding: bytes[start..<run.end], as: UTF8.self), style: run.style(linkTargets))
            }
        }
        set {
            bytes.removeAll(keepingCapacity: true)
            runs.removeAll(keepingCapacity: true)
            linkTargets.removeAll()
            for span in newValue { appendRun(span.text.utf8, style: span.style) }
        }
    }

    mutating func reserveCapacity(bytes byteCount: Int, runs runCount: Int) {
        bytes.reserveCapacity(byteCount)
        runs.reserveCapacity(runCount)
    }

    /// Whether the line has no span (``spans`` is empty).
    var isEmpty: Bool { runs.isEmpty }

    /// The line as plain characters: prefix, text (a fill shown once).
    public var plainText: String {
        format.firstPrefix.map(\.text).joined() + String(decoding: bytes, as: UTF8.self) + (format.fill?.text ?? "")
    }

    /// An empty line (made, not copied from a stored one: that retained its parts).
    static var blank: StyledLine { StyledLine() }

    /// Appends `spans`, merging neighbours of one style (as the renderer's own spans are).
    mutating func append(_ more: [Span]) {
        for span in more { append(span) }
    }

    /// Appends `span` (nothing if it is empty), merged into the last span if that has
    /// its style.
    mutating func append(_ span: Span) {
        append(span.text.utf8, style: span.style)
    }

    /// Appends `text` (UTF-8) in `style` as ``append(_:)-(Span)`` appends a span of it.
    mutating func append(_ text: some Collection<UInt8>, style: Style) {
        if text.isEmpty { return }
        bytes.append(contentsOf: text)
        extendRuns(to: bytes.count, style: style)
    }

    /// Ends the runs at `end` in `style`: the last run grows if it has the style.
    private mutating func extendRuns(to end: Int, style: Style) {
        let last = runs.count - 1
        if last >= 0 && runs[last].isIn(style, linkTargets) {
            runs[last].end = end
        } else {
            runs.append(Run(end: end, style: style, targets: &linkTargets))
        }
    }

    /// Appends `line`'s spans as ``append(_:)-([Span])`` does (its format and flags are not taken).
    mutating func append(_ line: StyledLine) {
        // By index: a loop variable copied each run (and its style).
        line.bytes.withUnsafeBufferPointer { text in
            var start = 0
            for k in line.runs.indices {
                let end = line.runs[k].end
                guard end > start else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<end]))
                extendRuns(to: bytes.count, style: line.style(of: line.runs[k]))
                start = end
            }
        }
    }

    /// Appends a span of `text` (UTF-8) in `style`, not merged (as appending to ``spans``).
    mutating func appendRun(_ text: some Collection<UInt8>, style: Style) {
        bytes.append(contentsOf: text)
        runs.append(Run(end: bytes.count, style: style, targets: &linkTargets))
    }

    /// Appends `text` with no run over it yet: ``coverUncovered(to:style:)`` must end
    /// runs at its end before the line is read (a code line's bytes go in with one
    /// copy, its tokens' runs after them).
    mutating func appendUncovered(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// Ends a run (not merged) at byte `end` of the line, text ``appendUncovered(_:)`` added.
    mutating func coverUncovered(to end: Int, style: Style) {
        runs.append(Run(end: end, style: style, targets: &linkTargets))
    }

    /// ``coverUncovered(to:style:)`` in the style of `run` (its link's target, if any,
    /// in `targets`).
    mutating func coverUncovered(to end: Int, as run: Run, targets: [String]) {
        runs.append(run.moved(by: end - run.end, from: targets, to: &linkTargets))
    }

    /// ``appendRun(_:style:)`` in the style of `run` (its link's target, if any, in `targets`).
    mutating func appendRun(_ text: some Collection<UInt8>, as run: Run, targets: [String]) {
        bytes.append(contentsOf: text)
        coverUncovered(to: bytes.count, as: run, targets: targets)
    }

    /// Gives the line's text to the open paragraph of `document` without a copy
    /// (`StyledDocument.adoptAsIs(_:runs:)`, for text ``StyledDocument/takesAsIs(_:)``
    /// accepted). True when it took it: the line is left empty, with the paragraph's
    /// empty buffer.
    mutating func moveText(into document: inout StyledDocument) -> Bool {
        // Runs short of the text's end (no renderer makes them) are appended as before,
        // which keeps only the text they cover.
        guard runs.last?.end == bytes.count else { return false }
        // (By index: a loop variable copied each run's style.)
        guard document.adoptAsIs(&bytes, runs: { ids, styles in
            // (Room for them all first: a paragraph's runs grew one doubling at a time,
            // an allocation each.)
            if ids.capacity < runs.count { ids.reserveCapacity(runs.count) }
            for k in runs.indices { StyledDocument.addRun(&ids, end: runs[k].end, style: runs[k].style(linkTargets), in: &styles) }
        }) else { return false }
        runs.removeAllKeepingCapacity()
        if !linkTargets.isEmpty { linkTargets.removeAll() }
        return true
    }

    /// Empties the line for reuse in `format`: its arrays keep their room.
    mutating func reset(format: ParagraphFormat) {
        // (Emptied only when not empty: a line whose text its paragraph took has none,
        // and emptying an empty array still cost a call.)
        if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        runs.removeAllKeepingCapacity()
        if !linkTargets.isEmpty { linkTargets.removeAll() }
        // (Most lines are plain or a code block's: a format is not copied over its copy,
        // an atomic retain and release.)
        if !format.isCopy(of: self.format) { self.format = format }
        continues = false
        joinsPrevious = false
    }

    /// Appends `text` and `more` runs, which end at offsets of a text where `text`
    /// starts at `base` (a leaf's in the parse's shared arrays), their links numbered
    /// in `targets`.
    mutating func append(_ text: ArraySlice<UInt8>, runs more: ArraySlice<Run>, from base: Int, targets: [String]) {
        let shift = bytes.count - base
        // (Through buffers: `append(contentsOf:)` takes its argument owned, a retain and
        // a release of the slice's storage.)
        text.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
        more.withUnsafeBufferPointer { more in
            for run in more { runs.append(run.moved(by: shift, from: targets, to: &linkTargets)) }
        }
    }

    /// The bytes of memory the line's arrays hold (a spare line keeps them).
    var heldBytes: Int {
        bytes.capacity + runs.capacity * MemoryLayout<Run>.stride + linkTargets.capacity * MemoryLayout<String>.stride
    }
}

/// How markdown is drawn.
public struct MarkdownOptions: Hashable, Sendable {
    public var theme: MarkdownTheme
    /// Links as OSC 8 hyperlinks (the text alone); otherwise `text (url)`.
    public var hyperlinks: Bool
    /// Columns available (tables are fitted to it).
    public var width: Int
    /// How table cells are measured.
    public var policy: WidthPolicy
    /// Fenced code blocks labelled with their number (`1 · python`, `2`), the number
    /// ``CodeBlock/number`` reports; otherwise with their language alone.
    public var numbersCodeBlocks: Bool
    /// LaTeX math (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) drawn with Unicode
    /// (``MathText``); false shows it as written, delimiters included.
    public var math: Bool
    /// Code lines wider than the width are cut where a terminal wraps them, with no
    /// continuation mark (`ParagraphFormat.wrapsLikeTerminal`), for a view that lets
    /// the terminal wrap them; otherwise wrapped between words after a `↪`.
    public var codeWrapsLikeTerminal: Bool
    /// Fenced code in a language the highlighter knows is coloured token by token;
    /// false: in the theme's code style alone, as for output that shows no style (plain
    /// text: lexing it would change nothing that is written).
    public var highlightsCode: Bool

    public init(theme: MarkdownTheme = .dark, hyperlinks: Bool = false, width: Int = 80, policy: WidthPolicy = .grapheme,
                numbersCodeBlocks: Bool = true, math: Bool = true, codeWrapsLikeTerminal: Bool = false,
                highlightsCode: Bool = true) {
        self.theme = theme
        self.hyperlinks = hyperlinks
        self.width = width
        self.policy = policy
        self.numbersCodeBlocks = numbersCodeBlocks
        self.math = math
        self.codeWrapsLikeTerminal = codeWrapsLikeTerminal
        self.highlightsCode = highlightsCode
    }
}

/// Renders markdown text with md4c (`MD_DIALECT_GITHUB`) into `StyledLine`s.
///
/// The output is a list of top-level blocks, each a list of lines; a document is
/// its blocks separated by one blank line. A soft line break is a space (paragraphs
/// reflow to the width), a hard one ends the line; tight and loose lists
/// render alike (no blank line between items), and ordered lists number from their
/// start. These choices make a document's rendering the concatenation of its
/// parts' renderings, which is what `MarkdownStream` relies on.
///
/// Not `Sendable`: a class with a parse counter and md4c callbacks that build into it;
/// one per stream.
@_spi(Benchmarks) public final class MarkdownRenderer {
    /// How lines are drawn (theme, width, width policy, links, math, code blocks);
    /// setting it drops what was made for the old options. (Not checked for exclusive
    /// access at run time, as the caches below: each code line reads it, and the check
    /// cost more than the read.)
    @exclusivity(unchecked) public var options: MarkdownOptions {
        didSet {
            inlineOptions = InlineOptions(options)
            codeStyles = nil
            markWidths = nil
            quoteFormats = [:]
            itemMarkers = []
        }
    }
    /// The widths of the bullets (by depth) and of the task marks (open, done) under the
    /// options' width policy, and indents by width: a list item measured and made its
    /// marker's width and indent anew (issue 24). (These caches, like the code styles
    /// and spare lines, are not checked for exclusive access at run time: a renderer
    /// is used from one thread, and the checks cost more than the lookups.)
    @exclusivity(unchecked) private var markWidths: (bullets: [Int], tasks: [Int])?
    @exclusivity(unchecked) private var indents: [ParagraphFormat.Piece] = []
    /// The formats of a quote's plain lines (by bar style) and of a list item's plain
    /// lines after its first (by indent), kept across renders: the lines share them, and
    /// a line given back frees no arrays of its format.
    @exclusivity(unchecked) private var quoteFormats: [Style: (barred: ParagraphFormat, empty: ParagraphFormat)] = [:]
    @exclusivity(unchecked) private var paddedFormats: [ParagraphFormat?] = []
    private static let bullets = ["• ", "◦ ", "▪ "], taskMarks = ["☐ ", "☑ "]
    /// List item markers by depth (bullets) or number and delimiter (up to
    /// ``itemMarkerNumbers``), and task mark: the pieces, the indent, and the format of a
    /// first line whose own format is plain (most items' first lines share it, and a
    /// format kept is found by its box when interned). Emptied when the options change.
    @exclusivity(unchecked) private var itemMarkers: [ItemMarker?] = []
    private static let itemMarkerNumbers = 128

    struct ItemMarker {
        var marker: [ParagraphFormat.Piece]
        var indent: Int
        var plain: ParagraphFormat
        /// The marker is ASCII (a line it starts may still wrap like a terminal).
        var isASCII: Bool
    }

    /// The marker of a list item: `number` in an ordered list (with `mark`, its
    /// delimiter), a bullet by `depth` otherwise; a task's box after either.
    private func itemMarker(_ number: Int?, mark: UInt8, task: UInt8?, depth: Int,
                            _ widths: (bullets: [Int], tasks: [Int])) -> ItemMarker {
        let done = task == UInt8(ascii: "x") || task == UInt8(ascii: "X")
        let taskState = task == nil ? 0 : done ? 2 : 1
        // Bullets first (three depths), then numbers ending in `.` or `)`; three task states each.
        var slot: Int?
        if let number {
            if number >= 0 && number < Self.itemMarkerNumbers && (mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")")) {
                slot = 3 * (3 + 2 * number + (mark == UInt8(ascii: ")") ? 1 : 0)) + taskState
            }
        } else {
            slot = 3 * (depth % 3) + taskState
        }
        if let slot, slot < itemMarkers.count, let known = itemMarkers[slot] { return known }
        var marker: [ParagraphFormat.Piece] = []
        var indent = 0
        if let number {
            let text = "\(number)\(Character(Unicode.Scalar(mark))) "
            marker.append(.init(text, style: options.theme.bullet))
            indent += text.utf8.count  // (digits and an ASCII delimiter)
        }
        if task != nil {
            marker.append(.init(Self.taskMarks[done ? 1 : 0], style: done ? options.theme.taskDone : options.theme.taskOpen))
            indent += widths.tasks[done ? 1 : 0]
        } else if number == nil {
            marker.append(.init(Self.bullets[depth % 3], style: options.theme.bullet))
            indent += widths.bullets[depth % 3]
        }
        while indents.count <= indent { indents.append(ParagraphFormat.Piece(String(repeating: " ", count: indents.count))) }
        let made = ItemMarker(marker: marker, indent: indent,
                              plain: ParagraphFormat(firstPrefix: marker, continuationPrefix: [indents[indent]]),
                              isASCII: marker.allSatisfy { $0.text.utf8.allSatisfy { $0 < 0x7F } })
        if let slot {
            if itemMarkers.count <= slot { itemMarkers += repeatElement(nil, count: slot + 1 - itemMarkers.count) }
            itemMarkers[slot] = made
        }
        return made
    }
    /// The format of a top-level bullet list item's first line when its own is plain (an
    /// item of inert text made final without a parse: `MarkdownStream.cutInert()`).
    func bulletItemFormat() -> ParagraphFormat {
        if markWidths == nil { markWidths = (Self.bullets.map { measure($0) }, Self.taskMarks.map { measure($0) }) }
        return itemMarker(nil, mark: UInt8(ascii: "-"), task: nil, depth: 0, markWidths!).plain
    }

    /// What the md4c builder takes from `options`, made once: each parse copied the
    /// whole theme (and released it). The builder reads it in place during a parse,
    /// which never sets it (decision 0025: a single owner's cache).
    @exclusivity(unchecked) private var inlineOptions: InlineOptions

    struct InlineOptions {
        var emphasis, strong, strikethrough, inlineCode, link, linkTarget, html, mathStyle: Style
        var hyperlinks, math: Bool

        init(_ options: MarkdownOptions) {
            let theme = options.theme
            emphasis = theme.emphasis
            strong = theme.strong
            strikethrough = theme.strikethrough
            inlineCode = theme.inlineCode
            link = theme.link
            linkTarget = theme.linkTarget
            html = theme.html
            mathStyle = theme.math
            hyperlinks = options.hyperlinks
            math = options.math
        }
    }
    private let breaker = ICUBreaker(.character)
    /// For code lines over `base`: each token kind's style and the two line formats
    /// (wrapped by the view, or like a terminal); reset when the options change.
    /// Per token kind its style, and the first kind of an equal style (pieces of kinds
    /// of one style join without comparing styles).
    @exclusivity(unchecked) private var codeStyles: CodeStyles? {
        didSet { codeStylesRef = codeStyles.map { Unmanaged.passUnretained($0) } }
    }
    /// ``codeStyles``, not counted: each line reads the box through it without the
    /// atomic retain and release a read of ``codeStyles`` costs (the renderer's methods
    /// it calls could replace the box); ``codeStyles`` keeps it alive.
    @exclusivity(unchecked) private var codeStylesRef: Unmanaged<CodeStyles>?

    /// ``codeStyles``' parts, in a box: a line holds the box, not each of its arrays
    /// (a retain and a release each, atomic, a line of code).
    private final class CodeStyles {
        let base: Style
        /// The styles by token kind as runs (their ends unused), their links' targets in
        /// `linkTargets`: a code line's pieces go in as words, not styles (a copy of a style
        /// was a retain and release of its link, even without one).
        let runs: [StyledLine.Run]
        let linkTargets: [String]
        let sameAs: [Int]
        /// The lines' format: wrapped by the view, or like a terminal. (Two properties, not
        /// an array: an element of an array was copied, a retain and release, to be passed.)
        let wrapped: ParagraphFormat, wrapsLikeTerminal: ParagraphFormat

        /// `styles` by token kind; code lines continue after `continuation`.
        init(base: Style, styles: [Style], continuation: [ParagraphFormat.Piece]) {
            self.base = base
            var targets: [String] = []
            runs = styles.map { StyledLine.Run(end: 0, style: $0, targets: &targets) }
            linkTargets = targets
            sameAs = styles.map { style in styles.firstIndex(of: style)! }
            wrapped = ParagraphFormat(continuationPrefix: continuation, wrapsLikeTerminal: false)
            wrapsLikeTerminal = ParagraphFormat(continuationPrefix: continuation, wrapsLikeTerminal: true)
        }
    }
    /// The last parse's builder's buffers, emptied (a parse inside a parse finds none).
    private var spareBuilderBuffers: Builder.Buffers?
    /// Lines the document has taken the text of (``recycle(_:)``): their arrays are
    /// filled again, not allocated (a line whose text a paragraph took holds that
    /// paragraph's empty buffer, often with room; two arrays a line made and freed, and their
    /// runs' styles destroyed one by one, were a tenth of plain output: issue 24).
    /// (Not checked for exclusive access at run time: only the renderer's own methods
    /// touch it, and the checks were a tenth of taking and giving back a line.)
    @exclusivity(unchecked) private var spareLines: [StyledLine] = []
    /// Spare lines kept at most, and the most array memory one holds (``StyledLine/heldBytes``);
    /// past the first ``largeSpareLines``, at most ``smallSpareLineBytes``. A read of
    /// one-line paragraphs makes a thousand lines: with 256 spares most were allocated
    /// afresh (at most 1.4 MB is held).
    static let spareLineCount = 1024, spareLineBytes = 4096, largeSpareLines = 256, smallSpareLineBytes = 512

    /// An empty line in `format`: a spare one when there is one.
    ///
    /// - Complexity: O(r) in the spare line's runs.
    func freshLine(format: ParagraphFormat = .plain) -> StyledLine {
        guard var line = spareLines.popLast() else { return StyledLine(format: format) }
        line.reset(format: format)
        return line
    }

    /// Takes `lines` (their text is no longer needed) as spares, up to
    /// ``spareLineCount`` of them holding at most ``spareLineBytes`` each (see
    /// ``largeSpareLines``); `lines` is
    /// left empty, its room kept.
    ///
    /// - Complexity: O(n) in the lines.
    func recycle(_ lines: inout [StyledLine]) {
        while let line = lines.popLast() {
            if spareLines.count == Self.spareLineCount { break }
            // (A line that holds nothing, a blank one, would only take a place. The
            // styles and format a spare still names are kept by the document's tables
            // anyway: it holds no memory but its arrays'. Emptied when taken.)
            let held = line.heldBytes
            if held > 0 && held <= (spareLines.count < Self.largeSpareLines ? Self.spareLineBytes : Self.smallSpareLineBytes) {
                spareLines.append(line)
            }
        }
        lines.removeAll(keepingCapacity: true)
    }

    /// Fenced code blocks numbered so far: the number of the last one.
    var codeBlocksNumbered = 0
    /// Whether rendered fenced blocks are kept in ``renderedCodeBlocks`` (for
    /// `onCodeBlock`; off, nothing is kept).
    var collectsCodeBlocks = false
    /// Fenced blocks rendered (or finished by the stream's fence bypass) and not yet taken.
    var renderedCodeBlocks: [CodeBlock] = []
    /// Footnote numbers by label (lower-cased), in the order of first reference (GitHub's).
    var footnoteNumbers: [String: Int] = [:]

    /// A footnote definition: its label and its markdown text.
    struct Footnote: Equatable {
        var label: String
        var text: [UInt8]
    }

    /// The number of the footnote `label`, the next one if it is new.
    func footnoteNumber(_ label: String) -> Int {
        let key = label.lowercased()
        if let n = footnoteNumbers[key] { return n }
        let n = footnoteNumbers.count + 1
        footnoteNumbers[key] = n
        return n
    }

    /// The footnotes at the end of the text: a rule, then each definition in the order
    /// of its number (`[1] text`, wrapped under its text); a definition no reference
    /// named comes after, numbered on (nothing is dropped).
    func footnoteSection(_ footnotes: [Footnote]) -> [StyledLine] {
        let numbered = footnotes.map { (footnoteNumber($0.label), $0) }.sorted { $0.0 < $1.0 }
        var lines = [StyledLine(format: ParagraphFormat(fill: .init("─", style: options.theme.rule)))]
        for (number, footnote) in numbered {
            var text = footnote.text
            let rendered = renderBlocks(&text, count: text.count, blankBetween: false)
            let mark = "[\(number)] "
            let indent = ParagraphFormat.Piece(String(repeating: " ", count: mark.count))
            for (k, line) in (rendered.isEmpty ? [StyledLine()] : rendered).enumerated() {
                var line = line
                let first = k == 0 ? [ParagraphFormat.Piece(mark, style: options.theme.link)] : [indent]
                line.format = line.format.nested(in: first, other: indent, wrapsLikeTerminal: false)
                lines.append(line)
            }
        }
        return lines
    }

    public init(options: MarkdownOptions = MarkdownOptions()) {
        self.options = options
        inlineOptions = InlineOptions(options)
    }

    /// Takes the fenced code blocks rendered as final since the last call, numbered
    /// as their labels (with `MarkdownStream`: each once its block is final).
    func takeCodeBlocks() -> [CodeBlock] {
        defer { renderedCodeBlocks.removeAll() }
        return renderedCodeBlocks
    }

    /// Quotes and lists nested deeper than this are not opened: their content goes
    /// on in the deepest one kept, without more bars or bullets. Real text never
    /// nests this deep (the prefixes alone would fill a terminal's width), and the
    /// bound keeps the recursive rendering (two stack frames a level), the tree and
    /// the prefixes (each level puts its own on its lines) small: 10,000 nested `> `
    /// overflowed the stack.
    public static let maximumNesting = 32

    /// A top-level list as rendered: bullet mark or ordered delimiter, ordered or not,
    /// start, items (the stream numbers the next items of a list it continues).
    struct ListInfo: Equatable {
        var ordered: Bool
        var mark: UInt8
        var start: Int
        var items: Int
    }

    /// Renders `text` as one document.
    ///
    /// - Complexity: O(n) in the bytes of `text`, plus its tables' cells.
    @_spi(Benchmarks) public func render(_ text: String) -> [StyledLine] {
        codeBlocksNumbered = 0
        footnoteNumbers = [:]
        var (bytes, footnotes) = MarkdownStream.splitFootnotes(Array(text.utf8))
        var lines = renderBlocks(&bytes, count: bytes.count, blankBetween: true)
        if !footnotes.isEmpty {
            if !lines.isEmpty { lines.append(.blank) }
            lines += footnoteSection(footnotes)
        }
        return lines
    }

    /// The blocks of `text[0..<count]` rendered one after another, a blank line between
    /// two when `blankBetween` (`text` gets a NUL after `count`: md4c reads one byte
    /// past the end it is given).
    func renderBlocks(_ text: inout [UInt8], count: Int, blankBetween: Bool) -> [StyledLine] {
        let blocks = tree(&text, count: count)
        var lines: [StyledLine] = []
        for k in 0..<blocks.count {
            if k > 0 && blankBetween { lines.append(.blank) }
            render(blocks, at: k, into: &lines)
        }
        return lines
    }

    /// The top-level blocks of `text[0..<count]` parsed with their inline content,
    /// for ``render(_:at:listStart:into:)`` to render later: the parse that finds
    /// where a block ends also renders it.
    func tree(_ text: inout [UInt8], count: Int) -> Blocks {
        guard let tree = parseTree(&text, count: count)?.tree else { return Blocks() }
        return Blocks(tree)
    }

    /// Appends top-level block `k` of `blocks`, rendered, to `lines` (`listStart`
    /// renumbers it when it is the first and an ordered list); returns its list, if it
    /// is one (what the stream needs to number a list's next items).
    @discardableResult
    func render(_ blocks: Blocks, at k: Int, listStart: Int? = nil, into lines: inout [StyledLine]) -> ListInfo? {
        let node = blocks.nodes[k]
        var list: ListInfo?
        var start: Int?
        if case .list(let ordered, let mark, let first) = node.kind {
            start = (k == 0 ? listStart : nil) ?? first
            list = ListInfo(ordered: ordered, mark: mark, start: start!, items: node.childCount)
        }
        render(blocks.tree, node, base: .plain, depth: 0, width: options.width, start: start, into: &lines)
        return list
    }

    /// The top-level blocks' kinds, without rendering (the stream's cut test), and
    /// whether the text ends inside code or HTML (no inline speculation there).
    func shape(_ text: inout [UInt8], count: Int) -> (blocks: Blocks, endsInRaw: Bool) {
        guard let (tree, raw) = parseTree(&text, count: count, structureOnly: true) else { return (Blocks(), false) }
        return (Blocks(tree), raw)
    }

    // MARK: - Lines of a fenced code block (shared with the stream's fence bypass)

    /// The label line above a code block: `3 · python` for the third fenced block
    /// (`3` without a language); the language alone for an indented block or when
    /// blocks are not numbered; nil when that leaves nothing.
    func codeLabel(_ language: String, number: Int?) -> StyledLine? {
        let language = clean(language, tabs: false)
        let number = options.numbersCodeBlocks ? number : nil
        guard number != nil || !language.isEmpty else { return nil }
        // (Pieces appended to a spare line: an interpolated string, a span array and a
        // line's arrays made afresh cost 2,000 instructions a fence.)
        var line = freshLine()
        let style = options.theme.codeLanguage
        if let number {
            line.append(String(number).utf8, style: style)
            if !language.isEmpty { line.append(" · ".utf8, style: style) }
        }
        line.append(language.utf8, style: style)
        return line
    }

    /// Numbers the next fenced block; keeps it for ``takeCodeBlocks()`` when collecting.
    func numberCodeBlock(info: String, code: @autoclosure () -> String) -> Int {
        codeBlocksNumbered += 1
        if collectsCodeBlocks { renderedCodeBlocks.append(CodeBlock(number: codeBlocksNumbered, info: info, code: code())) }
        return codeBlocksNumbered
    }

    /// Calls `body` with each line of `text` (split at LF, empty lines too, a last LF
    /// ending the last line rather than starting an empty one).
    ///
    /// - Complexity: O(n) in the bytes.
    static func forEachLine(of text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = text.baseAddress else { return body(text) }
        let end = text.last == 0x0A ? text.count - 1 : text.count
        var start = 0
        while true {
            let lineEnd = ByteSearch.find(0x0A, base, from: start, to: end)
            body(UnsafeBufferPointer(rebasing: text[start..<lineEnd]))
            guard lineEnd < end else { return }
            start = lineEnd + 1
        }
    }

    /// One line of code: kept as it is (tabs and indentation), wrapped lines marked,
    /// coloured by `tokens` (UTF-8 offsets in `text`; bytes in no token are plain).
    func codeLine(_ text: String, tokens: [Token] = [], base: Style = .plain) -> StyledLine {
        var text = text
        return text.withUTF8 { codeLine(utf8: $0, tokens: tokens, base: base) }
    }

    /// ``codeLine(_:tokens:base:)`` of a line's UTF-8 bytes (valid UTF-8): the stream's
    /// fenced lines go from their bytes to a line without a `String` each.
    func codeLine(utf8: UnsafeBufferPointer<UInt8>, tokens: [Token] = [], base: Style = .plain) -> StyledLine {
        // What every line of a block shares, made once per base style (and options).
        if codeStyles == nil || codeStyles!.base != base {
            let codeBase = base.merged(with: options.theme.codeBlock)
            let theme = options.theme.code
            let continuation = [ParagraphFormat.Piece("↪ ", style: options.theme.codeContinuation)]
            let styles = TokenKind.allCases.map { $0 == .plain ? codeBase : codeBase.merged(with: theme[$0]) }
            codeStyles = CodeStyles(base: base, styles: styles, continuation: continuation)
        }
        // (The box's arrays through their buffers: each array the joining below held was
        // an atomic retain and release a line.)
        return tokens.withUnsafeBufferPointer { tokens in
            codeStylesRef!._withUnsafeGuaranteedRef { code in codeLine(utf8: utf8, tokens: tokens, code: code) }
        }
    }

    private func codeLine(utf8: UnsafeBufferPointer<UInt8>, tokens: UnsafeBufferPointer<Token>, code: CodeStyles) -> StyledLine {
        // Only printable ASCII is left to the terminal's wrap: every terminal gives it one
        // column a character, so the rows the view counts are the rows the terminal makes
        // (an emoji or CJK width it measured otherwise would shift the whole live region).
        let likeTerminal = options.codeWrapsLikeTerminal && DisplayWidth.isPrintableASCII(utf8)
        // Most lines have nothing to sanitise: their pieces are cut from the line as is.
        let needsCleaning = !ControlSanitizer.isClean(utf8)
        var line = freshLine(format: likeTerminal ? code.wrapsLikeTerminal : code.wrapped)
        let plain = Int(TokenKind.plain.rawValue)
        if tokens.isEmpty {
            guard needsCleaning else {
                if !utf8.isEmpty { line.appendRun(utf8, as: code.runs[plain], targets: code.linkTargets) }
                return line
            }
            let content = clean(String(decoding: utf8, as: UTF8.self), tabs: true)
            if !content.isEmpty { line.appendRun(content.utf8, as: code.runs[plain], targets: code.linkTargets) }
            return line
        }
        if !needsCleaning {
            // The line's text goes in with one copy; its pieces are runs over it.
            line.reserveCapacity(bytes: utf8.count, runs: 2 * tokens.count + 1)
            line.appendUncovered(utf8)
        }
        code.runs.withUnsafeBufferPointer { styles in
            code.sameAs.withUnsafeBufferPointer { sameAs in
                var pieces = CodePieces(utf8: utf8, needsCleaning: needsCleaning, kind: sameAs[plain], targets: code.linkTargets)
                for token in tokens {
                    pieces.add(upTo: token.start, sameAs[plain], into: &line, styles: styles, renderer: self)
                    pieces.add(upTo: token.end, sameAs[Int(token.kind.rawValue)], into: &line, styles: styles, renderer: self)
                }
                pieces.add(upTo: utf8.count, sameAs[plain], into: &line, styles: styles, renderer: self)
                pieces.flush(into: &line, styles: styles, renderer: self)
            }
        }
        return line
    }

    /// A code line's tokens joined into pieces of one style before they go in (most
    /// neighbouring tokens share a style). Pieces are told apart by the first kind of
    /// their style: neighbours always differ in style, and none is empty (cleaning keeps
    /// every scalar), so they go in without the comparison `StyledLine.append` makes.
    private struct CodePieces {
        let utf8: UnsafeBufferPointer<UInt8>
        let needsCleaning: Bool
        var done = 0, pieceStart = 0
        var pieceKind: Int
        /// The link targets of the styles' runs (``CodeStyles/linkTargets``).
        let targets: [String]

        init(utf8: UnsafeBufferPointer<UInt8>, needsCleaning: Bool, kind: Int, targets: [String]) {
            self.utf8 = utf8
            self.needsCleaning = needsCleaning
            pieceKind = kind
            self.targets = targets
        }

        mutating func flush(into line: inout StyledLine, styles: UnsafeBufferPointer<StyledLine.Run>, renderer: MarkdownRenderer) {
            guard done > pieceStart else { return }
            if needsCleaning {
                let piece = UnsafeBufferPointer(rebasing: utf8[pieceStart..<done])
                line.appendRun(renderer.clean(String(decoding: piece, as: UTF8.self), tabs: true).utf8, as: styles[pieceKind],
                               targets: targets)
            } else {
                line.coverUncovered(to: done, as: styles[pieceKind], targets: targets)
            }
            pieceStart = done
        }

        mutating func add(upTo end: Int, _ kind: Int, into line: inout StyledLine, styles: UnsafeBufferPointer<StyledLine.Run>,
                          renderer: MarkdownRenderer) {
            // A token boundary inside a character (a lexer's stray byte) moves past it.
            var end = min(end, utf8.count)
            guard end > done else { return }  // (a token before the last: nothing more)
            while end < utf8.count && utf8[end] & 0xC0 == 0x80 { end += 1 }
            if kind != pieceKind {
                flush(into: &line, styles: styles, renderer: renderer)
                pieceKind = kind
            }
            done = end
        }
    }

    // MARK: - Parsing into a tree

    /// A block of the parse, in a ``ParseTree``: plain values (no array, no string),
    /// so building, copying and freeing a tree is a few arrays, not a node each (a
    /// node per block held its own children, text and runs: issue 24).
    struct Node {
        enum Kind {
            case document, quote, list(ordered: Bool, mark: UInt8, start: Int), item(task: UInt8?), rule
            case heading(Int), code(fenced: Bool), html, paragraph
            case table, tableHead, tableBody, row, cell(header: Bool, align: Int)

            var isLeaf: Bool {
                switch self {
                case .heading, .code, .html, .paragraph, .rule, .cell: return true
                default: return false
                }
            }
            var isRaw: Bool {
                switch self {
                case .code, .html: return true
                default: return false
                }
            }
        }
        var kind: Kind
        /// Where its first child is in the tree's nodes (the node after it: the tree is
        /// in document order) and how many children it has. A child's next sibling is at
        /// the child's ``end``.
        var first = 0
        var childCount = 0
        /// Where its subtree ends in the tree's nodes.
        var end = 0
        /// A leaf's text in the tree's bytes (inline content, or the raw text of a code
        /// or HTML block), its style runs and its hard line breaks (byte offsets in the
        /// tree's bytes). A container's are empty, at where its children's start: a
        /// rejected table's are cut back to them (see `Builder.leave()`).
        var text = 0..<0
        var runs = 0..<0
        var breaks = 0..<0
        /// A code block's info string (its language), in the tree's bytes.
        var info = 0..<0
        var implicit = false
        /// Where the first line ends before its first soft break, in the tree's bytes
        /// (a GitHub alert's marker must be alone on its line).
        var firstSoftBreak: Int?
        /// The display math the paragraph holds (drawn centred when it is all the
        /// paragraph holds), in the tree's strings; "" after a second one.
        var displayMath: Int?

        init(_ kind: Kind) {
            self.kind = kind
        }

        /// A node at place `index` of its tree, its text (none yet) at the tree's ends.
        init(_ kind: Kind, at index: Int, text: Int, runs: Int, breaks: Int, info: Range<Int>, implicit: Bool) {
            self.kind = kind
            first = index + 1
            self.text = text..<text
            self.runs = runs..<runs
            self.breaks = breaks..<breaks
            self.info = info
            self.implicit = implicit
        }

        /// The block's kind without what may change as it grows (a list's start, a
        /// code block's language), compared to tell whether a block stayed the same.
        enum Tag: Equatable {
            case document, quote, list(ordered: Bool, mark: UInt8), item(task: UInt8?), rule, heading(Int)
            case code, fence, html, paragraph, table, tableHead, tableBody, row, cell(header: Bool, align: Int)

            var isList: Bool {
                if case .list = self { return true }
                return false
            }
        }

        var tag: Tag {
            switch kind {
            case .document: return .document
            case .quote: return .quote
            case .list(let ordered, let mark, _): return .list(ordered: ordered, mark: mark)
            case .item(let task): return .item(task: task)
            case .rule: return .rule
            case .heading(let level): return .heading(level)
            case .code(let fenced): return fenced ? .fence : .code
            case .html: return .html
            case .paragraph: return .paragraph
            case .table: return .table
            case .tableHead: return .tableHead
            case .tableBody: return .tableBody
            case .row: return .row
            case .cell(let header, let align): return .cell(header: header, align: align)
            }
        }

        var isLeaf: Bool { kind.isLeaf }
        var isRaw: Bool { kind.isRaw }
    }

    /// A parse: its blocks in document order (the document first), and the leaves'
    /// text, style runs and line breaks, each in one array for the whole parse. A
    /// leaf's text is appended while it is the last block open, so a leaf's bytes,
    /// runs and breaks are each one range. Run ends and breaks are offsets in `bytes`.
    struct ParseTree {
        typealias Run = StyledLine.Run
        var nodes: [Node] = []
        var bytes: [UInt8] = []
        var runs: [Run] = []
        /// The targets of the runs' links (``StyledLine/Run/link``).
        var linkTargets: [String] = []
        var breaks: [Int] = []
        /// Display math shown centred (rare: an array of its own).
        var strings: [String] = []

        /// The children of `node`, in order.
        func children(of node: Node) -> Children { Children(nodes: nodes, node: node) }

        /// The children of a node, read from the tree's nodes.
        struct Children: Sequence {
            let nodes: [Node]
            let node: Node

            struct Iterator: IteratorProtocol {
                let nodes: [Node]
                var place: Int
                var left: Int
                mutating func next() -> Node? {
                    guard left > 0 else { return nil }
                    left -= 1
                    let node = nodes[place]
                    place = node.end
                    return node
                }
            }

            func makeIterator() -> Iterator { Iterator(nodes: nodes, place: node.first, left: node.childCount) }

            /// Exact: an array made of the children is allocated once, at its size.
            var underestimatedCount: Int { node.childCount }

            var first: Node? { node.childCount > 0 ? nodes[node.first] : nil }

            var last: Node? {
                var last: Node?
                for child in self { last = child }
                return last
            }
        }

        /// A leaf's text as a string (a code or HTML block's raw text).
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

        /// The number of lines of `leaf` (its hard breaks, plus one).
        func lineCount(_ leaf: Node) -> Int { leaf.breaks.count + 1 }

        /// The bytes of line `k` of `leaf`.
        func lineRange(_ leaf: Node, _ k: Int) -> Range<Int> {
            (k == 0 ? leaf.text.lowerBound : breaks[leaf.breaks.lowerBound + k - 1])
                ..< (k < leaf.breaks.count ? breaks[leaf.breaks.lowerBound + k] : leaf.text.upperBound)
        }

        /// Where run `k` of the tree starts (within `leaf`, whose run it is).
        func runStart(_ k: Int, in leaf: Node) -> Int { k == leaf.runs.lowerBound ? leaf.text.lowerBound : runs[k - 1].end }

        /// Calls `body` with each piece of line `k` of `leaf`: a run's bytes within the
        /// line, and its style. `run` is a run index at or before the line's first (lines
        /// visited in order pass it on); it is left at the line's last run.
        func forEachPiece(of leaf: Node, line k: Int, run: inout Int, _ body: (Range<Int>, Style) -> Void) {
            let line = lineRange(leaf, k)
            var start = line.lowerBound
            while start < line.upperBound {
                while runs[run].end <= start { run += 1 }
                let end = min(runs[run].end, line.upperBound)
                body(start..<end, runs[run].style(linkTargets))
                start = end
            }
        }

        /// Appends `leaf`'s text, its bytes and runs, to `line` (a spare line's arrays).
        func append(_ leaf: Node, to line: inout StyledLine) {
            line.append(bytes[leaf.text], runs: runs[leaf.runs], from: leaf.text.lowerBound, targets: linkTargets)
        }

        /// Takes back the text of `leaf` (the last leaf, open) from byte `count` on, and
        /// its runs and breaks there; never inside a character.
        mutating func truncate(_ leaf: Node, to count: Int) {
            guard count < bytes.count else { return }
            var count = count
            while count > leaf.text.lowerBound && bytes[count] & 0xC0 == 0x80 { count -= 1 }
            bytes.removeSubrange(count...)
            while runs.count > leaf.runs.lowerBound && runStart(runs.count - 1, in: leaf) >= count { runs.removeLast() }
            if runs.count > leaf.runs.lowerBound { runs[runs.count - 1].end = count }
            while breaks.count > leaf.breaks.lowerBound, let last = breaks.last, last > count { breaks.removeLast() }
        }

        /// `leaf` without its first bytes up to `start` (and the runs and breaks they end).
        func dropping(_ leaf: Node, before start: Int) -> Node {
            var rest = Node(.paragraph)
            rest.text = start..<max(start, leaf.text.upperBound)
            var r = leaf.runs.lowerBound
            while r < leaf.runs.upperBound && runs[r].end <= start { r += 1 }
            rest.runs = r..<leaf.runs.upperBound
            var b = leaf.breaks.lowerBound
            while b < leaf.breaks.upperBound && breaks[b] < start { b += 1 }
            rest.breaks = b..<leaf.breaks.upperBound
            return rest
        }

        /// Appends `other`'s nodes from `from` on (and all its text) in place of this
        /// tree's nodes from `at` on: indices and offsets move with them.
        mutating func graft(_ other: ParseTree, from: Int, at: Int) {
            nodes.removeSubrange(at...)
            let shift = at - from, byteShift = bytes.count, runShift = runs.count, breakShift = breaks.count
            let stringShift = strings.count
            for var node in other.nodes[from...] {
                node.first += shift
                node.end += shift
                node.text = (node.text.lowerBound + byteShift)..<(node.text.upperBound + byteShift)
                node.info = (node.info.lowerBound + byteShift)..<(node.info.upperBound + byteShift)
                node.runs = (node.runs.lowerBound + runShift)..<(node.runs.upperBound + runShift)
                node.breaks = (node.breaks.lowerBound + breakShift)..<(node.breaks.upperBound + breakShift)
                node.firstSoftBreak = node.firstSoftBreak.map { $0 + byteShift }
                node.displayMath = node.displayMath.map { $0 + stringShift }
                nodes.append(node)
            }
            bytes += other.bytes
            let linkShift = linkTargets.count
            for run in other.runs {
                runs.append(Run(end: run.end + byteShift, look: run.look, link: run.link == 0 ? 0 : run.link + linkShift))
            }
            linkTargets += other.linkTargets
            for b in other.breaks { breaks.append(b + byteShift) }
            strings += other.strings
        }
    }

    /// A parse's top-level blocks (the stream compares, trims and renders them): a
    /// class, so that the stream keeps and passes one with a single reference count
    /// (the tree's arrays counted each).
    final class Blocks {
        let tree: ParseTree
        let nodes: [Node]

        init(tree: ParseTree = ParseTree(), nodes: [Node] = []) {
            self.tree = tree
            self.nodes = nodes
        }

        /// The top-level blocks of `tree`.
        convenience init(_ tree: ParseTree) {
            self.init(tree: tree, nodes: Array(tree.children(of: tree.nodes[0])))
        }

        var count: Int { nodes.count }
        var last: Node? { nodes.last }
        var tags: [Node.Tag] { nodes.map(\.tag) }

        /// The blocks but the last.
        func droppingLast() -> Blocks { Blocks(tree: tree, nodes: Array(nodes.dropLast())) }

        /// The blocks with the last one's last child left out (a list's last item).
        func droppingLastChild() -> Blocks {
            var nodes = nodes
            nodes[nodes.count - 1].childCount -= 1
            return Blocks(tree: tree, nodes: nodes)
        }
    }

    /// A struct the md4c callbacks reach through a pointer: no reference counting of
    /// the builder and no run-time exclusivity checks per callback (issue 24).
    private struct Builder {
        /// The renderer's inline options, read in place (a copy in each parse's builder
        /// cost a thousand instructions a parse).
        var options: InlineOptions {
            _read { yield renderer.inlineOptions }
        }
        /// The parse so far.
        var tree = ParseTree()
        /// Whether the document has been left (the tree is whole).
        var done = false
        /// The blocks entered and not yet left that are in the tree: their places in
        /// its nodes, innermost last.
        var stack: [Int] = []
        /// The open spans' styles, innermost last, as runs (their ends unused; their links
        /// numbered in the tree's link targets): text goes in without a copy of a style, a
        /// retain and release of its link even without one.
        var spanRuns: [StyledLine.Run] = []
        /// The spans entered and not yet left, innermost last (their styles are
        /// `spanRuns` after its first). md4c 0.4.8 can leave a span it never entered
        /// (`[i](~) [n]()~)` leaves a strikethrough) and enter one it never leaves
        /// (`~300 ms, see [docs](http://h.org/~u/)`): see ``leaveSpan(_:)``; a block's
        /// end ends the spans still open in it.
        var spanTypes: [MD_SPANTYPE] = []
        /// Open links: the target, and where the link's text starts in the tree's bytes.
        var links: [(href: String, start: Int, isImage: Bool)] = []
        var lastLeafIsRaw = false
        var structureOnly = false
        /// Quotes and lists on the stack.
        var nesting = 0
        /// Per block entered and not yet left: whether it is a node on the stack (see
        /// `MarkdownRenderer.maximumNesting`).
        var kept: [Bool] = []

        /// The renderer building the tree: it numbers footnote references.
        unowned let renderer: MarkdownRenderer

        /// The growable buffers of a builder, to reuse between parses.
        struct Buffers {
            var stack: [Int] = []
            var spanRuns: [StyledLine.Run] = []
            var spanTypes: [MD_SPANTYPE] = []
            var kept: [Bool] = []
        }

        init(renderer: MarkdownRenderer, buffers: consuming Buffers) {
            self.renderer = renderer
            swap(&stack, &buffers.stack)
            swap(&spanRuns, &buffers.spanRuns)
            swap(&spanTypes, &buffers.spanTypes)
            swap(&kept, &buffers.kept)
            spanRuns.append(StyledLine.Run(end: 0, look: Style.plain.look))
        }

        /// The buffers, emptied (capacity kept), leaving this builder without them.
        mutating func takeBuffers() -> Buffers {
            var buffers = Buffers()
            swap(&buffers.stack, &stack)
            swap(&buffers.spanRuns, &spanRuns)
            swap(&buffers.spanTypes, &spanTypes)
            swap(&buffers.kept, &kept)
            buffers.stack.removeAll(keepingCapacity: true)
            buffers.spanRuns.removeAll(keepingCapacity: true)
            buffers.spanTypes.removeAll(keepingCapacity: true)
            buffers.kept.removeAll(keepingCapacity: true)
            return buffers
        }

        /// The input being parsed (text callbacks point into it) and its length.
        var input: UnsafeRawPointer?
        var inputCount = 0
        /// The open table (its place on the stack) and the input offsets its text spans.
        var table: (depth: Int, first: Int, last: Int)?

        /// The open `$…$` or `$$…$$` span: its source so far, and the input offset after
        /// its last text (where the closing `$` is).
        var mathSpan: (source: String, display: Bool, end: Int?)?
        /// An open `\(` or `\[`: where its source starts in the input, its leaf (place on
        /// the stack), the tree's line breaks and bytes before it (to take back what md4c
        /// made of the math), and the spans and links open.
        var bracketMath: (start: Int, display: Bool, node: Int, line: Int, bytes: Int, depth: Int, links: Int)?

        /// The offset of `pointer` in the input, if it points into it (md4c hands some
        /// texts from its own constants: a soft break's "\n", the NUL replacement).
        func offset(of pointer: UnsafePointer<CChar>?, _ size: Int) -> Int? {
            guard let pointer, let input else { return nil }
            let offset = input.distance(to: UnsafeRawPointer(pointer))
            return offset >= 0 && offset + size <= inputCount ? offset : nil
        }

        func inputByte(_ k: Int) -> UInt8? {
            guard let input, k >= 0, k < inputCount else { return nil }
            return input.load(fromByteOffset: k, as: UInt8.self)
        }

        /// Whether the byte at `k` follows an odd run of backslashes (md4c read it as
        /// an escaped character). (Inlined: called, it had `text` copy 256 bytes of the
        /// builder per text callback.)
        @inline(__always)
        func isEscaped(_ k: Int) -> Bool {
            var n = 0
            while inputByte(k - 1 - n) == UInt8(ascii: "\\") { n += 1 }
            return n % 2 == 1
        }

        /// Text at input `offset` (`size` bytes) arrived: inside a table, its extent grows.
        mutating func saw(at offset: Int?, _ size: Int) {
            guard table != nil, let offset else { return }
            table!.first = min(table!.first, offset)
            table!.last = max(table!.last, offset + size)
        }

        /// Puts a node of `kind` in the tree as the last child of the innermost open
        /// node, open.
        private mutating func push(_ kind: Node.Kind, info: Range<Int> = 0..<0, implicit: Bool = false) {
            let index = tree.nodes.count
            if let parent = stack.last { tree.nodes[parent].childCount += 1 }
            tree.nodes.append(Node(kind, at: index, text: tree.bytes.count, runs: tree.runs.count, breaks: tree.breaks.count,
                                   info: info, implicit: implicit))
            stack.append(index)
        }

        /// Closes the innermost open node: its subtree (and a leaf's text) ends here.
        mutating func pop() {
            let index = stack.removeLast()
            if bracketMath?.node == stack.count { bracketMath = nil }
            tree.nodes[index].end = tree.nodes.count
            if tree.nodes[index].isLeaf {
                tree.nodes[index].text = tree.nodes[index].text.lowerBound..<tree.bytes.count
                tree.nodes[index].runs = tree.nodes[index].runs.lowerBound..<tree.runs.count
                tree.nodes[index].breaks = tree.nodes[index].breaks.lowerBound..<tree.breaks.count
            }
            if stack.isEmpty { done = true }
        }

        mutating func popImplicit() {
            if let top = stack.last, tree.nodes[top].implicit { pop() }
        }

        /// Enters a block; `info`: a code block's info string (its language).
        mutating func enter(_ kind: Node.Kind, info: String? = nil) {
            popImplicit()
            if case .table = kind { table = (stack.count, .max, 0) }
            guard keeps(kind) else {
                kept.append(false)
                return
            }
            kept.append(true)
            if kind.isLeaf { lastLeafIsRaw = kind.isRaw }
            var range = 0..<0
            if let info, !info.isEmpty {
                let start = tree.bytes.count
                tree.bytes += info.utf8
                range = start..<tree.bytes.count
            }
            push(kind, info: range)
        }

        mutating func leave() {
            while !spanTypes.isEmpty { popSpan() }  // (spans never cross blocks)
            popImplicit()
            guard kept.popLast() ?? true else { return }
            let top = stack[stack.count - 1]
            switch tree.nodes[top].kind {
            case .quote, .list:
                nesting -= 1
                pop()
            case .table:
                var source: Range<Int>?
                if let t = table, t.depth == stack.count - 1, t.first < t.last, let input {
                    let bytes = UnsafeBufferPointer(start: input.assumingMemoryBound(to: UInt8.self), count: inputCount)
                    source = MarkdownRenderer.notATable(bytes, from: t.first, to: t.last)
                }
                table = nil
                guard let source, let input else { return pop() }
                // md4c took lines for a table that GFM does not (a header row with a cell
                // count other than the delimiter row's, spec example 203): parsed again
                // without tables, they are a paragraph (and whatever follows it), in the
                // table's place.
                var bytes = Array(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(start: input, count: inputCount)[source]))
                guard let again = renderer.parseTree(&bytes, count: bytes.count, structureOnly: structureOnly, tables: false)?.tree else {
                    return pop()
                }
                let tableNode = tree.nodes[top]
                tree.bytes.removeSubrange(tableNode.text.lowerBound...)
                tree.runs.removeSubrange(tableNode.runs.lowerBound...)
                tree.breaks.removeSubrange(tableNode.breaks.lowerBound...)
                if again.nodes[0].childCount == 1 {
                    // The one block, in the table's place (as the table was: not implicit,
                    // no alert marker, no display math).
                    tree.graft(again, from: 1, at: top)
                    tree.nodes[top].implicit = false
                    tree.nodes[top].firstSoftBreak = nil
                    tree.nodes[top].displayMath = nil
                } else {
                    tree.graft(again, from: 0, at: top)
                }
                stack.removeLast()
                if bracketMath?.node == stack.count { bracketMath = nil }
            default:
                pop()
            }
        }

        /// Whether `node` becomes part of the tree: not a quote or list past the
        /// nesting limit, nor an item of a list left out.
        private mutating func keeps(_ kind: Node.Kind) -> Bool {
            switch kind {
            case .quote, .list:
                if nesting >= MarkdownRenderer.maximumNesting { return false }
                nesting += 1
                return true
            case .item:
                guard let parent = stack.last, case .list = tree.nodes[parent].kind else { return false }
                return true
            default:
                return true
            }
        }

        /// The leaf that takes inline text (its place on the stack): an implicit
        /// paragraph in a tight list item.
        mutating func leaf() -> Int {
            if tree.nodes[stack[stack.count - 1]].isLeaf { return stack.count - 1 }
            lastLeafIsRaw = false
            push(.paragraph, implicit: true)
            return stack.count - 1
        }

        mutating func text(_ type: MD_TEXTTYPE, _ buffer: UnsafeBufferPointer<UInt8>, at offset: Int?) {
            if mathSpan != nil {
                mathSpan!.source += type == MD_TEXT_SOFTBR || type == MD_TEXT_BR ? " " : String(decoding: buffer, as: UTF8.self)
                if let offset { mathSpan!.end = offset + buffer.count }
                return
            }
            let node = leaf()
            let index = stack[node]
            if tree.nodes[index].isRaw {
                tree.bytes.append(contentsOf: buffer)
                return
            }
            if type == MD_TEXT_NORMAL, let offset, let first = buffer.first, isEscaped(offset) {
                if let open = bracketMath, first == UInt8(ascii: open.display ? "]" : ")") {
                    bracketMath = nil
                    if closeBracketMath(open, at: offset, in: node) {
                        add(UnsafeBufferPointer(rebasing: buffer.dropFirst()), to: node)
                        return
                    }
                } else if bracketMath == nil, first == UInt8(ascii: "(") || first == UInt8(ascii: "[") {
                    bracketMath = (offset + 1, first == UInt8(ascii: "["), node, tree.breaks.count,
                                   tree.bytes.count, spanRuns.count, links.count)
                }
            }
            switch type {
            case MD_TEXT_BR:
                tree.breaks.append(tree.bytes.count)
            case MD_TEXT_SOFTBR:
                if tree.breaks.count == tree.nodes[index].breaks.lowerBound && tree.nodes[index].firstSoftBreak == nil {
                    tree.nodes[index].firstSoftBreak = tree.bytes.count
                }
                add(" ".utf8, to: node)  // paragraphs reflow: a soft break is a space
            case MD_TEXT_NULLCHAR:
                add("\u{FFFD}".utf8, to: node)
            case MD_TEXT_ENTITY:
                if let text = Entities.decode(utf8: buffer) { add(text.utf8, to: node) } else { add(buffer, to: node) }
            case MD_TEXT_HTML:
                add(buffer, to: node, style: options.html)
            case MD_TEXT_NORMAL:
                add(buffer, to: node)
                if ByteSearch.contains(UInt8(ascii: "]"), in: buffer) {
                    markFootnoteReferences(in: node, added: buffer.count)
                }
            default:
                add(buffer, to: node)
            }
        }

        /// `[^label]` completed by the text just added to the last span (a reference
        /// whose definition may come later): shown as the footnote's number, raised.
        mutating func markFootnoteReferences(in node: Int, added: Int) {
            let leaf = tree.nodes[stack[node]]
            // The span the text went into: the last run, within the last line.
            let last = tree.runs.count - 1
            guard last >= leaf.runs.lowerBound else { return }
            let lastBreak = tree.breaks.count > leaf.breaks.lowerBound ? tree.breaks[tree.breaks.count - 1] : leaf.text.lowerBound
            let start = max(tree.runStart(last, in: leaf), lastBreak)
            let end = tree.bytes.count
            // A reference closed by the text added starts in the last bytes (a label is
            // at most 999 bytes): only they are read and replaced (the whole run, a
            // paragraph's worth, was copied per reference).
            let lo = max(start, end - added - 1002)
            // Most `]` close links: look for a `[^` before copying anything.
            let opens = tree.bytes.withUnsafeBufferPointer { bytes in
                var k = ByteSearch.find(UInt8(ascii: "^"), bytes.baseAddress!, from: lo + 1, to: end)
                while k < end {
                    if bytes[k - 1] == UInt8(ascii: "[") { return true }
                    k = ByteSearch.find(UInt8(ascii: "^"), bytes.baseAddress!, from: k + 1, to: end)
                }
                return false
            }
            guard opens else { return }
            var text = Array(tree.bytes[lo..<end])
            var found: [(open: Int, close: Int)] = []
            var close = text.count - 1
            let first = max(0, text.count - added)
            while close >= first {
                defer { close -= 1 }
                guard text[close] == UInt8(ascii: "]") else { continue }
                var open = close - 1
                while open > 0 && close - open <= 1000, text[open] != UInt8(ascii: "["), text[open] != UInt8(ascii: "]"),
                      text[open] != 0x20, text[open] != 0x09 { open -= 1 }
                guard open >= 0, open + 2 < close, text[open] == UInt8(ascii: "["), text[open + 1] == UInt8(ascii: "^") else { continue }
                found.append((open, close))
                close = open
            }
            // Numbered left to right (the order of first reference), replaced right to left.
            let numbers = found.reversed().map { renderer.footnoteNumber(String(decoding: text[($0.open + 2)..<$0.close], as: UTF8.self)) }
            for (match, number) in zip(found, numbers.reversed()) {
                let digits = MathText.raisedDigits(number)
                text.replaceSubrange(match.open...match.close, with: digits)
                movePlaces(replaced: (lo + match.open)...(lo + match.close), by: digits.count)
            }
            if !found.isEmpty {
                // All in the last run: it ends where the bytes now end.
                tree.bytes.replaceSubrange(lo..., with: text)
                tree.runs[tree.runs.count - 1].end = tree.bytes.count
            }
        }

        /// The places kept in the open leaf's bytes after bytes `replaced` (now `count`
        /// bytes) move with the text; an open `\(` inside them was taken by the
        /// replacement (a footnote label) and is no longer open, a link that starts
        /// inside them starts at the replacement.
        private mutating func movePlaces(replaced: ClosedRange<Int>, by count: Int) {
            let delta = count - replaced.count
            if let open = bracketMath, open.node == stack.count - 1, open.bytes > replaced.lowerBound {
                if open.bytes <= replaced.upperBound { bracketMath = nil } else { bracketMath!.bytes += delta }
            }
            for k in links.indices where links[k].start > replaced.lowerBound {
                links[k].start = links[k].start <= replaced.upperBound ? replaced.lowerBound : links[k].start + delta
            }
        }

        /// `\)` or `\]` at `offset` closes `open`: what md4c made of the source in
        /// between (escapes taken, emphasis found) is replaced by the math. False when
        /// the two are not in the same line and spans (then it stays as rendered).
        mutating func closeBracketMath(_ open: (start: Int, display: Bool, node: Int, line: Int, bytes: Int, depth: Int, links: Int),
                              at offset: Int, in node: Int) -> Bool {
            guard open.node == node, tree.breaks.count == open.line, spanRuns.count == open.depth,
                  links.count == open.links, let input, offset - 1 >= open.start else { return false }
            let source = String(decoding: UnsafeRawBufferPointer(start: input + open.start, count: offset - 1 - open.start), as: UTF8.self)
            // `\(\)` and `\[\\\]` (escaped punctuation, GFM example 308) are no math.
            guard !MathText.unicode(source).isEmpty else { return false }
            // What came after the `\(` (its `(` included) is taken back.
            tree.truncate(tree.nodes[stack[node]], to: open.bytes)
            addMath(source, display: open.display, delimiters: open.display ? ("\\[", "\\]") : ("\\(", "\\)"), to: node)
            return true
        }

        /// Math as Unicode (or as written, delimiters included, with math off).
        mutating func addMath(_ source: String, display: Bool, delimiters: (String, String), to node: Int) {
            guard options.math else {
                add((delimiters.0 + source + delimiters.1).utf8, to: node)
                return
            }
            let text = MathText.unicode(source)
            add(text.utf8, to: node, style: options.mathStyle)
            if display {
                let index = stack[node]
                if let k = tree.nodes[index].displayMath {
                    tree.strings[k] = ""
                } else {
                    tree.strings.append(text)
                    tree.nodes[index].displayMath = tree.strings.count - 1
                }
            }
        }

        /// Appends `text` to the open leaf at stack place `node` (nothing if it is
        /// empty), in the open spans' style with `extra` over it: the leaf's last run
        /// grows if it has the style.
        mutating func add(_ text: some Collection<UInt8>, to node: Int, style extra: Style? = nil) {
            if text.isEmpty { return }
            tree.bytes.append(contentsOf: text)
            // (`Run.extend`, but never into the leaf before: the leaves share the runs.)
            let last = tree.runs.count - 1
            let inLeaf = last >= tree.nodes[stack[node]].runs.lowerBound
            guard let extra else {
                // The open spans' style, as a run (its link numbered in the tree already).
                let span = spanRuns[spanRuns.count - 1]
                if inLeaf && tree.runs[last].look == span.look && tree.runs[last].link == span.link {
                    tree.runs[last].end = tree.bytes.count
                } else {
                    tree.runs.append(ParseTree.Run(end: tree.bytes.count, look: span.look, link: span.link))
                }
                return
            }
            let style = style(extra)
            if inLeaf && tree.runs[last].isIn(style, tree.linkTargets) {
                tree.runs[last].end = tree.bytes.count
            } else {
                tree.runs.append(ParseTree.Run(end: tree.bytes.count, style: style, targets: &tree.linkTargets))
            }
        }

        /// The style of text added now: the open spans', with `extra` over it.
        private func style(_ extra: Style?) -> Style {
            let style = spanRuns[spanRuns.count - 1].style(tree.linkTargets)
            return extra.map { style.merged(with: $0) } ?? style
        }

        mutating func enterSpan(_ type: MD_SPANTYPE, _ detail: UnsafeMutableRawPointer?) {
            if structureOnly { return }
            var style = spanRuns[spanRuns.count - 1].style(tree.linkTargets)
            switch type {
            case MD_SPAN_EM: style = style.merged(with: options.emphasis)
            case MD_SPAN_STRONG: style = style.merged(with: options.strong)
            case MD_SPAN_DEL: style = style.merged(with: options.strikethrough)
            case MD_SPAN_CODE: style = style.merged(with: options.inlineCode)
            case MD_SPAN_LATEXMATH, MD_SPAN_LATEXMATH_DISPLAY:
                mathSpan = ("", type == MD_SPAN_LATEXMATH_DISPLAY, nil)
            case MD_SPAN_A, MD_SPAN_IMG:
                let isImage = type == MD_SPAN_IMG
                let attribute = isImage ? detail!.assumingMemoryBound(to: MD_SPAN_IMG_DETAIL.self).pointee.src
                    : detail!.assumingMemoryBound(to: MD_SPAN_A_DETAIL.self).pointee.href
                let href = MarkdownRenderer.string(attribute)
                _ = leaf()
                links.append((href, tree.bytes.count, isImage))
                if !isImage {
                    var link = options.link
                    if options.hyperlinks, !href.isEmpty { link.hyperlink = href }
                    style = style.merged(with: link)
                }
            default: break
            }
            spanRuns.append(StyledLine.Run(end: 0, style: style, targets: &tree.linkTargets))
            spanTypes.append(type)
        }

        mutating func leaveSpan(_ type: MD_SPANTYPE) {
            if structureOnly { return }
            // md4c 0.4.8 pairs spans badly around a link destination that holds a
            // delimiter: a leave without its enter is ignored; spans entered inside the
            // one left and never left themselves end with it (as HTML's would).
            guard let k = spanTypes.lastIndex(of: type) else { return }
            while spanTypes.count > k { popSpan() }
        }

        /// Ends the innermost open span.
        private mutating func popSpan() {
            let type = spanTypes.removeLast()
            spanRuns.removeLast()
            if type == MD_SPAN_LATEXMATH || type == MD_SPAN_LATEXMATH_DISPLAY, let span = mathSpan {
                mathSpan = nil
                let delimiter = span.display ? "$$" : "$"
                // A closing `$` followed by a digit is money, not math (pandoc's rule: `$5-$10`).
                let money = !span.display && span.end.flatMap { inputByte($0 + 1) }.map { $0 >= 0x30 && $0 <= 0x39 } == true
                if money {
                    add((delimiter + span.source + delimiter).utf8, to: leaf())
                } else {
                    addMath(span.source, display: span.display, delimiters: (delimiter, delimiter), to: leaf())
                }
                return
            }
            guard type == MD_SPAN_A || type == MD_SPAN_IMG, let link = links.popLast() else { return }
            let node = leaf()
            let target = options.linkTarget
            if link.isImage {
                add((link.href.isEmpty ? " (image)" : " (image: \(link.href))").utf8, to: node, style: target)
                return
            }
            if options.hyperlinks || link.href.isEmpty { return }
            // The link's visible text: an autolink shows its target already.
            let shown = String(decoding: tree.bytes[min(link.start, tree.bytes.count)...], as: UTF8.self)
            if shown == link.href || "mailto:" + shown == link.href { return }
            add(" (\(link.href))".utf8, to: node, style: target)
        }
    }
    static func string(_ attribute: MD_ATTRIBUTE) -> String {
        guard let text = attribute.text, attribute.size > 0 else { return "" }
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(attribute.size)).assumingMemoryBound(to: UInt8.self)
        // Mostly nothing to remove: a scalar at a time cost a link's target 7,000 instructions.
        if ControlSanitizer.isClean(bytes, tabs: false, lineFeeds: false) { return String(decoding: bytes, as: UTF8.self) }
        var s = String(decoding: bytes, as: UTF8.self)
        s.unicodeScalars.removeAll { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
        return s
    }

    /// md4c parses made so far (tests count them: where a block ends is found with as
    /// few as possible).
    private(set) var parseCount = 0
    /// Bytes given to md4c so far (tests check that a block's bytes are not parsed again per line).
    private(set) var parsedBytes = 0

    /// `structureOnly`: blocks without their text (much cheaper).
    private func parseTree(_ text: inout [UInt8], count: Int, structureOnly: Bool = false,
                           tables: Bool = true) -> (tree: ParseTree, endsInRaw: Bool)? {
        let appended = text.count <= count
        if appended { text.append(0) } else { text[count] = 0 }
        defer { if appended { text.removeLast() } }
        parseCount += 1
        parsedBytes += count
        var builder = Builder(renderer: self, buffers: spareBuilderBuffers.take() ?? Builder.Buffers())
        builder.structureOnly = structureOnly
        // Room for most parses at once (a block a few dozen bytes, text about the input's size).
        builder.tree.nodes.reserveCapacity(8 + count / 32)
        if !structureOnly {
            builder.tree.bytes.reserveCapacity(16 + count)
            builder.tree.runs.reserveCapacity(4 + count / 16)
        }
        // Its buffers serve the next parse (a parse is a few lines: growing them anew
        // each time was most of a parse's allocations).
        defer { spareBuilderBuffers = builder.takeBuffers() }
        var parser = MD_PARSER()
        parser.abi_version = 0
        parser.flags = UInt32(MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | MD_FLAG_LATEXMATHSPANS
                              | MD_FLAG_PERMISSIVEURLAUTOLINKS | MD_FLAG_PERMISSIVEEMAILAUTOLINKS | MD_FLAG_PERMISSIVEWWWAUTOLINKS)
        parser.enter_block = { type, detail, user in
            let b = user!.assumingMemoryBound(to: Builder.self)
            let kind: Node.Kind
            switch type {
            case MD_BLOCK_DOC: kind = .document
            case MD_BLOCK_QUOTE: kind = .quote
            case MD_BLOCK_UL:
                kind = .list(ordered: false, mark: UInt8(bitPattern: detail!.assumingMemoryBound(to: MD_BLOCK_UL_DETAIL.self).pointee.mark), start: 1)
            case MD_BLOCK_OL:
                let d = detail!.assumingMemoryBound(to: MD_BLOCK_OL_DETAIL.self).pointee
                kind = .list(ordered: true, mark: UInt8(bitPattern: d.mark_delimiter), start: Int(d.start))
            case MD_BLOCK_LI:
                let d = detail!.assumingMemoryBound(to: MD_BLOCK_LI_DETAIL.self).pointee
                kind = .item(task: d.is_task != 0 ? UInt8(bitPattern: d.task_mark) : nil)
            case MD_BLOCK_HR: kind = .rule
            case MD_BLOCK_H: kind = .heading(Int(detail!.assumingMemoryBound(to: MD_BLOCK_H_DETAIL.self).pointee.level))
            case MD_BLOCK_CODE:
                let d = detail!.assumingMemoryBound(to: MD_BLOCK_CODE_DETAIL.self).pointee
                b.pointee.enter(.code(fenced: d.fence_char != 0), info: MarkdownRenderer.string(d.lang))
                return 0
            case MD_BLOCK_HTML: kind = .html
            case MD_BLOCK_P: kind = .paragraph
            case MD_BLOCK_TABLE: kind = .table
            case MD_BLOCK_THEAD: kind = .tableHead
            case MD_BLOCK_TBODY: kind = .tableBody
            case MD_BLOCK_TR: kind = .row
            case MD_BLOCK_TH, MD_BLOCK_TD:
                let align = Int(detail!.assumingMemoryBound(to: MD_BLOCK_TD_DETAIL.self).pointee.align.rawValue)
                kind = .cell(header: type == MD_BLOCK_TH, align: align)
            default: kind = .paragraph
            }
            b.pointee.enter(kind)
            return 0
        }
        parser.leave_block = { _, _, user in
            user!.assumingMemoryBound(to: Builder.self).pointee.leave()
            return 0
        }
        parser.enter_span = { type, detail, user in
            user!.assumingMemoryBound(to: Builder.self).pointee.enterSpan(type, detail)
            return 0
        }
        parser.leave_span = { type, _, user in
            user!.assumingMemoryBound(to: Builder.self).pointee.leaveSpan(type)
            return 0
        }
        parser.text = { type, text, size, user in
            let b = user!.assumingMemoryBound(to: Builder.self)
            let offset = b.pointee.offset(of: text, Int(size))
            b.pointee.saw(at: offset, Int(size))
            if b.pointee.structureOnly {
                _ = b.pointee.leaf()
                return 0
            }
            // md4c cuts text at ASCII syntax: the pieces of valid UTF-8 input are valid.
            let bytes = UnsafeRawPointer(text).map { $0.assumingMemoryBound(to: UInt8.self) }
            b.pointee.text(type, UnsafeBufferPointer(start: bytes, count: Int(size)), at: offset)
            return 0
        }
        if !tables { parser.flags &= ~UInt32(MD_FLAG_TABLES) }
        let status = text.withUnsafeBufferPointer { buf in
            builder.input = UnsafeRawPointer(buf.baseAddress)
            builder.inputCount = count
            defer { builder.input = nil }
            return buf.withMemoryRebound(to: CChar.self) { chars in
                withUnsafeMutablePointer(to: &builder) { pointer in
                    md_parse(chars.baseAddress, MD_SIZE(count), &parser, UnsafeMutableRawPointer(pointer))
                }
            }
        }
        guard status == 0, builder.done else { return nil }
        var tree = ParseTree()
        swap(&tree, &builder.tree)
        return (tree, builder.lastLeafIsRaw)
    }

    /// The source of a table md4c found whose header row (the line holding `first`)
    /// has another number of cells than the delimiter row after it: GFM says that is
    /// no table (spec example 203), so its lines (to the end of the line holding
    /// `last`) are a paragraph. Nil when the counts agree.
    ///
    /// - Complexity: O(n) in the table's bytes.
    static func notATable(_ text: UnsafeBufferPointer<UInt8>, from first: Int, to last: Int) -> Range<Int>? {
        var start = first
        while start > 0 && text[start - 1] != 0x0A && text[start - 1] != 0x0D { start -= 1 }
        func lineEnd(_ k: Int) -> Int {
            var k = k
            while k < text.count && text[k] != 0x0A && text[k] != 0x0D { k += 1 }
            return k
        }
        let headerEnd = lineEnd(start)
        var next = headerEnd
        if next < text.count && text[next] == 0x0D { next += 1 }
        if next < text.count && text[next] == 0x0A { next += 1 }
        guard next < text.count else { return nil }
        let delimiterEnd = lineEnd(next)
        guard cellCount(text[start..<headerEnd]) != cellCount(text[next..<delimiterEnd]) else { return nil }
        return start..<lineEnd(max(last, delimiterEnd))
    }

    /// The cells of a table row line: `|`s not escaped, less a leading and a trailing one.
    static func cellCount(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var bytes = line.drop { $0 == 0x20 || $0 == 0x09 }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        var pipes = 0, escaped = false, leading = false, trailing = false
        // (By index: a zip of the indices and the bytes made its generic type at run time.)
        for k in bytes.indices {
            let b = bytes[k]
            if b == UInt8(ascii: "|") && !escaped {
                pipes += 1
                if k == bytes.startIndex { leading = true }
                if k == bytes.index(before: bytes.endIndex) { trailing = true }
            }
            escaped = b == UInt8(ascii: "\\") && !escaped
        }
        if bytes.count == 1 && leading { return 1 }
        return pipes + 1 - (leading ? 1 : 0) - (trailing ? 1 : 0)
    }

    /// GitHub's alert kinds.
    enum AlertKind: String, CaseIterable {
        case note = "NOTE", tip = "TIP", important = "IMPORTANT", warning = "WARNING", caution = "CAUTION"

        /// The label shown in place of the marker.
        var label: String {
            // (Spelled out: lowercasing the raw value took thousands of instructions an alert.)
            switch self {
            case .note: "Note"
            case .tip: "Tip"
            case .important: "Important"
            case .warning: "Warning"
            case .caution: "Caution"
            }
        }

        func style(in alerts: MarkdownTheme.Alerts) -> Style {
            switch self {
            case .note: alerts.note
            case .tip: alerts.tip
            case .important: alerts.important
            case .warning: alerts.warning
            case .caution: alerts.caution
            }
        }
    }

    /// The alert a quote's first block makes, and that block without its marker (nil:
    /// nothing left): a paragraph whose first line is only `[!NOTE]`, `[!TIP]`,
    /// `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (any case, spaces around it allowed),
    /// as GitHub reads them.
    static func alert(of first: Node, in tree: ParseTree) -> (kind: AlertKind, rest: Node?)? {
        guard case .paragraph = first.kind else { return nil }
        let line = tree.lineRange(first, 0)
        let bytes = tree.bytes[line]
        // Most quotes are no alert: their first bytes after spaces are not `[!`.
        guard let start = bytes.firstIndex(where: { $0 != 0x20 }), start + 1 < line.upperBound,
              bytes[start] == UInt8(ascii: "["), bytes[start + 1] == UInt8(ascii: "!") else { return nil }
        let headBytes = first.firstSoftBreak.map { $0 - line.lowerBound } ?? line.count
        let head = String(decoding: bytes.prefix(headBytes), as: UTF8.self)
        let text = trimmingSpaces(head)
        guard text.starts(with: "[!"), text.last == "]",
              let kind = AlertKind(rawValue: String(text.dropFirst(2).dropLast()).uppercased()) else { return nil }
        if first.firstSoftBreak != nil {
            // The rest of the first line, after the soft break's space.
            return (kind, tree.dropping(first, before: line.lowerBound + min(headBytes + 1, line.count)))
        } else if !first.breaks.isEmpty {
            var rest = tree.dropping(first, before: line.upperBound)
            rest.breaks = rest.breaks.dropFirst()
            return (kind, rest)
        }
        return (kind, nil)
    }

    // MARK: - Rendering the tree

    /// Appends `node`'s lines to `lines`: a container's prefixes are put on its
    /// children's lines in place (each level made and copied its own array of lines).
    private func render(_ tree: ParseTree, _ node: Node, base: Style, depth: Int, width: Int, start: Int? = nil,
                        into lines: inout [StyledLine]) {
        // (`options.theme` read in place: a copy of the theme per block was most of this
        // function's own cost.)
        let first = lines.count
        switch node.kind {
        case .document:
            joinChildren(tree, tree.children(of: node), base: base, depth: depth, width: width, blankBeforeLists: true, into: &lines)
        case .paragraph, .cell:
            inlineLines(tree, node, base: base, into: &lines)
            // A paragraph of display math alone: on its own line, centred.
            if let k = node.displayMath, case let math = tree.strings[k], !math.isEmpty, lines.count == first + 1,
               Self.trimmingSpaces(lines[first].plainText) == math {
                let room = width - measure(math)
                if room >= 2 { lines[first].spans.insert(.init(String(repeating: " ", count: room / 2)), at: 0) }
            }
        case .heading(let level):
            inlineLines(tree, node, base: base.merged(with: options.theme.headings[max(0, min(5, level - 1))]), into: &lines)
        case .rule:
            lines.append(StyledLine(format: ParagraphFormat(fill: .init("─", style: options.theme.rule))))
        case .code(let fenced):
            let language = tree.string(node.info)
            let raw = tree.string(node.text)
            let number = fenced ? numberCodeBlock(info: language, code: raw) : nil
            if let label = codeLabel(language, number: number) { lines.append(label) }
            if !raw.isEmpty {
                var highlighter = HighlightLanguage.named(language).map(Highlighter.init)
                var raw = raw, tokens: [Token] = []
                // (By its bytes: splitting the string by characters cost a code block in a
                // list 26,000 instructions, a tenth of a list-heavy answer.)
                raw.withUTF8 { bytes in
                    Self.forEachLine(of: bytes) { line in
                        // (Without a highlighter the tokens stay empty.)
                        highlighter?.finishLine(utf8: line, into: &tokens)
                        lines.append(codeLine(utf8: line, tokens: tokens, base: base))
                    }
                }
            }
        case .html:
            var raw = tree.string(node.text)
            let style = base.merged(with: options.theme.html)
            raw.withUTF8 { bytes in
                Self.forEachLine(of: bytes) { line in
                    let text = clean(String(decoding: line, as: UTF8.self), tabs: true)
                    lines.append(StyledLine(spans: text.isEmpty ? [] : [.init(text, style: style)]))
                }
            }
        case .quote:
            // A GitHub alert: `[!NOTE]` alone on the quote's first line becomes its label.
            let children = tree.children(of: node)
            let found = children.first.flatMap { Self.alert(of: $0, in: tree) }
            let barStyle = found.map { $0.kind.style(in: options.theme.alerts) } ?? options.theme.quoteBar
            let quoteBase = base.merged(with: options.theme.quoteText)
            if let found {
                lines.append(StyledLine(spans: [.init(found.kind.label, style: barStyle.merged(with: Style(attributes: .bold)))]))
                var rest = Array(children.dropFirst())
                if let first = found.rest { rest.insert(first, at: 0) }
                joinChildren(tree, rest, base: quoteBase, depth: depth, width: width - 2, blankBeforeLists: true, into: &lines)
            } else {
                joinChildren(tree, children, base: quoteBase, depth: depth, width: width - 2, blankBeforeLists: true, into: &lines)
            }
            if lines.count == first { lines.append(.blank) }
            let bar = ParagraphFormat.Piece("│ ", style: barStyle)
            // Plain lines (most) share two formats, made once.
            if quoteFormats[barStyle] == nil {
                let emptyBar = [ParagraphFormat.Piece("│", style: barStyle)]
                quoteFormats[barStyle] = (ParagraphFormat(firstPrefix: [bar], continuationPrefix: [bar]),
                                          ParagraphFormat(firstPrefix: emptyBar, continuationPrefix: emptyBar))
            }
            let (barred, barredEmpty) = quoteFormats[barStyle]!
            for k in first..<lines.count {
                if lines[k].format.isPlain {
                    lines[k].format = lines[k].isEmpty ? barredEmpty : barred
                } else {
                    // (`│` is ambiguous-width: no wrap left to the terminal, see `codeLine`.)
                    lines[k].format = lines[k].format.nested(in: [bar], other: bar, wrapsLikeTerminal: false)
                }
            }
        case .list(let ordered, let mark, let firstNumber):
            let number0 = start ?? firstNumber
            if markWidths == nil { markWidths = (Self.bullets.map { measure($0) }, Self.taskMarks.map { measure($0) }) }
            let widths = markWidths!
            for (k, item) in tree.children(of: node).enumerated() {
                guard case .item(let task) = item.kind else { continue }
                let marked = itemMarker(ordered ? number0 + k : nil, mark: mark, task: task, depth: depth, widths)
                let indent = marked.indent
                let pad = indents[indent]
                let itemStart = lines.count
                joinChildren(tree, tree.children(of: item), base: base, depth: depth + 1, width: width - indent,
                             blankBeforeLists: false, into: &lines)
                if lines.count == itemStart { lines.append(StyledLine()) }
                // Plain lines after the first share one format, made once.
                while paddedFormats.count <= indent { paddedFormats.append(nil) }
                for j in itemStart..<lines.count {
                    if j == itemStart {
                        lines[j].format = lines[j].format.isPlain
                            ? marked.plain
                            : lines[j].format.nested(in: marked.marker, other: pad, wrapsLikeTerminal: marked.isASCII ? nil : false)
                    } else if lines[j].format.isPlain {
                        if lines[j].isEmpty { continue }
                        if paddedFormats[indent] == nil {
                            paddedFormats[indent] = ParagraphFormat(firstPrefix: [pad], continuationPrefix: [pad])
                        }
                        lines[j].format = paddedFormats[indent]!
                    } else {
                        lines[j].format = lines[j].format.nested(in: [pad], other: pad)
                    }
                }
            }
        case .table:
            table(tree, node, base: base, width: width, into: &lines)
        case .item, .tableHead, .tableBody, .row:
            joinChildren(tree, tree.children(of: node), base: base, depth: depth, width: width, blankBeforeLists: false, into: &lines)
        }
    }

    /// Appends children's lines separated by blank lines (inside list items, none before
    /// a nested list).
    private func joinChildren(_ tree: ParseTree, _ children: some Sequence<Node>, base: Style, depth: Int, width: Int,
                              blankBeforeLists: Bool, into lines: inout [StyledLine]) {
        var first = true
        for child in children {
            if !first {
                var isList = false
                if case .list = child.kind { isList = true }
                if blankBeforeLists || !isList { lines.append(.blank) }
            }
            first = false
            render(tree, child, base: base, depth: depth, width: width, into: &lines)
        }
    }

    private func inlineLines(_ tree: ParseTree, _ node: Node, base: Style, into lines: inout [StyledLine]) {
        var count = tree.lineCount(node)
        while count > 1, tree.lineRange(node, count - 1).isEmpty { count -= 1 }
        let isPlain = base == .plain  // (plain merged with a style is that style)
        let isClean = tree.bytes.withUnsafeBufferPointer { ControlSanitizer.isClean(UnsafeBufferPointer(rebasing: $0[node.text]), tabs: true) }
        // Mostly (a line of clean text at the top level) the text is taken as it is.
        if count == 1 && isPlain && isClean {
            var line = freshLine()
            tree.append(node, to: &line)
            lines.append(consume line)
            return
        }
        var run = node.runs.lowerBound
        tree.bytes.withUnsafeBufferPointer { bytes in
            for k in 0..<count {
                var line = freshLine()
                tree.forEachPiece(of: node, line: k, run: &run) { range, style in
                    let piece = UnsafeBufferPointer(rebasing: bytes[range])
                    if isClean || ControlSanitizer.isClean(piece, tabs: true) {
                        line.appendRun(piece, style: isPlain ? style : base.merged(with: style))
                        return
                    }
                    let text = clean(String(decoding: piece, as: UTF8.self), tabs: true)
                    if !text.isEmpty { line.appendRun(text.utf8, style: base.merged(with: style)) }
                }
                lines.append(consume line)
            }
        }
    }

    // MARK: - Tables

    /// Body rows that set a table's column widths: a table with at most this many
    /// is fitted to all its cells; a taller one to its header and this many first rows,
    /// each column with room to grow (``tableHeadroom(_:)``), and a later cell wider
    /// than its column wraps inside it. So a row of a tall table is laid out once, when
    /// it arrives (`MarkdownStream` makes its rows final one by one from the next
    /// one on), and the one-shot rendering follows the same rule.
    public static let measuredTableRows = 8

    /// Columns added to a measured column of a tall table: room for what rows to come
    /// hold a little more of (`9` then `10`, a longer name), before a cell wraps.
    static func tableHeadroom(_ width: Int) -> Int { max(2, width / 4) }

    /// A table's rows and cells, flat: every cell's text (styled, cleaned, one line) is
    /// runs of one buffer, and a row is a range of cells (a line per cell and three
    /// arrays per row were most of a table's rendering: issue 24).
    struct TableRows {
        /// The cells' text, one after another: run ends are offsets in `bytes`, and a
        /// cell's runs are never joined to its neighbour's.
        var bytes: [UInt8] = []
        var runs: [StyledLine.Run] = []
        /// The targets of the runs' links (``StyledLine/Run/link``).
        var linkTargets: [String] = []
        var cells: [Cell] = []
        var rows: [Row] = []

        struct Cell {
            /// Its runs, in `runs`.
            var runs: Range<Int>
            /// Its width in columns (measured once: the grid and the wrap both need it).
            var width: Int
            var align: Int
        }

        struct Row {
            /// Its cells, in `cells`.
            var cells: Range<Int>
            var header: Bool
        }

        /// Where run `k` starts in `bytes`.
        func runStart(_ k: Int) -> Int { k == 0 ? 0 : runs[k - 1].end }

        /// Appends cell `c`'s text to `line` as `StyledLine.append(_:)` appends a line
        /// (neighbours of one style joined, empty runs left out).
        func append(cell c: Int, to line: inout StyledLine) {
            bytes.withUnsafeBufferPointer { text in
                for k in cells[c].runs {
                    let start = runStart(k), end = runs[k].end
                    guard end > start else { continue }
                    line.append(UnsafeBufferPointer(rebasing: text[start..<end]), style: runs[k].style(linkTargets))
                }
            }
        }

        /// Cell `c` as a line of its own (its runs as they are).
        func line(ofCell c: Int) -> StyledLine {
            let range = cells[c].runs
            var line = StyledLine()
            guard !range.isEmpty else { return line }
            // (As `ParseTree.append(_:to:)` takes a leaf's.)
            let base = runStart(range.lowerBound)
            line.append(bytes[base..<runs[range.upperBound - 1].end], runs: runs[range], from: base, targets: linkTargets)
            return line
        }

        /// The cells of `row`, each as a line of its own.
        func lines(of row: Row) -> [StyledLine] { row.cells.map { line(ofCell: $0) } }
    }

    /// A table's layout, fixed by its header and first rows (``measuredTableRows``).
    struct TableGrid: Equatable {
        var columns: Int
        /// Column widths inside the box; empty when rows are drawn as records.
        var widths: [Int]
        var isRecords: Bool { widths.isEmpty }
    }

    /// The grid of the last table rendered (the stream keeps it for the rows to come).
    var lastTableGrid: TableGrid?

    /// The rows of table `node`; `headers` false: the header rows without their cells
    /// (a streamed row's parse, whose header is drawn already).
    private func tableRows(_ tree: ParseTree, _ node: Node, base: Style, headers: Bool = true) -> TableRows {
        var table = TableRows()
        table.bytes.reserveCapacity(tree.bytes.count - node.text.lowerBound)
        // (Its subtree's nodes bound its rows and cells; its runs are mostly one a cell.)
        let nodes = node.end - node.first
        table.rows.reserveCapacity(nodes / 2)
        table.cells.reserveCapacity(nodes)
        table.runs.reserveCapacity(nodes + nodes / 2)
        // (The table passed in, not captured by nested functions: a captured variable was
        // boxed, each access to it checked for exclusivity at run time.)
        collectRows(tree, node, header: false, headers: headers, base: base, into: &table)
        return table
    }

    /// The rows under `n` (a table, its head or its body) into `table`.
    private func collectRows(_ tree: ParseTree, _ n: Node, header: Bool, headers: Bool, base: Style, into table: inout TableRows) {
        for child in tree.children(of: n) {
            switch child.kind {
            case .tableHead: collectRows(tree, child, header: true, headers: headers, base: base, into: &table)
            case .tableBody: collectRows(tree, child, header: false, headers: headers, base: base, into: &table)
            case .row:
                let first = table.cells.count
                if !header || headers {
                    for cell in tree.children(of: child) { addCell(tree, cell, header: header, base: base, to: &table) }
                }
                table.rows.append(TableRows.Row(cells: first..<table.cells.count, header: header))
            default: break
            }
        }
    }

    /// Cell `cell`'s text, cleaned, into `table`: a span a run (a cell's width is the sum
    /// of its spans' widths).
    private func addCell(_ tree: ParseTree, _ cell: Node, header: Bool, base: Style, to table: inout TableRows) {
        guard case .cell(_, let align) = cell.kind else { return }
        let headerStyle = options.theme.tableHeader
        let firstRun = table.runs.count
        var width = 0
        tree.bytes.withUnsafeBufferPointer { bytes in
            for k in cell.runs {
                let run = tree.runs[k]
                let piece = UnsafeBufferPointer(rebasing: bytes[tree.runStart(k, in: cell)..<run.end])
                let runStyle = run.style(tree.linkTargets)
                let style = base.merged(with: header ? headerStyle.merged(with: runStyle) : runStyle)
                if ControlSanitizer.isClean(piece, tabs: false) {
                    table.bytes.append(contentsOf: piece)
                    width += measure(piece)
                } else {
                    let text = clean(String(decoding: piece, as: UTF8.self), tabs: false)
                    table.bytes.append(contentsOf: text.utf8)
                    width += measure(text)
                }
                table.runs.append(StyledLine.Run(end: table.bytes.count, style: style, targets: &table.linkTargets))
            }
        }
        table.cells.append(TableRows.Cell(runs: firstRun..<table.runs.count, width: width, align: align))
    }

    /// Widths from the header rows and the first ``measuredTableRows`` body rows,
    /// shrunk to fit `width`; records when a box cannot keep 3 columns a cell.
    private func tableGrid(_ table: TableRows, width: Int) -> TableGrid? {
        let columns = table.rows.lazy.map { $0.cells.count }.max() ?? 0
        guard columns > 0 else { return nil }
        var widths = [Int](repeating: 1, count: columns)
        var bodyRows = 0
        for row in table.rows {
            if !row.header {
                if bodyRows == Self.measuredTableRows { break }
                bodyRows += 1
            }
            for (c, k) in row.cells.enumerated() { widths[c] = max(widths[c], table.cells[k].width) }
        }
        if table.rows.lazy.filter({ !$0.header }).count > Self.measuredTableRows {
            widths = widths.map { $0 + Self.tableHeadroom($0) }
        }
        if widths.reduce(0, { $0 + min($1, 3) }) + 3 * columns + 1 > width { return TableGrid(columns: columns, widths: []) }
        // Shrink the widest columns until the table fits (cells then wrap).
        let frame = 3 * columns + 1
        while widths.reduce(0, +) + frame > width {
            let widest = widths.indices.max { widths[$0] < widths[$1] }!
            if widths[widest] <= 1 { break }
            widths[widest] -= 1
        }
        return TableGrid(columns: columns, widths: widths)
    }

    private func table(_ tree: ParseTree, _ node: Node, base: Style, width: Int, into lines: inout [StyledLine]) {
        let table = tableRows(tree, node, base: base)
        guard let grid = tableGrid(table, width: width) else { return }
        lastTableGrid = grid
        if grid.isRecords { return lines += records(table, columns: grid.columns) }
        lines.append(tableRule("┌", "┬", "┐", grid))
        let first = lines.count
        var headerDone = false
        for row in table.rows {
            if !row.header && !headerDone && lines.count > first {
                lines.append(tableRule("├", "┼", "┤", grid))
                headerDone = true
            }
            tableRowLines(table, row, grid, into: &lines)
        }
        lines.append(tableRule("└", "┴", "┘", grid))
    }

    private func tableRule(_ left: String, _ mid: String, _ right: String, _ grid: TableGrid) -> StyledLine {
        // Built as bytes: `String(repeating:count:)` of a 3-byte character, per column
        // and rule, was a twentieth of a table's rendering.
        var bytes = Array(left.utf8)
        bytes.reserveCapacity(bytes.count + 3 * (grid.widths.reduce(0, +) + 3 * grid.widths.count))
        for (c, width) in grid.widths.enumerated() {
            if c > 0 { bytes += mid.utf8 }
            for _ in 0..<(width + 2) {  // ─
                bytes.append(0xE2)
                bytes.append(0x94)
                bytes.append(0x80)
            }
        }
        bytes += right.utf8
        var line = StyledLine()
        line.appendRun(bytes, style: options.theme.tableBorder)
        return line
    }

    /// The line under a table's last row (none for records).
    func tableBottom(_ grid: TableGrid) -> [StyledLine] {
        grid.isRecords ? [] : [tableRule("└", "┴", "┘", grid)]
    }

    private static let leftBorder = Array("│ ".utf8), innerBorder = Array(" │ ".utf8), rightBorder = Array(" │".utf8)

    /// Appends a row in the box: each cell wrapped at its column's width, aligned.
    private func tableRowLines(_ table: TableRows, _ row: TableRows.Row, _ grid: TableGrid, into lines: inout [StyledLine]) {
        let border = options.theme.tableBorder
        let widths = grid.widths
        let count = row.cells.count, cells = row.cells.lowerBound
        // Mostly every cell fits its column: one line, the cells' text as it is.
        if (0..<min(grid.columns, count)).allSatisfy({ table.cells[cells + $0].width <= widths[$0] }) {
            var line = rowStart(grid, border)
            for c in 0..<grid.columns {
                let has = c < count
                tableCell(&line, width: has ? table.cells[cells + c].width : 0, align: has ? table.cells[cells + c].align : 0,
                          column: c, grid, border) { if has { table.append(cell: cells + c, to: &$0) } }
            }
            lines.append(consume line)
            return
        }
        let wrapped = (0..<grid.columns).map { c in
            c < count ? wrap(table.line(ofCell: cells + c), total: table.cells[cells + c].width, width: widths[c]) : [(StyledLine(), 0)]
        }
        let height = wrapped.lazy.map { $0.count }.max() ?? 1
        for r in 0..<height {
            var line = rowStart(grid, border)
            for c in 0..<grid.columns {
                // (The piece read in place: a copy retained all a line holds.)
                let has = r < wrapped[c].count
                tableCell(&line, width: has ? wrapped[c][r].width : 0, align: c < count ? table.cells[cells + c].align : 0,
                          column: c, grid, border) {
                    if has { $0.append(wrapped[c][r].line) }
                }
            }
            lines.append(consume line)
        }
    }

    /// A row's line so far: its left border, room for the rest (a border (3 bytes of
    /// `│`, a space or two) and a text a cell, mostly).
    @inline(__always)
    private func rowStart(_ grid: TableGrid, _ border: Style) -> StyledLine {
        var line = freshLine()
        line.reserveCapacity(bytes: 5 * grid.columns + 3 + grid.widths.reduce(0, +), runs: 2 * grid.columns + 1)
        line.append(Self.leftBorder, style: border)
        return line
    }

    /// Appends a cell's line (`width` columns, appended by `cell`; the cell is read in
    /// place: a copy retained all a line holds) to a row's `line`, aligned in its
    /// column, and the border after it.
    private func tableCell(_ line: inout StyledLine, width: Int, align: Int, column c: Int, _ grid: TableGrid,
                           _ border: Style, _ cell: (inout StyledLine) -> Void) {
        let room = grid.widths[c] - width
        let left = align == 3 ? room : align == 2 ? room / 2 : 0
        if left > 0 { line.append(repeatElement(0x20, count: left), style: .plain) }
        cell(&line)
        if room - left > 0 { line.append(repeatElement(0x20, count: room - left), style: .plain) }
        line.append(c == grid.columns - 1 ? Self.rightBorder : Self.innerBorder, style: border)
    }

    /// The body rows of the table `text[0..<count]` starts with, drawn in `grid` (the
    /// stream gives a table's header and delimiter lines and later rows), and how many
    /// there are: the lines after them are not the table's (one ended it).
    ///
    /// - Complexity: O(n) in the bytes of `text`.
    func tableRows(_ text: inout [UInt8], count: Int, grid: TableGrid) -> (lines: [StyledLine], rows: Int) {
        guard let tree = parseTree(&text, count: count)?.tree, let node = tree.children(of: tree.nodes[0]).first,
              case .table = node.kind else { return ([], 0) }
        // The header is drawn already; records label each cell with it.
        let table = tableRows(tree, node, base: .plain, headers: grid.isRecords)
        let body = table.rows.filter { !$0.header }
        guard !body.isEmpty, body.allSatisfy({ $0.cells.count <= grid.columns }) else { return ([], 0) }
        if grid.isRecords { return (records(table, columns: grid.columns), body.count) }
        var lines: [StyledLine] = []
        for row in body { tableRowLines(table, row, grid, into: &lines) }
        return (lines, body.count)
    }

    /// A table too wide for a box: each body row a bulleted record, one line a cell
    /// (`header: cell`), wrapped like any paragraph; a table of only a header row
    /// lists its cells.
    private func records(_ table: TableRows, columns: Int) -> [StyledLine] {
        let theme = options.theme
        let labels = table.rows.first { $0.header }.map { table.lines(of: $0) } ?? []
        let body = table.rows.filter { !$0.header }
        var lines: [StyledLine] = []
        for cells in body.isEmpty ? [labels] : body.map({ table.lines(of: $0) }) {
            for c in 0..<columns {
                let cell = c < cells.count ? cells[c] : StyledLine()
                if c > 0 && cell.bytes.allSatisfy({ $0 == 0x20 }) { continue }  // an empty cell
                let first: ParagraphFormat.Piece = c == 0 ? .init("• ", style: theme.bullet) : .init("  ")
                var line = StyledLine(format: ParagraphFormat(firstPrefix: [first], continuationPrefix: [.init("  ")]))
                if !body.isEmpty, c < labels.count, !labels[c].isEmpty {
                    line.append(labels[c])
                    line.append(": ".utf8, style: theme.tableHeader)
                }
                line.append(cell)
                lines.append(line)
            }
        }
        return lines
    }

    /// Greedy word wrap of a cell's spans (`total` columns wide) at `width` columns (a
    /// word longer than the width is cut between clusters).
    private func wrap(_ cell: StyledLine, total: Int, width: Int) -> [(line: StyledLine, width: Int)] {
        // Most cells fit their column: one line, the cell as it is (the row's line
        // joins same-style neighbours and drops empty spans).
        if total <= width { return [(cell, total)] }
        // Clusters as offsets into the cell's bytes (a String per cluster, and per word
        // moved, made this a tenth of a document with a table); each span segmented alone.
        let bytes = cell.bytes
        let spanEnds = cell.runs.map(\.end)
        var clusters: [(start: Int, end: Int, width: Int)] = []
        bytes.withUnsafeBufferPointer { all in
            var base = 0
            for end in spanEnds {
                let utf8 = UnsafeBufferPointer(rebasing: all[base..<end])
                _ = GraphemeSegmenter.segment(utf8, final: true, fast: true, policy: options.policy, breaker: breaker) { cluster, w, isRun in
                    let start = base + (cluster.baseAddress! - utf8.baseAddress!)
                    // An ASCII run is reported whole: each of its bytes is a cluster (words are found between them).
                    if isRun {
                        for (i, b) in cluster.enumerated() { clusters.append((start + i, start + i + 1, DisplayWidth.asciiWidth(b))) }
                    } else {
                        clusters.append((start, start + cluster.count, w))
                    }
                }
                base = end
            }
        }
        func isSpace(_ k: Int) -> Bool { clusters[k].end - clusters[k].start == 1 && bytes[clusters[k].start] == 0x20 }
        func columns(_ range: Range<Int>) -> Int { clusters[range].reduce(0) { $0 + $1.width } }
        // Lines as runs of clusters that follow one another (a word cut after zero-width
        // clusters joins them without the spaces between).
        var lines: [[Range<Int>]] = [[]]
        func add(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            if let last = lines[lines.count - 1].last, last.upperBound == range.lowerBound {
                lines[lines.count - 1][lines[lines.count - 1].count - 1] = last.lowerBound..<range.upperBound
            } else {
                lines[lines.count - 1].append(range)
            }
        }
        var used = 0
        var k = 0
        while k < clusters.count {
            // The next word (with the spaces before it).
            var end = k
            while end < clusters.count && isSpace(end) { end += 1 }
            let wordStart = end
            while end < clusters.count && !isSpace(end) { end += 1 }
            let w = columns(k..<end)
            if used + w <= width || used == 0 && w <= width {
                add(k..<end)
                used += w
            } else {
                let tw = columns(wordStart..<end)
                if tw <= width {
                    lines.append([wordStart..<end])
                    used = tw
                } else {
                    // Cut the word between clusters.
                    if used > 0 && wordStart < end { lines.append([]); used = 0 }
                    for c in wordStart..<end {
                        if used + clusters[c].width > width && used > 0 { lines.append([]); used = 0 }
                        add(c..<(c + 1))
                        used += clusters[c].width
                    }
                }
            }
            k = end
        }
        return lines.map { line in
            // The line's bytes, cut where the spans end; neighbours of one style joined.
            var result = StyledLine()
            for run in line where !run.isEmpty {
                var from = clusters[run.lowerBound].start
                let to = clusters[run.upperBound - 1].end
                for (n, spanEnd) in spanEnds.enumerated() where spanEnd > from && from < to {
                    result.append(bytes[from..<min(to, spanEnd)], style: cell.style(of: cell.runs[n]))
                    from = min(to, spanEnd)
                }
            }
            return (result, line.reduce(0) { $0 + columns($1) })
        }
    }

    static func trimmingSpaces(_ text: some StringProtocol) -> Substring {
        let text = Substring(text)
        let start = text.firstIndex { $0 != " " } ?? text.endIndex
        let end = text.lastIndex { $0 != " " }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    /// Display width of `text` in columns.
    func measure(_ text: String) -> Int {
        var s = text
        return s.withUTF8 { measure($0) }
    }

    func measure(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Printable ASCII (most cells) and simple scalars (`SimpleText`: dashes, Latin-1,
        // CJK): no segmenting.
        // (With ambiguous characters wide, only printable ASCII is simple.)
        if let width = SimpleText.width(bytes, ambiguousIsWide: options.policy.ambiguousIsWide) { return width }
        var width = 0
        _ = GraphemeSegmenter.segment(bytes, final: true, fast: true, policy: options.policy, breaker: breaker) { _, w, _ in width += w }
        return width
    }

    /// Whether ``clean(_:tabs:)`` leaves `text` as it is: no control, DEL, C1 control
    /// or (unless `tabs`) tab.
    static func isClean(_ text: String, tabs: Bool) -> Bool {
        var text = text
        return text.withUTF8 { ControlSanitizer.isClean($0, tabs: tabs) }
    }

    /// `text` with controls made visible (and tabs as spaces unless `tabs`).
    func clean(_ text: String, tabs: Bool) -> String {
        // Most text has nothing to change.
        if Self.isClean(text, tabs: tabs) { return text }
        var sanitizer = ControlSanitizer()
        var out = sanitizer.sanitize(tabs ? text : String(text.unicodeScalars.map { $0 == "\t" ? " " : Character($0) }))
        sanitizer.finish(into: &out)
        return out
    }
}

/// HTML entity references as md4c reports them (`&amp;`, `&#123;`, `&#x1F600;`).
enum Entities {
    /// The character an entity (its UTF-8 bytes, `&` to `;`) stands for; nil when it
    /// names nothing (it is shown as written). Read as bytes: a `String` made to read
    /// one cost thousands of instructions an entity.
    ///
    /// - Complexity: O(n) in the entity's bytes, plus a binary search for a name.
    static func decode(utf8 entity: UnsafeBufferPointer<UInt8>) -> String? {
        let n = entity.count
        guard n >= 3, entity[0] == UInt8(ascii: "&"), entity[n - 1] == UInt8(ascii: ";") else { return nil }
        let body = UnsafeBufferPointer(rebasing: entity[1..<(n - 1)])
        guard body[0] == UInt8(ascii: "#") else { return HTMLEntities.text(named: body) }
        let hex = body.count > 1 && body[1] | 0x20 == UInt8(ascii: "x")
        let digits = body.dropFirst(hex ? 2 : 1)
        // (What `UInt32(_:radix:)` reads: digits of the radix, no more than fit.)
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for b in digits {
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: return nil
            }
            let (times, o1) = value.multipliedReportingOverflow(by: hex ? 16 : 10)
            let (sum, o2) = times.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = sum
        }
        if value == 0 { return "\u{FFFD}" }
        return Unicode.Scalar(value).map { String(Character($0)) } ?? "\u{FFFD}"
    }
}
