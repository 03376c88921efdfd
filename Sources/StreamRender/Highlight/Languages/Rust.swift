/// Rust: nested block comments, doc comments, strings and byte strings across
/// lines, raw strings `r#"…"#` (their hash count kept in the state), char literals
/// told from lifetimes, attributes `#[…]` across lines, macros, number suffixes.
///
/// Choices follow Pygments: doc comments (`///`, `//!`, `/** */`) are strings,
/// as docstrings are; a name after `fn` is a function and after `struct`, `enum`,
/// `type`, `union` a type, as is the first name after a `:` or `->` (a field's or
/// parameter's type, a return type); prelude items (`Option`, `Vec`, `Some`) are
/// builtins; lifetimes are an operator `'` and an attribute name; a number's type
/// suffix (`1u64`) is a keyword; a char literal is one string, escapes and all.
/// Unlike Pygments, keywords after a `:` stay keywords (`&mut`, `impl Trait`)
/// except `Self`, a raw identifier `r#type` is one plain name, and every macro
/// call `name!` is a function, not only the standard library's.
struct RustLexer: LineLexer {
    // Modes (the low 3 bits; a raw string's hash count or an attribute's bracket
    // depth above them). A string inside an attribute keeps the attribute's mode in
    // the stack, to return to.
    private static let code: UInt16 = 0
    private static let comment: UInt16 = 1
    private static let docComment: UInt16 = 2
    private static let string: UInt16 = 3
    private static let byteString: UInt16 = 4
    private static let rawString: UInt16 = 5
    private static let attribute: UInt16 = 6
    private static let maxHashes = 255
    private static let maxDepth: UInt16 = 1000

    // Word classes.
    private static let keyword: UInt32 = 1, constant: UInt32 = 2, fnKeyword: UInt32 = 3, typeKeyword: UInt32 = 4
    private static let primitive: UInt32 = 5, prelude: UInt32 = 6, macro: UInt32 = 7, jump: UInt32 = 8, defaultWord: UInt32 = 9

    private let words = Self.wordsTable

    private static let wordsTable = WordTable(kinds: [
        (keyword, """
            as async await box const crate dyn else extern for if impl in loop match move mut pub ref return
            static super trait unsafe use where while abstract become do final macro override priv typeof try
            unsized virtual yield self Self mod let
            """),
        (constant, "true false"),
        (fnKeyword, "fn"),
        (typeKeyword, "struct enum type union"),
        (jump, "break continue"),
        (defaultWord, "default"),
        (primitive, "u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 usize isize f32 f64 char str bool"),
        (prelude, """
            Copy Send Sized Sync Unpin Drop Fn FnMut FnOnce drop Box ToOwned Clone PartialEq PartialOrd Eq Ord
            AsRef AsMut Into From Default Iterator Extend IntoIterator DoubleEndedIterator ExactSizeIterator
            Option Some None Result Ok Err String ToString Vec
            """),
    ])

