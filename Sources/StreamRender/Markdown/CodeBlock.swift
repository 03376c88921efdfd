/// A fenced code block of the answer, once it is finished.
public struct CodeBlock: Sendable, Equatable {
    /// Its number: the answer's fenced blocks count from 1 in the order they appear
    /// (in lists and quotes too), as their labels show them (`2 · python`).
    public var number: Int
    /// The first word of the fence's info string (`swift`, `py`, `{.rust}`), or "".
    public var info: String
    /// The code, each line ending with a line feed, the fence's indentation (and
    /// any list or quote prefix) removed: the source as it would be copied.
    public var code: String

    public init(number: Int = 0, info: String, code: String) {
        self.number = number
        self.info = info
        self.code = code
    }

    /// The language the highlighter knows by that name, if any.
    public var language: HighlightLanguage? { HighlightLanguage.named(info) }

    /// A file extension for the code: the language's usual one, else `txt`.
    public var fileExtension: String { language?.fileExtension ?? "txt" }
}
