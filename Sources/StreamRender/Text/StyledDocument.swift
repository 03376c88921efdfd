/// A place in a `StyledDocument`: a paragraph's number (counted from the start of
/// the stream, evicted paragraphs included) and a UTF-8 offset inside it.
@_spi(Benchmarks) public struct TextPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var paragraph: Int
    public var offset: Int

    public init(paragraph: Int, offset: Int) {
        self.paragraph = paragraph
        self.offset = offset
    }

    public static func < (a: TextPosition, b: TextPosition) -> Bool {
        (a.paragraph, a.offset) < (b.paragraph, b.offset)
    }

    public var description: String { "\(paragraph):\(offset)" }
}

/// The streamed answer as styled text: paragraphs (hard lines) of sanitised UTF-8
/// with style runs, growing at the end.
///
/// - Text is **sanitised on the way in** (see ``ControlSanitizer``): CR LF and a
///   lone CR end a paragraph like LF; TAB is kept for layout; every other control,
///   DEL and ESC becomes a visible symbol. No byte of content can reach a terminal
///   as a control sequence.
/// - The last paragraph is open; an LF closes it and opens the next. A paragraph
///   that grows past ``maximumParagraphBytes`` without an LF is closed at the last
///   scalar boundary within the limit (``Paragraph/endsWithLineFeed`` is false), so
///   an endless line cannot hold memory forever.
/// - The end of the text is provisional: its last grapheme cluster may still be
///   extended by the next delta. The layout treats it so.
/// - ``evictParagraphs(before:)`` drops the oldest paragraphs whole; numbering goes on
///   from where it was, and what was dropped is counted.
@_spi(Benchmarks) public struct StyledDocument: Sendable {
    /// One hard line of text.
    public struct Paragraph: Sendable {
        /// Sanitised UTF-8, without the line end.
        public internal(set) var text: [UInt8] = []
        /// Style runs: each covers the bytes from the previous run's end to its own.
        var runs: [StyleRun] = []
        /// Whether the paragraph is complete (a line end or the end of the text followed).
        public internal(set) var isClosed = false
        /// Whether an LF ended it (false when it was split at the size limit or is open).
        public internal(set) var endsWithLineFeed = false
        /// Its format's number in `StyledDocument.formats` (0: plain).
        public internal(set) var format: Int32 = 0

        /// The style runs as byte ranges.
        ///
        /// - Complexity: O(r) in the runs.
        public var styleRuns: [(range: Range<Int>, style: StyleID)] {
            var start = 0
            return runs.map { run in
                defer { start = run.end }
                return (start..<run.end, run.style)
            }
        }

        /// The style of the byte at `offset`.
        ///
        /// - Complexity: O(log r) in the runs.
        public func style(at offset: Int) -> StyleID {
            styleRun(at: offset).style
        }

        /// The style of the byte at `offset` and where its run ends (the text's end
        /// past the last run).
        ///
        /// - Complexity: O(log r) in the runs.
        public func styleRun(at offset: Int) -> (style: StyleID, end: Int) {
            // (Searched in place: through `StyleRun.index(holding:in:)`'s buffer pointer, plain
            // output of demo × 1 MiB took 1.003x the instructions.)
            var lo = 0, hi = runs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if runs[mid].end <= offset { lo = mid + 1 } else { hi = mid }
            }
            return lo < runs.count ? (runs[lo].style, runs[lo].end) : (.plain, max(offset + 1, text.count))
        }

        /// Restyles `bytes` (clamped to the text).
        /// Cuts the text back to `count` bytes and opens the paragraph again;
        /// returns the bytes removed.
        mutating func truncate(to count: Int) -> Int {
            let removed = text.count - count
            text.removeSubrange(count...)
            while runs.count > 1 && runs[runs.count - 2].end >= count { runs.removeLast() }
            if count == 0 { runs.removeAll() } else if !runs.isEmpty { runs[runs.count - 1].end = count }
            isClosed = false
            endsWithLineFeed = false
            return removed
        }

