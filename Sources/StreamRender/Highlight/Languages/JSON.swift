/// JSON, with the comments JSONC and JSON5 allow. A string followed by `:` is a key.
struct JSONLexer: LineLexer {
    private static let inBlockComment: UInt16 = 1
    private static let constants = WordSet("true false null NaN Infinity")

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        if state.mode == Self.inBlockComment {
            let start = c.pos
            if c.skip(past: "*/") { state.mode = 0 }
            sink.add(start, c.pos, .comment)
        }
        while !c.atEnd {
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            switch b {
            case 0x22, 0x27:  // " '
                var strings = TokenSink()
                strings.offset = sink.offset
                c.pos += 1
                c.quoted(b, into: &strings)
                let isKey = c.nextNonSpace(from: c.pos) == 0x3A
                if isKey {
                    sink.add(start, c.pos, .tag)
                } else {
                    // The string's own tokens, with its escapes.
                    sink.add(start, start + 1, .string)
                    for t in strings.tokens { sink.add(t.start - sink.offset, t.end - sink.offset, t.kind) }
                }
            case 0x2F where c.peek(1) == 0x2F:
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x2F where c.peek(1) == 0x2A:
                c.pos += 2
                if !c.skip(past: "*/") { state.mode = Self.inBlockComment }
                sink.add(start, c.pos, .comment)
            case 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A:
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
            case 0x2D where ASCII.isDigit(c.peek(1)) || c.peek(1) == 0x2E, 0x2B where ASCII.isDigit(c.peek(1)) || c.peek(1) == 0x2E:
                c.pos += 1
                _ = c.number()
                sink.add(start, c.pos, .number)
            default:
                if c.number() != nil {
                    sink.add(start, c.pos, .number)
                } else if let word = c.identifier() {
                    sink.add(word, Self.constants.contains(line, word) ? .constant : .plain)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            }
        }
    }
}
