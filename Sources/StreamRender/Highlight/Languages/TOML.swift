/// TOML 1.0 with Pygments' `toml` lexer's choices: a table header (`[a.b]`,
/// `[[bin]]`) is a keyword but for its quoted parts, keys stay plain (as Pygments
/// has them; `TokenKind.tag` would say "key" but costs the agreement), `=` is an
/// operator (punctuation inside an inline table), dates and times are numbers, `true`
/// and `false` constants, and only a value position makes `1234` a number (`1234 = 1`).
///
/// Carried from line to line: the open arrays and inline tables (`state.stack`: 1 an
/// array, 2 an inline table), a multi-line `"""`/`'''` string (`state.mode`), and a
/// value still to come after an `=` that ended its line. A `"` or `'` string that does
/// not close on its line ends there (TOML forbids line breaks in them).
struct TOMLLexer: LineLexer {
    private static let inBasic: UInt16 = 1
    private static let inLiteral: UInt16 = 2
    private static let valuePending: UInt16 = 3
    private static let array: UInt16 = 1
    private static let inlineTable: UInt16 = 2
    private static let maxDepth = 32

    /// The open containers of the line being lexed (bit set: inline table).
    private struct Containers {
        var count = 0
        var tables: UInt64 = 0
        var top: UInt16 { count == 0 ? 0 : (tables >> UInt64(count - 1) & 1 == 1 ? TOMLLexer.inlineTable : TOMLLexer.array) }
        mutating func push(_ kind: UInt16) {
            guard count < TOMLLexer.maxDepth else { return }
            if kind == TOMLLexer.inlineTable { tables |= 1 << UInt64(count) } else { tables &= ~(1 << UInt64(count)) }
            count += 1
        }
        mutating func pop() { if count > 0 { count -= 1 } }
    }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        var open = Containers()
        for kind in state.stack { open.push(kind) }
        var wantValue = false
        var failed = false

        switch state.mode {
        case Self.inBasic:
            if !multilineBasic(&c, into: &sink) { return }
        case Self.inLiteral:
            if !multilineLiteral(&c, into: &sink) { return }
        case Self.valuePending:
            wantValue = true
        default:
            break
        }
        state.mode = 0

        while true {
            c.skipSpaces()
            if c.atEnd { break }
            let start = c.pos
            let b = c.peek()
            if wantValue {
                if let kind = value(&c, containers: &open, state: &state, into: &sink) {
                    wantValue = false
                    failed = false
                    if kind != 0 {
                        state.mode = kind
                        break
                    }
                } else {
                    // Pygments stays in its value state until something matches, and
                    // drops everything at the line's end.
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                    failed = true
                }
                continue
            }
            if b == 0x23 {
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
                break
            }
            switch open.top {
            case Self.array:
                switch b {
                case 0x2C:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                case 0x5D:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    open.pop()
                default:
                    wantValue = true
                }
            case Self.inlineTable:
                switch b {
                case 0x3D:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    wantValue = true
                case 0x2C:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                case 0x7D:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    open.pop()
                default:
                    if !key(&c, into: &sink) {
                        c.pos += 1
                        sink.add(start, c.pos, .plain)
                    }
                }
            default:
                switch b {
                case 0x3D:
                    c.pos += 1
                    sink.add(start, c.pos, .operator)
                    wantValue = true
                case 0x5B:
                    tableHeader(&c, into: &sink)
                default:
                    if !key(&c, into: &sink) {
                        c.pos += 1
                        sink.add(start, c.pos, .plain)
                    }
                }
            }
        }

