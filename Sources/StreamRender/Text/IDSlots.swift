/// An open-addressing index over dense ids (0, 1, 2… in the order filed), by a hash the
/// owner computes: the style and format tables find an entry's id with it. A
/// `Dictionary` of their own keys cost a hash of the key's every part and, once per
/// process, a quarter of a million instructions for the run time to make its type
/// (issue 24). Entries are never removed.
struct IDSlots: Sendable {
    /// An id + 1 per slot (0: empty); at most half full.
    private var slots: [Int32] = []
    /// The hash each id was filed under, by id.
    private var hashes: [UInt64] = []

    /// The first id filed under `hash` for which `matches` is true, or nil.
    ///
    /// - Complexity: O(1) expected, plus the `matches` calls of ids of that hash.
    func first(_ hash: UInt64, where matches: (Int32) -> Bool) -> Int32? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = Self.slot(hash, mask)
        while slots[i] != 0 {
            let id = slots[i] - 1
            if hashes[Int(id)] == hash && matches(id) { return id }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Files the next id (the number filed so far) under `hash`.
    ///
    /// - Complexity: amortized O(1).
    mutating func file(hash: UInt64) {
        hashes.append(hash)
        if slots.count < 2 * hashes.count {
            // Twice as many slots, every id filed again.
            slots = [Int32](repeating: 0, count: max(16, 2 * slots.count))
            for id in hashes.indices { place(Int32(id)) }
        } else {
            place(Int32(hashes.count - 1))
        }
    }

    private mutating func place(_ id: Int32) {
        let mask = slots.count - 1
        var i = Self.slot(hashes[Int(id)], mask)
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = id + 1
    }

    /// A slot for `hash`: its bits mixed (a style's hash is mostly a few colour bits).
    private static func slot(_ hash: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
