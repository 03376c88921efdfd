/// Not written yet: every byte is plain.
struct DockerfileLexer: LineLexer {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {}
}
