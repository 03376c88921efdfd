/// Bash, sh and zsh scripts: ``ShellScanner`` from the line start, after the body
/// of an open heredoc (a string up to its terminator line).
struct BashLexer: LineLexer {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        if ShellScanner.heredocLine(line, from: 0, state: &state, into: &sink) { return }
        ShellScanner.lex(line, from: 0, state: &state, into: &sink)
    }
}
