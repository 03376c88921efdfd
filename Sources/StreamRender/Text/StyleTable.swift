/// The small number a character carries instead of a ``Style``: an index into a
/// ``StyleTable``. ``StyleID/plain`` (0) is always ``Style/plain``.
public struct StyleID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The id of ``Style/plain`` in every table.
    public static let plain = StyleID(rawValue: 0)

    public static func < (a: StyleID, b: StyleID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "style#\(rawValue)" }
}

/// Interns styles: each distinct ``Style`` is stored once and named by a
/// ``StyleID``. Ids are stable for the table's lifetime (styles are few: a theme's
/// worth, not one per character, so the table is never pruned).
public struct StyleTable: Sendable {
    private var styles: [Style] = [.plain]
    /// The styles' ids by ``hash(_:)``.
    private var ids = IDSlots()
    private var recent: [(style: Style, id: StyleID)] = [(.plain, .plain)]
    private var nextRecent = 0
    private static let recentCount = 8
    /// Ids of styles without a link by a slot of their look (empty slots hold plain's).
    private var linkFree = [(look: UInt64, id: StyleID)](repeating: (Style.plain.look, .plain), count: 1 << linkFreeBits)
    private static let linkFreeBits = 6

    public init() {
        ids.file(hash: Self.hash(.plain))
    }

    /// The colours and attributes, mixed with the link's `String` hash (not its bytes:
    /// links equal as strings, `é` and `e` with a combining accent, must hash alike).
    private static func hash(_ style: Style) -> UInt64 {
        guard let link = style.hyperlink else { return style.look }
        var hasher = Hasher()
        hasher.combine(link)
        return style.look ^ UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The id of `style`, adding it if it is new.
    ///
    /// - Complexity: O(1) on average (one hash lookup; the hyperlink is hashed).
    public mutating func intern(_ style: Style) -> StyleID {
        // Most styles have no link: found by their look alone (the loop below compared
        // up to eight styles, links and all: 80 instructions a run of a code line).
        if style.hyperlink == nil {
            let slot = Int(truncatingIfNeeded: (style.look &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.linkFreeBits))
            if linkFree[slot].look == style.look { return linkFree[slot].id }
            let id = internByHash(style)
            linkFree[slot] = (style.look, id)
            return id
        }
        return internByHash(style)
    }

    /// ``intern(_:)`` through the recent styles and the hash table.
    private mutating func internByHash(_ style: Style) -> StyleID {
        // A few styles come back in turn (a code line's token kinds, a paragraph's plain
        // and bold): comparing with the last ones is cheaper than hashing.
        // (Compared in place: a loop variable copied each entry's link.)
        if let id = recent.withUnsafeBufferPointer({ entries -> StyleID? in
            for k in entries.indices where entries[k].style == style { return entries[k].id }
            return nil
        }) { return id }
        let id: StyleID
        let hash = Self.hash(style)
        if let known = ids.first(hash, where: { styles[Int($0)] == style }) {
            id = StyleID(rawValue: UInt32(known))
        } else {
            id = StyleID(rawValue: UInt32(styles.count))
            styles.append(style)
            ids.file(hash: hash)
        }
        if recent.count < Self.recentCount {
            recent.append((style, id))
        } else {
            recent[nextRecent] = (style, id)
            nextRecent = (nextRecent + 1) % Self.recentCount
        }
        return id
    }

    /// The id of `style` if it was interned, else plain.
    ///
    /// - Complexity: O(1) on average.
    public func id(of style: Style) -> StyleID {
        // (The last ones interned first: a prefix's bullet or bar style, drawn per line.)
        for entry in recent where entry.style == style { return entry.id }
        return ids.first(Self.hash(style), where: { styles[Int($0)] == style }).map { StyleID(rawValue: UInt32($0)) } ?? .plain
    }

    /// The style named by `id`.
    ///
    /// - Precondition: `id` came from this table.
    /// - Complexity: O(1).
    public subscript(id: StyleID) -> Style {
        styles[Int(id.rawValue)]
    }

    /// The ``Style/look`` of the style named by `id`, and whether it has a link (its
    /// link is not copied).
    ///
    /// - Precondition: `id` came from this table.
    /// - Complexity: O(1).
    package func look(of id: StyleID) -> (look: UInt64, linked: Bool) {
        let k = Int(id.rawValue)
        return (styles[k].look, styles[k].hyperlink != nil)
    }

    /// The number of distinct styles, ``Style/plain`` included.
    public var count: Int { styles.count }
}
