/// Lays out one paragraph into visual lines, incrementally, as its text grows.
///
/// Greedy wrapping: clusters are placed on the current line until one does not
/// fit; the line then ends at the last line-break opportunity inside it (trailing
/// spaces dropped) and what follows that opportunity moves to the next line. With
/// no opportunity inside the line (a word wider than the width) the line ends
/// between clusters. A wide cluster never straddles the edge; a cluster wider than
/// the whole width is a line of its own, shown as a replacement. Spaces that do not
/// fit hang past the edge and are dropped. A line holds at most
/// ``maximumLineBytes(width:)`` bytes (24 a column: a limit only stacks of combining
/// marks and zero-width clusters reach). Tabs expand to the next tab stop, cut at
/// the edge. A mandatory break (after U+2028, U+2029) ends the line.
///
/// **Streaming.** Each call to ``advance(_:closed:breakers:emit:)`` sees the whole
/// paragraph so far and does work proportional to what is new:
///
/// - clusters are segmented from where the last call stopped; the last cluster is
///   provisional until a later boundary is certain (``GraphemeSegmenter``);
/// - line-break opportunities are found by scanning from a **restart point** R. An
///   opportunity at a cluster's start is used only when four whole clusters follow
///   it inside the scan (UAX #14 looks at most that far ahead), so what later text
///   can still change is never used. R moves to each opportunity that follows a
///   space (context before it cannot matter) without rescanning, and is forced
///   forward after 64 bytes without one (at an opportunity) or 256 bytes (at any
///   cluster), in which case the scan restarts there (unless R is at an opportunity
///   of a scan the line breaker's fast path made: that scan stays). A scan never ends inside a run
///   of a script ICU breaks with a dictionary (Thai, Lao, Khmer, Myanmar) but where
///   the text alone says (``dictionaryRunEnd(_:from:origin:lookahead:final:)``). The
///   restart points and every opportunity used depend on the text only, never on how
///   it was cut into deltas, so every chunking gives the same lines as one pass;
/// - placing a cluster is O(1) except when a wrap moves the clusters after the last
///   opportunity to the next line (at most one line's worth);
/// - runs of printable ASCII are placed from their bytes, with the same decisions
///   (``placeASCIIRun(_:closed:breakers:emit:)``), and the text between them is
///   segmented a window at a time.
///
/// Lines are reported once final through `emit`; ``certainEnd`` tells how much of
/// the current line can no longer move.
///
/// **One pass.** A paragraph complete when first laid out (every final line of
/// rendered markdown) skips all this: it is placed in one pass over the whole text's
/// clusters and opportunities (``wrapSimple(_:ascii:breakers:emit:)``,
/// ``wrapClusters(_:breakers:emit:)``), with the same lines, wherever that holds.
struct ParagraphWrapper {
    let settings: LayoutSettings
    /// Columns for the text of the first line and of the others (the width less the
    /// paragraph's prefixes; see `ParagraphFormat`).
    private(set) var firstLineWidth: Int
    private(set) var otherLineWidth: Int
    private var onFirstLine = true
    /// Every cluster boundary is an opportunity and spaces are text: lines are cut at
    /// the exact width, as a terminal wraps (`ParagraphFormat.wrapsLikeTerminal`).
    private(set) var cutsAnywhere = false
    /// Lines laid out in one pass from their clusters are marked when their bytes are
    /// their cells (``VisualLine/cellsAreBytes``): for views that draw cells (a reset
    /// keeps it).
    var marksCells = false

    enum Kind: UInt8 { case text, space, tab }

    /// A stable cluster waiting to be placed.
    struct Cluster {
        var start: Int32
        var end: Int32
        var width: Int32
        var kind: Kind
        /// Marks, joiners or invisible controls with no base of their own (a bidi mark,
        /// or what follows one): the line-break rules read through them (LB9), so they
        /// do not count among an opportunity's lookahead clusters.
        var readThrough = false
        /// Read through, after a tab or a cluster read through: LB9 attaches it to what
        /// precedes it (it is of class CM or ZWJ), so there is no opportunity before it,
        /// whatever follows (``status(of:_:closed:breakers:)`` answers without a scan).
        var joinsPrevious = false
    }

    /// A cluster placed on the current line.
    struct Placed {
        var start: Int32
        var end: Int32
        /// The column after it.
        var columnAfter: Int32
        var kind: Kind
        var breakBefore: Bool
        var isReplacement: Bool
    }

    /// Clusters this far ahead of an opportunity must be known before it is used.
    static let lookaheadClusters = 4
    /// A restart is forced this far past R at an opportunity, or at any cluster.
    static let forcedRestartAtOpportunity = 64
    static let forcedRestartAnywhere = 256
    /// ...at a cluster ICU reads from as in context (``readsAsInContext(_:at:)``) if one
    /// comes within this many bytes more; else at any.
    static let forcedRestartGrace = 64
    /// Scans look at least this far past R.
    static let scanWindow = 128
    /// A rescan waits until it can settle this many more clusters (deltas are a few
    /// bytes; rescanning for every one would rescan the current word each time).
    /// Only when lines appear changes, never what they are.
    static let rescanBatch = 8

    // Segmentation.
    private(set) var segmented = 0
    private var pending: [Cluster] = []
    private var pendingHead = 0
    /// Some cluster of `pending` is read through (``Cluster/readThrough``): the lookahead
    /// is counted cluster by cluster (mostly none is, and it is `pendingHead + 4`).
    private var pendingReadsThrough = false
    /// ``lookaheadIndex()``'s walk, kept while clusters are read through: from
    /// `walkHead` (the `pendingHead` it was made for) to `walkEnd`, `walkCounted`
    /// clusters not read through after `walkHead`. The next walk goes on from there, so
    /// a run of M clusters read through costs O(M), not a walk of the run per cluster.
    private var walkHead = -1, walkEnd = 0, walkCounted = 0
    /// The last cluster segmented was a tab or read through: a mark or joiner that
    /// starts the next cluster has no base and is read through too.
    private var afterControl = false

    // Line-break opportunities, from scanning text[restart..<scanEnd].
    private var restart = 0
    private var scanEnd = 0
    private var scanIsFinal = false
    /// The scan was the line breaker's fast path (``ASCIILineBreak``), not ICU.
    private var scanWasFast = false
    /// R was last forced on at a cluster that is no opportunity: the text has gone
    /// ``forcedRestartAnywhere`` bytes without one, and the next scan reads as far as R
    /// can be forced on again at once (``farScanEnd(knownEnd:)``).
    private var restartWasForced = false
    private var opportunities: [Int32] = []
    /// The mandatory ones among them (after a line separator: rare in a paragraph).
    private var hardBreaks: [Int32] = []
    private var opportunityCursor = 0

    // The current line.
    private var line: [Placed] = []
    private(set) var lineStart = 0
    private var column = 0
    private var lastBreakIndex = -1
    /// Spaces after the last placed cluster that did not fit: offset and count.
    private var hungStart = 0
    private var hungCount = 0

    /// Whether the closed paragraph has been laid out completely.
    private(set) var isDone = false

    init(settings: LayoutSettings) {
        self.settings = settings
        firstLineWidth = settings.width
        otherLineWidth = settings.width
    }

    /// Sets the text widths of the next paragraph (call after ``reset()``).
    mutating func setLineWidths(first: Int, other: Int, cutsAnywhere: Bool = false) {
        firstLineWidth = max(1, first)
        otherLineWidth = max(1, other)
        self.cutsAnywhere = cutsAnywhere
    }

    /// The width of the current line's text.
    private var width: Int { onFirstLine ? firstLineWidth : otherLineWidth }

