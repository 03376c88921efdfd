/// Runs another language's lexer on part of a line (a `<script>` body, a markdown
/// code fence), keeping its state inside the host's.
///
/// While a host embeds a language, the host's `LexState` is the embedded lexer's own,
/// with the host's `own` words pushed on top of its stack (the last is ``marker``):
/// the embedded lexer sees only its state, and the host finds its words on top. The
/// embedded stack is copied only when it is not empty, so the common line allocates
/// nothing.
enum EmbeddedLexer {
    /// The last stack word while a language is embedded.
    static let marker: UInt16 = 0xE3B0
    /// The most stack words an embedded state may keep: embeddings can nest (a
    /// markdown fence inside a markdown fence), and each level adds its host words.
    static let maxStack = 48

    /// Whether `state` is that of an embedded language (its host words on top).
    @inline(__always)
    static func isEmbedded(_ state: LexState) -> Bool { state.stack.last == marker }

    /// The host word `k` places below the marker (1: just below it).
    @inline(__always)
    static func hostWord(_ state: LexState, _ k: Int) -> UInt16 {
        let i = state.stack.count - 1 - k
        return i >= 0 ? state.stack[i] : 0
    }

    /// The state that starts embedding: the embedded language's initial state with
    /// the host's `words` (without the marker) on top.
    static func start(_ words: [UInt16]) -> LexState {
        LexState(stack: words + [marker])
    }

    /// Lexes `line[range]` with `lexer`, from and into the embedded state in `state`
    /// (which has `own` host words on top, marker included).
    static func lex(_ lexer: any LineLexer, _ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, own: Int,
                    state: inout LexState, into sink: inout TokenSink) {
        guard !range.isEmpty else { return }
        let innerCount = max(0, state.stack.count - own)
        var inner = LexState(mode: state.mode, depth: state.depth,
                             stack: innerCount == 0 ? [] : Array(state.stack[..<innerCount]), terminator: state.terminator)
        let offset = sink.offset
        sink.offset += range.lowerBound
        lexer.lex(UnsafeBufferPointer(rebasing: line[range]), state: &inner, into: &sink)
        sink.offset = offset
        if inner.stack.count > maxStack {
            // Too deeply nested to keep: the embedded language starts over.
            inner = LexState()
        }
        state.mode = inner.mode
        state.depth = inner.depth
        state.terminator = inner.terminator
        if !(innerCount == 0 && inner.stack.isEmpty) {
                let host = Array(state.stack[innerCount...])
            state.stack = inner.stack + host
        }
    }
}
