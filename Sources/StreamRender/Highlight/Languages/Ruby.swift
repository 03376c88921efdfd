/// Not written yet: every byte is plain.
struct RubyLexer: LineLexer {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {}
}
