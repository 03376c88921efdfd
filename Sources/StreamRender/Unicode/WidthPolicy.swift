/// How many terminal columns a grapheme cluster takes.
///
/// Terminals disagree, so this is a parameter of every width computation:
///
/// - ``Mode-swift.enum/grapheme``: a cluster is one cell run (the semantics of
///   terminals that implement mode 2027, and of most modern ones). Emoji
///   presentation sequences, keycaps, flags, ZWJ and VS16 sequences and East Asian
///   Wide/Fullwidth clusters are 2; combining marks add nothing; VS15 asks for text
///   presentation (1).
/// - ``Mode-swift.enum/wcwidth``: the sum of per-scalar widths, as legacy terminals
///   and the Python `wcwidth` package compute them (marks, ZWJ and variation
///   selectors are 0, East Asian Wide/Fullwidth 2, everything else 1).
///
/// East Asian Ambiguous characters are narrow unless ``ambiguousIsWide`` is set.
public struct WidthPolicy: Sendable, Hashable, CustomStringConvertible {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case grapheme
        case wcwidth
    }

    public var mode: Mode
    /// Treat East Asian Ambiguous characters as 2 columns (CJK legacy terminals).
    public var ambiguousIsWide: Bool

    public init(mode: Mode, ambiguousIsWide: Bool = false) {
        self.mode = mode
        self.ambiguousIsWide = ambiguousIsWide
    }

    /// Modern terminals: one cell run per grapheme cluster.
    public static let grapheme = WidthPolicy(mode: .grapheme)
    /// Legacy terminals: the sum of per-scalar `wcwidth` values.
    public static let wcwidth = WidthPolicy(mode: .wcwidth)

    public var description: String {
        mode.rawValue + (ambiguousIsWide ? "+ambiguous-wide" : "")
    }
}
