/// Not written yet: every byte is plain.
struct JavaScriptLexer: LineLexer {
    var typescript: Bool
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {}
}