    /// The most bytes a line of `width` columns holds: 24 a column, and at least one
    /// cluster of the largest size (``GraphemeSegmenter/maximumClusterBytes``). Real
    /// text stays below (Vietnamese, Devanagari and Tibetan stacks take under 20
    /// bytes a column, the longest emoji sequences 18); stacks of combining marks and
    /// zero-width clusters reach it and end the line early. Every frame of a live
    /// view wraps and draws its open line again, so the bound keeps a frame's cost
    /// near prose's (zalgo lines of 16 KB cost 5x prose per byte in the live view and
    /// endless marks 16x; at 48 a column endless marks still cost 3.5x).
    static func maximumLineBytes(width: Int) -> Int {
        max(GraphemeSegmenter.maximumClusterBytes, width * 24)
    }

    private var maximumLineBytes: Int { Self.maximumLineBytes(width: settings.width) }

    /// A tab at `column` of the current line: to the next stop, cut at the edge.
    private func tabWidth(at column: Int) -> Int {
        min(settings.tabSize - column % settings.tabSize, width - column)
    }

    /// Gets ready for the next paragraph, keeping the buffers' capacity (a document
    /// is mostly short paragraphs: allocating per paragraph showed in profiles).
    mutating func reset() {
        segmented = 0
        // (Emptying an empty array keeping its capacity still cost a call into the
        // runtime's array code, four times per paragraph.)
        pending.removeAllKeepingCapacity()
        pendingHead = 0
        pendingReadsThrough = false
        walkHead = -1
        afterControl = false
        restart = 0
        scanEnd = 0
        scanIsFinal = false
        scanWasFast = false
        restartWasForced = false
        opportunities.removeAllKeepingCapacity()
        hardBreaks.removeAllKeepingCapacity()
        opportunityCursor = 0
        line.removeAllKeepingCapacity()
        lineStart = 0
        column = 0
        lastBreakIndex = -1
        hungStart = 0
        hungCount = 0
        isDone = false
        onFirstLine = true
        firstLineWidth = settings.width
        otherLineWidth = settings.width
        cutsAnywhere = false
    }

    /// Lays out what `text` (the whole paragraph so far) added since the last call.
    /// With `closed`, the paragraph is complete: everything is placed and its last
    /// line reported.
    ///
    /// - Complexity: amortized O(n + c) where n is the bytes added and c the current
    ///   line's clusters (rescans cover at most a word or ``scanWindow`` bytes).
    /// The one line ``advance(_:closed:breakers:emit:)`` gives a closed empty paragraph, in
    /// any format and at any width (its simple path: nothing to measure, no cell to mark),
    /// for callers that lay a blank line out without a wrapper.
    ///
    /// - Complexity: O(1).
    static func blankLine(paragraph: Int) -> VisualLine {
        VisualLine(paragraph: paragraph, start: 0, end: 0, width: 0, isReplacement: false, isSimple: true)
    }

    mutating func advance(_ text: UnsafeBufferPointer<UInt8>, closed: Bool, breakers: LayoutBreakers,
                          emit: (VisualLine) -> Void) {
        if isDone { return }
        let onePass = usesOnePass && segmented == 0 && closed && !cutsAnywhere
        // The width of simple text, measured once for both paths below. (A column takes
        // at most 3 bytes of it (a two-column character 3 or 4): a longer text cannot
        // fit on one line, and is scanned only for the one-pass layout.)
        let simple = segmented == 0 && closed && (onePass || text.count <= 3 * firstLineWidth)
            ? SimpleText.width(text, ambiguousIsWide: settings.policy.ambiguousIsWide) : nil
        if let width = simple, width <= firstLineWidth {
            // A complete line of single-scalar clusters that fits (ASCII, box drawing,
            // Latin-1, CJK): no wrap and no opportunity can matter (code lines, table
            // rows, headings, short paragraphs and list items).
            segmented = text.count
            emit(VisualLine(paragraph: 0, start: 0, end: text.count, width: width, isReplacement: false, isSimple: true))
            lineStart = text.count
            onFirstLine = false
            isDone = true
            return
        }
        if cutsAnywhere && usesOnePass && segmented == 0 && closed && DisplayWidth.isPrintableASCII(text) {
            return cutPrintableASCII(text, emit: emit)
        }
        // Clusters segmented whole already (by `fitsWhole`, of text that does not fit)
        // are placed as they are: segmenting a paragraph of Thai twice cost a fifth more.
        var segmentedWhole = false
        if onePass {
            // (Simple text as wide as its bytes is printable ASCII: every other simple
            // scalar takes more bytes than columns.)
            if let width = simple, width == text.count {
                if wrapSimple(text, ascii: true, breakers: breakers, emit: emit) { return }
            } else if simple != nil && min(firstLineWidth, otherLineWidth) >= 2 {
                if wrapSimple(text, ascii: false, breakers: breakers, emit: emit) { return }
            } else {
                // (ASCII with tabs takes at least a column a byte: longer, it cannot fit.)
                let hasTab = ByteSearch.contains(0x09, in: text)
                if !hasTab || text.count <= firstLineWidth || !DisplayWidth.isASCII(text) {
                    if fitsWhole(text, breakers: breakers, emit: emit) { return }
                }
                // (Not tabs, nor the scripts broken with a dictionary, whose scans the
                // cluster path cuts where the text says: see `dictionaryRunEnd`. A
                // declined one-pass layout leaves nothing segmented.)
                if !hasTab && !Self.containsDictionaryScalar(text) && wrapClusters(text, breakers: breakers, emit: emit) { return }
                segmentedWhole = segmented == text.count
            }
        }
        if usesASCIIRuns && !cutsAnywhere && !segmentedWhole {
            // Runs of printable ASCII placed from their bytes, the text between them
            // segmented a window at a time (segmented whole, a long line's text became
            // clusters before any run could be seen).
            while true {
                placeASCIIRun(text, closed: closed, breakers: breakers, emit: emit)
                let before = segmented
                var limit = nextRunWindowEnd(text)
                while limit < text.count && text[limit] & 0xC0 == 0x80 { limit -= 1 }
                segment(text, upTo: limit, closed: closed, breakers: breakers)
                // (A guard: a window holds more than a cluster's most bytes, so it always
                // segments something.)
                if segmented == before && limit < text.count { segment(text, upTo: text.count, closed: closed, breakers: breakers) }
                placePending(text, closed: closed, breakers: breakers, emit: emit)
                if segmented == before || segmented == text.count { break }
            }
        } else {
            segment(text, upTo: text.count, closed: closed, breakers: breakers)
            placePending(text, closed: closed, breakers: breakers, emit: emit)
        }
        if closed && pendingHead == pending.count && segmented == text.count {
            commitLine(upTo: line.count, trimSpaces: false, nextStart: text.count, emit)
            isDone = true
        }
    }

    /// Lays out a complete paragraph of printable ASCII that wraps like a terminal:
    /// lines of the line's width in bytes, spaces kept, as the cluster path places one
    /// column a byte with an opportunity before each. (The inline view's code lines
    /// took that path a cluster at a time: 30,000 instructions a line.)
    ///
    /// - Complexity: O(n / width) lines.
    private mutating func cutPrintableASCII(_ text: UnsafeBufferPointer<UInt8>, emit: (VisualLine) -> Void) {
        var start = 0, lineWidth = firstLineWidth
        repeat {
            let end = min(text.count, start + lineWidth)
            emit(VisualLine(paragraph: 0, start: start, end: end, width: end - start, isReplacement: false, isSimple: true))
            start = end
            lineWidth = otherLineWidth
        } while start < text.count
        _ = finishOnePass(text.count)
    }

