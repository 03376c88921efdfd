/// A lexer of one language, one line at a time.
///
/// `lex` sees one line without its line break and the ``LexState`` the previous line
/// left; it reports the line's tokens in order, without overlaps, and leaves the
/// state the next line starts in. Everything a lexer knows about earlier lines must
/// be in that state: that is what lets the highlighter lex each finished line once.
/// Bytes it reports nothing for are plain (whitespace need not be reported).
protocol LineLexer: Sendable {
    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink)
}

/// Collects a line's tokens; adjacent tokens of one kind are merged.
struct TokenSink {
    var tokens: [Token] = []
    /// Added to every offset (a line's position in its text).
    var offset = 0

    @inline(__always)
    mutating func add(_ start: Int, _ end: Int, _ kind: TokenKind) {
        guard end > start else { return }
        let s = start + offset, e = end + offset
        if let last = tokens.last {
            assert(s >= last.end, "tokens out of order")
            if last.kind == kind && last.end == s {
                tokens[tokens.count - 1].end = e
                return
            }
        }
        tokens.append(Token(start: s, end: e, kind: kind))
    }

    mutating func add(_ range: Range<Int>, _ kind: TokenKind) { add(range.lowerBound, range.upperBound, kind) }
}

/// Byte classes for lexers (non-ASCII bytes count as identifier bytes, so unicode
/// identifiers are one token).
enum ASCII {
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
    @inline(__always) static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || (b | 0x20) &- 0x61 < 6 }
    @inline(__always) static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
    @inline(__always) static func isUpper(_ b: UInt8) -> Bool { b &- 0x41 < 26 }
    @inline(__always) static func isLower(_ b: UInt8) -> Bool { b &- 0x61 < 26 }
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0C || b == 0x0B }
    /// A letter, `_` or a byte of a non-ASCII character.
    @inline(__always) static func isIdentifierStart(_ b: UInt8) -> Bool { isLetter(b) || b == 0x5F || b >= 0x80 }
    @inline(__always) static func isIdentifierByte(_ b: UInt8) -> Bool { isIdentifierStart(b) || isDigit(b) }
    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { isUpper(b) ? b | 0x20 : b }
    @inline(__always) static func upper(_ b: UInt8) -> UInt8 { isLower(b) ? b & ~0x20 : b }
}

/// A position in one line, with the scans most lexers share.
struct LineCursor {
    let line: UnsafeBufferPointer<UInt8>
    var pos = 0

    init(_ line: UnsafeBufferPointer<UInt8>, at pos: Int = 0) {
        self.line = line
        self.pos = pos
    }

    var count: Int { line.count }
    var atEnd: Bool { pos >= line.count }

    /// The byte `ahead` bytes after the position, 0 past the end.
    @inline(__always)
    func peek(_ ahead: Int = 0) -> UInt8 {
        let i = pos + ahead
        return i < line.count ? line[i] : 0
    }

    /// The byte at `i`, 0 outside the line.
    @inline(__always)
    subscript(_ i: Int) -> UInt8 { i >= 0 && i < line.count ? line[i] : 0 }

    /// Whether the bytes at the position are `literal`.
    func at(_ literal: StaticString) -> Bool { at(literal, pos) }

    /// Whether the bytes at `i` are `literal`.
    func at(_ literal: StaticString, _ i: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i >= 0, i + n <= line.count else { return false }
        let p = literal.utf8Start
        for k in 0..<n where line[i + k] != p[k] { return false }
        return true
    }

    /// Whether the bytes at the position are `bytes`.
    func at(bytes: [UInt8]) -> Bool {
        guard pos + bytes.count <= line.count else { return false }
        for k in 0..<bytes.count where line[pos + k] != bytes[k] { return false }
        return true
    }

    /// Skips spaces and tabs; whether any were skipped.
    @discardableResult
    mutating func skipSpaces() -> Bool {
        let start = pos
        while pos < line.count && ASCII.isSpace(line[pos]) { pos += 1 }
        return pos > start
    }

    /// An identifier at the position (letters, digits, `_`, non-ASCII; plus `extra`
    /// bytes after the first), if one starts there.
    mutating func identifier(extra: StaticString = "") -> Range<Int>? {
        guard pos < line.count, ASCII.isIdentifierStart(line[pos]) else { return nil }
        let start = pos
        pos += 1
        while pos < line.count {
            let b = line[pos]
            if ASCII.isIdentifierByte(b) || Self.contains(extra, b) { pos += 1 } else { break }
        }
        return start..<pos
    }

