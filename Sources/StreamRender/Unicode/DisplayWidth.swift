/// Display width, in terminal columns, of scalars and grapheme clusters.
public enum DisplayWidth: Sendable {
    /// The width of one scalar as the Python `wcwidth` package computes it, with two
    /// differences: C0/C1 controls and DEL are 0 here (`wcwidth` says -1; controls
    /// never reach a layout, the document turns them into visible symbols, so a
    /// non-negative answer keeps every sum safe), and spacing marks (Mc) are 1, as
    /// glibc's `wcwidth` and tmux count them (the package says 0).
    ///
    /// - Complexity: O(1).
    public static func wcwidth(_ scalar: Unicode.Scalar, ambiguousIsWide: Bool = false) -> Int {
        wcwidth(scalar.value, ambiguousIsWide: ambiguousIsWide)
    }

    @inlinable
    static func wcwidth(_ value: UInt32, ambiguousIsWide: Bool) -> Int {
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if isPlainWide(value) { return 2 }
        return wcwidth(value, ScalarProperties.of(value), ambiguousIsWide: ambiguousIsWide)
    }

    @inlinable
    static func wcwidth(_ value: UInt32, _ p: ScalarProperties, ambiguousIsWide: Bool) -> Int {
        switch p.generalCategory {
        // Spacing marks (Mc: Tamil and Devanagari vowel signs...) take a column, as in
        // glibc's wcwidth and tmux; the Python package says 0, and rows overflowed.
        case ScalarProperties.nonSpacingMark, ScalarProperties.enclosingMark,
             ScalarProperties.lineSeparator, ScalarProperties.paragraphSeparator:
            return 0
        case ScalarProperties.format:
            // Soft hyphen and the prepended concatenation marks (U+0600...) print.
            if value == 0xAD || p.isPrependedConcatenationMark { return 1 }
            return 0
        default:
            break
        }
        // Hangul medial vowels and final consonants join the preceding syllable.
        let hst = p.hangulSyllableType
        if hst == 2 || hst == 3 { return 0 }
        // The package counts regional indicators as wide, one by one.
        if p.isWideOrFullwidth || p.isRegionalIndicator { return 2 }
        if ambiguousIsWide && p.isAmbiguous { return 2 }
        return 1
    }

    /// The width of one grapheme cluster under `policy`.
    ///
    /// `cluster` must be one cluster's valid UTF-8 (as ``GraphemeSegmenter`` reports
    /// it); widths of other text are the sum of its clusters' widths.
    ///
    /// - Complexity: O(n) in the cluster's bytes.
    public static func ofCluster(_ cluster: UnsafeBufferPointer<UInt8>, policy: WidthPolicy) -> Int {
        let n = cluster.count
        if n == 0 { return 0 }
        let first = cluster[0]
        if n == 1 && first < 0x80 { return asciiWidth(first) }
        let mode = policy.mode(of: cluster)
        switch mode {
        case .wcwidth, .scalars:
            // Per code point, under `wcwidth` with two joins tmux 3.3 makes (measured:
            // `a` + a ZWJ family leaves the cursor at column 3, `a🇫🇷` at 3): the scalar
            // after a ZWJ is drawn in the joiner's cell (Python's wcswidth skips it
            // too), and the second regional indicator of a flag in the first one's cell.
            var total = 0
            var i = 0
            var joins = WcwidthJoins(joining: mode == .wcwidth)
            while i < n {
                let (scalar, next) = decodeScalar(cluster, at: i)
                if !joins.joinsPrevious(scalar) { total += wcwidth(scalar, ambiguousIsWide: policy.ambiguousIsWide) }
                i = next
            }
            return total
        case .grapheme:
            return graphemeWidth(cluster, ambiguousIsWide: policy.ambiguousIsWide)
        }
    }

    /// The width of a string (the sum of its clusters' widths) under `policy`.
    ///
    /// - Complexity: O(n) in the string's UTF-8 bytes.
    public static func of(_ text: String, policy: WidthPolicy = .grapheme) -> Int {
        var total = 0
        var segmenter = GraphemeSegmenter(policy: policy)
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { _, width in total += width }
        var copy = text
        copy.withUTF8 { segmenter.feed($0, sink) }
        segmenter.finish(sink)
        return total
    }

    /// CJK ideographs and Hangul syllables: East Asian Wide, not emoji, not marks, not
    /// the Hangul jamo that join a syllable, so two columns under either policy without
    /// asking ICU (a test checks every one of them against ICU's properties).
    @inlinable @inline(__always)
    static func isPlainWide(_ v: UInt32) -> Bool {
        (v >= 0x4E00 && v <= 0x9FFF) || (v >= 0x3400 && v <= 0x4DBF) || (v >= 0xAC00 && v <= 0xD7A3)
            || (v >= 0xF900 && v <= 0xFAFF) || (v >= 0x20000 && v <= 0x2FFFD) || (v >= 0x30000 && v <= 0x3FFFD)
    }

    @inlinable @inline(__always)
    static func asciiWidth(_ byte: UInt8) -> Int {
        byte >= 0x20 && byte < 0x7F ? 1 : 0
    }

