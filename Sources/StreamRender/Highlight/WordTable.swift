/// Words (keywords, builtins, constants...) mapped to a small value, looked up by a
/// line's bytes: the one word table every lexer uses.
///
/// A lexer asks about every name it meets, so a lookup allocates nothing and costs
/// about one probe: a table built with ``init(_:ignoringCase:)`` answers a word's
/// *flags*, the union of the bits of the lists it is in (a lexer tries all its lists
/// at once); one built with ``init(kinds:)`` answers a word's *kind*, the lexer's own
/// number of the first list that names it (kinds may be compared, `cls < builtin`).
/// 0 means none of the words.
///
/// How: open addressing with linear probing, at most a quarter full (about 1.2 probes a
/// lookup on the corpora), hashed with one multiply from a word's first and last 8
/// bytes; words of up to 16 bytes are compared by those two loads alone, longer ones 8
/// bytes at a time. Before hashing, a mask per first byte of the lengths of the words
/// it starts rejects most names that are no word with one load. With `ignoringCase`
/// (SQL, PHP) words are stored in ASCII lower case and a name is lowered 8 bytes at a
/// time before it is hashed.
struct WordTable: Sendable {
    /// One array, so a lookup has one base pointer:
    /// - `0..<256`: by a word's first byte (both cases when ignoring case), the lengths
    ///   of the words it starts, bit `min(length, 63)`;
    /// - `256..<256 + slots`: 0 for an empty slot, else `entry << 40 | length << 32 | value`;
    /// - entries: a word's edges (see ``edges(_:_:)``), then for a word longer than 16
    ///   bytes its bytes, padded to 8.
    private let storage: [UInt64]
    private let mask: Int
    /// 64 - log2(slots): the hash's top bits pick the slot.
    private let shift: UInt64
    private let ignoringCase: Bool
    /// The longest word's length (at most 255): longer names are not looked up.
    private let longest: Int

    private static let lengthMasks = 256

    /// A table of flags: `lists` pairs a flag (not 0; usually one bit) with words
    /// separated by spaces or line breaks; a word in several lists has the union of
    /// their flags. With `ignoringCase` words match whatever their ASCII case.
    ///
    /// - Complexity: O(n) in the lists' bytes.
    init(_ lists: [(UInt32, String)], ignoringCase: Bool = false) {
        self.init(lists, ignoringCase: ignoringCase, union: true)
    }

    /// A table of one list (words separated by spaces or line breaks), for
    /// ``contains(_:_:)``.
    ///
    /// - Complexity: O(n) in the list's bytes.
    init(_ words: String) {
        self.init([(1, words)], ignoringCase: false, union: true)
    }

    /// A table of kinds: `lists` pairs a kind (not 0) with words separated by spaces
    /// or line breaks; a word listed again keeps its first kind.
    ///
    /// - Complexity: O(n) in the lists' bytes.
    init(kinds lists: [(UInt32, String)]) {
        self.init(lists, ignoringCase: false, union: false)
    }

    private init(_ lists: [(UInt32, String)], ignoringCase: Bool, union: Bool) {
        // The words' bytes one after another (lowered when ignoring case), each word a
        // range of them: split by characters (grapheme breaking) was most of a table's
        // making, then an array per word and the split's slices were (paid once per
        // language, on its first code block: issue 24).
        var text: [UInt8] = []
        text.reserveCapacity(lists.reduce(0) { $0 + $1.1.utf8.count })
        var words: [(start: Int, count: Int, value: UInt32)] = []
        for (value, list) in lists {
            precondition(value != 0, "0 means no word")
            var list = list
            list.withUTF8 { bytes in
                var start = -1
                for k in 0...bytes.count {
                    if k == bytes.count || bytes[k] == 0x20 || bytes[k] == 0x0A {
                        if start >= 0 { words.append((text.count - (k - start), k - start, value)) }
                        start = -1
                    } else {
                        if start < 0 { start = k }
                        text.append(ignoringCase ? ASCII.lower(bytes[k]) : bytes[k])
                    }
                }
            }
        }
        var size = 16
        var bits: UInt64 = 4
        while size < words.count * 4 { size <<= 1; bits += 1 }
        let mask = size - 1, shift = 64 - bits
        var storage = [UInt64](repeating: 0, count: Self.lengthMasks + size)
        storage.reserveCapacity(storage.count + 2 * words.count + words.reduce(0) { $0 + ($1.count > 16 ? ($1.count + 7) / 8 : 0) })
        var longest = 0
        text.withUnsafeBufferPointer { text in
            for (start, count, value) in words {
                precondition(count < 256, "a slot holds a word's length in 8 bits")
                let word = UnsafeBufferPointer(rebasing: text[start..<start + count])
                let (a, b) = Self.edges(UnsafeRawPointer(word.baseAddress!), count)
                var i = Self.hash(a, b, shift)
                while true {
                    let slot = storage[Self.lengthMasks + i]
                    if slot == 0 {
                        precondition(storage.count < 1 << 24, "a slot holds an entry's place in 24 bits")
                        storage[Self.lengthMasks + i] = UInt64(storage.count) << 40 | UInt64(count) << 32 | UInt64(value)
                        storage.append(a)
                        storage.append(b)
                        if count > 16 {
                            // Its bytes in words of 8, the last padded with zeros.
                            for k in stride(from: 0, to: count, by: 8) {
                                var chunk: UInt64 = 0
                                for j in 0..<min(8, count - k) { chunk |= UInt64(word[k + j]) << (8 * UInt64(j)) }
                                storage.append(UInt64(littleEndian: chunk))
                            }
                        }
                        let bit: UInt64 = 1 << UInt64(min(count, 63))
                        storage[Int(word[0])] |= bit
                        if ignoringCase { storage[Int(ASCII.upper(word[0]))] |= bit }
                        longest = max(longest, count)
                        break
                    }
                    let same = Int(slot >> 32 & 0xFF) == count && storage.withUnsafeBufferPointer { s in
                        Self.same(slot, a, b, UnsafeRawPointer(word.baseAddress!), s, folding: false)
                    }
                    if same {
                        if union { storage[Self.lengthMasks + i] |= UInt64(value) }
                        break
                    }
                    i = (i + 1) & mask
                }
            }
        }
        self.storage = storage
        self.mask = mask
        self.shift = shift
        self.ignoringCase = ignoringCase
        self.longest = longest
    }

