/// JSON, with the comments JSONC and JSON5 allow. A string followed by `:` is a key;
/// in a value string the escapes are marked (`\uXXXX` as one), where Pygments leaves
/// them plain string.
struct JSONLexer: LineLexer {
    private static let inBlockComment: UInt16 = 1
    private static let constants = WordTable("true false null NaN Infinity")

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
                let end = Self.stringEnd(line, from: start)
                if c.nextNonSpace(from: end) == 0x3A {
                    sink.add(start, end, .tag)
                } else {
                    Self.string(line, start, end, into: &sink)
                }
                c.pos = end
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

    /// The end of the string opening at `start` (after its closing quote, or the line's end).
    private static func stringEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let quote = line[start]
        var i = start + 1
        while i < line.count {
            let b = line[i]
            if b == quote { return i + 1 }
            i += b == 0x5C ? 2 : 1
        }
        return line.count
    }

    /// Reports a string value with its escapes; `\uXXXX` is one escape.
    private static func string(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into sink: inout TokenSink) {
        var run = start
        var i = start + 1
        while i < end {
            guard line[i] == 0x5C else {
                i += 1
                continue
            }
            sink.add(run, i, .string)
            var e = min(end, i + 2)
            if e == i + 2 && line[i + 1] == 0x75 {  // u
                var k = e
                while k < end && k < i + 6 && ASCII.isHexDigit(line[k]) { k += 1 }
                if k == i + 6 { e = k }
            }
            // Keep a multi-byte character whole.
            while e < end && line[e] & 0xC0 == 0x80 { e += 1 }
            sink.add(i, e, .stringEscape)
            run = e
            i = e
        }
        sink.add(run, end, .string)
    }
}
