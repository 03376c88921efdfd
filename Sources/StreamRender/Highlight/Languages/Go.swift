/// Go: comments, raw `` `strings` `` across lines, runes, modern number literals
/// (`0x_FF`, `0o644`, `0b1011`, `1_000`, imaginary `3i`), keywords by kind.
///
/// Like Pygments, predeclared types are types (`int`, `error`) but builtin
/// functions and conversions are builtins only when called (`len(`, `string(`),
/// so a variable called `len` stays plain; `:=`, `<-`, `&^` and the arithmetic
/// operators are operators while `=`, `<`, `>`, `!` alone are punctuation;
/// struct tags are raw strings. Unlike Pygments, escapes in interpreted strings
/// are marked, and the digit separators and `0o`/`0b` prefixes of Go 1.13 keep
/// a literal one number.
struct GoLexer: LineLexer {
    private static let inBlockComment: UInt16 = 1
    private static let inRawString: UInt16 = 2

    // Word classes.
    private static let keyword: UInt32 = 1, constant: UInt32 = 2, type: UInt32 = 3, builtin: UInt32 = 4

    private let words = Self.wordsTable

    private static let wordsTable = WordTable(kinds: [
        (keyword, """
            break default select case defer go else goto switch fallthrough if range continue for return
            import package var func struct map chan type interface const
            """),
        (constant, "true false iota nil"),
        (type, """
            uint uint8 uint16 uint32 uint64 int int8 int16 int32 int64 float float32 float64
            complex64 complex128 byte rune string bool error uintptr any comparable
            """),
        (builtin, "print println panic recover close complex real imag len cap append copy delete new make min max clear"),
    ])
    private let punctuation = CurlyFamily.ByteClass("|^<>=!()[]{}.,;:")

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        if state.mode == Self.inBlockComment {
            if c.skip(past: "*/") { state.mode = 0 }
            sink.add(0, c.pos, .comment)
        } else if state.mode == Self.inRawString {
            if c.skip(past: "`") { state.mode = 0 }
            sink.add(0, c.pos, .string)
        }
        while !c.atEnd {
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            switch b {
            case 0x2F where c.peek(1) == 0x2F:  // //
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x2F where c.peek(1) == 0x2A:  // /*
                c.pos += 2
                if !c.skip(past: "*/") { state.mode = Self.inBlockComment }
                sink.add(start, c.pos, .comment)
            case 0x60:  // `
                c.pos += 1
                if !c.skip(past: "`") { state.mode = Self.inRawString }
                sink.add(start, c.pos, .string)
            case 0x22:  // "
                c.pos += 1
                sink.add(start, c.pos, .string)
                c.quoted(0x22, into: &sink)
            case 0x27:  // '
                if let end = Self.rune(line, at: start) {
                    c.pos = end
                    sink.add(start, end, .string)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            default:
                if ASCII.isDigit(b) || (b == 0x2E && ASCII.isDigit(c.peek(1))) {
                    _ = c.number()
                    sink.add(start, c.pos, .number)
                } else if let word = CurlyFamily.identifier(&c) {
                    sink.add(word, kind(of: word, in: line, next: c.peek()))
                } else if let end = Self.operatorEnd(line, at: start) {
                    c.pos = end
                    sink.add(start, end, .operator)
                } else if punctuation.contains(b) {
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            }
        }
    }

    @inline(__always)
    private func kind(of word: Range<Int>, in line: UnsafeBufferPointer<UInt8>, next: UInt8) -> TokenKind {
        switch words.kind(line, word) {
        case Self.keyword: .keyword
        case Self.constant: .constant
        case Self.type: next == 0x28 ? .builtin : .type
        case Self.builtin: next == 0x28 ? .builtin : .plain
        default: .plain
        }
    }

    /// The end of a rune literal at `i` (`'a'`, `'\n'`, `'\x41'`, `'世'`), if one is there.
    private static func rune(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        var k = i + 1
        guard k < line.count else { return nil }
        if line[k] == 0x5C {
            // An escape: at most `\U` and eight hex digits before the closing quote.
            k += 2
            let limit = min(line.count, i + 12)
            while k < limit && line[k] != 0x27 { k += 1 }
        } else if line[k] != 0x27 {
            k += 1
            while k < line.count && line[k] & 0xC0 == 0x80 { k += 1 }
        } else {
            return nil
        }
        return k < line.count && line[k] == 0x27 ? k + 1 : nil
    }

    /// The end of an operator at `i` (the longest of Go's operators that Pygments calls
    /// operators), if one starts there.
    private static func operatorEnd(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let b = line[i]
        let n = i + 1 < line.count ? line[i + 1] : 0
        let n2 = i + 2 < line.count ? line[i + 2] : 0
        switch b {
        case 0x3C:  // <
            if n == 0x3C { return n2 == 0x3D ? i + 3 : i + 2 }
            return n == 0x3D || n == 0x2D ? i + 2 : nil
        case 0x3E:  // >
            if n == 0x3E { return n2 == 0x3D ? i + 3 : i + 2 }
            return n == 0x3D ? i + 2 : nil
        case 0x26:  // &
            if n == 0x5E { return n2 == 0x3D ? i + 3 : i + 2 }
            return n == 0x3D || n == 0x26 ? i + 2 : i + 1
        case 0x2B, 0x2D:  // + -
            return n == 0x3D || n == b ? i + 2 : i + 1
        case 0x2A, 0x2F, 0x25:  // * / %
            return n == 0x3D ? i + 2 : i + 1
        case 0x7C:  // |
            return n == 0x3D || n == 0x7C ? i + 2 : i + 1
        case 0x3D, 0x21:  // = !
            return n == 0x3D ? i + 2 : nil
        case 0x3A:  // :
            return n == 0x3D ? i + 2 : nil
        case 0x2E:  // .
            return n == 0x2E && n2 == 0x2E ? i + 3 : nil
        case 0x7E:  // ~
            return i + 1
        default:
            return nil
        }
    }
}