    /// Whether the one-pass layouts below are used; tests turn them off to compare.
    var usesOnePass = true

    /// Whether runs of printable ASCII are placed from their bytes
    /// (``placeASCIIRun(_:closed:breakers:emit:)``); tests turn it off to compare.
    var usesASCIIRuns = true
    /// Testing switch: false rescans at every forced restart (``moveRestart(past:isBreak:_:)``).
    var keepsScansAtRestarts = true
    /// Testing switch: false grows the first scan after a restart forced past no
    /// opportunity from ``scanWindow`` as after any restart (``farScanEnd(knownEnd:)``).
    var scansReachAfterForcedRestarts = true
    /// Forced restarts that kept the scan, over the wrapper's life (tests check the
    /// case is exercised).
    private(set) var scansKeptAtRestarts = 0
    /// Restarts forced where ICU may read otherwise than in context (no letter, digit or
    /// ideograph within the grace: a run of marks): the lines may differ from ICU's over
    /// the whole paragraph there (decision 0007; tests skip that comparison then).
    private(set) var restartsOutOfContext = 0
    /// Bytes scanned for opportunities and steps of the lookahead's walk over clusters
    /// read through, over the wrapper's life (tests bound them by the text's length).
    private(set) var scannedBytes = 0, lookaheadSteps = 0

    /// The most bytes segmented into clusters at a time between runs of printable ASCII
    /// (more than a cluster's most, ``GraphemeSegmenter/maximumClusterBytes``).
    static let segmentWindow = 4096

    /// The bytes the run of printable ASCII after `segmented` needs before
    /// ``placeASCIIRun(_:closed:breakers:emit:)`` can take it, for the clusters before it
    /// to be placed: where to stop segmenting (``segmentWindow`` bytes on, or past a run
    /// found before that: its start and 16 bytes).
    /// (Segmenting a fixed window past an em dash took a kilobyte of prose the slow way.)
    ///
    /// - Complexity: O(n) in the bytes to the result.
    private func nextRunWindowEnd(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        let cap = min(text.count, segmented + Self.segmentWindow)
        let margin = Self.asciiRunMargin
        // A run of 2 margins holds a byte of every margin-th: text without one is read
        // a byte in `margin` (CJK, emoji).
        var k = segmented
        while k < cap {
            guard Self.isPrintableASCII(text[k]) else {
                k += margin
                continue
            }
            var start = k, end = k + 1
            while start > segmented && Self.isPrintableASCII(text[start - 1]) { start -= 1 }
            while end < text.count && end - start < 2 * margin && Self.isPrintableASCII(text[end]) { end += 1 }
            if end - start >= 2 * margin { return start + margin + 2 }
            k = end + 1
        }
        return cap
    }

    /// Places the segmented clusters whose status is known, in order.
    ///
    /// - Complexity: amortized O(c) in the clusters placed, plus rescans.
    private mutating func placePending(_ text: UnsafeBufferPointer<UInt8>, closed: Bool, breakers: LayoutBreakers,
                                       emit: (VisualLine) -> Void) {
        while pendingHead < pending.count {
            let c = pending[pendingHead]
            guard let (isBreak, isHard) = status(of: c, text, closed: closed, breakers: breakers) else { break }
            pendingHead += 1
            place(c, isBreak: isBreak, isHard: isHard, emit)
            moveRestart(past: c, isBreak: isBreak, text)
        }
        if pendingHead > 256 && pendingHead * 2 > pending.count {
            pending.removeFirst(pendingHead)
            if walkHead >= pendingHead { walkHead -= pendingHead; walkEnd -= pendingHead } else { walkHead = -1 }
            pendingHead = 0
        }
    }

    /// The bytes of a run of printable ASCII left to the cluster path at its end.
    private static let asciiRunMargin = lookaheadClusters + rescanBatch + 2

    /// Printable ASCII, a space to a tilde: a cluster of one column each, unless a byte
    /// that is not ASCII follows (a mark may join it).
    @inline(__always)
    private static func isPrintableASCII(_ b: UInt8) -> Bool { b &- 0x20 < 0x5F }

    /// Places the clusters of a run of printable ASCII that starts at the next cluster
    /// to place, straight from its bytes: what ``placePending(_:closed:breakers:emit:)``
    /// does with them (the same statuses, restarts, placements and lines), without a
    /// cluster made and kept per byte. The run's last bytes are left to that path: a
    /// byte's status needs the four clusters after it known, a rescan eight more
    /// (``status(of:_:closed:breakers:)``), and the last byte's cluster is certain only
    /// with the byte after it. A single line of prose, hex or base64 took 450
    /// instructions a byte cluster by cluster (issue 14's cliffs).
    ///
    /// - Complexity: O(n) in the run's bytes, plus rescans as the cluster path's.
    private mutating func placeASCIIRun(_ text: UnsafeBufferPointer<UInt8>, closed: Bool, breakers: LayoutBreakers,
                                        emit: (VisualLine) -> Void) {
        let n = text.count
        var q = pendingHead < pending.count ? Int(pending[pendingHead].start) : segmented
        // The clusters up to `known` are bytes of the run, each certain: what a rescan
        // may count as segmented. (`status` asks for the lookahead and a batch.)
        let margin = Self.asciiRunMargin
        guard q + margin < n, Self.isPrintableASCII(text[q]), Self.isPrintableASCII(text[q + margin]) else { return }
        var runEnd = q + 1
        while runEnd < n && Self.isPrintableASCII(text[runEnd]) { runEnd += 1 }
        let stop = runEnd - margin
        guard q < stop else { return }
        let known = runEnd - 1
        let start = q
        let maximumBytes = maximumLineBytes
        // The first opportunity at or after q (`opportunities[opportunityCursor]`, as
        // `status` leaves the cursor), or nil.
        func nextOpportunity() -> Int? {
            while opportunityCursor < opportunities.count && Int(opportunities[opportunityCursor]) < q {
                opportunityCursor += 1
            }
            return opportunityCursor < opportunities.count ? Int(opportunities[opportunityCursor]) : nil
        }
        var next = nextOpportunity()
        var lineWidth = width
        var blocked = line.first?.isReplacement == true
        while q < stop {
            if !scanIsFinal && q + Self.lookaheadClusters + 1 > scanEnd {
                // Rescan as `status` would (with the clusters to `known` segmented).
                let lookahead = q + Self.lookaheadClusters + 1
                guard rescan(text, to: max(lookahead, farScanEnd(knownEnd: known)), lookahead: lookahead, closed: closed,
                             final: false, breakers: breakers) else { break }
                next = nextOpportunity()
                continue
            }
            let isBreak = q == next
            if isBreak && isHardBreak(at: q) { break }  // (after a line separator) the cluster path's
            if q == start {
                // The clusters segmented from q on are these bytes again: dropped, and the
                // segmentation goes on from where this stops. (Only once one is placed:
                // a run that places none leaves them and the segmentation as they were.)
                pending.removeAll(keepingCapacity: true)
                pendingHead = 0
                walkHead = -1
            }
            let isSpace = text[q] == 0x20
            // `placeOnLine`'s cases for a cluster of one column, inline but for a wrap
            // or a replacement on the line.
            if hungCount == 0 && column < lineWidth && (isSpace || (!blocked && q + 1 - lineStart <= maximumBytes)) {
                if isBreak && !line.isEmpty { lastBreakIndex = line.count }
                column += 1
                line.append(Placed(start: Int32(q), end: Int32(q + 1), columnAfter: Int32(column), kind: isSpace ? .space : .text,
                                   breakBefore: isBreak && !line.isEmpty, isReplacement: false))
            } else if isSpace {
                if isBreak && !line.isEmpty { lastBreakIndex = line.count }
                if hungCount == 0 { hungStart = q }
                hungCount += 1
            } else {
                placeOnLine(Cluster(start: Int32(q), end: Int32(q + 1), width: 1, kind: .text), isBreak: isBreak, emit)
                lineWidth = width
                blocked = line.first?.isReplacement == true
            }
            // `moveRestart`, inline.
            if q > restart {
                if isBreak && text[q - 1] == 0x20 {
                    restart = q
                    restartWasForced = false
                } else if (isBreak && q - restart >= Self.forcedRestartAtOpportunity) || q - restart >= Self.forcedRestartAnywhere {
                    if moveRestart(past: Cluster(start: Int32(q), end: Int32(q + 1), width: 1, kind: .text), isBreak: isBreak, text) {
                        next = nil
                    }
                }
            }
            if isBreak && next != nil {
                opportunityCursor += 1
                next = nextOpportunity()
            }
            q += 1
            // The letters after it up to the next opportunity or space, known and fitting
            // on the line, before R would be forced on: placed with nothing to decide.
            if hungCount == 0 && !blocked {
                let end = min(stop, next ?? stop, scanIsFinal ? stop : scanEnd - Self.lookaheadClusters,
                              q + lineWidth - column, lineStart + maximumBytes, restart + Self.forcedRestartAnywhere)
                if q < end {
                    let first = q
                    while q < end && text[q] != 0x20 { q += 1 }
                    for k in first..<q {
                        column += 1
                        line.append(Placed(start: Int32(k), end: Int32(k + 1), columnAfter: Int32(column), kind: .text,
                                           breakBefore: false, isReplacement: false))
                    }
                }
            }
        }
        if q > start {
            segmented = q
            bytesPlacedFromRuns += q - start
        }
    }

