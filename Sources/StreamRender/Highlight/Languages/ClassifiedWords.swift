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

    private var slots: [UInt16]  // entry index + 1; 0: empty
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
        var size = 16
        while size < all.count * 3 { size <<= 1 }
        mask = size - 1
        slots = Array(repeating: 0, count: size)
        for (word, flag) in all {
            var i = Self.hash(word[...]) & mask
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

    @inline(__always)
    private static func hash<C: Collection<UInt8>>(_ word: C) -> Int {
        var h: UInt32 = 2_166_136_261
        for b in word { h = (h ^ UInt32(b)) &* 16_777_619 }
        return Int(h ^ (h >> 15))
    }

    /// The flags of `line[range]`: those of the lists it is in, 0 if none.
    func flags(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt16 {
        guard !range.isEmpty, range.count <= longest else { return 0 }
        var i = Self.hash(UnsafeBufferPointer(rebasing: line[range])) & mask
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
