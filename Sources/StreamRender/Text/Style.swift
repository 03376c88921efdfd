/// A terminal colour: the terminal's default, one of the 16 ANSI colours, an entry
/// of the 256-colour palette, or 24-bit RGB.
///
/// The ANSI encoder downgrades colours the terminal cannot show; the document keeps
/// what was asked for.
public enum StyleColor: Hashable, Sendable {
    /// The terminal's own foreground or background.
    case `default`
    /// One of the 16 ANSI colours: 0-7 normal, 8-15 bright.
    case ansi(UInt8)
    /// An entry of the 256-colour palette.
    case palette(UInt8)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    public static let black = StyleColor.ansi(0)
    public static let red = StyleColor.ansi(1)
    public static let green = StyleColor.ansi(2)
    public static let yellow = StyleColor.ansi(3)
    public static let blue = StyleColor.ansi(4)
    public static let magenta = StyleColor.ansi(5)
    public static let cyan = StyleColor.ansi(6)
    public static let white = StyleColor.ansi(7)

    /// The colour in 26 bits: a kind in the top two, its value below (0 is default).
    var packed: UInt64 {
        switch self {
        case .default: return 0
        case .ansi(let n): return 1 << 24 | UInt64(n)
        case .palette(let n): return 2 << 24 | UInt64(n)
        case .rgb(let r, let g, let b): return 3 << 24 | UInt64(r) << 16 | UInt64(g) << 8 | UInt64(b)
        }
    }

    init(packed: UInt64) {
        let value = UInt8(truncatingIfNeeded: packed)
        switch packed >> 24 {
        case 0: self = .default
        case 1: self = .ansi(value)
        case 2: self = .palette(value)
        default: self = .rgb(UInt8(truncatingIfNeeded: packed >> 16), UInt8(truncatingIfNeeded: packed >> 8), value)
        }
    }
}

/// How text looks: colours, attributes and an optional hyperlink target.
///
/// Documents do not store a `Style` per character: a ``StyleTable`` interns each
/// distinct style once and text carries its small ``StyleID``.
public struct Style: Hashable, Sendable {
    /// Text attributes that can be combined.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let italic = Attributes(rawValue: 1 << 2)
        public static let underline = Attributes(rawValue: 1 << 3)
        public static let strikethrough = Attributes(rawValue: 1 << 4)
        public static let inverse = Attributes(rawValue: 1 << 5)
    }

    /// Colours and attributes in one number (``look``): comparing, hashing and copying
    /// a style is a word and the link, not two enums with payloads (styles are
    /// compared for every run appended and interned).
    package private(set) var look: UInt64
    /// The target of an OSC 8 hyperlink over this text, if any.
    public var hyperlink: String?

    /// The text's colour.
    public var foreground: StyleColor {
        get { StyleColor(packed: look & Self.colorMask) }
        set { look = look & ~Self.colorMask | newValue.packed }
    }
    /// The colour behind the text.
    public var background: StyleColor {
        get { StyleColor(packed: look >> 26 & Self.colorMask) }
        set { look = look & ~(Self.colorMask << 26) | newValue.packed << 26 }
    }
    /// Bold, italic and the other attributes.
    public var attributes: Attributes {
        get { Attributes(rawValue: UInt8(truncatingIfNeeded: look >> 52)) }
        set { look = look & ~(0xFF << 52) | UInt64(newValue.rawValue) << 52 }
    }

    private static let colorMask: UInt64 = 0x3FF_FFFF

    /// A style of `look` (``look``'s layout), without a link.
    package init(look: UInt64) {
        self.look = look
    }

    /// The bits of ``look`` that hold the attributes.
    package static let attributeBits: UInt64 = 0xFF << 52

    /// The richest kind of its two colours: 0 default, 1 one of the 16, 2 the palette,
    /// 3 RGB (``StyleColor/packed``).
    package var richestColorKind: UInt64 { max(look >> 24 & 3, look >> 50 & 3) }

    public init(foreground: StyleColor = .default, background: StyleColor = .default,
                attributes: Attributes = [], hyperlink: String? = nil) {
        look = foreground.packed | background.packed << 26 | UInt64(attributes.rawValue) << 52
        self.hyperlink = hyperlink
    }

    /// The terminal's default look: no colour, no attribute, no link.
    public static let plain = Style()
}

extension Style: CustomReflectable {
    /// The fields, not the number that packs them (`dump`, test failure messages).
    public var customMirror: Mirror {
        Mirror(self, children: ["foreground": foreground, "background": background, "attributes": attributes,
                                "hyperlink": hyperlink as Any])
    }
}

/// Switches the style of styled text as it is written (``SGRPen`` writes the SGR and
/// OSC 8 of a terminal); plain text output has none.
public protocol StylePen: AnyObject {
    /// Appends what changes the current style to `style`: nothing when it is current.
    ///
    /// - Complexity: O(1) plus the bytes appended.
    func change(to style: Style, into out: inout [UInt8])
    /// ``change(to:into:)`` to the style `id` names in `styles` (a pen may read only
    /// what it needs of it: styled text changes style per run).
    ///
    /// - Complexity: O(1) plus the bytes appended.
    func change(to id: StyleID, in styles: StyleTable, into out: inout [UInt8])
}

extension StylePen {
    /// ``change(to:into:)`` with the style `id` names.
    ///
    /// - Complexity: O(1) plus the bytes appended.
    public func change(to id: StyleID, in styles: StyleTable, into out: inout [UInt8]) {
        change(to: styles[id], into: &out)
    }
}
