/// The styles markdown is drawn with.
///
/// Colours are given in 24-bit RGB; the ANSI encoder downgrades them to the
/// terminal's 256 or 16 colours (nearest palette entry), so one theme serves every
/// terminal. The colours of ``dark`` and ``light`` were picked so that their
/// 16-colour downgrades stay distinct and readable. ``monochrome`` uses attributes
/// only (bold, italic, underline, dim): it is what `NO_COLOR` gets.
public struct MarkdownTheme: Hashable, Sendable {
    public var name: String
    /// Headings by level (index 0 is level 1).
    public var headings: [Style]
    public var strong: Style
    public var emphasis: Style
    public var strikethrough: Style
    public var inlineCode: Style
    public var link: Style
    /// The ` (url)` after a link's text where hyperlinks are not supported.
    public var linkTarget: Style
    public var codeBlock: Style
    /// The language name shown above a fenced code block.
    public var codeLanguage: Style
    /// The mark before a wrapped code line's continuation.
    public var codeContinuation: Style
    public var quoteBar: Style
    public var quoteText: Style
    public var bullet: Style
    public var taskDone: Style
    public var taskOpen: Style
    public var rule: Style
    public var tableBorder: Style
    public var tableHeader: Style
    public var html: Style
    /// Highlighted code in fenced blocks with a known language.
    public var code: CodeTheme
    /// GitHub's alerts (`> [!NOTE]`...): the label and the quote bar, by kind.
    public var alerts: Alerts = .colored
    /// LaTeX math drawn as Unicode (``MathText``).
    public var math = Style(attributes: [.italic])

    /// The styles of GitHub's five alert kinds.
    public struct Alerts: Hashable, Sendable {
        public var note: Style
        public var tip: Style
        public var important: Style
        public var warning: Style
        public var caution: Style

        public init(note: Style, tip: Style, important: Style, warning: Style, caution: Style) {
            self.note = note
            self.tip = tip
            self.important = important
            self.warning = warning
            self.caution = caution
        }

        /// GitHub's colours: blue, green, purple, amber, red.
        public static let colored = Alerts(
            note: Style(foreground: .rgb(0x44, 0x93, 0xF8)), tip: Style(foreground: .rgb(0x3F, 0xB9, 0x50)),
            important: Style(foreground: .rgb(0xAB, 0x7D, 0xF8)), warning: Style(foreground: .rgb(0xD2, 0x99, 0x22)),
            caution: Style(foreground: .rgb(0xF8, 0x51, 0x49)))
        /// No colour (`NO_COLOR`): the label alone tells the kind.
        public static let plain = Alerts(note: .plain, tip: .plain, important: .plain, warning: .plain, caution: .plain)
    }

    /// The themes by name, for `--theme`.
    public static let all: [MarkdownTheme] = [.dark, .light, .monochrome]

    /// The theme called `name` (case-insensitive), if any.
    ///
    /// - Complexity: O(t) in the themes.
    public static func named(_ name: String) -> MarkdownTheme? {
        all.first { $0.name == name.lowercased() }
    }

    /// For dark backgrounds.
    public static let dark = MarkdownTheme(
        name: "dark",
        headings: [
            Style(foreground: .rgb(0xFF, 0xAF, 0x5F), attributes: [.bold, .underline]),
            Style(foreground: .rgb(0xFF, 0xAF, 0x5F), attributes: [.bold]),
            Style(foreground: .rgb(0x87, 0xD7, 0xFF), attributes: [.bold]),
            Style(foreground: .rgb(0x87, 0xD7, 0xFF), attributes: [.bold]),
            Style(attributes: [.bold]),
            Style(attributes: [.bold, .dim]),
        ],
        strong: Style(attributes: [.bold]),
        emphasis: Style(attributes: [.italic]),
        strikethrough: Style(attributes: [.strikethrough]),
        inlineCode: Style(foreground: .rgb(0x87, 0xFF, 0xAF)),
        link: Style(foreground: .rgb(0x5F, 0xAF, 0xFF), attributes: [.underline]),
        linkTarget: Style(foreground: .rgb(0x5F, 0xAF, 0xFF), attributes: [.dim]),
        codeBlock: Style(foreground: .rgb(0xD7, 0xD7, 0xAF)),
        codeLanguage: Style(attributes: [.dim, .italic]),
        codeContinuation: Style(attributes: [.dim]),
        quoteBar: Style(foreground: .rgb(0x80, 0x80, 0x80)),
        quoteText: Style(attributes: [.italic]),
        bullet: Style(foreground: .rgb(0xFF, 0xAF, 0x5F)),
        taskDone: Style(foreground: .rgb(0x87, 0xFF, 0x87)),
        taskOpen: Style(foreground: .rgb(0xFF, 0xAF, 0x5F)),
        rule: Style(foreground: .rgb(0x80, 0x80, 0x80)),
        tableBorder: Style(foreground: .rgb(0x80, 0x80, 0x80)),
        tableHeader: Style(attributes: [.bold]),
        html: Style(attributes: [.dim]),
        code: .dark
    )

