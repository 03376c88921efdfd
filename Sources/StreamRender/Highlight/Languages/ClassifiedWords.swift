/// A language's word lists in one open-addressed table: a word's classes (bit flags,
/// one per list it is in) in one probe, without `Hasher`.
///
/// `WordSet` answers one list at a time; a lexer that asks several lists about every
/// name (keywords, builtins, constants, types) pays a dictionary lookup for each, which
/// dominated the JavaScript and CSS lexers' time.
struct ClassifiedWords: Sendable {
    private struct Entry: Sendable {
        var start: UInt32
        var length: UInt16
        var flags: UInt16
    }

    /// Entry index + 1; 0: empty.
    private var slots: [UInt16]
    private var entries: [Entry] = []
    private var bytes: [UInt8] = []
    private let mask: Int
    /// The longest word's length: longer names are not looked up.
    private(set) var longest = 0

    /// The words of each list (separated by whitespace) with the list's flag.
    init(_ lists: [(words: String, flag: UInt16)]) {
        var all: [([UInt8], UInt16)] = []
        for (list, flag) in lists {
            for word in list.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                all.append((Array(word.utf8), flag))
            }
        }
        precondition(all.count < Int(UInt16.max), "a slot holds an entry index in 16 bits")
        // At most a third full: probes stay short.
        var size = 16
        while size < all.count * 3 { size <<= 1 }
        mask = size - 1
        slots = Array(repeating: 0, count: size)
        for (word, flag) in all {
            var i = word.withUnsafeBytes { Self.hash($0) } & mask
            while true {
                let slot = Int(slots[i])
                if slot == 0 {
                    entries.append(Entry(start: UInt32(bytes.count), length: UInt16(word.count), flags: flag))
                    bytes += word
                    slots[i] = UInt16(entries.count)
                    longest = max(longest, word.count)
                    break
                }
                let e = entries[slot - 1]
                if Int(e.length) == word.count && bytes[Int(e.start)..<Int(e.start) + word.count].elementsEqual(word) {
                    entries[slot - 1].flags |= flag
                    break
                }
                i = (i + 1) & mask
            }
        }
    }

    /// A hash of a word from its length and its first and last bytes (loaded a few at a
    /// time: O(1), not a multiply per byte).
    @inline(__always)
    private static func hash(_ word: UnsafeRawBufferPointer) -> Int {
        let n = word.count
        let p = word.baseAddress!
        var a: UInt64
        var b: UInt64
        if n >= 8 {
            a = p.loadUnaligned(as: UInt64.self)
            b = p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        } else if n >= 4 {
            a = UInt64(p.loadUnaligned(as: UInt32.self))
            b = UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
        } else {
            a = UInt64(word[0]) | UInt64(word[n / 2]) << 8 | UInt64(word[n - 1]) << 16
            b = 0
        }
        var h = (a &* 0x9E37_79B9_7F4A_7C15) ^ (b &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(n)
        h ^= h >> 29
        h = h &* 0x1656_67B1_9E37_79F9
        return Int(truncatingIfNeeded: h >> 32)
    }

    /// The flags of `line[range]`: those of the lists it is in, 0 if none.
    func flags(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt16 {
        guard !range.isEmpty, range.count <= longest else { return 0 }
        var i = Self.hash(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(line)[range])) & mask
        while true {
            let slot = Int(slots[i])
            if slot == 0 { return 0 }
            let e = entries[slot - 1]
            if Int(e.length) == range.count {
                var k = 0
                let s = Int(e.start)
                while k < range.count && bytes[s + k] == line[range.lowerBound + k] { k += 1 }
                if k == range.count { return e.flags }
            }
            i = (i + 1) & mask
        }
    }
}
