/// A rectangle of a ``Frame``: the area a presenter draws into.
public struct Rect: Hashable, Sendable {
    /// The frame row of the rectangle's first row.
    public var top: Int
    /// The frame column of its first column.
    public var left: Int
    public var width: Int
    public var height: Int

    public init(top: Int, left: Int, width: Int, height: Int) {
        self.top = top
        self.left = left
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle split into `count` columns of equal width (the last takes what is
    /// left), `gap` columns apart.
    ///
    /// - Complexity: O(count).
    public func columns(_ count: Int, gap: Int = 1) -> [Rect] {
        guard count > 0 else { return [] }
        let each = max(1, (width - (count - 1) * gap) / count)
        return (0..<count).map { k in
            let offset = k * (each + gap)
            return Rect(top: top, left: left + offset, width: k == count - 1 ? max(1, width - offset) : each, height: height)
        }
    }
}