    /// Bytes placed by ``placeASCIIRun(_:closed:breakers:emit:)`` (tests check it is used).
    private(set) var bytesPlacedFromRuns = 0

    /// Whether no two opportunities (the text's ends included) are further apart
    /// than the cluster path lets R lag behind an opportunity: there, R moves only
    /// to opportunities, and every scan it makes sees what the whole text's does. Past
    /// that gap R is forced to any cluster and its scan reads that cluster as the
    /// text's start (a hyphen there keeps the letter after it, a number begins): its
    /// opportunities, and so its lines, can differ, and the cluster path's stand.
    private static func opportunitiesAreNear(_ starts: some Sequence<Int32>, end: Int) -> Bool {
        var previous = 0
        for at in starts {
            if Int(at) - previous > forcedRestartAnywhere - forcedRestartAtOpportunity { return false }
            previous = Int(at)
        }
        return end - previous <= forcedRestartAnywhere - forcedRestartAtOpportunity
    }

    /// Lays out a complete paragraph of simple text (``SimpleText/width(_:ambiguousIsWide:)``:
    /// every scalar a cluster of its own of a known width, no tab, no mandatory break)
    /// in one pass over its opportunities. The lines are the cluster-by-cluster path's
    /// (tests compare the two): a line from `s` ends at the last opportunity up to the
    /// first scalar that is not a space and does not fit, else right before it;
    /// trailing spaces dropped, and at the end only those past the edge. That path
    /// placed a cluster per byte of ASCII: a quarter of the plain output of answers.
    /// With `ascii`, the text is printable ASCII: a column a byte.
    ///
    /// False (nothing laid out) when opportunities are far apart
    /// (``opportunitiesAreNear(_:end:)``): the cluster path takes it.
    ///
    /// - Precondition: no scalar is wider than a line (true of ASCII; the caller
    ///   checks lines of 2 columns or more otherwise).
    /// - Complexity: O(n) in the bytes.
    private mutating func wrapSimple(_ text: UnsafeBufferPointer<UInt8>, ascii: Bool, breakers: LayoutBreakers,
                                     emit: (VisualLine) -> Void) -> Bool {
        // Text the fast path covers, with opportunities surely near, needs only those
        // near each line's end (from ``ASCIILineBreak/lastOpportunity(in:after:through:)``);
        // other text has them all collected first.
        let gap = Self.forcedRestartAnywhere - Self.forcedRestartAtOpportunity
        let nearEnds = breakers.line.usesASCIIFastPath && (ascii || ASCIILineBreak.covers(text))
            && ASCIILineBreak.surelyNear(text, maximumGap: gap)
        if !nearEnds {
            guard collectOpportunities(text, breakers: breakers), Self.opportunitiesAreNear(opportunities, end: text.count) else {
                return declineOnePass()
            }
        }
        let n = text.count
        func columns(_ range: Range<Int>) -> Int {
            ascii ? range.count : SimpleText.width(UnsafeBufferPointer(rebasing: text[range]), ambiguousIsWide: false)!
        }
        /// From `s` on a line of `width`: where the scalars that fit end (`fit`, at
        /// `column`), and the first scalar that is not a space and does not fit (spaces
        /// that do not fit hang), or `n`.
        func measure(from s: Int, width: Int) -> (fit: Int, column: Int, over: Int) {
            var i = s, column = 0
            if ascii {
                i = min(n, s + width)
                column = i - s
            } else {
                while i < n {
                    let (scalar, next) = DisplayWidth.decodeScalar(text, at: i)
                    let w = SimpleText.width(of: scalar)!
                    if column + w > width { break }
                    column += w
                    i = next
                }
            }
            var over = i
            while over < n && text[over] == 0x20 { over += 1 }
            return (i, column, over)
        }
        var s = 0, next = 0
        var lineWidth = firstLineWidth
        while true {
            let (fit, column, over) = measure(from: s, width: lineWidth)
            if over >= n {
                // The last line: spaces past the edge dropped.
                emit(VisualLine(paragraph: 0, start: s, end: fit, width: column, isReplacement: false, isSimple: true))
                break
            }
            let cut: Int
            if nearEnds {
                cut = ASCIILineBreak.lastOpportunity(in: text, after: s, through: over) ?? over
            } else {
                while next < opportunities.count && Int(opportunities[next]) <= over { next += 1 }
                cut = next > 0 && Int(opportunities[next - 1]) > s ? Int(opportunities[next - 1]) : over
            }
            var end = cut
            while end > s && text[end - 1] == 0x20 { end -= 1 }
            emit(VisualLine(paragraph: 0, start: s, end: end, width: columns(s..<end), isReplacement: false, isSimple: true))
            s = cut
            lineWidth = otherLineWidth
        }
        return finishOnePass(n)
    }

    /// The whole paragraph's opportunities into `opportunities`; false when one of them
    /// is mandatory (before the text's end).
    private mutating func collectOpportunities(_ text: UnsafeBufferPointer<UInt8>, breakers: LayoutBreakers) -> Bool {
        opportunities.removeAll(keepingCapacity: true)
        var hasHardBreak = false
        breakers.line.forEachOpportunity(in: text) { at, isHard in
            if isHard && at < text.count { hasHardBreak = true }
            opportunities.append(Int32(at))
        }
        return !hasHardBreak
    }

    /// Back to a fresh wrapper's state, for the cluster path to segment and scan the
    /// paragraph again; false.
    private mutating func declineOnePass() -> Bool {
        pending.removeAll(keepingCapacity: true)
        pendingReadsThrough = false
        walkHead = -1
        afterControl = false
        opportunities.removeAll(keepingCapacity: true)
        segmented = 0
        return false
    }

