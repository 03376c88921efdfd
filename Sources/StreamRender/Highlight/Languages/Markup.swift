/// Not written yet: every byte is plain.
struct MarkupLexer: LineLexer {
    var html: Bool
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {}
}
