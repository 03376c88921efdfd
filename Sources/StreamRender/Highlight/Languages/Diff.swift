/// Unified, context and normal diffs, line by line as Pygments' `DiffLexer` reads
/// them: `+`/`> ` lines inserted, `-`/`< ` lines deleted (so `+++ b/x` and `--- a/x`
/// are too), `@@` hunk headers and `3,4c5` ranges headings, `diff`, `index`,
/// `Index:` and `===` lines headings, `!` lines and a bare `---` strong. Context,
/// `\ No newline…` and git's extended header lines (`new file mode`) are plain.
struct DiffLexer: LineLexer {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        guard n > 0 else { return }
        let c = LineCursor(line)
        let kind: TokenKind
        switch line[0] {
        case 0x20:
            return
        case 0x21:  // !
            kind = .strong
        case 0x2D:  // -
            kind = n == 3 && c.at("---") ? .strong : .deleted
        case 0x2B:  // +
            kind = .inserted
        case 0x3C where c.peek(1) == 0x20:  // "< "
            kind = .deleted
        case 0x3E where c.peek(1) == 0x20:  // "> "
            kind = .inserted
        case 0x40, 0x3D:  // @ =
            kind = .heading
        case 0x30...0x39:
            guard Self.isNormalRange(line) else { return }
            kind = .heading
        default:
            guard c.at("diff") || c.at("index") || c.at("Index") else { return }
            kind = .heading
        }
        sink.add(0, n, kind)
    }

    /// A normal diff's command line, as Pygments matches it: `\d(,\d+)?[acd]\d+(,\d+)?`
    /// (one digit first: Pygments' own limit, kept so the two agree).
    private static func isNormalRange(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var c = LineCursor(line, at: 1)
        func digits(_ c: inout LineCursor) -> Bool {
            let s = c.pos
            while ASCII.isDigit(c.peek()) { c.pos += 1 }
            return c.pos > s
        }
        if c.peek() == 0x2C {
            c.pos += 1
            guard digits(&c) else { return false }
        }
        let op = c.peek()
        guard op == 0x61 || op == 0x63 || op == 0x64 else { return false }
        c.pos += 1
        guard digits(&c) else { return false }
        if c.peek() == 0x2C {
            c.pos += 1
            guard digits(&c) else { return false }
        }
        return c.atEnd
    }
}