    /// The paragraph of `count` bytes is laid out; true.
    private mutating func finishOnePass(_ count: Int) -> Bool {
        segmented = count
        lineStart = count
        onFirstLine = false
        isDone = true
        return true
    }

    /// Lays out a complete paragraph that fits on its first line as that line, found
    /// without looking for an opportunity: with no mandatory break, every path places
    /// it whole, each tab to its next stop. (ICU's line breaker was most of the cost of
    /// a short line with marks or emoji, and a list item of 70 columns with Thai in it
    /// loaded ICU's Thai dictionary, 6 M instructions; a line of Go, indented with
    /// tabs, went cluster by cluster.) False when it does not fit, its clusters left
    /// segmented for ``wrapClusters(_:breakers:emit:)`` or the cluster path.
    ///
    /// - Complexity: O(n) in the bytes.
    private mutating func fitsWhole(_ text: UnsafeBufferPointer<UInt8>, breakers: LayoutBreakers,
                                    emit: (VisualLine) -> Void) -> Bool {
        guard text.count <= maximumLineBytes, !Self.holdsMandatoryBreak(text) else { return false }
        segment(text, upTo: text.count, closed: true, breakers: breakers)
        var column = 0, tabbed = false
        for c in pending {
            // (A tab to its stop, not cut at the edge: one that would be cut does not fit.)
            if c.kind == .tab {
                column += settings.tabSize - column % settings.tabSize
                tabbed = true
            } else {
                column += c.kind == .space ? 1 : Int(c.width)
            }
            if column > firstLineWidth { return false }
        }
        // (A tab is no cell: its line's bytes are not its cells.)
        emit(VisualLine(paragraph: 0, start: 0, end: text.count, width: column, isReplacement: false, isSimple: false,
                        cellsAreBytes: marksCells && !tabbed && cellsAreBytes(0..<pending.count, of: text)))
        return finishOnePass(text.count)
    }

    /// Whether `text` holds a character after which a line must end (line-break classes
    /// BK, CR, LF and NL: U+000A-000D, U+0085, U+2028, U+2029).
    static func holdsMandatoryBreak(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in text.indices {
            switch text[i] {
            case 0x0A...0x0D: return true
            case 0x85: if i > 0 && text[i - 1] == 0xC2 { return true }
            case 0xA8, 0xA9: if i > 1 && text[i - 1] == 0x80 && text[i - 2] == 0xE2 { return true }
            default: continue
            }
        }
        return false
    }

    /// Lays out a complete paragraph in one pass over its clusters and opportunities,
    /// as ``wrapSimple(_:ascii:breakers:emit:)`` does simple text, with what simple text
    /// lacks: a cluster wider than the line is a replacement filling it, zero-width
    /// clusters end a line at ``maximumLineBytes``, and an opportunity inside a cluster
    /// is none. False (nothing laid out) when the text has a mandatory break or its
    /// opportunities are far apart (``opportunitiesAreNear(_:end:)``): the cluster
    /// path takes it.
    ///
    /// - Precondition: the text holds no tab and no scalar of a script broken with a
    ///   dictionary.
    /// - Complexity: O(n) in the bytes.
    private mutating func wrapClusters(_ text: UnsafeBufferPointer<UInt8>, breakers: LayoutBreakers,
                                       emit: (VisualLine) -> Void) -> Bool {
        guard collectOpportunities(text, breakers: breakers) else { return declineOnePass() }
        segment(text, upTo: text.count, closed: true, breakers: breakers)
        let n = pending.count
        // Whether each cluster has an opportunity at its start.
        breakBefore.removeAll(keepingCapacity: true)
        var o = 0
        for c in pending {
            while o < opportunities.count && opportunities[o] < c.start { o += 1 }
            breakBefore.append(o < opportunities.count && opportunities[o] == c.start)
        }
        let used = zip(pending, breakBefore).lazy.filter { $0.1 }.map { $0.0.start }
        guard Self.opportunitiesAreNear(used, end: text.count) else { return declineOnePass() }
        func start(_ i: Int) -> Int { i < n ? Int(pending[i].start) : text.count }
        func columns(_ range: Range<Int>) -> Int {
            var column = 0
            for i in range { column += pending[i].kind == .space ? 1 : Int(pending[i].width) }
            return column
        }
        func emitLine(_ from: Int, _ to: Int) {
            var k = to
            while k > from && pending[k - 1].kind == .space { k -= 1 }
            emit(VisualLine(paragraph: 0, start: start(from), end: start(k), width: columns(from..<k), isReplacement: false,
                            isSimple: false, cellsAreBytes: marksCells && cellsAreBytes(from..<k, of: text)))
        }
        let maximumBytes = maximumLineBytes
        var s = 0
        var lineWidth = firstLineWidth
        while s < n {
            // The first cluster that is not a space and does not fit (spaces hang past
            // the edge), and where the clusters within the edge end.
            var over = n, fit = s, fitColumn = 0, column = 0
            for i in s..<n {
                let c = pending[i]
                if c.kind == .space {
                    column += 1
                } else {
                    if column + Int(c.width) > lineWidth || Int(c.end) - Int(pending[s].start) > maximumBytes {
                        over = i
                        break
                    }
                    column += Int(c.width)
                }
                if column <= lineWidth { (fit, fitColumn) = (i + 1, column) }
            }
            if over == n {
                // The last line: spaces past the edge dropped.
                emit(VisualLine(paragraph: 0, start: start(s), end: start(fit), width: fitColumn, isReplacement: false,
                                isSimple: false, cellsAreBytes: marksCells && cellsAreBytes(s..<fit, of: text)))
                break
            }
            if let cut = stride(from: over, to: s, by: -1).first(where: { breakBefore[$0] }) {
                emitLine(s, cut)
                s = cut
            } else if over == s {
                // Wider than the whole line: a replacement filling it; spaces after it hang.
                emit(VisualLine(paragraph: 0, start: start(s), end: Int(pending[s].end), width: lineWidth, isReplacement: true))
                s += 1
                while s < n && pending[s].kind == .space { s += 1 }
            } else {
                emitLine(s, over)
                s = over
            }
            lineWidth = otherLineWidth
        }
        return finishOnePass(text.count)
    }

    /// Whether the pending clusters in `range`, a line of `text`, are cells as they are
    /// (``VisualLine/cellsAreBytes``). (Out of line: inlined, it made the layout's
    /// hot paths larger and slower where nothing marks lines.)
    @inline(never)
    private func cellsAreBytes(_ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in range where pending[i].kind != .space {
            let c = pending[i], start = Int(c.start), end = Int(c.end)
            if end - start == 1 && text[start] < 0x80 { continue }  // (printable ASCII: no tab here)
            guard DisplayWidth.cellsAreBytes(ofCluster: UnsafeBufferPointer(rebasing: text[start..<end]), width: Int(c.width),
                                             policy: settings.policy, startsRow: i == range.lowerBound) else { return false }
        }
        return true
    }

    /// Per cluster of a paragraph laid out in one pass: an opportunity at its start.
    private var breakBefore: [Bool] = []

    /// The offset up to which the current line's text can no longer move to another
    /// line (text before the line's last opportunity; all of it if it has none;
    /// trailing spaces excluded, as a wrap would drop them). A plain-text writer may
    /// print up to here before the line is final.
    var certainEnd: Int {
        if line.first?.isReplacement == true { return lineStart }  // printed only whole
        var k = lastBreakIndex > 0 ? lastBreakIndex : line.count
        while k > 0 && line[k - 1].kind == .space { k -= 1 }
        return k > 0 ? Int(line[k - 1].end) : lineStart
    }

    // MARK: - Segmentation

