/// What a piece of code is, as a highlighter sees it.
///
/// The kinds are coarse on purpose: a theme gives each one a style, and the
/// `stream-render tokens` command prints their ``name``s. The mapping from
/// Pygments' token classes to these kinds is recorded in
/// `Scripts/highlight/compare.py`.
public enum TokenKind: UInt8, CaseIterable, Hashable, Sendable {
    /// Identifiers and anything without a more specific kind.
    case plain
    case keyword
    /// Type names (`Int`, `String`, a class after `class`).
    case type
    /// A function's name where it is defined (or, where the language makes it plain, called).
    case function
    /// Functions and objects the language provides (`print`, `len`, `console`).
    case builtin
    case string
    /// An escape or interpolation inside a string (`\n`, `\(x)`, `${x}` delimiters).
    case stringEscape
    case number
    case comment
    case `operator`
    case punctuation
    /// `true`, `false`, `nil`, `None` and named constants.
    case constant
    /// Attributes, decorators, annotations, preprocessor lines.
    case attribute
    /// Sigiled variables (`$x`, `@ivar`), shell parameters.
    case variable
    /// Markup tag names; keys of JSON and YAML (TOML keys are plain, as in Pygments).
    case tag
    /// A diff's added line.
    case inserted
    /// A diff's removed line.
    case deleted
    /// A diff's file and hunk headers; markdown headings.
    case heading
    /// A console session's prompt.
    case prompt
    case emphasis
    case strong

    /// The kind's name in `stream-render tokens` output.
    public var name: String {
        switch self {
        case .plain: "plain"
        case .keyword: "keyword"
        case .type: "type"
        case .function: "function"
        case .builtin: "builtin"
        case .string: "string"
        case .stringEscape: "string-escape"
        case .number: "number"
        case .comment: "comment"
        case .operator: "operator"
        case .punctuation: "punctuation"
        case .constant: "constant"
        case .attribute: "attribute"
        case .variable: "variable"
        case .tag: "tag"
        case .inserted: "inserted"
        case .deleted: "deleted"
        case .heading: "heading"
        case .prompt: "prompt"
        case .emphasis: "emphasis"
        case .strong: "strong"
        }
    }

    /// The kind called `name`, if any.
    ///
    /// - Complexity: O(k) in the kinds.
    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}

/// A classified range of a line or text: UTF-8 byte offsets, `end` exclusive.
public struct Token: Hashable, Sendable, CustomStringConvertible {
    public var start: Int
    public var end: Int
    public var kind: TokenKind

    public init(start: Int, end: Int, kind: TokenKind) {
        self.start = start
        self.end = end
        self.kind = kind
    }

    /// `start end kind`, as `stream-render tokens` prints it.
    public var description: String { "\(start) \(end) \(kind.name)" }
}