    /// The flags of `line[range]`: those of the lists it is in, 0 if none.
    ///
    /// - Complexity: expected O(1) for names of up to 16 bytes, O(n) in a longer name's bytes.
    @inline(__always)
    func flags(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt32 {
        value(line, range.lowerBound, range.upperBound)
    }

    /// The kind of `line[range]`, 0 if it is none of the words.
    ///
    /// - Complexity: expected O(1) for names of up to 16 bytes, O(n) in a longer name's bytes.
    @inline(__always)
    func kind(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt32 {
        value(line, range.lowerBound, range.upperBound)
    }

    /// Whether `line[range]` is one of the words.
    ///
    /// - Complexity: expected O(1) for names of up to 16 bytes, O(n) in a longer name's bytes.
    @inline(__always)
    func contains(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        value(line, range.lowerBound, range.upperBound) != 0
    }

    /// The flags or kind of `line[start..<end]`, 0 if it is none of the words (for a
    /// lexer that holds a name's ends rather than a range).
    ///
    /// - Complexity: expected O(1) for names of up to 16 bytes, O(n) in a longer name's bytes.
    @inline(__always)
    func value(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt32 {
        let n = end - start
        guard n > 0 && n <= longest else { return 0 }
        let folding = ignoringCase
        return storage.withUnsafeBufferPointer { s in
            let p = UnsafeRawPointer(line.baseAddress! + start)
            guard s[Int(p.load(as: UInt8.self))] &>> UInt64(min(n, 63)) & 1 != 0 else { return 0 }
            var (a, b) = Self.edges(p, n)
            if folding {
                a = Self.lowered(a)
                b = Self.lowered(b)
            }
            var i = Self.hash(a, b, shift)
            while true {
                let slot = s[Self.lengthMasks + i]
                if slot == 0 { return 0 }
                if Int(truncatingIfNeeded: slot >> 32) & 0xFF == n && Self.same(slot, a, b, p, s, folding: folding) {
                    return UInt32(truncatingIfNeeded: slot)
                }
                i = (i + 1) & mask
            }
        }
    }

    /// Whether the entry of `slot` (a word of `p`'s length) has edges `a`, `b` and,
    /// past 16 bytes, the bytes of `p` (lowered when `folding`).
    @inline(__always)
    private static func same(_ slot: UInt64, _ a: UInt64, _ b: UInt64, _ p: UnsafeRawPointer,
                             _ s: UnsafeBufferPointer<UInt64>, folding: Bool) -> Bool {
        let e = Int(truncatingIfNeeded: slot >> 40)
        guard s[e] == a && s[e + 1] == b else { return false }
        let n = Int(truncatingIfNeeded: slot >> 32) & 0xFF
        guard n > 16 else { return true }
        // The middle, 8 bytes at a time (the last load may overlap the one before it).
        let word = UnsafeRawPointer(s.baseAddress! + e + 2)
        var k = 8
        while k < n - 8 {
            let at = min(k, n - 16)
            var x = p.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            if folding { x = lowered(x) }
            if x != word.loadUnaligned(fromByteOffset: at, as: UInt64.self) { return false }
            k += 8
        }
        return true
    }

    /// A word of `n` bytes (`n` > 0) at `p` as two integers that, with `n`, are the
    /// word when `n` <= 16: its first and last 8 bytes (4 when shorter than 8; its
    /// first, middle and last byte when shorter than 4).
    @inline(__always)
    private static func edges(_ p: UnsafeRawPointer, _ n: Int) -> (UInt64, UInt64) {
        if n >= 8 {
            return (p.loadUnaligned(as: UInt64.self), p.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        }
        if n >= 4 {
            return (UInt64(p.loadUnaligned(as: UInt32.self)), UInt64(p.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
        }
        let first = UInt64(p.load(as: UInt8.self))
        let middle = UInt64(p.load(fromByteOffset: n / 2, as: UInt8.self))
        let last = UInt64(p.load(fromByteOffset: n - 1, as: UInt8.self))
        return (first | middle << 8 | last << 16, 0)
    }

    /// The slot to probe first for a word with edges `a`, `b`: the top bits of one
    /// multiply (under 8 bytes `a` and `b` fit in 32 bits each, so `b` rotated by 32
    /// keeps the word whole; the length needs no part in it).
    @inline(__always)
    private static func hash(_ a: UInt64, _ b: UInt64, _ shift: UInt64) -> Int {
        let h = (a ^ (b << 32 | b >> 32)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> shift)
    }

    /// `x` with each byte that is an ASCII capital made lower case.
    @inline(__always)
    private static func lowered(_ x: UInt64) -> UInt64 {
        let low7 = x & 0x7F7F_7F7F_7F7F_7F7F
        let atLeastA = low7 &+ 0x3F3F_3F3F_3F3F_3F3F  // top bit: >= 0x41
        let pastZ = low7 &+ 0x2525_2525_2525_2525  // top bit: >= 0x5B
        let capital = atLeastA & ~pastZ & ~x & 0x8080_8080_8080_8080
        return x | capital >> 2
    }
}
