/// Not written yet: every byte is plain.
struct RustLexer: LineLexer {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {}
}
