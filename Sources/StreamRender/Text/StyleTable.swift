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
    private var ids: [Style: StyleID] = [.plain: .plain]
    private var last: (style: Style, id: StyleID) = (.plain, .plain)

    public init() {}

    /// The id of `style`, adding it if it is new.
    ///
    /// - Complexity: O(1) on average (one hash lookup; the hyperlink is hashed).
    public mutating func intern(_ style: Style) -> StyleID {
        // Runs of one style come in a row: comparing is cheaper than hashing.
        if style == last.style { return last.id }
        if let id = ids[style] {
            last = (style, id)
            return id
        }
        let id = StyleID(rawValue: UInt32(styles.count))
        styles.append(style)
        ids[style] = id
        return id
    }

    /// The id of `style` if it was interned, else plain.
    ///
    /// - Complexity: O(1) on average.
    public func id(of style: Style) -> StyleID { ids[style] ?? .plain }

    /// The style named by `id`.
    ///
    /// - Precondition: `id` came from this table.
    /// - Complexity: O(1).
    public subscript(id: StyleID) -> Style {
        styles[Int(id.rawValue)]
    }

    /// The number of distinct styles, ``Style/plain`` included.
    public var count: Int { styles.count }
}