    private let punctuation = CurlyFamily.ByteClass("{}()[],.;")
    private let operators = CurlyFamily.ByteClass("+-*/%&|<>^!~@=?")

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        // After `:`, `->` or a type keyword: the next name is a type.
        var expectType = false
        // After `fn`: the next name is a function.
        var expectFunction = false
        while !c.atEnd {
            switch state.mode & 7 {
            case Self.comment, Self.docComment:
                blockComment(&c, state: &state, into: &sink)
                continue
            case Self.string, Self.byteString:
                string(&c, state: &state, into: &sink)
                continue
            case Self.rawString:
                let start = c.pos
                let hashes = Int(state.mode >> 3)
                while !c.atEnd {
                    if c.peek() == 0x22 && closesRaw(line, c.pos + 1, hashes) {
                        c.pos += 1 + hashes
                        state.mode = Self.code
                        break
                    }
                    c.pos += 1
                }
                sink.add(start, c.pos, .string)
                continue
            case Self.attribute:
                attribute(&c, state: &state, into: &sink)
                continue
            default:
                break
            }
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            let wasExpectingType = expectType
            let wasExpectingFunction = expectFunction
            expectType = false
            expectFunction = false
            switch b {
            case 0x2F where c.peek(1) == 0x2F:  // //
                let isDoc = c.peek(2) == 0x21 || (c.peek(2) == 0x2F && c.peek(3) != 0x2F)
                c.skipToEnd()
                sink.add(start, c.pos, isDoc ? .string : .comment)
            case 0x2F where c.peek(1) == 0x2A:  // /*
                let isDoc = c.peek(2) == 0x21 || (c.peek(2) == 0x2A && c.peek(3) != 0x2F && c.peek(3) != 0x2A)
                c.pos += 2
                state.mode = isDoc ? Self.docComment : Self.comment
                state.depth = 1
                sink.add(start, c.pos, isDoc ? .string : .comment)
            case 0x22:  // "
                c.pos += 1
                sink.add(start, c.pos, .string)
                state.mode = Self.string
            case 0x27:  // '
                if let end = charLiteral(line, from: start + 1) {
                    c.pos = end
                    sink.add(start, end, .string)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .operator)
                    lifetime(&c, into: &sink)
                    expectType = wasExpectingType
                }
            case 0x24:  // $: a macro's metavariable or repetition
                c.pos += 1
                if CurlyFamily.identifier(&c) == nil, c.peek() == 0x28 || c.peek() == 0x29 {
                    c.pos += 1
                    if c.peek() == 0x2C { c.pos += 1 }
                } else if c.pos == start + 1 && c.peek() == 0x2C {
                    c.pos += 1
                }
                sink.add(start, c.pos, .attribute)
            case 0x23:  // #
                if c.peek(1) == 0x5B || (c.peek(1) == 0x21 && c.peek(2) == 0x5B) {
                    c.pos += c.peek(1) == 0x5B ? 2 : 3
                    sink.add(start, c.pos, .attribute)
                    state.mode = Self.attribute | 1 << 3
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                }
            case 0x3A:  // :
                c.pos += 1
                if c.peek() == 0x3A && ASCII.isIdentifierByte(c.peek(1)) {
                    c.pos += 1
                } else {
                    expectType = true
                }
                sink.add(start, c.pos, .punctuation)
            case 0x2D where c.peek(1) == 0x3E:  // ->
                c.pos += 2
                sink.add(start, c.pos, .punctuation)
                expectType = true
            case 0x2E where c.peek(1) == 0x2E:  // .. ..=
                c.pos += c.peek(2) == 0x3D ? 3 : 2
                sink.add(start, c.pos, .operator)
            case 0x26 where wasExpectingType:  // & of a reference type
                c.pos += 1
                sink.add(start, c.pos, .keyword)
                expectType = true
            default:
                if ASCII.isDigit(b) {
                    number(&c, into: &sink)
                } else if ASCII.isIdentifierStart(b) {
                    if prefixedLiteral(&c, state: &state, into: &sink) { continue }
                    let word = CurlyFamily.identifier(&c)!
                    identifier(word, &c, expectType: wasExpectingType, expectFunction: wasExpectingFunction,
                               nextType: &expectType, nextFunction: &expectFunction, into: &sink)
                } else if punctuation.contains(b) {
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                } else if operators.contains(b) {
                    c.pos += 1
                    sink.add(start, c.pos, .operator)
                } else {
                    c.pos += 1
                    while !c.atEnd && c.peek() & 0xC0 == 0x80 { c.pos += 1 }
                    sink.add(start, c.pos, .plain)
                }
            }
        }
    }

    // MARK: Names

    private func identifier(_ word: Range<Int>, _ c: inout LineCursor, expectType: Bool, expectFunction: Bool,
                            nextType: inout Bool, nextFunction: inout Bool, into sink: inout TokenSink) {
        let line = c.line
        let cls = words.kind(line, word)
        if expectFunction && line[word.lowerBound] < 0x80 {
            sink.add(word, .function)
            return
        }
        switch cls {
        case Self.keyword:
            // `Self` where a type is expected (`-> Self`) is that type.
            let isType = expectType && word.count == 4 && c.at("Self", word.lowerBound)
            sink.add(word, isType ? .type : .keyword)
        case Self.constant:
            sink.add(word, .constant)
        case Self.fnKeyword:
            sink.add(word, .keyword)
            nextFunction = true
        case Self.typeKeyword:
            sink.add(word, .keyword)
            nextType = true
        case Self.primitive:
            sink.add(word, .type)
        case Self.prelude:
            sink.add(word, .builtin)
        case Self.jump:
            sink.add(word, .keyword)
            // A loop label after `break`/`continue` is a plain name.
            var k = c.pos
            while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
            if k < line.count && line[k] == 0x27 && k + 1 < line.count && ASCII.isIdentifierStart(line[k + 1]) {
                c.pos = k + 1
                _ = CurlyFamily.identifier(&c)
                sink.add(k, c.pos, .plain)
            }
        case Self.defaultWord:
            var k = c.pos
            while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
            let isModifier = k > c.pos && (c.at("fn", k) || c.at("type", k))
                && !ASCII.isIdentifierByte(c[k + (line[k] == 0x66 ? 2 : 4)])
            sink.add(word, isModifier ? .keyword : .plain)
            if isModifier {
                c.pos = k + (line[k] == 0x66 ? 2 : 4)
                sink.add(k, c.pos, .keyword)
            }
        default:
            if c.peek() == 0x21 && c.peek(1) != 0x3D {  // a macro call
                c.pos += 1
                sink.add(word.lowerBound, c.pos, .function)
            } else if expectType && line[word.lowerBound] < 0x80 {
                sink.add(word, .type)
            } else {
                sink.add(word, .plain)
            }
        }
    }

    /// `'static`, `'_` (builtins) or `'a` (an attribute), after the quote.
    private func lifetime(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        guard let word = CurlyFamily.identifier(&c) else { return }
        let isBuiltin = (word.count == 1 && c.line[start] == 0x5F) || (word.count == 6 && c.at("static", start))
        sink.add(word, isBuiltin ? .builtin : .attribute)
    }

    /// A literal that starts like a name: `b'x'`, `b"…"`, `r"…"`, `r#"…"#`, `br#"…"#`,
    /// and the raw identifier `r#name`; whether there was one.
    private func prefixedLiteral(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        var k = start
        let isByte = c.peek() == 0x62  // b
        if isByte { k += 1 }
        if c[k] == 0x27 && isByte {
            guard let end = charLiteral(c.line, from: k + 1) else { return false }
            c.pos = end
            sink.add(start, end, .string)
            return true
        }
        if c[k] == 0x22 && isByte {
            c.pos = k + 1
            sink.add(start, c.pos, .string)
            state.mode = Self.byteString
            return true
        }
        guard c[k] == 0x72 else { return false }  // r
        k += 1
        var hashes = 0
        while c[k] == 0x23 && hashes <= Self.maxHashes { k += 1; hashes += 1 }
        if c[k] == 0x22 && hashes <= Self.maxHashes {
            c.pos = k + 1
            state.mode = Self.rawString | UInt16(hashes) << 3
            sink.add(start, c.pos, .string)
            return true
        }
        if hashes == 1 && !isByte && ASCII.isIdentifierStart(c[k]) {
            c.pos = k
            _ = CurlyFamily.identifier(&c)
            sink.add(start, c.pos, .plain)
            return true
        }
        return false
    }

    // MARK: Literals

    private func number(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        let line = c.line
        let p = c.peek(1) | 0x20
        if c.peek() == 0x30 && (p == 0x78 || p == 0x6F || p == 0x62) && isDigit(c.peek(2), radix: p) {
            c.pos += 2
            while !c.atEnd && (isDigit(line[c.pos], radix: p) || line[c.pos] == 0x5F) { c.pos += 1 }
        } else {
            skipDigits(&c)
            if c.peek() == 0x2E && c.peek(1) != 0x2E && !ASCII.isIdentifierStart(c.peek(1)) {
                c.pos += 1
                skipDigits(&c)
                exponent(&c)
            } else if c.peek() | 0x20 == 0x65 {
                exponent(&c)
            }
        }
        sink.add(start, c.pos, .number)
        // A type suffix: u8 … u128, usize, i…, f32, f64.
        let s = c.pos
        let b = c.peek()
        if b == 0x75 || b == 0x69 || b == 0x66, let word = CurlyFamily.identifier(&c) {
            let n = word.count
            let valid = (b != 0x66 && (c.at("8", s + 1) && n == 2 || c.at("16", s + 1) && n == 3 || c.at("32", s + 1) && n == 3
                    || c.at("64", s + 1) && n == 3 || c.at("128", s + 1) && n == 4 || c.at("size", s + 1) && n == 5))
                || (b == 0x66 && (c.at("32", s + 1) || c.at("64", s + 1)) && n == 3)
            sink.add(word, valid ? .keyword : .plain)
        }
    }

    @inline(__always)
    private func isDigit(_ b: UInt8, radix p: UInt8) -> Bool {
        p == 0x78 ? ASCII.isHexDigit(b) : p == 0x6F ? b &- 0x30 < 8 : b &- 0x30 < 2
    }

    private func skipDigits(_ c: inout LineCursor) {
        while !c.atEnd && (ASCII.isDigit(c.peek()) || c.peek() == 0x5F) { c.pos += 1 }
    }

    private func exponent(_ c: inout LineCursor) {
        guard c.peek() | 0x20 == 0x65 else { return }
        var k = 1
        if c.peek(1) == 0x2B || c.peek(1) == 0x2D { k = 2 }
        guard ASCII.isDigit(c.peek(k)) || c.peek(k) == 0x5F else { return }
        c.pos += k
        skipDigits(&c)
    }

    /// The end of a char literal whose body starts at `i` (after `'`), if it is one.
    private func charLiteral(_ line: UnsafeBufferPointer<UInt8>, from i: Int) -> Int? {
        guard i < line.count else { return nil }
        var k = i
        if line[k] == 0x5C {
            k += 1
            guard k < line.count else { return nil }
            switch line[k] {
            case 0x27, 0x22, 0x5C, 0x6E, 0x72, 0x74, 0x30: k += 1
            case 0x78: k += 3
            case 0x75:
                guard k + 1 < line.count && line[k + 1] == 0x7B else { return nil }
                k += 2
                let limit = min(line.count, k + 7)
                while k < limit && ASCII.isHexDigit(line[k]) { k += 1 }
                guard k < line.count && line[k] == 0x7D else { return nil }
                k += 1
            default: return nil
            }
        } else {
            k += 1
            while k < line.count && line[k] & 0xC0 == 0x80 { k += 1 }
        }
        return k < line.count && line[k] == 0x27 ? k + 1 : nil
    }

    @inline(__always)
    private func closesRaw(_ line: UnsafeBufferPointer<UInt8>, _ i: Int, _ hashes: Int) -> Bool {
        guard i + hashes <= line.count else { return false }
        for k in i..<i + hashes where line[k] != 0x23 { return false }
        return true
    }

    /// The body of a string or byte string, to its closing quote or the line's end.
    private func string(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let line = c.line
        var run = c.pos
        while !c.atEnd {
            let b = line[c.pos]
            if b == 0x22 {
                c.pos += 1
                sink.add(run, c.pos, .string)
                state.mode = state.stack.popLast() ?? Self.code
                return
            }
            if b == 0x5C {
                let end = escapeEnd(line, c.pos, byteString: state.mode == Self.byteString)
                if end > c.pos + 1 {
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, end, .stringEscape)
                    run = end
                    c.pos = end
                    continue
                }
                c.pos += 1
                continue
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
    }

    /// The end of the escape at `i` (a backslash), or `i + 1` when it is none.
    private func escapeEnd(_ line: UnsafeBufferPointer<UInt8>, _ i: Int, byteString: Bool) -> Int {
        let n = i + 1 < line.count ? line[i + 1] : 0
        switch n {
        case 0x27, 0x22, 0x5C, 0x6E, 0x72, 0x74, 0x30:
            return i + 2
        case 0x78:
            guard i + 3 < line.count, ASCII.isHexDigit(line[i + 3]) else { return i + 1 }
            let d = line[i + 2]
            return (d &- 0x30 < 8) || (byteString && ASCII.isHexDigit(d)) ? i + 4 : i + 1
        case 0x75:
            guard i + 2 < line.count, line[i + 2] == 0x7B else { return i + 1 }
            var k = i + 3
            let limit = min(line.count, k + 6)
            while k < limit && ASCII.isHexDigit(line[k]) { k += 1 }
            return k > i + 3 && k < line.count && line[k] == 0x7D ? k + 1 : i + 1
        default:
            return i + 1
        }
    }

    /// A block comment's body, nested, to its end or the line's end.
    private func blockComment(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        let kind: TokenKind = state.mode == Self.docComment ? .string : .comment
        let line = c.line
        while !c.atEnd {
            let b = line[c.pos]
            if b == 0x2A && c.peek(1) == 0x2F {
                c.pos += 2
                state.depth -= 1
                if state.depth == 0 {
                    state.mode = Self.code
                    break
                }
            } else if b == 0x2F && c.peek(1) == 0x2A {
                c.pos += 2
                if state.depth < Self.maxDepth { state.depth += 1 }
            } else {
                c.pos += 1
            }
        }
        sink.add(start, c.pos, kind)
    }

    /// An attribute's body: strings inside it are strings, brackets nest.
    private func attribute(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        let line = c.line
        var depth = state.mode >> 3
        while !c.atEnd {
            let b = line[c.pos]
            if b == 0x22 {
                sink.add(start, c.pos, .attribute)
                c.pos += 1
                sink.add(c.pos - 1, c.pos, .string)
                state.stack.append(Self.attribute | depth << 3)
                state.mode = Self.string
                return
            }
            c.pos += 1
            if b == 0x5B {
                if depth < Self.maxDepth { depth += 1 }
            } else if b == 0x5D {
                depth -= 1
                if depth == 0 {
                    state.mode = Self.code
                    sink.add(start, c.pos, .attribute)
                    return
                }
            }
        }
        state.mode = Self.attribute | depth << 3
        sink.add(start, c.pos, .attribute)
    }
}
