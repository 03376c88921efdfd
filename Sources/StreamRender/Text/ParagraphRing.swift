/// The paragraphs a `StyledDocument` holds, oldest first: a ring of slots appended at the
/// end and evicted at the front, whose dead slots keep a removed paragraph's buffers for
/// the paragraph that takes the slot next (most paragraphs are a line: two buffers
/// allocated and freed per line showed in profiles).
///
/// (A ring over an `Array`, not a swift-collections `Deque` with a list of spare
/// paragraphs beside it: the deque retained and released its storage, atomically, at
/// each append and read of a paragraph, and moving a paragraph to the spares and back
/// made and freed two empty arrays. Plain output of short lines took 0.84x the
/// instructions without them, issue 24. A generic ring for the layout's lines of
/// closed paragraphs too took 1.008x: they stay in a `Deque`.)
struct ParagraphRing: Sendable {
    typealias Paragraph = StyledDocument.Paragraph

    /// A power of two of slots; the live ones are `head ..< head + count` (mod their count).
    private var slots: [Paragraph]
    private var head = 0
    /// The number of live paragraphs.
    private(set) var count = 0
    /// Dead slots holding a buffer: at most ``spareLimit`` (their buffers are memory held
    /// for nothing until a paragraph takes the slot).
    private var spares = 0
    /// See `StyledDocument.spareLimit`.
    var spareLimit: Int
    /// A removed paragraph's buffers are kept only when its text's room is at most this.
    let spareRoom: Int

    init(spareLimit: Int, spareRoom: Int) {
        slots = Array(repeating: Paragraph(), count: 16)
        self.spareLimit = spareLimit
        self.spareRoom = spareRoom
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func slot(_ k: Int) -> Int { (head &+ k) & (slots.count &- 1) }

    /// The paragraph `k` places from the oldest held.
    ///
    /// - Complexity: O(1).
    subscript(k: Int) -> Paragraph {
        get { slots[slot(k)] }
        _modify { yield &slots[slot(k)] }
    }

    /// Calls `body` with paragraph `k` in place (a read through the subscript may copy it:
    /// a retain and a release of each of its buffers).
    ///
    /// - Complexity: O(1) plus `body`.
    func with<R>(_ k: Int, _ body: (UnsafePointer<Paragraph>) -> R) -> R {
        let s = slot(k)
        return slots.withUnsafeBufferPointer { body($0.baseAddress! + s) }
    }

    /// Appends an empty open paragraph in `format`, in the buffers its slot kept, if any.
    ///
    /// - Complexity: amortized O(1).
    mutating func appendEmpty(format: Int32) {
        if count == slots.count { grow() }
        let s = slot(count)
        count += 1
        Self.reset(&slots[s], format: format, spares: &spares)
    }

    private static func reset(_ paragraph: inout Paragraph, format: Int32, spares: inout Int) {
        if paragraph.text.capacity > 0 {
            spares -= 1
            paragraph.text.removeAllKeepingCapacity()
        }
        if !paragraph.runs.isEmpty { paragraph.runs.removeAllKeepingCapacity() }
        paragraph.isClosed = false
        paragraph.endsWithLineFeed = false
        paragraph.format = format
    }

    /// Removes the oldest paragraph; returns its bytes.
    ///
    /// - Complexity: O(1).
    @discardableResult
    mutating func removeFirst() -> Int {
        precondition(count > 0, "removeFirst from an empty ring")
        let bytes = Self.retire(&slots[head], keeps: spares < spareLimit, room: spareRoom, spares: &spares)
        head = (head + 1) & (slots.count - 1)
        count -= 1
        return bytes
    }

    /// Removes the newest paragraph; returns its bytes.
    ///
    /// - Complexity: O(1).
    @discardableResult
    mutating func removeLast() -> Int {
        precondition(count > 0, "removeLast from an empty ring")
        count -= 1
        return Self.retire(&slots[slot(count)], keeps: spares < spareLimit, room: spareRoom, spares: &spares)
    }

    /// Makes `paragraph`'s slot dead: its buffers kept for the next paragraph there (not a
    /// large one's, nor beyond the limit). Returns its bytes.
    private static func retire(_ paragraph: inout Paragraph, keeps: Bool, room: Int, spares: inout Int) -> Int {
        let bytes = paragraph.text.count
        if keeps && paragraph.text.capacity <= room {
            // (A blank line's has no buffer: it spares nothing, and is not counted.)
            if paragraph.text.capacity > 0 { spares += 1 }
        } else if paragraph.text.capacity > 0 || paragraph.runs.capacity > 0 {
            paragraph.text = []
            paragraph.runs = []
        }
        return bytes
    }

    /// Twice the slots, the live paragraphs first (the dead slots' buffers are let go).
    private mutating func grow() {
        var grown: [Paragraph] = []
        grown.reserveCapacity(2 * slots.count)
        for k in 0..<count { grown.append(slots[slot(k)]) }
        grown.append(contentsOf: repeatElement(Paragraph(), count: 2 * slots.count - count))
        slots = grown
        head = 0
        spares = 0
    }
}

extension ParagraphRing: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }
}