    static func contains(_ set: StaticString, _ b: UInt8) -> Bool {
        let p = set.utf8Start
        for k in 0..<set.utf8CodeUnitCount where p[k] == b { return true }
        return false
    }

    /// A number in the C family's notation at the position: decimal with `_`
    /// separators, fraction and exponent, `0x`/`0o`/`0b` prefixes, then any letters
    /// as a suffix (`10u`, `1.5f`, `2L`). A `.` starts a fraction only before a digit.
    mutating func number() -> Range<Int>? {
        let start = pos
        let c = peek()
        guard ASCII.isDigit(c) || (c == 0x2E && ASCII.isDigit(peek(1))) else { return nil }
        if c == 0x30, let p = Optional(peek(1) | 0x20), p == 0x78 || p == 0x62 || p == 0x6F {  // 0x 0b 0o
            pos += 2
            while pos < line.count && (ASCII.isHexDigit(line[pos]) || line[pos] == 0x5F) { pos += 1 }
            if p == 0x78 && peek() == 0x2E { pos += 1; while pos < line.count && ASCII.isHexDigit(line[pos]) { pos += 1 } }
            if p == 0x78 && (peek() | 0x20) == 0x70 { exponent() }
        } else {
            while pos < line.count && (ASCII.isDigit(line[pos]) || line[pos] == 0x5F) { pos += 1 }
            if peek() == 0x2E && ASCII.isDigit(peek(1)) {
                pos += 1
                while pos < line.count && (ASCII.isDigit(line[pos]) || line[pos] == 0x5F) { pos += 1 }
            }
            if (peek() | 0x20) == 0x65 { exponent() }
        }
        while pos < line.count && ASCII.isLetter(line[pos]) { pos += 1 }
        return start..<pos
    }

    private mutating func exponent() {
        var k = 1
        if peek(k) == 0x2B || peek(k) == 0x2D { k += 1 }
        guard ASCII.isDigit(peek(k)) else { return }
        pos += k
        while pos < line.count && (ASCII.isDigit(line[pos]) || line[pos] == 0x5F) { pos += 1 }
    }

    /// The body of a string up to and including the closing `quote`, from the
    /// position (just after the opening quote): reports the string and its
    /// backslash escapes (when `escapes`). Returns whether the quote was found
    /// (otherwise the position is at the end of the line).
    @discardableResult
    mutating func quoted(_ quote: UInt8, escapes: Bool = true, kind: TokenKind = .string, into sink: inout TokenSink) -> Bool {
        var runStart = pos
        while pos < line.count {
            let b = line[pos]
            if b == quote {
                pos += 1
                sink.add(runStart, pos, kind)
                return true
            }
            if b == 0x5C && escapes {
                sink.add(runStart, pos, kind)
                let e = pos
                pos = min(line.count, pos + 2)
                // Keep a multi-byte character whole.
                while pos < line.count && line[pos] & 0xC0 == 0x80 { pos += 1 }
                sink.add(e, pos, .stringEscape)
                runStart = pos
                continue
            }
            pos += 1
        }
        sink.add(runStart, pos, kind)
        return false
    }

    /// Moves past the next `literal`, or to the end of the line; whether it was found.
    @discardableResult
    mutating func skip(past literal: StaticString) -> Bool {
        let first = literal.utf8Start[0]
        while pos < line.count {
            if line[pos] == first && at(literal) {
                pos += literal.utf8CodeUnitCount
                return true
            }
            pos += 1
        }
        return false
    }

    /// Moves past the next `bytes`, or to the end of the line; whether they were found.
    @discardableResult
    mutating func skip(pastBytes bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return true }
        while pos < line.count {
            if line[pos] == first && at(bytes: bytes) {
                pos += bytes.count
                return true
            }
            pos += 1
        }
        return false
    }

    /// Moves to the end of the line.
    mutating func skipToEnd() { pos = line.count }

    /// The next byte that is not a space or tab, at or after `i` (0 at the end).
    func nextNonSpace(from i: Int) -> UInt8 {
        var k = i
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        return k < line.count ? line[k] : 0
    }

    /// The last byte before `i` that is not a space or tab (0 at the start).
    func previousNonSpace(before i: Int) -> UInt8 {
        var k = i - 1
        while k >= 0 && ASCII.isSpace(line[k]) { k -= 1 }
        return k >= 0 ? line[k] : 0
    }
}
