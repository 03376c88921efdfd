import CICU

/// One reusable ICU break iterator over UTF-8 text.
///
/// ICU is faster on UTF-16 than on a UTF-8 UText, so text is transcoded into a
/// reused buffer with a map back to UTF-8 offsets. Opening an iterator per call is
/// about 3x slower, so one lives as long as its owner. Not thread-safe: each
/// segmenter or line breaker owns its own.
final class ICUBreaker {
    enum Kind { case character, line }

    private let handle: OpaquePointer
    private var utf16: [UInt16] = []
    private var utf8Offsets: [Int32] = []
    private var rawBoundaries: [Int32] = []
    private var rawHard: [UInt8] = []
    /// UTF-8 offsets of the boundaries found by the last ``run(_:)``, after 0 and
    /// including the text's end.
    private(set) var boundaries: [Int] = []
    /// Whether each boundary in ``boundaries`` is a mandatory line break.
    private(set) var hard: [Bool] = []

    init(_ kind: Kind) {
        guard let handle = cicu_breaker_open(kind == .line ? Int32(CICU_BREAK_LINE) : Int32(CICU_BREAK_CHARACTER)) else {
            fatalError("ICU could not open a break iterator; is libicu installed?")
        }
        self.handle = handle
    }

    deinit { cicu_breaker_close(handle) }

    /// Finds the boundaries of `text` (valid UTF-8) into ``boundaries``.
    ///
    /// - Complexity: O(n) in the bytes of `text`.
    func run(_ text: UnsafeBufferPointer<UInt8>) {
        // The buffers are moved into locals for the loops: appending to a class's
        // stored arrays checks exclusive access on every element.
        var boundaries = take(&self.boundaries), hard = take(&self.hard)
        var utf16 = take(&self.utf16), utf8Offsets = take(&self.utf8Offsets)
        defer {
            self.boundaries = boundaries
            self.hard = hard
            self.utf16 = utf16
            self.utf8Offsets = utf8Offsets
        }
        let n = text.count
        if n == 0 { return }
        var i = 0
        while i < n {
            let (scalar, next) = DisplayWidth.decodeScalar(text, at: i)
            if scalar < 0x10000 {
                utf16.append(UInt16(scalar))
                utf8Offsets.append(Int32(i))
            } else {
                let v = scalar - 0x10000
                utf16.append(UInt16(0xD800 + (v >> 10)))
                utf16.append(UInt16(0xDC00 + (v & 0x3FF)))
                utf8Offsets.append(Int32(i))
                utf8Offsets.append(Int32(i))
            }
            i = next
        }
        utf8Offsets.append(Int32(n))
        let length = utf16.count
        if rawBoundaries.count < length {
            rawBoundaries = [Int32](repeating: 0, count: length)
            rawHard = [UInt8](repeating: 0, count: length)
        }
        let count = utf16.withUnsafeBufferPointer { u in
            rawBoundaries.withUnsafeMutableBufferPointer { b in
                rawHard.withUnsafeMutableBufferPointer { h in
                    cicu_breaker_boundaries(handle, u.baseAddress, Int32(length), b.baseAddress, h.baseAddress, Int32(length))
                }
            }
        }
        precondition(count >= 0, "ICU break iteration failed")
        rawBoundaries.withUnsafeBufferPointer { raw in
            rawHard.withUnsafeBufferPointer { rawHard in
                utf8Offsets.withUnsafeBufferPointer { offsets in
                    for k in 0..<Int(count) {
                        boundaries.append(Int(offsets[Int(raw[k])]))
                        hard.append(rawHard[k] != 0)
                    }
                }
            }
        }
    }

    /// The array's contents, emptied and left empty in place (capacity kept).
    private func take<T>(_ array: inout [T]) -> [T] {
        var taken: [T] = []
        swap(&taken, &array)
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}
