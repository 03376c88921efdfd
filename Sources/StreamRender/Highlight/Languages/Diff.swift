/// Not written yet: every byte is plain.
struct DiffLexer: LineLexer {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {}
}
