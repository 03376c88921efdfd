/// Where a lexer is at a line start: the only thing carried from one line to the next.
///
/// A lexer resumed at a line start with the state it left there gives the tokens it
/// would give lexing from the top: the highlighter stores one state per finished line
/// and never lexes a finished line again. What the fields mean is the language's own
/// (a block comment's nesting depth, the delimiter of a raw string or heredoc, the
/// stack of template-string interpolations); the default value is "at the top level".
struct LexState: Hashable, Sendable {
    /// The language's mode (0: top level).
    var mode: UInt16
    /// A nesting depth (block comments, brackets).
    var depth: UInt16
    /// Modes to return to, innermost last (nested interpolations).
    var stack: [UInt16]
    /// Bytes that end the mode (a heredoc's word, a raw string's closing delimiter).
    var terminator: [UInt8]

    init(mode: UInt16 = 0, depth: UInt16 = 0, stack: [UInt16] = [], terminator: [UInt8] = []) {
        self.mode = mode
        self.depth = depth
        self.stack = stack
        self.terminator = terminator
    }

    /// The top level.
    static let initial = LexState()
}