    /// Whether every byte of `text` is printable ASCII (see below).
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    static func isPrintableASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isPrintableASCII)
    }

    /// Whether every byte is ASCII (below 0x80).
    ///
    /// - Complexity: O(n) in the bytes, eight at a time.
    static func isASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiEnd(text, from: 0) == text.count
    }

    /// The index of the first byte at or after `start` that is not ASCII (0x80 or
    /// above), or the count.
    ///
    /// - Complexity: O(n) in the bytes passed, eight at a time.
    @inline(__always)
    static func asciiEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let n = text.count
        if let base = text.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
        }
        while i < n && text[i] < 0x80 { i += 1 }
        return i
    }

    /// Whether every byte is printable ASCII (0x20-0x7E): one column each, one
    /// cluster each. Eight bytes at a time.
    ///
    /// - Complexity: O(n) in the bytes.
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        printableASCIIEnd(bytes, from: 0) == bytes.count
    }

    /// Where the printable ASCII from `start` on ends (the first other byte, or the
    /// end). Eight bytes at a time.
    ///
    /// - Complexity: O(n) in the bytes read.
    @inline(__always)
    static func printableASCIIEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = start
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while i + 8 <= bytes.count {
                let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let del = w ^ (ones &* 0x7F)
                // A high bit, a byte below 0x20, a byte equal to 0x7F.
                if (w | ((w &- ones &* 0x20) & ~w) | ((del &- ones) & ~del)) & highs != 0 { break }
                i += 8
            }
        }
        while i < bytes.count && asciiWidth(bytes[i]) != 0 { i += 1 }
        return i
    }

    /// Whether a cell whose UTF-8 is `cell` needs a space before it: it starts with a
    /// combining mark (or, in grapheme mode, a spacing one), which a terminal would add
    /// to the cell on its left: the drawer puts such a cell on a space.
    ///
    /// - Complexity: O(1).
    static func needsBase(_ cell: UnsafeBufferPointer<UInt8>, policy: WidthPolicy) -> Bool {
        // (A scalar from U+0300 on, where marks start, has a lead byte from 0xCC.)
        cell[0] >= 0xCC && needsBase(DisplayWidth.decodeScalar(cell, at: 0).0, policy: policy)
    }

    /// ``needsBase(_:policy:)-(UnsafeBufferPointer<UInt8>,_)`` of a cell's first scalar.
    static func needsBase(_ scalar: UInt32, policy: WidthPolicy) -> Bool {
        // Arrows, operators, box drawing, shapes, symbols (U+2190-U+2BFF) hold no mark.
        // Nor do simple scalars (`SimpleText`: kana, ideographs, Hangul: most cells
        // here; their property lookups were a twentieth of a live view of CJK text).
        guard scalar >= 0x300, !(0x2190...0x2BFF).contains(scalar), SimpleText.width(of: scalar) == nil else { return false }
        // Letters and the like, by ICU's cached properties: no mark (the standard
        // library's were 600 instructions a cell of Thai or Devanagari in the live view).
        // Marks, extenders and what ICU's Unicode does not know yet (a newer terminal may
        // join it to the cell before) are decided by the standard library's, as before.
        let known = ScalarProperties.of(scalar)
        switch known.generalCategory {
        case ScalarProperties.nonSpacingMark, ScalarProperties.enclosingMark, ScalarProperties.spacingMark,
             ScalarProperties.unassigned:
            break
        default:
            if !known.isGraphemeExtend && scalar != 0x200D { return false }
        }
        guard let first = Unicode.Scalar(scalar) else { return false }
        let p = first.properties
        if policy.mode != .grapheme && p.generalCategory == .spacingMark && !p.isGraphemeExtend { return false }
        return p.isGraphemeExtend || p.generalCategory == .spacingMark || first == "\u{200D}"
    }

    static func graphemeWidth(_ cluster: UnsafeBufferPointer<UInt8>, ambiguousIsWide: Bool) -> Int {
        let (base, afterBase) = decodeScalar(cluster, at: 0)
        if base < 0x20 || (base >= 0x7F && base < 0xA0) { return 0 }
        if afterBase == cluster.count && isPlainWide(base) { return 2 }
        let p = ScalarProperties.of(base)
        var vs16 = false, vs15 = false, keycap = false, modifier = false, zwjPictographic = false
        var afterZWJ = false
        var i = afterBase
        while i < cluster.count {
            let (scalar, next) = decodeScalar(cluster, at: i)
            switch scalar {
            case 0xFE0F: vs16 = true
            case 0xFE0E: vs15 = true
            case 0x20E3: keycap = true
            case 0x200D: afterZWJ = true; i = next; continue
            default:
                if scalar >= 0x1F3FB && scalar <= 0x1F3FF { modifier = true }
                if afterZWJ && ScalarProperties.of(scalar).isExtendedPictographic { zwjPictographic = true }
            }
            afterZWJ = false
            i = next
        }
        if p.isEmoji || p.isExtendedPictographic {
            if vs16 || keycap || modifier { return 2 }
            if vs15 { return 1 }
            if p.isEmojiPresentation || p.isRegionalIndicator { return 2 }
            if zwjPictographic && p.isExtendedPictographic { return 2 }
        }
        if p.isWideOrFullwidth { return 2 }
        if p.isAmbiguous { return ambiguousIsWide ? 2 : 1 }
        // A prepended concatenation mark (U+0600...) prints over what follows it.
        if p.isPrependedConcatenationMark { return 1 }
        if p.isDefaultIgnorable || p.generalCategory == ScalarProperties.format { return 0 }
        return 1
    }

    /// Decodes the scalar starting at `i` in valid UTF-8.
    @inlinable @inline(__always)
    static func decodeScalar(_ buf: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b0 = UInt32(buf[i])
        if b0 < 0x80 { return (b0, i + 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(buf[i + 1] & 0x3F), i + 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | UInt32(buf[i + 1] & 0x3F) << 6 | UInt32(buf[i + 2] & 0x3F), i + 3)
        }
        return ((b0 & 0x07) << 18 | UInt32(buf[i + 1] & 0x3F) << 12 | UInt32(buf[i + 2] & 0x3F) << 6
                | UInt32(buf[i + 3] & 0x3F), i + 4)
    }
}

