import CICU

/// One reusable ICU break iterator over UTF-8 text.
///
/// ICU is faster on UTF-16 than on a UTF-8 UText, so text is transcoded into a
/// reused buffer with a map back to UTF-8 offsets. Opening an iterator per call is
/// about 3x slower, so one lives as long as its owner. Not thread-safe: each
/// segmenter or line breaker owns its own.
final class ICUBreaker {
    enum Kind { case character, line }

    private let kind: Kind
    /// ICU's iterator, opened at the first ``run(_:)``: most breakers of a process
    /// (a layout's two, the pacer's, the renderer's) see only ASCII, which never
    /// reaches ICU, and opening one was a tenth of a one-line start.
    private var openHandle: OpaquePointer?
    // (Not checked for exclusive access at run time: a breaker, even one that copies
    // of a layout share, is used by one thread at a time and `run` calls nothing
    // back; the checks were a fifth of a short run.)
    @exclusivity(unchecked) private var utf16: [UInt16] = []
    @exclusivity(unchecked) private var utf8Offsets: [Int32] = []
    @exclusivity(unchecked) private var rawBoundaries: [Int32] = []
    @exclusivity(unchecked) private var rawHard: [UInt8] = []
    /// UTF-8 offsets of the boundaries found by the last ``run(_:)``, after 0 and
    /// including the text's end.
    @exclusivity(unchecked) private(set) var boundaries: [Int] = []
    /// Whether each boundary in ``boundaries`` is a mandatory line break.
    @exclusivity(unchecked) private(set) var hard: [Bool] = []

    init(_ kind: Kind) {
        self.kind = kind
    }

    deinit {
        if let openHandle { cicu_breaker_close(openHandle) }
    }

    /// ICU's iterator, opened now if it is not yet.
    private var handle: OpaquePointer {
        if let openHandle { return openHandle }
        guard let opened = cicu_breaker_open(kind == .line ? Int32(CICU_BREAK_LINE) : Int32(CICU_BREAK_CHARACTER)) else {
            fatalError("ICU could not open a break iterator; is libicu installed?")
        }
        openHandle = opened
        return opened
    }

    /// Finds the boundaries of `text` (valid UTF-8) into ``boundaries``.
    ///
    /// - Complexity: O(n) in the bytes of `text`.
    func run(_ text: UnsafeBufferPointer<UInt8>) {
        boundaries.removeAll(keepingCapacity: true)
        hard.removeAll(keepingCapacity: true)
        let n = text.count
        if n == 0 { return }
        // A scalar of k UTF-8 bytes is at most k UTF-16 units (4 bytes: 2 units), so
        // buffers of n (and n + 1 offsets) always suffice: they are written through
        // pointers, not appended to (an append checks its array's uniqueness: a
        // tenth of the time on text ICU segments, such as combining marks).
        if utf16.count < n {
            let size = max(n, 2 * utf16.count)
            utf16 = [UInt16](repeating: 0, count: size)
            utf8Offsets = [Int32](repeating: 0, count: size + 1)
            rawBoundaries = [Int32](repeating: 0, count: size)
            rawHard = [UInt8](repeating: 0, count: size)
        }
        let length = utf16.withUnsafeMutableBufferPointer { u in
            utf8Offsets.withUnsafeMutableBufferPointer { o in
                var i = 0, k = 0
                while i < n {
                    let (scalar, next) = DisplayWidth.decodeScalar(text, at: i)
                    if scalar < 0x10000 {
                        u[k] = UInt16(scalar)
                        o[k] = Int32(i)
                        k += 1
                    } else {
                        let v = scalar - 0x10000
                        u[k] = UInt16(0xD800 + (v >> 10))
                        u[k + 1] = UInt16(0xDC00 + (v & 0x3FF))
                        o[k] = Int32(i)
                        o[k + 1] = Int32(i)
                        k += 2
                    }
                    i = next
                }
                o[k] = Int32(n)
                return k
            }
        }
        let handle = handle
        let count = utf16.withUnsafeBufferPointer { u in
            rawBoundaries.withUnsafeMutableBufferPointer { b in
                rawHard.withUnsafeMutableBufferPointer { h in
                    cicu_breaker_boundaries(handle, u.baseAddress, Int32(length), b.baseAddress, h.baseAddress, Int32(length))
                }
            }
        }
        precondition(count >= 0, "ICU break iteration failed")
        rawBoundaries.withUnsafeBufferPointer { raw in
            utf8Offsets.withUnsafeBufferPointer { offsets in
                boundaries.append(contentsOf: raw[..<Int(count)].lazy.map { Int(offsets[Int($0)]) })
            }
        }
        rawHard.withUnsafeBufferPointer { rawHard in
            hard.append(contentsOf: rawHard[..<Int(count)].lazy.map { $0 != 0 })
        }
    }
}