        if wantValue && failed {
            open = Containers()
        } else if wantValue && state.mode == 0 {
            state.mode = Self.valuePending
        }
        if open.count == 0 {
            if !state.stack.isEmpty { state.stack = [] }
        } else if !Self.same(open, state.stack) {
            var kinds: [UInt16] = []
            kinds.reserveCapacity(open.count)
            for i in 0..<open.count { kinds.append(open.tables >> UInt64(i) & 1 == 1 ? Self.inlineTable : Self.array) }
            state.stack = kinds
        }
    }

    /// A bare key (plain), a quoted key (string) or a dot; whether one was there.
    private func key(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        switch c.peek() {
        case 0x22:
            c.pos += 1
            sink.add(start, c.pos, .string)
            basic(&c, into: &sink)
        case 0x27:
            c.pos += 1
            literal(&c, start: start, into: &sink)
        case 0x2E:
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
        default:
            while !c.atEnd && Self.isBareKeyByte(c.peek()) { c.pos += 1 }
            guard c.pos > start else { return false }
            sink.add(start, c.pos, .plain)
        }
        return true
    }

    /// `[table]` or `[[array.of.tables]]`: a keyword but for quoted parts.
    private func tableHeader(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        c.pos += c.peek(1) == 0x5B ? 2 : 1
        sink.add(start, c.pos, .keyword)
        while !c.atEnd {
            c.skipSpaces()
            let s = c.pos
            switch c.peek() {
            case 0x22:
                c.pos += 1
                sink.add(s, c.pos, .string)
                basic(&c, into: &sink)
            case 0x27:
                c.pos += 1
                literal(&c, start: s, into: &sink)
            case 0x2E:
                c.pos += 1
                sink.add(s, c.pos, .keyword)
            case 0x5D:
                c.pos += c.peek(1) == 0x5D ? 2 : 1
                sink.add(s, c.pos, .keyword)
                return
            case 0:
                if c.atEnd { return }
                fallthrough
            default:
                while !c.atEnd && Self.isBareKeyByte(c.peek()) { c.pos += 1 }
                if c.pos == s {
                    c.pos += 1
                    sink.add(s, c.pos, .plain)
                    continue
                }
                sink.add(s, c.pos, .keyword)
            }
        }
    }

    /// One value at the cursor: its kind of multi-line string if one opened and
    /// did not close (else 0), or nil if nothing here is a value.
    private func value(_ c: inout LineCursor, containers: inout Containers, state: inout LexState, into sink: inout TokenSink) -> UInt16? {
        let start = c.pos
        let b = c.peek()
        switch b {
        case 0x22:
            if c.at("\"\"\"") {
                c.pos += 3
                sink.add(start, c.pos, .string)
                return multilineBasic(&c, into: &sink) ? 0 : Self.inBasic
            }
            c.pos += 1
            sink.add(start, c.pos, .string)
            basic(&c, into: &sink)
            return 0
        case 0x27:
            if c.at("'''") {
                c.pos += 3
                sink.add(start, c.pos, .string)
                return multilineLiteral(&c, into: &sink) ? 0 : Self.inLiteral
            }
            c.pos += 1
            literal(&c, start: start, into: &sink)
            return 0
        case 0x5B:
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            containers.push(Self.array)
            return 0
        case 0x7B:
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            containers.push(Self.inlineTable)
            return 0
        case 0x74 where c.at("true"):
            c.pos += 4
            sink.add(start, c.pos, .constant)
            return 0
        case 0x66 where c.at("false"):
            c.pos += 5
            sink.add(start, c.pos, .constant)
            return 0
        default:
            if let end = Self.number(c) {
                c.pos = end
                sink.add(start, end, .number)
                return 0
            }
            return nil
        }
    }

    /// The end of a date, time or number at the cursor (Pygments' patterns, in order).
    private static func number(_ c: LineCursor) -> Int? {
        let p = c.pos
        func digits(_ i: Int, _ n: Int) -> Bool {
            for k in 0..<n where !ASCII.isDigit(c[i + k]) { return false }
            return true
        }
        // 1979-05-27, then an optional time and offset.
        if digits(p, 4) && c[p + 4] == 0x2D && digits(p + 5, 2) && c[p + 7] == 0x2D && digits(p + 8, 2) {
            var end = p + 10
            let sep = c[end]
            if sep == 0x54 || sep == 0x74 || sep == 0x20, let t = time(c, end + 1) {
                end = t
                if c[end] == 0x5A || c[end] == 0x7A {
                    end += 1
                } else if (c[end] == 0x2B || c[end] == 0x2D) && digits(end + 1, 2) && c[end + 3] == 0x3A && digits(end + 4, 2) {
                    end += 6
                }
            }
            return end
        }
        if let t = time(c, p) { return t }
        var i = p
        let signed = c[i] == 0x2B || c[i] == 0x2D
        if signed { i += 1 }
        if c.at("inf", i) || c.at("nan", i) { return i + 3 }
        if c[i] == 0x30 && (c[i + 1] == 0x62 || c[i + 1] == 0x6F || c[i + 1] == 0x78) && c[p] != 0x2B {
            let radix = c[i + 1]
            var k = i + 2
            while k < c.count {
                let d = c.line[k]
                let ok = d == 0x5F || (radix == 0x62 ? (d == 0x30 || d == 0x31) : radix == 0x6F ? d &- 0x30 < 8 : ASCII.isHexDigit(d))
                if !ok { break }
                k += 1
            }
            if k > i + 2 { return k }
        }
        // Floats need a digit first; integers take any run of digits and `_`.
        if ASCII.isDigit(c[i]) {
            var k = i + 1
            while ASCII.isDigit(c[k]) || c[k] == 0x5F { k += 1 }
            var isFloat = false
            if c[k] == 0x2E && ASCII.isDigit(c[k + 1]) {
                k += 2
                while ASCII.isDigit(c[k]) || c[k] == 0x5F { k += 1 }
                isFloat = true
            }
            if c[k] | 0x20 == 0x65 {
                var e = k + 1
                if c[e] == 0x2B || c[e] == 0x2D { e += 1 }
                if ASCII.isDigit(c[e]) {
                    e += 1
                    while ASCII.isDigit(c[e]) || c[e] == 0x5F { e += 1 }
                    return e
                }
            }
            if isFloat { return k }
        }
        var k = i
        while ASCII.isDigit(c[k]) || c[k] == 0x5F { k += 1 }
        return k > i ? k : nil
    }

    /// The end of `HH:MM[:SS[.frac]]` at `i`, if one is there.
    private static func time(_ c: LineCursor, _ i: Int) -> Int? {
        func two(_ k: Int) -> Bool { ASCII.isDigit(c[k]) && ASCII.isDigit(c[k + 1]) }
        guard two(i), c[i + 2] == 0x3A, two(i + 3) else { return nil }
        var end = i + 5
        if c[end] == 0x3A && two(end + 1) {
            end += 3
            if c[end] == 0x2E && ASCII.isDigit(c[end + 1]) {
                end += 1
                while ASCII.isDigit(c[end]) { end += 1 }
            }
        }
        return end
    }

    /// The rest of a `"` string (after the quote), with its escapes; it ends with its line.
    private func basic(_ c: inout LineCursor, into sink: inout TokenSink) {
        var run = c.pos
        while !c.atEnd {
            let b = c.peek()
            if b == 0x22 {
                c.pos += 1
                break
            }
            if b == 0x5C {
                sink.add(run, c.pos, .string)
                escape(&c, into: &sink)
                run = c.pos
                continue
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
    }

    /// The rest of a `'` string: to its closing quote; without one, Pygments leaves it plain.
    private func literal(_ c: inout LineCursor, start: Int, into sink: inout TokenSink) {
        var k = c.pos
        while k < c.count && c.line[k] != 0x27 { k += 1 }
        if k < c.count {
            c.pos = k + 1
            sink.add(start, c.pos, .string)
        } else {
            // Unclosed: Pygments leaves the rest of the line plain.
            sink.add(start, start + 1, .string)
            c.skipToEnd()
        }
    }

    /// Inside a `"""` string: to its end (true) or the line's.
    private func multilineBasic(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        var run = c.pos
        while !c.atEnd {
            let b = c.peek()
            if b == 0x22 && c.at("\"\"\"") {
                c.pos += 3
                sink.add(run, c.pos, .string)
                return true
            }
            if b == 0x5C {
                sink.add(run, c.pos, .string)
                escape(&c, into: &sink)
                run = c.pos
                continue
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
        return false
    }

    /// Inside a `'''` string: to its end (true) or the line's.
    private func multilineLiteral(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        let found = c.skip(past: "'''")
        sink.add(start, c.pos, .string)
        return found
    }

    /// A backslash escape: `\xHH`, `\uHHHH`, `\UHHHHHHHH`, or the backslash and one character.
    private func escape(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        var n = 0
        switch c.peek(1) {
        case 0x78: n = 2
        case 0x75: n = 4
        case 0x55: n = 8
        default: break
        }
        var hex = n > 0
        for k in 0..<n where !ASCII.isHexDigit(c.peek(2 + k)) { hex = false }
        if hex {
            c.pos += 2 + n
        } else {
            c.pos = min(c.count, c.pos + 2)
            while !c.atEnd && c.peek() & 0xC0 == 0x80 { c.pos += 1 }
        }
        sink.add(start, c.pos, .stringEscape)
    }

    private static func isBareKeyByte(_ b: UInt8) -> Bool {
        ASCII.isLetter(b) || ASCII.isDigit(b) || b == 0x5F || b == 0x2D
    }

    private static func same(_ open: Containers, _ stack: [UInt16]) -> Bool {
        guard open.count == stack.count else { return false }
        for i in 0..<open.count where (stack[i] == inlineTable) != (open.tables >> UInt64(i) & 1 == 1) { return false }
        return true
    }
}
