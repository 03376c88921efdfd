/// Cuts text into terminal cells as a terminal with a given width policy does:
///
/// - `grapheme` (mode 2027): one cell (1 or 2 columns) per grapheme cluster; a
///   cluster of width 0 joins the cell before it;
/// - `wcwidth` (legacy): one cell per scalar of positive width (its `wcwidth`), the
///   zero-width scalars after it (marks, ZWJ, variation selectors) joining it, and so
///   does a scalar right after a ZWJ and a flag's second regional indicator: a ZWJ
///   family and a flag are one wide cell each, as tmux 3.3 draws them;
/// - `scalars`: as `wcwidth`, without those joins;
/// - a kind of cluster the policy measures by another mode (``WidthPolicy/setMode(_:for:)``)
///   is cut by that mode's rule.
///
/// The cells' widths add up to the text's width under the policy, so a cursor that
/// advances by cell widths never drifts from the terminal's.
///
/// Not thread-safe (it owns an ICU iterator).
public final class CellSplitter {
    public let policy: WidthPolicy
    private let breaker = ICUBreaker(.character)

    public init(policy: WidthPolicy) {
        self.policy = policy
    }

    /// Calls `body` with each cell of valid UTF-8 `text`: its byte range and width
    /// (1 or 2). Zero-width text before the first cell is dropped.
    ///
    /// - Complexity: O(n) in the bytes.
    public func forEachCell(in text: UnsafeBufferPointer<UInt8>, _ body: (_ bytes: Range<Int>, _ width: Int) -> Void) {
        guard let base = text.baseAddress else { return }
        // The open cell, reached through a pointer: a variable the segmenter's closure
        // captured was checked for exclusive access at run time on each use.
        var open: (start: Int, end: Int, width: Int)? = nil
        let policy = self.policy
        withUnsafeMutablePointer(to: &open) { current in
            func emit() { if let c = current.pointee { body(c.start..<c.end, c.width) } }
            _ = GraphemeSegmenter.segment(text, final: true, fast: true, policy: policy, breaker: breaker) { bytes, width, isRun in
                let start = bytes.baseAddress! - base
                if isRun {
                    for k in 0..<bytes.count {
                        let w = DisplayWidth.asciiWidth(bytes[k])
                        if w == 0 { if current.pointee != nil { current.pointee!.end = start + k + 1 }; continue }
                        emit()
                        current.pointee = (start + k, start + k + 1, w)
                    }
                    return
                }
                DisplayWidth.forEachCellPiece(ofCluster: bytes, width: width, mode: policy.mode(of: bytes),
                                              ambiguousIsWide: policy.ambiguousIsWide) { from, to, w in
                    if w == 0 {
                        if current.pointee != nil { current.pointee!.end = start + to }
                    } else {
                        emit()
                        current.pointee = (start + from, start + to, w)
                    }
                }
            }
            emit()
        }
    }

    /// The cells of `text` as (cluster, width) pairs.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes.
    public func cells(of text: String) -> [(text: String, width: Int)] {
        var result: [(text: String, width: Int)] = []
        var copy = text
        copy.withUTF8 { buf in
            forEachCell(in: buf) { range, width in
                result.append((String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self), width))
            }
        }
        return result
    }
}