    /// Segments `text[segmented..<limit]` into `pending` (`limit` at a scalar's start).
    private mutating func segment(_ text: UnsafeBufferPointer<UInt8>, upTo limit: Int, closed: Bool,
                                  breakers: LayoutBreakers) {
        guard segmented < limit, let base = text.baseAddress else { return }
        let consumed = GraphemeSegmenter.segment(
            UnsafeBufferPointer(rebasing: text[segmented..<limit]), final: closed && limit == text.count, fast: true,
            policy: settings.policy, breaker: breakers.grapheme
        ) { bytes, width, isASCIIRun in
            let start = Int32(bytes.baseAddress! - base)
            if isASCIIRun {
                for k in 0..<bytes.count {
                    let b = bytes[k]
                    let kind: Kind = b == 0x20 ? .space : b == 0x09 ? .tab : .text
                    pending.append(Cluster(start: start + Int32(k), end: start + Int32(k + 1),
                                           width: Int32(DisplayWidth.asciiWidth(b)), kind: kind))
                }
                afterControl = bytes[bytes.count - 1] == 0x09
            } else {
                // A space or tab before non-ASCII text comes through ICU, alone.
                let kind: Kind = bytes.count == 1 && bytes[0] == 0x20 ? .space : bytes.count == 1 && bytes[0] == 0x09 ? .tab : .text
                // Those read through are of no width but U+FFF9-FFFB (EF BF) and U+3035: most clusters are
                // ruled out by a compare or two, the rest out of line.
                if width == 0 || afterControl || (bytes[0] == 0xEF && bytes.count > 2 && bytes[1] == 0xBF)
                    || (bytes[0] == 0xE3 && bytes.count > 2 && bytes[1] == 0x80 && bytes[2] == 0xB5) {
                    appendMaybeReadThrough(Cluster(start: start, end: start + Int32(bytes.count), width: Int32(width), kind: kind), bytes)
                } else {
                    pending.append(Cluster(start: start, end: start + Int32(bytes.count), width: Int32(width), kind: kind))
                    if kind == .tab { afterControl = true }
                }
            }
        }
        segmented += consumed
    }

    // MARK: - Opportunities

    /// Whether there is an opportunity (and whether it is mandatory) before `c`, or
    /// nil while later text could still change the answer.
    private mutating func status(of c: Cluster, _ text: UnsafeBufferPointer<UInt8>, closed: Bool,
                                 breakers: LayoutBreakers) -> (Bool, Bool)? {
        if cutsAnywhere { return (true, false) }
        while !isKnown() {
            // (Deciding it from a scan waited for the run's end and scanned past it again
            // after every restart forced inside it: O(M²) in a run of M bidi marks.)
            if c.joinsPrevious { return (false, false) }
            let ahead = lookaheadIndex()
            let lastKnown = pending.count - 1
            // Scan far enough to see the lookahead clusters (or everything, when the
            // paragraph is complete and they do not exist).
            let needed: Int, lookahead: Int
            if ahead + Self.rescanBatch <= lastKnown {
                lookahead = Int(pending[ahead].end)
                needed = max(lookahead, farScanEnd(knownEnd: Int(pending[lastKnown].end)))
            } else if closed && segmented == text.count {
                needed = text.count
                lookahead = needed
            } else {
                return nil  // wait for more text
            }
            guard rescan(text, to: needed, lookahead: lookahead, closed: closed, final: closed && segmented == text.count,
                         breakers: breakers) else { return nil }
        }
        let q = c.start
        while opportunityCursor < opportunities.count && opportunities[opportunityCursor] < q {
            opportunityCursor += 1
        }
        if opportunityCursor < opportunities.count && opportunities[opportunityCursor] == q {
            // (What the answer without a scan above takes for granted; tests run with it.)
            assert(!c.joinsPrevious, "an opportunity before a cluster LB9 attaches to the one before")
            return (true, isHardBreak(at: Int(q)))
        }
        return (false, false)
    }

    /// Where a rescan from R may read to, with the clusters known up to `knownEnd`:
    /// twice as far past R as the last scan reached (from R, or from before R when R
    /// moved keeping it), up to where R is forced on, so the
    /// rescans of one long word cost O(its length). (Scanning just past the lookahead
    /// rescanned from R for every cluster of a word with no opportunity: 256 bytes of
    /// scanning per byte of a long hex string.)
    private func farScanEnd(knownEnd: Int) -> Int {
        let reach = restart + Self.forcedRestartAnywhere + Self.scanWindow
        // After a restart forced past no opportunity, the text likely goes on without
        // one: growing the scan again from a window rescanned each run's first bytes
        // three times (a third of a run of bidi marks' time in ICU's line breaker).
        let grown = scanEnd > restart ? restart + 2 * (scanEnd - restart)
            : restartWasForced && scansReachAfterForcedRestarts ? reach : restart + Self.scanWindow
        return min(knownEnd, grown, reach)
    }

    /// Scans from R to `needed` (at least ``scanWindow`` past R), where a run of a
    /// dictionary script lets it end (``dictionaryRunEnd(_:from:origin:lookahead:final:)``);
    /// false, scanning nothing, when that needs more text or reads no further.
    ///
    /// - Complexity: O(n) in the bytes from R to the scan's end.
    private mutating func rescan(_ text: UnsafeBufferPointer<UInt8>, to needed: Int, lookahead: Int, closed: Bool,
                                 final: Bool, breakers: LayoutBreakers) -> Bool {
        guard let end = Self.dictionaryRunEnd(text, from: min(text.count, max(restart + Self.scanWindow, needed)),
                                              origin: restart, lookahead: lookahead, final: final),
              end > scanEnd || (closed && end == text.count && !scanIsFinal) else { return false }
        scan(text, to: end, closed: closed, breakers: breakers)
        return true
    }

    /// Whether the opportunity at `at` (one of the scan's) is mandatory.
    @inline(__always)
    private func isHardBreak(at: Int) -> Bool {
        hardBreaks.isEmpty ? false : Self.contains(hardBreaks, at)
    }

    /// Whether `sorted` holds `value` (a binary search).
    private static func contains(_ sorted: [Int32], _ value: Int) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if Int(sorted[mid]) < value { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && Int(sorted[low]) == value
    }

    private mutating func isKnown() -> Bool {
        if scanIsFinal { return true }
        let ahead = lookaheadIndex()
        return ahead < pending.count && Int(pending[ahead].end) <= scanEnd
    }

    /// The index in `pending` of the last of the ``lookaheadClusters`` clusters after the
    /// next one to place, not counting those read through (at or past `pending.count`
    /// when they are not all segmented yet). A rule's context may span any number of
    /// them (LB25 reads `$(` then marks then a digit), so counting them would decide an
    /// opportunity before its context arrived.
    ///
    /// - Complexity: O(1) unless clusters are read through; then amortized O(1) per
    ///   cluster segmented or placed (the walk goes on from the last one's end).
    @inline(__always)  // (per cluster: out of line, with the walk in it, it cost CJK 0.8%)
    private mutating func lookaheadIndex() -> Int {
        pendingReadsThrough ? walkedLookaheadIndex() : pendingHead + Self.lookaheadClusters
    }

    /// ``lookaheadIndex()`` where clusters are read through.
    @inline(never)
    private mutating func walkedLookaheadIndex() -> Int {
        if walkHead != pendingHead {
            if walkHead >= 0 && walkHead < pendingHead && pendingHead <= walkEnd {
                // The head moved on inside the walk: what it passed is no longer after it.
                for k in (walkHead + 1)...pendingHead where !pending[k].readThrough { walkCounted -= 1 }
            } else {
                walkEnd = pendingHead
                walkCounted = 0
            }
            walkHead = pendingHead
        }
        while walkCounted < Self.lookaheadClusters {
            if walkEnd + 1 >= pending.count { return walkEnd + Self.lookaheadClusters - walkCounted }
            walkEnd += 1
            lookaheadSteps += 1
            if !pending[walkEnd].readThrough { walkCounted += 1 }
        }
        return walkEnd
    }

