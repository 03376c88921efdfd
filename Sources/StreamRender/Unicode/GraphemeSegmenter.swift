import CICU

/// Splits UTF-8 arriving in arbitrary chunks into grapheme clusters (UAX #29,
/// through ICU) and measures each one's display width.
///
/// Chunks may be cut anywhere: inside a multi-byte scalar, between an emoji and a
/// following ZWJ, skin tone or VS16, between CR and LF. Invalid UTF-8 becomes
/// U+FFFD (see ``UTF8Repair``). Whatever the chunking, the clusters and widths
/// reported are those of one pass over the whole text.
///
/// The last cluster of what has arrived is **provisional**: the next bytes may
/// extend it (`e` may be followed by U+0301). It is held back in
/// ``provisionalText`` and reported only when a later boundary is certain, or at
/// ``finish(_:)``. ``stableByteCount`` is the length of the repaired text reported
/// so far.
///
/// Pure-ASCII runs never reach ICU: an ASCII byte followed by an ASCII byte is a
/// cluster of its own (CR LF is one cluster), which is exactly ICU's answer. Nor do
/// scalars that no rule joins, nor clusters of a base and marks, joiners, skin tones,
/// selectors or a flag's pair (``fastCluster(_:from:end:closed:)``). A
/// cluster longer than ``maximumClusterBytes`` (adversarial input such as
/// thousands of combining marks) is cut at a scalar boundary and segmentation
/// resumes from the cut, in every chunking alike, so the held-back tail stays bounded.
///
/// Not `Sendable`: it owns an ICU iterator (a mutable C object); one segmenter per
/// owner.
public struct GraphemeSegmenter {
    /// Clusters longer than this many bytes are cut (at a scalar boundary).
    public static let maximumClusterBytes = 256
    /// The most bytes given to ICU at once: more than a cluster cap (plus a scalar),
    /// so every window ends at least one cluster or cut.
    static let runWindow = 2 * maximumClusterBytes

    public let policy: WidthPolicy
    private var repair = UTF8Repair()
    private var pending: [UInt8] = []
    private let breaker: ICUBreaker
    /// Testing switch: when false every run goes through ICU (the differential tests).
    var usesASCIIFastPath: Bool

    /// The number of bytes of repaired text reported as stable clusters so far.
    public private(set) var stableByteCount: Int = 0

    /// The number of U+FFFD replacements made for invalid UTF-8 so far.
    public var replacementCount: Int { repair.replacements }

    public init(policy: WidthPolicy = .grapheme) {
        self.init(policy: policy, usesASCIIFastPath: true)
    }

    /// A segmenter that can be told to send ASCII through ICU too, so tests and
    /// benchmarks can compare the fast path with ICU alone.
    @_spi(Benchmarks)
    public init(policy: WidthPolicy, usesASCIIFastPath: Bool) {
        self.policy = policy
        self.usesASCIIFastPath = usesASCIIFastPath
        self.breaker = ICUBreaker(.character)
    }

    /// The repaired bytes not yet reported: the provisional last cluster (and, at
    /// most, an incomplete scalar is held inside the UTF-8 repair, not here).
    public var provisionalText: [UInt8] { pending }