    /// For light backgrounds.
    public static let light = MarkdownTheme(
        name: "light",
        headings: [
            Style(foreground: .rgb(0xAF, 0x00, 0x5F), attributes: [.bold, .underline]),
            Style(foreground: .rgb(0xAF, 0x00, 0x5F), attributes: [.bold]),
            Style(foreground: .rgb(0x00, 0x5F, 0xAF), attributes: [.bold]),
            Style(foreground: .rgb(0x00, 0x5F, 0xAF), attributes: [.bold]),
            Style(attributes: [.bold]),
            Style(attributes: [.bold, .dim]),
        ],
        strong: Style(attributes: [.bold]),
        emphasis: Style(attributes: [.italic]),
        strikethrough: Style(attributes: [.strikethrough]),
        inlineCode: Style(foreground: .rgb(0x00, 0x87, 0x00)),
        link: Style(foreground: .rgb(0x00, 0x00, 0xD7), attributes: [.underline]),
        linkTarget: Style(foreground: .rgb(0x00, 0x00, 0xD7), attributes: [.dim]),
        codeBlock: Style(foreground: .rgb(0x5F, 0x00, 0x87)),
        codeLanguage: Style(attributes: [.dim, .italic]),
        codeContinuation: Style(attributes: [.dim]),
        quoteBar: Style(foreground: .rgb(0x80, 0x80, 0x80)),
        quoteText: Style(attributes: [.italic]),
        bullet: Style(foreground: .rgb(0xAF, 0x00, 0x5F)),
        taskDone: Style(foreground: .rgb(0x00, 0x87, 0x00)),
        taskOpen: Style(foreground: .rgb(0xAF, 0x00, 0x5F)),
        rule: Style(foreground: .rgb(0x80, 0x80, 0x80)),
        tableBorder: Style(foreground: .rgb(0x80, 0x80, 0x80)),
        tableHeader: Style(attributes: [.bold]),
        html: Style(attributes: [.dim]),
        code: .light
    )

    /// Attributes only (`NO_COLOR`).
    public static let monochrome = MarkdownTheme(
        name: "monochrome",
        headings: [
            Style(attributes: [.bold, .underline]),
            Style(attributes: [.bold]),
            Style(attributes: [.bold]),
            Style(attributes: [.bold]),
            Style(attributes: [.bold]),
            Style(attributes: [.bold, .dim]),
        ],
        strong: Style(attributes: [.bold]),
        emphasis: Style(attributes: [.italic]),
        strikethrough: Style(attributes: [.strikethrough]),
        inlineCode: Style(attributes: [.dim]),
        link: Style(attributes: [.underline]),
        linkTarget: Style(attributes: [.dim]),
        codeBlock: Style(),
        codeLanguage: Style(attributes: [.dim, .italic]),
        codeContinuation: Style(attributes: [.dim]),
        quoteBar: Style(attributes: [.dim]),
        quoteText: Style(attributes: [.italic]),
        bullet: Style(),
        taskDone: Style(),
        taskOpen: Style(),
        rule: Style(attributes: [.dim]),
        tableBorder: Style(attributes: [.dim]),
        tableHeader: Style(attributes: [.bold]),
        html: Style(attributes: [.dim]),
        code: .monochrome,
        alerts: .plain
    )
}

extension Style {
    /// `other` laid over this style: its colours where it sets one, attributes
    /// combined, its hyperlink where it has one.
    func merged(with other: Style) -> Style {
        var merged = self
        if other.foreground != .default { merged.foreground = other.foreground }
        if other.background != .default { merged.background = other.background }
        merged.attributes.formUnion(other.attributes)
        if let link = other.hyperlink { merged.hyperlink = link }
        return merged
    }
}
