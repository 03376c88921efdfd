/// Words mapped to bit flags, looked up by a line's bytes with one hash and no
/// allocation: a lexer classifies an identifier against all its word lists at once
/// (keyword, builtin, constant...) instead of probing a `WordSet` per list.
///
/// Open addressing over a power-of-two table; a word in several lists has the
/// union of their flags. With `ignoringCase` words are stored and hashed in ASCII
/// lower case (PHP's keywords).
struct WordTable: Sendable {
    private struct Entry: Sendable {
        var start: Int32
        var count: Int32
        var flags: UInt32
    }

    private var slots: [Int32]
    private var entries: [Entry] = []
    private var bytes: [UInt8] = []
    private let mask: Int
    private let ignoringCase: Bool
    /// Bit `b & 63` of entry `count` (up to 31): whether some word of that length
    /// starts with a byte `b` (lower-cased when ignoring case). Most identifiers
    /// are no word, and this rejects them without hashing.
    private var starts = [UInt64](repeating: 0, count: 32)
    /// The longest word: longer identifiers are not looked up.
    private(set) var maxCount = 0

    /// `lists`: (flags, words separated by whitespace).
    init(_ lists: [(UInt32, String)], ignoringCase: Bool = false) {
        self.ignoringCase = ignoringCase
        var total = 0
        for (_, list) in lists { total += list.split(whereSeparator: { $0 == " " || $0 == "\n" }).count }
        var size = 16
        while size < total * 3 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        for (flags, list) in lists {
            for word in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                insert(word.utf8.map { ignoringCase ? ASCII.lower($0) : $0 }, flags)
            }
        }
    }

    private mutating func insert(_ word: [UInt8], _ flags: UInt32) {
        var h = Self.hash(word.count) { word[$0] }
        while true {
            let slot = Int(h) & mask
            let e = Int(slots[slot])
            if e < 0 {
                slots[slot] = Int32(entries.count)
                entries.append(Entry(start: Int32(bytes.count), count: Int32(word.count), flags: flags))
                bytes += word
                maxCount = max(maxCount, word.count)
                starts[min(word.count, 31)] |= 1 << UInt64(word[0] & 63)
                return
            }
            let entry = entries[e]
            if Int(entry.count) == word.count && Array(bytes[Int(entry.start)..<Int(entry.start) + word.count]) == word {
                entries[e].flags |= flags
                return
            }
            h &+= 1
        }
    }

    @inline(__always)
    private static func hash(_ count: Int, _ byte: (Int) -> UInt8) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: count) &* 0x9E37_79B1
        for i in 0..<count { h = (h ^ UInt32(byte(i))) &* 0x0100_0193 }
        return h ^ (h >> 15)
    }

    /// The flags of `line[range]`, 0 if it is no word of the table.
    func flags(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt32 {
        let n = range.count
        guard n > 0 && n <= maxCount else { return 0 }
        let base = range.lowerBound
        let folding = ignoringCase
        let first = folding ? ASCII.lower(line[base]) : line[base]
        guard starts[min(n, 31)] & (1 << UInt64(first & 63)) != 0 else { return 0 }
        var h = Self.hash(n) { folding ? ASCII.lower(line[base + $0]) : line[base + $0] }
        while true {
            let e = Int(slots[Int(h) & mask])
            if e < 0 { return 0 }
            let entry = entries[e]
            if Int(entry.count) == n {
                var k = 0
                let s = Int(entry.start)
                while k < n && bytes[s + k] == (folding ? ASCII.lower(line[base + k]) : line[base + k]) { k += 1 }
                if k == n { return entry.flags }
            }
            h &+= 1
        }
    }
}
