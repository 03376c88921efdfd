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
///   selectors are 0, East Asian Wide/Fullwidth 2, everything else 1), with the two
///   joins tmux 3.3 makes (the scalar after a ZWJ, a flag's second half).
/// - ``Mode-swift.enum/scalars``: the same sum without those joins (a ZWJ sequence
///   is as wide as its parts, a flag two wide cells), as older terminals draw them.
///
/// East Asian Ambiguous characters are narrow unless ``ambiguousIsWide`` is set.
/// Kinds of cluster that a terminal draws by another mode's rule than the rest
/// (what ``WidthCalibration`` measures) are set with ``setMode(_:for:)``.
public struct WidthPolicy: Sendable, Hashable, CustomStringConvertible {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        case grapheme
        case wcwidth
        case scalars
    }

    /// The clusters terminals disagree about most, beyond East Asian Ambiguous
    /// characters.
    public enum ClusterKind: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Emoji joined by ZWJ (👩‍💻, ❤️‍🔥).
        case emojiZWJ
        /// A pair of regional indicators (🇫🇷).
        case flag
        /// A character with VS16 or a keycap (❤️, 1️⃣): emoji presentation asked for.
        case emojiVS16
        /// A character with VS15 (⌚︎): text presentation asked for.
        case textVS15
        /// A cluster of several scalars in an Indic script (Devanagari to Sinhala: क्षि, கொ).
        case indic

        public var description: String {
            switch self {
            case .emojiZWJ: "emoji-zwj"
            case .flag: "flag"
            case .emojiVS16: "vs16"
            case .textVS15: "vs15"
            case .indic: "indic"
            }
        }
    }

    public var mode: Mode
    /// Treat East Asian Ambiguous characters as 2 columns (CJK legacy terminals).
    public var ambiguousIsWide: Bool
    /// Two bits a kind (``ClusterKind/rawValue``): 0 follows ``mode``, else the mode
    /// at ``Mode/allCases``[bits - 1]. Zero for most policies: the width code then
    /// never classifies a cluster.
    private var kindModes: UInt16 = 0

    public init(mode: Mode, ambiguousIsWide: Bool = false) {
        self.mode = mode
        self.ambiguousIsWide = ambiguousIsWide
    }

    /// Modern terminals: one cell run per grapheme cluster.
    public static let grapheme = WidthPolicy(mode: .grapheme)
    /// Legacy terminals: the sum of per-scalar `wcwidth` values.
    public static let wcwidth = WidthPolicy(mode: .wcwidth)
    /// Older terminals: `wcwidth` without tmux's joins.
    public static let scalars = WidthPolicy(mode: .scalars)

    /// The mode clusters of `kind` are measured by.
    ///
    /// - Complexity: O(1).
    public func mode(for kind: ClusterKind) -> Mode {
        let bits = Int(kindModes >> (2 * kind.rawValue)) & 3
        return bits == 0 ? mode : Mode.allCases[bits - 1]
    }

    /// Measures clusters of `kind` by `kindMode`; a kind set to ``mode`` follows ``mode``
    /// (also if it changes later).
    ///
    /// - Complexity: O(1).
    public mutating func setMode(_ kindMode: Mode, for kind: ClusterKind) {
        let shift = 2 * kind.rawValue
        let bits = kindMode == mode ? 0 : UInt16(Mode.allCases.firstIndex(of: kindMode)! + 1)
        kindModes = kindModes & ~(3 << shift) | bits << shift
    }

    /// The mode `cluster` (one cluster's valid UTF-8) is measured by.
    @inline(__always)
    func mode(of cluster: UnsafeBufferPointer<UInt8>) -> Mode {
        if kindModes == 0 { return mode }
        guard let kind = Self.kind(of: cluster) else { return mode }
        return mode(for: kind)
    }

    /// The kind of `cluster` (one cluster's valid UTF-8), if it is one of ``ClusterKind``.
    ///
    /// - Complexity: O(n) in the cluster's bytes.
    static func kind(of cluster: UnsafeBufferPointer<UInt8>) -> ClusterKind? {
        guard cluster.count > 1 else { return nil }  // (a keycap starts with an ASCII digit, `#` or `*`)
        let (first, afterFirst) = DisplayWidth.decodeScalar(cluster, at: 0)
        if afterFirst == cluster.count { return nil }
        var zwj = false, vs16 = false, vs15 = false
        var i = afterFirst
        while i < cluster.count {
            let (scalar, next) = DisplayWidth.decodeScalar(cluster, at: i)
            switch scalar {
            case 0x200D: zwj = true
            case 0xFE0F, 0x20E3: vs16 = true
            case 0xFE0E: vs15 = true
            default: break
            }
            i = next
        }
        if zwj && ScalarProperties.of(first).isExtendedPictographic { return .emojiZWJ }
        if first >= 0x1F1E6 && first <= 0x1F1FF { return .flag }
        if vs16 { return .emojiVS16 }
        if vs15 { return .textVS15 }
        if first >= 0x0900 && first < 0x0E00 { return .indic }
        return nil
    }

    public var description: String {
        var text = mode.rawValue + (ambiguousIsWide ? "+ambiguous-wide" : "")
        for kind in ClusterKind.allCases where mode(for: kind) != mode { text += "+\(kind)=\(mode(for: kind).rawValue)" }
        return text
    }
}
