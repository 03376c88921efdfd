/// The styles of highlighted code, one per ``TokenKind``.
///
/// It lives beside ``MarkdownTheme`` rather than in `Highlight/`: the lexers know
/// nothing of styles (they build on their own, see `Scripts/highlight/build-tokens`).
/// Colours are 24-bit; the encoder downgrades them, and the ``dark`` and ``light``
/// choices keep keywords, strings, numbers, comments, functions and types apart at
/// 16 colours too (tested).
public struct CodeTheme: Hashable, Sendable {
    private var styles: [Style]

    /// Every kind plain, then `styles` where given.
    public init(_ styles: [TokenKind: Style] = [:]) {
        self.styles = TokenKind.allCases.map { styles[$0] ?? .plain }
    }

    /// The built-in themes' init: pairs, not a dictionary (whose type the run time made
    /// on first use, a quarter of a million instructions, for a theme every process reads).
    private init(pairs: KeyValuePairs<TokenKind, Style>) {
        var styles = [Style](repeating: .plain, count: TokenKind.allCases.count)
        for (kind, style) in pairs { styles[Int(kind.rawValue)] = style }
        self.styles = styles
    }

    /// The style of `kind`, laid over the code block's own style.
    ///
    /// - Complexity: O(1).
    public subscript(kind: TokenKind) -> Style {
        get { styles[Int(kind.rawValue)] }
        set { styles[Int(kind.rawValue)] = newValue }
    }

    private static func rgb(_ v: UInt32, _ attributes: Style.Attributes = []) -> Style {
        Style(foreground: .rgb(UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)), attributes: attributes)
    }

    /// For dark backgrounds.
    public static let dark = CodeTheme(pairs: [
        .keyword: rgb(0xD75FD7), .type: rgb(0x5FD7D7), .function: rgb(0x5FAFFF), .builtin: rgb(0x00AFFF),
        .string: rgb(0x5FD700), .stringEscape: rgb(0xFFD75F, [.bold]), .number: rgb(0xFFAF5F),
        .comment: rgb(0x808080, [.italic]), .operator: rgb(0xD7AFAF), .constant: rgb(0xFF875F),
        .attribute: rgb(0xFFD787), .variable: rgb(0xFF8787), .tag: rgb(0xFF5F87),
        .inserted: rgb(0x5FD700), .deleted: rgb(0xFF5F5F), .heading: rgb(0x5FAFFF, [.bold]),
        .prompt: Style(attributes: [.bold]), .emphasis: Style(attributes: [.italic]), .strong: Style(attributes: [.bold]),
    ])

    /// For light backgrounds.
    public static let light = CodeTheme(pairs: [
        .keyword: rgb(0x8700AF, [.bold]), .type: rgb(0x005F87), .function: rgb(0x0000D7), .builtin: rgb(0x005FAF),
        .string: rgb(0x008700), .stringEscape: rgb(0xAF5F00, [.bold]), .number: rgb(0xAF5F00),
        .comment: rgb(0x808080, [.italic]), .operator: rgb(0x5F5F5F), .constant: rgb(0xD75F00),
        .attribute: rgb(0x875F00), .variable: rgb(0xAF0000), .tag: rgb(0xAF005F),
        .inserted: rgb(0x008700), .deleted: rgb(0xD70000), .heading: rgb(0x0000D7, [.bold]),
        .prompt: Style(attributes: [.bold]), .emphasis: Style(attributes: [.italic]), .strong: Style(attributes: [.bold]),
    ])

    /// Attributes only (`NO_COLOR`): keywords bold, strings italic, comments dim.
    public static let monochrome = CodeTheme(pairs: [
        .keyword: Style(attributes: [.bold]), .type: Style(attributes: [.bold]),
        .string: Style(attributes: [.italic]), .stringEscape: Style(attributes: [.bold, .italic]),
        .comment: Style(attributes: [.dim, .italic]), .attribute: Style(attributes: [.dim]),
        .tag: Style(attributes: [.bold]), .inserted: Style(attributes: [.bold]),
        .deleted: Style(attributes: [.dim, .strikethrough]), .heading: Style(attributes: [.bold, .underline]),
        .prompt: Style(attributes: [.bold]), .emphasis: Style(attributes: [.italic]), .strong: Style(attributes: [.bold]),
    ])
}