    /// Appends `bytes` and reports every cluster that became stable, in order, as its
    /// repaired UTF-8 and its width.
    ///
    /// - Complexity: O(n + p) where n is the bytes fed and p the provisional tail
    ///   (at most ``maximumClusterBytes``); amortized O(n).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        repair.repair(bytes, into: &pending)
        process(final: false) { Self.split($0, $1, $2, emit) }
    }

    /// Appends `bytes` and reports what became stable as **segments**: either one
    /// cluster (`isASCIIRun` false, `width` its width) or a run of ASCII bytes that
    /// are each a cluster of their own (`isASCIIRun` true, `width` their total; each
    /// byte's width is 1, or 0 for a control). Runs let callers handle ASCII text
    /// in bulk.
    ///
    /// - Complexity: amortized O(n) in the bytes fed.
    public mutating func feedSegments(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (_ bytes: UnsafeBufferPointer<UInt8>, _ width: Int, _ isASCIIRun: Bool) -> Void) {
        repair.repair(bytes, into: &pending)
        process(final: false, emit)
    }

    /// Ends the input and reports the remaining segments (see ``feedSegments(_:_:)``).
    ///
    /// - Complexity: O(p) in the provisional tail.
    public mutating func finishSegments(_ emit: (_ bytes: UnsafeBufferPointer<UInt8>, _ width: Int, _ isASCIIRun: Bool) -> Void) {
        repair.finish(into: &pending)
        process(final: true, emit)
    }

    @inline(__always)
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, _ width: Int, _ isASCIIRun: Bool,
                      _ emit: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        if !isASCIIRun { return emit(bytes, width) }
        for k in bytes.indices {
            emit(UnsafeBufferPointer(rebasing: bytes[k..<k + 1]), DisplayWidth.asciiWidth(bytes[k]))
        }
    }

    /// Appends `bytes` and reports every cluster that became stable.
    ///
    /// - Complexity: amortized O(n) in the bytes fed.
    public mutating func feed<C: Collection>(_ bytes: C, _ emit: (UnsafeBufferPointer<UInt8>, Int) -> Void) where C.Element == UInt8 {
        repair.repair(bytes, into: &pending)
        process(final: false) { Self.split($0, $1, $2, emit) }
    }

    /// Ends the input and reports the remaining clusters.
    ///
    /// - Complexity: O(p) in the provisional tail.
    public mutating func finish(_ emit: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        repair.finish(into: &pending)
        process(final: true) { Self.split($0, $1, $2, emit) }
    }

    private mutating func process(final: Bool, _ emit: (UnsafeBufferPointer<UInt8>, Int, Bool) -> Void) {
        if pending.isEmpty { return }
        let consumed = pending.withUnsafeBufferPointer { buf in
            Self.segment(buf, final: final, fast: usesASCIIFastPath, policy: policy, breaker: breaker, emit)
        }
        stableByteCount += consumed
        if consumed == pending.count {
            pending.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            pending.removeSubrange(0..<consumed)
        }
    }

    /// Segments valid UTF-8 that starts at a cluster boundary; returns the number
    /// of bytes reported (everything when `final`, else all but the provisional tail).
    static func segment(
        _ buf: UnsafeBufferPointer<UInt8>, final: Bool, fast: Bool, policy: WidthPolicy,
        breaker: ICUBreaker, _ emit: (UnsafeBufferPointer<UInt8>, Int, Bool) -> Void
    ) -> Int {
        let n = buf.count
        var i = 0
        // The scan for a certain boundary below found none before `scanned`: the next
        // one starts there (text without two ASCII bytes in a row, CJK or emoji, was
        // scanned to the end of the buffer once per window of it).
        var scanned = 0
        outer: while i < n {
            if fast {
                // The run of ASCII bytes each of which is certainly a cluster: the
                // byte after it is ASCII too (no mark can follow) and they are not CR LF.
                var runStart = i
                var runWidth = 0
                while i < n {
                    let b = buf[i]
                    if b >= 0x80 { break }
                    if i + 1 < n {
                        let c = buf[i + 1]
                        if c >= 0x80 { break }  // a mark may follow: ICU decides
                        if b == 0x0D && c == 0x0A {
                            if i > runStart { emit(UnsafeBufferPointer(rebasing: buf[runStart..<i]), runWidth, true) }
                            emit(UnsafeBufferPointer(rebasing: buf[i..<i + 2]), 0, false)
                            i += 2
                            runStart = i
                            runWidth = 0
                            continue
                        }
                    } else if !final {
                        break
                    }
                    runWidth &+= DisplayWidth.asciiWidth(b)
                    i += 1
                }
                if i > runStart { emit(UnsafeBufferPointer(rebasing: buf[runStart..<i]), runWidth, true) }
                if i >= n { break }
                if buf[i] < 0x80 && i + 1 == n && !final { return i }
            }
            // An ICU run from the certain boundary i to the first certain boundary
            // after the non-ASCII text: between two ASCII bytes (not CR LF) there is
            // always a boundary.
            var end = n
            var closed = final
            if fast {
                var j = max(buf[i] < 0x80 ? i + 1 : i, scanned)
                while j + 1 < n {
                    let a = buf[j], c = buf[j + 1]
                    if a < 0x80 && c < 0x80 && !(a == 0x0D && c == 0x0A) {
                        end = j + 1
                        closed = true
                        break
                    }
                    j += 1
                }
                scanned = j
            }
            // Between two scalars whose Grapheme_Cluster_Break is Other no rule joins
            // (GB9-GB13 need an Extend, ZWJ, SpacingMark, Prepend, Hangul or regional
            // indicator on one side): stretches of them (an em dash, a superscript,
            // CJK) are cut without ICU, from the run's certain start on. (A boundary
            // depends on the text before it and the scalar after it: only the last
            // scalar's end waits for what comes next, unless the run's end is certain.)
            // Simple scalars (`SimpleText`: kana, ideographs, Hangul syllables, Latin-1...)
            // and printable ASCII need no lookup at all: no rule joins two of them, and
            // their widths are known (with ambiguous characters narrow).
            if fast {
                let knowsSimple = !policy.ambiguousIsWide
                var isOther: Bool? = nil
                // The simple width of the scalar at i when the step before read it: -1
                // not read, -2 not simple. (Emoji were looked up twice.)
                var nextSimple = -1
                while i < end {
                    let (scalar, next) = DisplayWidth.decodeScalar(buf, at: i)
                    let simple = nextSimple >= 0 ? nextSimple : nextSimple == -2 || !knowsSimple ? nil : SimpleText.width(of: scalar)
                    nextSimple = -1
                    if next < end {
                        let after = DisplayWidth.decodeScalar(buf, at: next).0
                        let afterSimple = simple != nil ? SimpleText.width(of: after) : nil
                        if simple != nil { nextSimple = afterSimple ?? -2 }
                        if afterSimple != nil {
                            // (Not known to be Other: Hangul syllables are LV or LVT.)
                            isOther = nil
                        } else {
                            let kind = isOther == true ? CICU_GCB_OTHER : Self.fastGraphemeKind(scalar).0
                            if kind == CICU_GCB_OTHER && Self.graphemeBreakIsOther(after) {
                                isOther = true
                            } else {
                                // A control that is not ASCII (a bidi mark) is a cluster alone
                                // (GB4, GB5): known from its class, without `fastCluster`'s walk.
                                // Marks, joiners, skin tones, selectors, flags: their rules
                                // read back no further than the cluster's start, a certain
                                // boundary here, so most clusters with them are cut here.
                                let found = kind == CICU_GCB_CONTROL ? .end(next) : fastCluster(buf, from: i, end: end, closed: closed)
                                guard case .end(let clusterEnd) = found else {
                                    if found == .waits { return i }
                                    break
                                }
                                let cluster = UnsafeBufferPointer(rebasing: buf[i..<clusterEnd])
                                emit(cluster, DisplayWidth.ofCluster(cluster, policy: policy), false)
                                i = clusterEnd
                                isOther = nil
                                nextSimple = -1
                                continue
                            }
                        }
                    } else if !closed {
                        return i  // (the run's end is the buffer's: the last scalar waits)
                    }
                    let cluster = UnsafeBufferPointer(rebasing: buf[i..<next])
                    emit(cluster, simple ?? DisplayWidth.ofCluster(cluster, policy: policy), false)
                    i = next
                }
                if i == end { continue outer }
            }
            // A long run is segmented a window at a time: a boundary depends only on
            // the text before it and the scalar after it, so the boundaries inside a
            // window are the run's; the window's end is not one, and the next window
            // starts at the last boundary found. (Without this, text with no ASCII in
            // it, such as endless combining marks, was run through ICU from each
            // cluster cap's cut to the end of the input: quadratic in a read's size.)
            var windowed = false
            if end - i > runWindow {
                end = scalarBoundary(atOrBefore: i + runWindow, in: buf)
                closed = false
                windowed = true
            }
            breaker.run(UnsafeBufferPointer(rebasing: buf[i..<end]))
            var start = i
            for offset in breaker.boundaries {
                let boundary = i + offset
                if boundary - start > maximumClusterBytes {
                    let cut = scalarBoundary(atOrBefore: start + maximumClusterBytes, in: buf)
                    let piece = UnsafeBufferPointer(rebasing: buf[start..<cut])
                    emit(piece, DisplayWidth.ofCluster(piece, policy: policy), false)
                    i = cut
                    continue outer
                }
                if boundary == end && !closed {
                    // The window holds more than a cluster cap, so `start` moved on.
                    if windowed { i = start; continue outer }
                    return start
                }
                let cluster = UnsafeBufferPointer(rebasing: buf[start..<boundary])
                emit(cluster, DisplayWidth.ofCluster(cluster, policy: policy), false)
                start = boundary
            }
            i = end
        }
        return i
    }

    /// Grapheme_Cluster_Break=Other: printable ASCII, and what ICU says of the rest.
    @inline(__always)
    private static func graphemeBreakIsOther(_ scalar: UInt32) -> Bool {
        fastGraphemeKind(scalar).0 == CICU_GCB_OTHER
    }

    enum FastCluster: Equatable {
        /// The cluster ends here (a certain boundary), or is cut here at the cap.
        case end(Int)
        /// The cluster reaches the text's end and more may join it.
        case waits
        /// A scalar the fast rules do not know decides: ICU does.
        case unknown
    }

    /// The grapheme class ``fastCluster(_:from:end:closed:)`` knows `scalar` by
    /// (`CICU_GCB_*`; printable ASCII is Other, controls unknown) and whether it is
    /// Extended_Pictographic.
    @inline(__always)
    private static func fastGraphemeKind(_ scalar: UInt32) -> (UInt32, Bool) {
        if scalar < 0x80 { return (scalar >= 0x20 && scalar < 0x7F ? CICU_GCB_OTHER : CICU_GCB_UNKNOWN, false) }
        let p = ScalarProperties.of(scalar)
        return (p.fastGraphemeClass, p.isExtendedPictographic)
    }

    /// Where the cluster that starts at `start` (a certain boundary) ends, by the rules
    /// for what joins a scalar before it: Extend and SpacingMark (GB9, GB9a; not
    /// viramas, which GB9c joins across from Unicode 15.1 on: ICU 72 has 15.0, a later
    /// one may not), ZWJ (GB9, and GB11's emoji
    /// sequences), and pairs of regional indicators (GB12, GB13); a control (not ASCII:
    /// a bidi mark, a soft hyphen) is a cluster alone (GB4, GB5). A cluster longer
    /// than ``maximumClusterBytes`` is cut where the ICU path cuts it. ASCII controls,
    /// Prepend, Hangul jamo and syllables, and viramas are left to ICU.
    /// (Runs of bidi marks went through ICU a cluster at a time.)
    ///
    /// - Complexity: O(k) in the cluster's bytes (at most the cap, plus a scalar).
    static func fastCluster(_ buf: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, closed: Bool) -> FastCluster {
        let (first, afterFirst) = DisplayWidth.decodeScalar(buf, at: start)
        var (kind, pictographic) = fastGraphemeKind(first)
        if kind == CICU_GCB_UNKNOWN { return .unknown }
        if kind == CICU_GCB_CONTROL { return .end(afterFirst) }
        // An Extended_Pictographic with only Extend after it (a ZWJ then joins the
        // next one, GB11); the last scalar a ZWJ after such a run; a lone indicator.
        var pictographicRun = pictographic
        var joinerAfterPictographic = false
        var openIndicator = kind == CICU_GCB_REGIONAL_INDICATOR
        var q = afterFirst
        while true {
            if q - start > maximumClusterBytes { return .end(scalarBoundary(atOrBefore: start + maximumClusterBytes, in: buf)) }
            if q >= end { return closed ? .end(q) : .waits }
            let (scalar, next) = DisplayWidth.decodeScalar(buf, at: q)
            (kind, pictographic) = fastGraphemeKind(scalar)
            switch kind {
            case CICU_GCB_EXTEND:
                joinerAfterPictographic = false
                openIndicator = false
            case CICU_GCB_SPACING_MARK:  // (not in GB11's Extend*)
                joinerAfterPictographic = false
                pictographicRun = false
                openIndicator = false
            case CICU_GCB_ZWJ:
                joinerAfterPictographic = pictographicRun
                pictographicRun = false
                openIndicator = false
            case CICU_GCB_REGIONAL_INDICATOR where openIndicator:
                openIndicator = false
            case CICU_GCB_OTHER where joinerAfterPictographic && pictographic:
                joinerAfterPictographic = false
                pictographicRun = true
            case CICU_GCB_OTHER, CICU_GCB_REGIONAL_INDICATOR, CICU_GCB_CONTROL:
                return .end(q)
            default:
                return .unknown
            }
            q = next
        }
    }

    private static func scalarBoundary(atOrBefore position: Int, in buf: UnsafeBufferPointer<UInt8>) -> Int {
        var p = position
        while p > 0 && buf[p] & 0xC0 == 0x80 { p -= 1 }
        return p
    }
}

extension GraphemeSegmenter {
    /// The clusters of `text` with their widths, in one pass.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `text`.
    public static func clusters(of text: String, policy: WidthPolicy = .grapheme) -> [(cluster: String, width: Int)] {
        clusters(ofUTF8: Array(text.utf8), policy: policy)
    }

    /// The clusters of UTF-8 `bytes` (repaired if invalid) with their widths, in one pass.
    ///
    /// - Complexity: O(n) in the bytes.
    public static func clusters(ofUTF8 bytes: [UInt8], policy: WidthPolicy = .grapheme) -> [(cluster: String, width: Int)] {
        var result: [(cluster: String, width: Int)] = []
        var segmenter = GraphemeSegmenter(policy: policy)
        let sink: (UnsafeBufferPointer<UInt8>, Int) -> Void = { result.append((String(decoding: $0, as: UTF8.self), $1)) }
        segmenter.feed(bytes, sink)
        segmenter.finish(sink)
        return result
    }
}