    /// Appends `cluster` (of `bytes`), read through or not (``isReadThrough(_:afterControl:)``).
    @inline(never)
    private mutating func appendMaybeReadThrough(_ cluster: Cluster, _ bytes: UnsafeBufferPointer<UInt8>) {
        var cluster = cluster
        cluster.readThrough = Self.isReadThrough(bytes, afterControl: afterControl)
        cluster.joinsPrevious = cluster.readThrough && afterControl
        pending.append(cluster)
        if cluster.readThrough { pendingReadsThrough = true }
        afterControl = cluster.readThrough || cluster.kind == .tab
    }

    /// Whether the non-ASCII cluster `bytes` is read through by the line-break rules
    /// (``Cluster/readThrough``): a scalar of class CM that starts its own cluster (a bidi
    /// mark, embedding or isolate, an interlinear annotation or tag mark, U+3035; a review
    /// helper's scan of every code point against ICU 72 found no other), or, after one or a
    /// tab (`afterControl`), a scalar LB9 attaches (class CM or ZWJ) that starts its
    /// cluster. Each is of class CM or ZWJ, so after one or a tab it is never an
    /// opportunity (``Cluster/joinsPrevious``).
    static func isReadThrough(_ bytes: UnsafeBufferPointer<UInt8>, afterControl: Bool) -> Bool {
        // (Valid UTF-8: the cluster's first scalar read directly, not through a decoder.)
        guard !bytes.isEmpty else { return false }
        let scalar = DisplayWidth.decodeScalar(bytes, at: 0).0
        switch scalar {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x206F, 0xFFF9...0xFFFB,
             0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0001,
             0x3035:  // (a kana repeat mark's lower half: class CM, yet a cluster of its own, two columns)
            return true
        default:
            // (Marks of other classes, GL or BA, are not: LB9 attaches CM and ZWJ alone. A
            // run of bidi marks each followed by U+035C waited for its end, as bidi marks
            // alone did.)
            return afterControl && ScalarProperties.joinsLineBefore(scalar)
        }
    }

    private mutating func scan(_ text: UnsafeBufferPointer<UInt8>, to requested: Int, closed: Bool,
                               breakers: LayoutBreakers) {
        var end = requested
        // Never cut a scalar: back up to its first byte.
        while end < text.count && end > restart && text[end] & 0xC0 == 0x80 { end -= 1 }
        let final = closed && end == text.count
        opportunities.removeAll(keepingCapacity: true)
        hardBreaks.removeAll(keepingCapacity: true)
        opportunityCursor = 0
        let origin = restart
        scannedBytes += end - origin
        scanWasFast = breakers.line.scanOpportunities(in: UnsafeBufferPointer(rebasing: text[origin..<end])) { offset, isHard in
            let at = origin + offset
            if at < end || final {
                opportunities.append(Int32(at))
                if isHard { hardBreaks.append(Int32(at)) }
            }
        }
        scanEnd = end
        scanIsFinal = final
    }

    /// Where a scan from `origin` meant to end at `end` may end. ICU breaks Thai, Lao,
    /// Khmer and Myanmar with a dictionary over each run of such text, so where a
    /// run's scan ends can move any break in it: a scan never ends inside a run, nor
    /// passes one's cut, at a point that depends on how much has arrived or on when
    /// the scan was made. A run is scanned to its end, or cut at the last scalar
    /// before the first multiple of ``scanWindow`` bytes past its start (or past
    /// `origin`, a forced restart inside it) that covers `lookahead`; nil means wait
    /// for more of a run.
    ///
    /// - Complexity: O(n) in the bytes from `origin` to the result.
    static func dictionaryRunEnd(_ text: UnsafeBufferPointer<UInt8>, from end: Int, origin: Int, lookahead: Int,
                                 final: Bool) -> Int? {
        var e = end
        while e < text.count && e > origin && text[e] & 0xC0 == 0x80 { e -= 1 }
        guard e > origin else { return e }
        var p = firstDictionaryLead(text, from: origin, to: e)
        if p == e { return e }
        var inRun = false
        var cut = 0
        while true {
            if p == text.count { return inRun && !final ? nil : p }
            let lead = text[p]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            if p + length > text.count { return final ? text.count : nil }
            var starts = false, joins = false
            // Only these lead bytes begin a scalar of a run or a joiner (not CJK or emoji).
            switch lead {
            case 0xCC, 0xCD, 0xE0, 0xE1, 0xE2, 0xEA, 0xEF, 0xF3:
                let scalar = DisplayWidth.decodeScalar(text, at: p).0
                starts = isDictionaryScalar(scalar)
                joins = inRun && (starts || joinsDictionaryRun(scalar))
            default: break
            }
            if !joins {
                if p >= e { return p }  // outside a run, at or past the end asked for
                inRun = starts
                if starts { cut = p + scanWindow * max(1, (lookahead - p + scanWindow - 1) / scanWindow) }
            }
            if inRun && p + length > cut { return p }
            p += length
        }
    }

    /// The offset of the first byte in `text[from..<to]` that may start a scalar of a
    /// dictionary run (``isDictionaryScalar(_:)``), or `to`. Every such scalar has one
    /// of three lead bytes, E0, E1 or EA (none in ASCII, CJK or emoji); Indic,
    /// Georgian, Vietnamese and some Hangul share them.
    ///
    /// - Complexity: O(n) in the bytes (three `memchr`s).
    static func firstDictionaryLead(_ text: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let base = text.baseAddress else { return to }
        return min(ByteSearch.find(0xE0, base, from: from, to: to), ByteSearch.find(0xE1, base, from: from, to: to),
                   ByteSearch.find(0xEA, base, from: from, to: to))
    }

    /// Whether `text` holds a scalar of a dictionary run (``isDictionaryScalar(_:)``):
    /// the lead bytes of ``firstDictionaryLead(_:from:to:)`` read as scalars. (Indic text
    /// shares the lead byte E0 with Thai: by lead byte alone, every paragraph of Hindi
    /// or Tamil went the cluster-by-cluster way.)
    ///
    /// - Precondition: `text` is valid UTF-8.
    /// - Complexity: O(n) in the bytes (three `memchr`s where there is no such lead).
    static func containsDictionaryScalar(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var p = firstDictionaryLead(text, from: 0, to: text.count)
        while p < text.count {
            let b = text[p]
            if (b == 0xE0 || b == 0xE1 || b == 0xEA) && p + 2 < text.count
                && isDictionaryScalar(DisplayWidth.decodeScalar(text, at: p).0) {
                return true
            }
            p += 1
        }
        return false
    }

