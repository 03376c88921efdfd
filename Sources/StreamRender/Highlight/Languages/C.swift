/// C, as Pygments' C lexer sees it: preprocessor lines (with continuations and
/// `#if 0` blocks), functions where they are defined or declared at the top level,
/// `struct` names, the standard library's type names, C11 keywords. The work is
/// shared with C++ in `CFamilyLexerCore`.
struct CLexer: LineLexer {
    private let core = CFamilyLexerCore(cpp: false)

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        core.lex(line, state: &state, into: &sink)
    }
}
