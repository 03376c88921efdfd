/// Bytes put together before they go to an output in one append. A printer writes a
/// styled line as pieces, two a run of text (the pen's change, the text), and an
/// array's append costs about 90 instructions however few bytes it takes: writing
/// the pieces here and the line with one append costs a few each.
///
/// Not `Sendable`: one printer's.
package final class LineAssembly {
    // (Not checked for exclusive access at run time: one writer uses it, a call at a time.)
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// The bytes put together so far.
    @exclusivity(unchecked) package private(set) var count = 0

    package init(capacity: Int = 1_024) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for `n` more bytes after those put together: write them there, then
    /// ``advance(by:)``.
    ///
    /// - Complexity: O(1), amortized.
    @inline(__always)
    package func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity { grow(to: count + n) }
        return base + count
    }

    /// Takes the `n` bytes written at ``room(_:)``.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    package func advance(by n: Int) {
        count += n
    }

    /// - Complexity: O(n) in the bytes.
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        room(bytes.count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// - Complexity: O(1), amortized.
    @inline(__always)
    package func append(_ byte: UInt8) {
        room(1).pointee = byte
        count += 1
    }

    /// Appends the bytes put together to `out` and starts again.
    ///
    /// - Complexity: O(n) in the bytes.
    package func move(into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    private func grow(to needed: Int) {
        let grown = max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = grown
    }
}

/// A pen that can write a change into a ``LineAssembly`` (``SGRPen``): a printer
/// puts its styled lines together through it.
package protocol LinePen: StylePen {
    /// ``StylePen/change(to:into:)`` into `line`.
    ///
    /// - Complexity: O(1) plus the bytes written.
    func change(to style: Style, into line: LineAssembly)
    /// ``change(to:into:)`` for a style without a link, by its ``Style/look`` (no
    /// copy of the style and its link's reference).
    ///
    /// - Complexity: O(1) plus the bytes written.
    func change(toLook look: UInt64, into line: LineAssembly)
}