    /// The blocks of the scripts UAX #14 puts in class SA that ICU breaks with a
    /// dictionary: Thai, Lao, Myanmar and its extensions, Khmer and its symbols; and
    /// Tai Le, New Tai Lue, Tai Tham and Tai Viet, which ICU keeps whole. (Ahom, the
    /// one such script outside the BMP, has no dictionary: nothing in a run moves.)
    /// Whole blocks: a superset only scans further.
    @inline(__always)
    static func isDictionaryScalar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0E01...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x1950...0x1AAF, 0xA9E0...0xA9FF,
             0xAA60...0xAADF: return true
        default: return false
        }
    }

    /// Marks, joiners and selectors that ICU keeps in the run they follow.
    @inline(__always)
    static func joinsDictionaryRun(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200C...0x200D, 0x20D0...0x20FF,
             0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xE0100...0xE01EF: return true
        default: return false
        }
    }

    /// Moves the restart point after placing `c` (see the type's documentation);
    /// true when the scan was dropped (R forced on: the next status rescans).
    @discardableResult
    @inline(__always)  // (per cluster; out of line it cost CJK 2.5% of its instructions)
    private mutating func moveRestart(past c: Cluster, isBreak: Bool, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let q = Int(c.start)
        if q <= restart { return false }
        if isBreak && text[q - 1] == 0x20 {
            restart = q  // the scan from before stays valid: nothing before a space matters
            restartWasForced = false
        } else if (isBreak && q - restart >= Self.forcedRestartAtOpportunity)
                    || (q - restart >= Self.forcedRestartAnywhere
                        && (Self.readsAsInContext(text, at: q) || q - restart >= Self.forcedRestartAnywhere + Self.forcedRestartGrace)) {
            if !isBreak && q - restart >= Self.forcedRestartAnywhere + Self.forcedRestartGrace && !Self.readsAsInContext(text, at: q) {
                restartsOutOfContext += 1
            }
            restart = q
            restartWasForced = !isBreak
            // At an opportunity the fast path's reading from q as the text's start is
            // its reading in context (a differential test checks every opportunity of
            // random texts): the scan from before stays valid. Emoji and CJK, with an
            // opportunity between any two and none after a space, rescanned every 64
            // bytes. (ICU's reading is not known to be the same: it rescans.)
            if isBreak && scanWasFast && keepsScansAtRestarts {
                scansKeptAtRestarts += 1
                return false
            }
            scanEnd = q
            scanIsFinal = false
            opportunities.removeAll(keepingCapacity: true)
            hardBreaks.removeAll(keepingCapacity: true)
            opportunityCursor = 0
            return true
        }
        return false
    }

    /// Whether the cluster at `q` starts with a letter, a digit, an ideograph or a Hangul
    /// syllable: a scan from there finds what one from before it finds. Not so from a
    /// hyphen (ICU keeps a hyphen at the text's start with the letter after it), a mark
    /// or joiner, a slash, a closing bracket or a stop after a digit (a number goes on),
    /// or a break-after character after a Hebrew letter (UAX #14's LB21a), which a
    /// forced restart at any cluster used to land on (an ICU differential found them).
    @inline(never)  // (rare: inlined, it cost CJK 3% of its instructions in the code around it)
    static func readsAsInContext(_ text: UnsafeBufferPointer<UInt8>, at q: Int) -> Bool {
        let b = text[q]
        if b < 0x80 { return (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || (b >= 0x30 && b <= 0x39) }
        guard let (lineClass, _) = ASCIILineBreak.table.withUnsafeBufferPointer({ ASCIILineBreak.nonASCIIClass(text, at: q, $0) })
        else { return false }
        switch lineClass {
        case .al, .nu, .id, .h2, .h3: return true
        default: return false
        }
    }

    // MARK: - Placing

    private mutating func place(_ c: Cluster, isBreak: Bool, isHard: Bool, _ emit: (VisualLine) -> Void) {
        if isHard && Int(c.start) > lineStart {
            commitLine(upTo: line.count, trimSpaces: true, nextStart: Int(c.start), emit)
        }
        placeOnLine(c, isBreak: isBreak, emit)
    }

    /// Places `c` on the current line, wrapping first if it does not fit.
    private mutating func placeOnLine(_ c: Cluster, isBreak: Bool, _ emit: (VisualLine) -> Void) {
        let width = self.width
        if isBreak && !line.isEmpty { lastBreakIndex = line.count }
        let w: Int
        switch cutsAnywhere && c.kind == .space ? .text : c.kind {
        case .space:
            // Spaces never wrap: those that do not fit hang past the edge.
            if hungCount == 0 && column + 1 <= width {
                append(c, width: 1, isBreak: isBreak)
            } else {
                if hungCount == 0 { hungStart = Int(c.start) }
                hungCount += 1
            }
            return
        case .tab: w = tabWidth(at: column)
        case .text: w = Int(c.width)
        }
        // Nothing joins a replacement: it already fills the line. A line also ends
        // before it would hold more than ``maximumLineBytes``: zero-width clusters
        // (marks cut from an endless stack, zero-width spaces) never fill a line, and
        // every frame draws the current line again.
        let fits = line.first?.isReplacement != true && (c.kind == .tab ? w > 0 : column + w <= width)
            && (c.kind != .text || Int(c.end) - lineStart <= maximumLineBytes)
        if hungCount == 0 && fits {
            append(c, width: w, isBreak: isBreak)
        } else if line.isEmpty && hungCount == 0 {
            // Wider than the whole line: a replacement filling it.
            append(c, width: width, isBreak: false, isReplacement: true)
        } else {
            wrap(before: c, emit)
            placeOnLine(c, isBreak: false, emit)
        }
    }

    private mutating func append(_ c: Cluster, width w: Int, isBreak: Bool, isReplacement: Bool = false) {
        column += w
        line.append(Placed(start: c.start, end: c.end, columnAfter: Int32(column), kind: c.kind,
                           breakBefore: isBreak && !line.isEmpty, isReplacement: isReplacement))
    }

    /// Ends the current line before `c`: at the last opportunity inside it, or right
    /// before `c` if there is none; then moves what followed the opportunity down.
    private mutating func wrap(before c: Cluster, _ emit: (VisualLine) -> Void) {
        guard lastBreakIndex > 0 && lastBreakIndex < line.count else {
            // The break is right before `c` (spaces hanging before it are dropped), or
            // there is none: the line keeps everything placed.
            commitLine(upTo: line.count, trimSpaces: !cutsAnywhere, nextStart: Int(c.start), emit)
            return
        }
        let moved = Array(line[lastBreakIndex...])
        var previousColumn = line[lastBreakIndex - 1].columnAfter
        let (hungAt, hung) = (hungStart, hungCount)
        commitLine(upTo: lastBreakIndex, trimSpaces: true, nextStart: Int(moved[0].start), emit)
        for (k, p) in moved.enumerated() {
            // Tabs are re-measured where they land; a replacement stays one.
            let w = p.isReplacement ? Int32(width + 1) : p.columnAfter - previousColumn
            previousColumn = p.columnAfter
            placeOnLine(Cluster(start: p.start, end: p.end, width: w, kind: p.kind), isBreak: p.breakBefore && k > 0, emit)
        }
        for s in 0..<hung {
            let at = Int32(hungAt + s)
            placeOnLine(Cluster(start: at, end: at + 1, width: 1, kind: .space), isBreak: false, emit)
        }
    }

    /// Reports the line made of the first `count` placed clusters and starts the next
    /// line at `nextStart`.
    private mutating func commitLine(upTo count: Int, trimSpaces: Bool, nextStart: Int, _ emit: (VisualLine) -> Void) {
        var k = count
        if trimSpaces {
            while k > 0 && line[k - 1].kind == .space { k -= 1 }
        }
        let end = k > 0 ? Int(line[k - 1].end) : lineStart
        let width = k > 0 ? Int(line[k - 1].columnAfter) : 0
        emit(VisualLine(paragraph: 0, start: lineStart, end: end, width: width,
                        isReplacement: k == 1 && line[0].isReplacement))
        line.removeAll(keepingCapacity: true)
        lineStart = nextStart
        onFirstLine = false
        column = 0
        lastBreakIndex = -1
        hungCount = 0
    }
}