        mutating func restyle(_ bytes: Range<Int>, _ style: StyleID) {
            let lo = max(0, bytes.lowerBound), hi = min(text.count, bytes.upperBound)
            if lo >= hi { return }
            // Runs that end at or before `lo` are untouched: find the first that ends after.
            var first = 0, top = runs.count
            while first < top {
                let mid = (first + top) / 2
                if runs[mid].end <= lo { first = mid + 1 } else { top = mid }
            }
            var rebuilt: [StyleRun] = []
            var start = first == 0 ? 0 : runs[first - 1].end
            var placed = false
            for run in runs[first...] {
                if start < lo { rebuilt.append(StyleRun(end: min(run.end, lo), style: run.style)) }
                if !placed && run.end > lo {
                    rebuilt.append(StyleRun(end: hi, style: style))
                    placed = true
                }
                if run.end > hi { rebuilt.append(StyleRun(end: run.end, style: run.style)) }
                start = run.end
            }
            runs.replaceSubrange(first..., with: rebuilt)
            // Merge neighbours that ended up with the same style.
            var k = max(0, first - 1)
            while k + 1 < runs.count {
                if runs[k].style == runs[k + 1].style {
                    runs[k].end = runs[k + 1].end
                    runs.remove(at: k + 1)
                } else {
                    k += 1
                }
            }
        }
    }

    struct StyleRun: Sendable, Equatable {
        var end: Int
        var style: StyleID

        /// Ends `runs` at `end` in `style`: the last run grows if it has the style.
        static func extend(_ runs: inout [StyleRun], to end: Int, style: StyleID) {
            let last = runs.count - 1
            if last >= 0 && runs[last].style == style {
                runs[last].end = end
            } else {
                runs.append(StyleRun(end: end, style: style))
            }
        }

        /// The index of the run that holds `offset` (`runs.count` past the last).
        ///
        /// - Complexity: O(log r) in the runs.
        static func index(holding offset: Int, in runs: UnsafeBufferPointer<StyleRun>) -> Int {
            var lo = 0, hi = runs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if runs[mid].end <= offset { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        /// The style of the byte at `offset` (plain past the last run).
        ///
        /// - Complexity: O(log r) in the runs.
        static func style(at offset: Int, in runs: UnsafeBufferPointer<StyleRun>) -> StyleID {
            let k = index(holding: offset, in: runs)
            return k < runs.count ? runs[k].style : .plain
        }

        /// Calls `body` with each piece of `range` (offsets the runs cover) in one style, in
        /// order: the runs walked from the one that holds its start (plain past the last),
        /// one lookup for all (styled lines looked each run up by offset).
        ///
        /// - Complexity: O(n + log r) in the pieces and the runs.
        static func forEachPiece(of range: Range<Int>, in runs: UnsafeBufferPointer<StyleRun>,
                                 _ body: (_ piece: Range<Int>, _ style: StyleID) -> Void) {
            var r = index(holding: range.lowerBound, in: runs), k = range.lowerBound
            while k < range.upperBound {
                let (style, end) = r < runs.count ? (runs[r].style, runs[r].end) : (StyleID.plain, range.upperBound)
                let stop = min(range.upperBound, end)
                if stop > k {  // (an empty run, were there one, has no piece: the lookup by offset passed it)
                    body(k..<stop, style)
                    k = stop
                }
                r += 1
            }
        }
    }

    /// A paragraph longer than this without a line end is split (at a scalar boundary).
    public let maximumParagraphBytes: Int

    /// The interned styles of the document's text.
    public var styles = StyleTable()
    /// The interned paragraph formats (prefixes, fills).
    public var formats = ParagraphFormatTable()
    /// Paragraphs from this number on are **provisional**: the rendering of text
    /// whose structure is not settled yet (markdown's open block). The layout shows
    /// them but never reports their lines final; ``discardProvisional()`` replaces
    /// them. nil: only the open paragraph is unfinished (plain text, laid out as it grows).
    public private(set) var provisionalStart: Int?
    /// The bytes of paragraph ``provisionalStart`` that are final (0 unless the
    /// provisional text continues a final paragraph that was left open).
    public private(set) var provisionalOffset = 0

    private(set) var paragraphs: ParagraphRing
    /// The number of the first paragraph still held (= paragraphs evicted so far).
    public private(set) var firstParagraph = 0
    private var sanitizer = ControlSanitizer()
    private var scratch: [UInt8] = []

    /// Bytes of text held (line ends not counted).
    public private(set) var byteCount = 0
    /// Bytes of text appended since the start (after sanitising).
    public private(set) var totalBytes = 0
    /// Paragraphs and bytes evicted so far.
    public private(set) var evictedParagraphs = 0
    public private(set) var evictedBytes = 0
    /// Whether ``finish()`` was called.
    public private(set) var isFinished = false

    public init(maximumParagraphBytes: Int = 1 << 20) {
        precondition(maximumParagraphBytes >= 4, "a paragraph must hold at least one scalar")
        self.maximumParagraphBytes = maximumParagraphBytes
        paragraphs = ParagraphRing(spareLimit: 128, spareRoom: Self.adoptedRoom)
        paragraphs.appendEmpty(format: 0)
    }

    /// The numbers of the paragraphs held: `firstParagraph ..< firstParagraph + count`.
    /// The last one is the open paragraph (it may be empty).
    public var paragraphNumbers: Range<Int> { firstParagraph..<(firstParagraph + paragraphs.count) }

    /// Whether the first `end` bytes of paragraph `number` stay as they are: final
    /// text, and plain text's open paragraph (it only grows); not provisional text,
    /// which the next rendering may replace.
    ///
    /// - Complexity: O(1).
    public func isSettled(paragraph number: Int, upTo end: Int) -> Bool {
        guard let provisionalStart else { return true }
        return number < provisionalStart || (number == provisionalStart && end <= provisionalOffset)
    }

    /// The paragraph numbered `number`.
    ///
    /// - Precondition: `number` is in ``paragraphNumbers``.
    /// - Complexity: O(1).
    public subscript(paragraph number: Int) -> Paragraph {
        paragraphs[number - firstParagraph]
    }

    /// The format id of paragraph `number` (0, the plain format, for one not held),
    /// read without copying the paragraph.
    ///
    /// - Complexity: O(1).
    func format(ofParagraph number: Int) -> Int32 {
        let k = number - firstParagraph
        return k >= 0 && k < paragraphs.count ? paragraphs.with(k) { $0.pointee.format } : 0
    }

    /// Calls `body` with the text of paragraph `number` and whether it is closed,
    /// without copying the paragraph (the layout's per-delta path).
    ///
    /// - Complexity: O(1) plus `body`.
    func withText<R>(ofParagraph number: Int, _ body: (UnsafeBufferPointer<UInt8>, _ isClosed: Bool) -> R) -> R {
        paragraphs.with(number - firstParagraph) { paragraph in
            paragraph.pointee.text.withUnsafeBufferPointer { body($0, paragraph.pointee.isClosed) }
        }
    }

    /// Calls `body` with the text and the style runs of paragraph `number`, read in place
    /// (styled output's lines: a copy of the paragraph retained and released both arrays).
    ///
    /// - Precondition: `number` is in ``paragraphNumbers``.
    /// - Complexity: O(1) plus `body`.
    func withTextAndRuns<R>(ofParagraph number: Int,
                            _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<StyleRun>) -> R) -> R {
        paragraphs.with(number - firstParagraph) { paragraph in
            paragraph.pointee.text.withUnsafeBufferPointer { text in
                paragraph.pointee.runs.withUnsafeBufferPointer { body(text, $0) }
            }
        }
    }

    /// The position just after the last byte of text.
    public var endPosition: TextPosition {
        TextPosition(paragraph: firstParagraph + paragraphs.count - 1, offset: paragraphs[paragraphs.count - 1].text.count)
    }

    /// Appends `text` in `style`, sanitising it.
    ///
    /// - Complexity: amortized O(n) in the UTF-8 bytes of `text`.
    public mutating func append(_ text: String, style: StyleID = .plain) {
        precondition(!isFinished, "append after finish")
        // Most text needs nothing replaced (rendered markdown never does): it goes in
        // without the copy through the sanitiser.
        var text = text
        if !sanitizer.isHoldingCR && text.withUTF8({ bytes in
            guard ControlSanitizer.isClean(bytes) else { return false }
            appendSanitised(bytes, style)
            return true
        }) { return }
        scratch.removeAll(keepingCapacity: true)
        sanitizer.sanitize(text, into: &scratch)
        appendSanitised(style)
    }

    /// Ends the open paragraph, as appending a line feed does (rendered lines end so:
    /// without the line feed's trip through the sanitiser).
    ///
    /// - Complexity: O(1) amortized.
    mutating func endLine() {
        precondition(!isFinished, "append after finish")
        if sanitizer.isHoldingCR { return append("\n") }
        closeOpenParagraph(lineFeed: true)
    }

    /// Appends `text` in `style`, interning the style.
    ///
    /// - Complexity: amortized O(n) in the UTF-8 bytes of `text`, plus one hash of the style.
    public mutating func append(_ text: String, style: Style) {
        append(text, style: styles.intern(style))
    }

    /// Appends the UTF-8 `bytes` in `style` as ``append(_:style:)-(String,Style)`` appends a
    /// string (rendered lines come as bytes: no `String` per span).
    ///
    /// - Complexity: amortized O(n) in `bytes`, plus one hash of the style.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, style: Style) {
        precondition(!isFinished, "append after finish")
        let id = styles.intern(style)
        if !sanitizer.isHoldingCR && ControlSanitizer.isClean(bytes) { return appendSanitised(bytes, id) }
        append(String(decoding: bytes, as: UTF8.self), style: id)
    }

    /// Ends the text: a held-back CR becomes a line end and the last paragraph closes.
    ///
    /// - Complexity: O(1).
    public mutating func finish() {
        if isFinished { return }
        scratch.removeAll(keepingCapacity: true)
        sanitizer.finish(into: &scratch)
        let style = paragraphs[paragraphs.count - 1].runs.last?.style ?? .plain
        appendSanitised(style)
        paragraphs[paragraphs.count - 1].isClosed = true
        isFinished = true
        provisionalStart = nil  // what is shown at the end is final
        provisionalOffset = 0
    }

    /// Whether `bytes` go in as they are: nothing to sanitise, no line feed, no CR held
    /// (then each part of them can be appended by ``appendAsIs(_:style:)``, or all of
    /// them taken by ``adoptAsIs(_:runs:)``).
    ///
    /// - Complexity: O(n) in the bytes.
    func takesAsIs(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !sanitizer.isHoldingCR && ControlSanitizer.isClean(bytes) && !ByteSearch.contains(0x0A, in: bytes)
    }

    /// Appends part of bytes ``takesAsIs(_:)`` accepted, in `style`: as
    /// ``append(_:style:)-(UnsafeBufferPointer<UInt8>,Style)``, without checking the part
    /// again (a styled line was checked run by run).
    ///
    /// - Complexity: amortized O(n) in `bytes`, plus one hash of the style.
    mutating func appendAsIs(_ bytes: UnsafeBufferPointer<UInt8>, style: Style) {
        precondition(!isFinished, "append after finish")
        appendToOpenParagraph(bytes, styles.intern(style))
    }

    /// Makes `bytes`, which ``takesAsIs(_:)`` accepted, the open paragraph's text when it
    /// has none: the paragraph takes their buffer and `bytes` gets its empty one, so
    /// nothing is copied (a rendered line's text was copied into its paragraph, then the
    /// line's buffer emptied for the next line). `addRuns` gives the paragraph its style
    /// runs (empty when called), each by ``addRun(_:end:style:in:)`` with this document's
    /// styles, the last ending at `bytes.count`. False, with nothing changed, when the
    /// bytes are empty or over the paragraph limit, the paragraph has text, or their
    /// buffer has much more room than they need (kept in the history, it would hold that
    /// room: at most twice their size, or ``adoptedRoom``).
    ///
    /// - Complexity: O(r) in the runs (one hash of each style).
    mutating func adoptAsIs(_ bytes: inout [UInt8], runs addRuns: (_ runs: inout [StyleRun], _ styles: inout StyleTable) -> Void) -> Bool {
        precondition(!isFinished, "append after finish")
        let count = bytes.count
        guard count > 0, count <= maximumParagraphBytes, bytes.capacity <= max(Self.adoptedRoom, 2 * count),
              Self.adopt(&bytes, into: &paragraphs[paragraphs.count - 1], styles: &styles, addRuns) else { return false }
        byteCount += count
        totalBytes += count
        return true
    }

    /// ``adoptAsIs(_:runs:)`` on the open paragraph, in one access to it.
    private static func adopt(_ bytes: inout [UInt8], into paragraph: inout Paragraph, styles: inout StyleTable,
                              _ addRuns: (_ runs: inout [StyleRun], _ styles: inout StyleTable) -> Void) -> Bool {
        guard paragraph.text.isEmpty else { return false }
        addRuns(&paragraph.runs, &styles)
        assert(paragraph.runs.last?.end == bytes.count, "the runs end where the text ends")
        swap(&bytes, &paragraph.text)
        return true
    }

    /// Ends `runs` at `end` in `style`, interned in `styles`: the last run grows if it
    /// has the style (see ``adoptAsIs(_:runs:)``).
    ///
    /// - Complexity: O(1) amortized, plus one hash of the style.
    static func addRun(_ runs: inout [StyleRun], end: Int, style: Style, in styles: inout StyleTable) {
        let last = runs.count - 1
        // An empty run adds nothing (as appending no bytes does).
        guard end > (last >= 0 ? runs[last].end : 0) else { return }
        StyleRun.extend(&runs, to: end, style: styles.intern(style))
    }

    /// The room a buffer taken whole may have whatever its text (a removed paragraph's
    /// buffer is kept for reuse up to this room too).
    static let adoptedRoom = 256

    /// Makes room in the open paragraph for `count` more bytes (a caller that knows a
    /// line's length spares its text the reallocations of growing byte by byte).
    ///
    /// - Complexity: O(n) in the paragraph's bytes when it has to move.
    mutating func reserveOpenParagraph(_ count: Int) {
        let last = paragraphs.count - 1
        let wanted = paragraphs[last].text.count + count
        // At least doubled: a paragraph made final in many parts must not be copied per part.
        let capacity = paragraphs[last].text.capacity
        if capacity < wanted { paragraphs[last].text.reserveCapacity(max(wanted, 2 * capacity)) }
    }

    private mutating func appendSanitised(_ style: StyleID) {
        var bytes: [UInt8] = []
        swap(&bytes, &scratch)
        bytes.withUnsafeBufferPointer { appendSanitised($0, style) }
        swap(&bytes, &scratch)
    }

    /// Appends sanitised `buf`: its line feeds close paragraphs.
    private mutating func appendSanitised(_ buf: UnsafeBufferPointer<UInt8>, _ style: StyleID) {
        guard let base = buf.baseAddress else { return }
        var i = 0
        let n = buf.count
        while i < n {
            var j = ByteSearch.find(0x0A, base, from: i, to: n)
            appendToOpenParagraph(UnsafeBufferPointer(rebasing: buf[i..<j]), style)
            if j < n {
                closeOpenParagraph(lineFeed: true)
                j += 1
            }
            i = j
        }
    }

    private mutating func appendToOpenParagraph(_ bytes: UnsafeBufferPointer<UInt8>, _ style: StyleID) {
        var rest = bytes
        while !rest.isEmpty {
            let last = paragraphs.count - 1
            let room = maximumParagraphBytes - paragraphs[last].text.count
            if rest.count <= room {
                appendBytes(rest, style)
                return
            }
            // Split at the last scalar boundary within the limit (never inside a scalar).
            var cut = max(0, room)
            while cut > 0 && rest[cut] & 0xC0 == 0x80 { cut -= 1 }
            appendBytes(UnsafeBufferPointer(rebasing: rest[0..<cut]), style)
            closeOpenParagraph(lineFeed: false)
            rest = UnsafeBufferPointer(rebasing: rest[cut...])
        }
    }

    private mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ style: StyleID) {
        if bytes.isEmpty { return }
        // One access to the open paragraph (each through the deque's subscript was a
        // uniqueness check and an index computed).
        Self.append(bytes, style, to: &paragraphs[paragraphs.count - 1])
        byteCount += bytes.count
        totalBytes += bytes.count
    }

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ style: StyleID, to paragraph: inout Paragraph) {
        paragraph.text.append(contentsOf: bytes)
        StyleRun.extend(&paragraph.runs, to: paragraph.text.count, style: style)
    }

    private mutating func closeOpenParagraph(lineFeed: Bool) {
        // (One access to the open paragraph: each through the deque's subscript was a
        // uniqueness check and an index computed.)
        let format = Self.close(&paragraphs[paragraphs.count - 1], lineFeed: lineFeed)
        // A paragraph split at the size limit goes on in the same format.
        paragraphs.appendEmpty(format: lineFeed ? 0 : format)
    }

    /// Closes `paragraph`; returns its format.
    private static func close(_ paragraph: inout Paragraph, lineFeed: Bool) -> Int32 {
        paragraph.isClosed = true
        paragraph.endsWithLineFeed = lineFeed
        return paragraph.format
    }

    /// Gives the open paragraph the plain format, as ``setFormat(_:)`` with
    /// `ParagraphFormat.plain` does.
    ///
    /// - Complexity: O(1).
    public mutating func setPlainFormat() {
        precondition(!isFinished, "format after finish")
        paragraphs[paragraphs.count - 1].format = 0
    }

    /// Gives the open paragraph `format` (its prefixes and fill).
    ///
    /// - Complexity: O(p) in the format's prefix text (one hash).
    public mutating func setFormat(_ format: ParagraphFormat) {
        precondition(!isFinished, "format after finish")
        paragraphs[paragraphs.count - 1].format = intern(format)
    }

    /// The number of `format` in ``formats``, interned with its styles.
    ///
    /// - Complexity: O(p) in the format's prefix text (one hash).
    mutating func intern(_ format: ParagraphFormat) -> Int32 {
        let known = formats.count
        let id = formats.intern(format)
        // Views draw prefixes with ids from the style table (interned with a new format:
        // the table keeps every style, and a code block's or list's lines share one).
        guard formats.count > known else { return id }
        for piece in format.firstPrefix { _ = styles.intern(piece.style) }
        for piece in format.continuationPrefix { _ = styles.intern(piece.style) }
        if let fill = format.fill { _ = styles.intern(fill.style) }
        return id
    }

    /// Makes everything appended from now on provisional (see ``provisionalStart``):
    /// the open paragraph's text so far stays final (``provisionalOffset``). Call
    /// ``discardProvisional()`` before appending final text again.
    ///
    /// - Complexity: O(1).
    public mutating func markProvisional() {
        precondition(provisionalStart == nil, "already provisional")
        provisionalStart = firstParagraph + paragraphs.count - 1
        provisionalOffset = paragraphs[paragraphs.count - 1].text.count
    }

    /// Removes the provisional text (see ``markProvisional()``): the document is as
    /// it was before it, its open paragraph as it was (in plain format if empty).
    ///
    /// - Complexity: O(k) in the paragraphs removed.
    public mutating func discardProvisional() {
        guard let start = provisionalStart else { return }
        provisionalStart = nil
        let keep = start - firstParagraph
        var removed = 0
        while paragraphs.count > keep + 1 { removed += paragraphs.removeLast() }
        if provisionalOffset == 0 {
            removed += paragraphs.removeLast()
            paragraphs.appendEmpty(format: 0)
        } else {
            // The open paragraph's final part stays, open again, in its format.
            let k = paragraphs.count - 1
            removed += paragraphs[k].truncate(to: provisionalOffset)
        }
        provisionalOffset = 0
        byteCount -= removed
        totalBytes -= removed
        sanitizer = ControlSanitizer()
    }

    /// Gives the text in `range` the style `style` (the markdown and highlighting
    /// layers restyle the growing tail this way). Evicted parts are ignored.
    ///
    /// - Complexity: O(p + r) in the paragraphs spanned and the runs from the range's
    ///   start to the end of each; restyling the tail of the last paragraph is O(runs touched).
    public mutating func restyle(_ range: Range<TextPosition>, to style: StyleID) {
        let first = max(range.lowerBound.paragraph, firstParagraph)
        let last = min(range.upperBound.paragraph, firstParagraph + paragraphs.count - 1)
        guard first <= last else { return }
        for number in first...last {
            let k = number - firstParagraph
            let lo = number == range.lowerBound.paragraph ? range.lowerBound.offset : 0
            let hi = number == range.upperBound.paragraph ? range.upperBound.offset : paragraphs[k].text.count
            paragraphs[k].restyle(lo..<hi, style)
        }
    }

    /// Drops every paragraph numbered below `number` (never the open one).
    ///
    /// - Complexity: O(k) in the paragraphs dropped.
    public mutating func evictParagraphs(before number: Int) {
        let target = min(number, provisionalStart ?? .max, firstParagraph + paragraphs.count - 1)
        while firstParagraph < target {
            let bytes = paragraphs.removeFirst()
            byteCount -= bytes
            evictedBytes += bytes
            evictedParagraphs += 1
            firstParagraph += 1
        }
    }

    /// Removed paragraphs whose buffers the paragraphs after them keep (see
    /// `ParagraphRing`). Where little history is kept (plain output), a piece's worth
    /// of lines: 1,024 took 0.986x the instructions of 128, and 2,048 (an 8 KiB piece of
    /// two-word lines and blank lines makes 2,000) 0.957x those of 1,024 on such lines,
    /// which half allocated afresh (peak +0.4 MB). Where history is kept, a reused buffer
    /// stays in it with its spare capacity: 1,024 grew the live view's peak from 39 to
    /// 49 MB at demo × 10 MiB.
    var spareLimit: Int {
        get { paragraphs.spareLimit }
        set { paragraphs.spareLimit = newValue }
    }

    /// Checks the document's invariants (tests call it after every mutation).
    public func _invariantCheck() {
        #if STREAMRENDER_INVARIANT_CHECKS
        precondition(!paragraphs.isEmpty, "there is always an open paragraph")
        precondition(firstParagraph == evictedParagraphs)
        if let provisionalStart {
            precondition(paragraphNumbers.contains(provisionalStart), "provisional text is held")
            precondition(provisionalOffset <= self[paragraph: provisionalStart].text.count, "the final part is held")
        }
        var bytes = 0
        for (k, p) in paragraphs.enumerated() {
            let isLast = k == paragraphs.count - 1
            precondition(p.isClosed == (!isLast || isFinished), "only the last paragraph is open")
            precondition(!p.endsWithLineFeed || p.isClosed)
            precondition(!p.text.contains(0x0A), "no line feed inside a paragraph")
            precondition(p.text.count <= maximumParagraphBytes)
            for b in p.text where b < 0x20 || b == 0x7F { precondition(b == 0x09, "no control byte in text") }
            precondition(String(validating: p.text, as: UTF8.self) != nil, "text is valid UTF-8")
            var end = 0
            for (r, run) in p.runs.enumerated() {
                precondition(run.end > end, "runs are non-empty and ordered")
                if r > 0 { precondition(p.runs[r - 1].style != run.style, "neighbouring runs differ") }
                precondition(Int(run.style.rawValue) < styles.count, "run style is in the table")
                precondition(Int(p.format) < formats.count, "format is in the table")
                end = run.end
            }
            precondition(end == p.text.count, "runs cover the text")
            bytes += p.text.count
        }
        precondition(bytes == byteCount)
        #endif
    }
}
