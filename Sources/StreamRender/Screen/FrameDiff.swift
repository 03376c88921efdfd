/// The cells to write to turn a terminal showing `previous` into `next` (frames of
/// the same size): for each changed cell, the cluster that starts there.
///
/// The wide-character contract (`A` wide, `b` `c` narrow, `▸` a continuation):
///
/// | previous | next | written |
/// | --- | --- | --- |
/// | `A▸` | `bc` | `b` at 0 and `c` at 1: both columns repainted, no residue |
/// | `A▸` (plain) | `A▸` (bold) | `A` at 0: a style-only change repaints the whole cluster |
/// | `A▸` | `b ` | `b` at 0 and a blank at 1: the column the wide cluster covered is cleared |
/// | `bc` | `A▸` | `A` at 0 (its continuation is written by the terminal) |
/// | `bA▸` | `bcA▸`... | only what changed; an unchanged wide cluster is never rewritten |
///
/// A changed continuation cell is written as its wide cluster, so a change never
/// writes half of a wide cluster. Reuses one buffer: diffing allocates nothing after
/// the first frames.
public struct FrameDiff: Sendable {
    /// One cell to write: the start of a cluster in `next`.
    public struct Change: Hashable, Sendable {
        public var row: Int
        public var column: Int
    }

    /// The changes of the last ``compute(from:to:)``, in row-major order.
    public private(set) var changes: [Change] = []

    public init() {}

    /// Computes the cells to write to go from `previous` to `next`.
    ///
    /// - Complexity: O(W x H); no allocation once the buffer has grown.
    public mutating func compute(from previous: Frame, to next: Frame) {
        precondition(previous.width == next.width && previous.height == next.height, "frames differ in size")
        changes.removeAll(keepingCapacity: true)
        for r in 0..<next.height {
            // Past both rows' text every cell is a plain blank in both: nothing changed
            // there (a row of a short line is mostly that).
            let end = max(previous.textEnd(row: r), next.textEnd(row: r))
            var c = 0
            while c < end {
                let cell = next[r, c]
                if cell.width == 2 {
                    if cell != previous[r, c] || next[r, c + 1] != previous[r, c + 1] {
                        changes.append(Change(row: r, column: c))
                    }
                    c += 2
                    continue
                }
                if cell != previous[r, c] {
                    // A continuation cannot start a write: it only appears after its head,
                    // which the branch above handles. (Frames keep pairs whole.)
                    changes.append(Change(row: r, column: c))
                }
                c += 1
            }
        }
    }
}
