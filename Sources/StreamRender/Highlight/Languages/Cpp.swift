/// C++: C's lexer (`CFamilyLexerCore`) plus raw strings `R"delim(...)delim"` across
/// lines, class names after `class`, `typename`, `concept` and `enum class`,
/// namespaces, digit separators and C++20 keywords. Like Pygments, templates'
/// angle brackets are operators and `std::` names are plain.
struct CppLexer: LineLexer {
    private let core = CFamilyLexerCore(cpp: true)

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        core.lex(line, state: &state, into: &sink)
    }
}