extension DisplayWidth {
    /// The pieces of one grapheme cluster (valid UTF-8, `width` columns under the
    /// policy) that a terminal measuring it by `mode` draws: under grapheme mode the
    /// cluster whole; under the per-scalar modes each scalar. `body` gets each piece's
    /// byte range in the cluster and its cell's width (at most 2), or 0 for a piece that
    /// joins the cell before it (no width, or joined after a ZWJ or a flag's first half).
    ///
    /// - Complexity: O(n) in the cluster's bytes.
    @inline(__always)
    static func forEachCellPiece(ofCluster cluster: UnsafeBufferPointer<UInt8>, width: Int, mode: WidthPolicy.Mode,
                                 ambiguousIsWide: Bool, _ body: (_ from: Int, _ to: Int, _ width: Int) -> Void) {
        if mode == .grapheme {
            body(0, cluster.count, min(width, 2))
            return
        }
        var joins = WcwidthJoins(joining: mode == .wcwidth)
        var i = 0
        while i < cluster.count {
            let (scalar, next) = decodeScalar(cluster, at: i)
            // The scalar after a ZWJ, and a flag's second half, join the cell before.
            body(i, next, joins.joinsPrevious(scalar) ? 0 : min(wcwidth(scalar, ambiguousIsWide: ambiguousIsWide), 2))
            i = next
        }
    }

    /// Whether the cells a terminal of `policy` makes of one grapheme cluster (valid
    /// UTF-8, `width` columns under the policy) are its bytes as they are, as a cell
    /// splitter cuts them (``forEachCellPiece(ofCluster:width:mode:ambiguousIsWide:_:)``):
    /// none needs a base, none ends in a space (GB9b), the cluster is no zero-width
    /// cell of its own in grapheme mode, and their widths add up to `width`.
    /// `startsRow`: the cluster is a row's first, where zero-width text before the first
    /// cell is dropped.
    ///
    /// - Complexity: O(n) in the cluster's bytes.
    static func cellsAreBytes(ofCluster cluster: UnsafeBufferPointer<UInt8>, width: Int, policy: WidthPolicy,
                              startsRow: Bool) -> Bool {
        if cluster.count > 1 && cluster[cluster.count - 1] == 0x20 { return false }
        let mode = policy.mode(of: cluster)
        var columns = 0, asIs = true
        forEachCellPiece(ofCluster: cluster, width: width, mode: mode, ambiguousIsWide: policy.ambiguousIsWide) { from, to, w in
            if w > 0 {
                if needsBase(UnsafeBufferPointer(rebasing: cluster[from..<to]), policy: policy) { asIs = false }
                columns += w
            } else if from == 0 && (startsRow || mode == .grapheme) {
                asIs = false
            }
        }
        return asIs && columns == width
    }
}

/// Which scalars of a cluster a per-code-point terminal draws in the cell before
/// them, beyond zero-width ones: the scalar after a ZWJ, and the second regional
/// indicator of a pair (tmux 3.3 draws a flag in one wide cell).
struct WcwidthJoins {
    private var afterJoiner = false
    private var unpairedIndicator = false
    /// False: nothing joins (``WidthPolicy/Mode-swift.enum/scalars``).
    private let joining: Bool

    init(joining: Bool = true) {
        self.joining = joining
    }

    /// Whether `scalar` joins the cell before it; call for every scalar in order.
    mutating func joinsPrevious(_ scalar: UInt32) -> Bool {
        guard joining else { return false }
        let isIndicator = scalar >= 0x1F1E6 && scalar <= 0x1F1FF
        let joins = afterJoiner || (isIndicator && unpairedIndicator)
        unpairedIndicator = isIndicator && !unpairedIndicator
        afterJoiner = scalar == 0x200D
        return joins
    }
}
