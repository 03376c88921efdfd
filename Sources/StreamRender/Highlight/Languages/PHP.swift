/// PHP, classified the way Pygments' `php` lexer does (with `startinline`) where
/// that reads well.
///
/// - Code may start with or without `<?php`; `<?php`, `<?=` and `?>` are
///   attributes, and after `?>` the text is plain until the next `<?`.
/// - `$vars` are variables; a name after `->` or `::` is an attribute, as in
///   Pygments; functions of PHP's bundled extensions are builtins (case-sensitive,
///   as Pygments checks them); keywords ignore case, and `true`/`false`/`null`
///   are keywords as Pygments has them. `#[...]` names attributes.
/// - `'...'` is one string; `"..."` marks escapes, `$var`, `$var->prop`,
///   `$var[key]` and `{$expr}` (the expression lexed as code) as interpolation.
///   `/** ... */` is a doc string, as in Pygments; `/* */` a comment.
/// - Heredoc and nowdoc bodies are strings to the line starting with their word
///   (kept in `state.terminator`); a heredoc marks interpolation and escapes like
///   `"..."` (Pygments makes the whole body one string), a nowdoc does not.
/// - Deliberate differences: `fn`, `enum`, `instanceof`, `insteadof` and `goto`
///   are keywords (missing from Pygments' list); `1_000`, `0b101` and `.5` are one
///   number; a leading `<?php` is an attribute rather than `<`, `?`, `php`.
struct PHPLexer: LineLexer {
    private static let code: UInt16 = 0
    /// After `?>`: text outside PHP.
    private static let html: UInt16 = 1
    private static let blockComment: UInt16 = 2
    private static let docComment: UInt16 = 3
    private static let singleQuoted: UInt16 = 4
    private static let backtick: UInt16 = 5
    private static let doubleQuoted: UInt16 = 6
    private static let heredoc: UInt16 = 7
    private static let nowdoc: UInt16 = 8
    /// Inside `#[...]`; `state.depth` counts its open parentheses.
    private static let attribute: UInt16 = 9
    private static let maxStack = 32
    private static let maxTerminator = 64
    /// How far an interpolation's `${name}` or `[key]` is looked for (bounds the work per `$`).
    private static let maxScan = 256

    // Word flags.
    private static let keyword: UInt32 = 1 << 0
    private static let magicConstant: UInt32 = 1 << 1
    private static let isClass: UInt32 = 1 << 2
    private static let isFunction: UInt32 = 1 << 3
    private static let isConst: UInt32 = 1 << 4
    private static let isNew: UInt32 = 1 << 5

    private static let allWords = WordTable([
        (keyword, """
            and E_PARSE old_function E_ERROR or as E_WARNING parent eval PHP_OS break exit case
            extends PHP_VERSION cfunction FALSE print for require continue foreach require_once
            declare return default static do switch die stdClass echo else TRUE elseif var empty if
            xor enddeclare include virtual endfor include_once while endforeach global endif list
            endswitch new endwhile not array E_ALL NULL final php_user_filter interface implements
            public private protected abstract clone try catch throw this use namespace trait yield
            finally match readonly true false null fn enum instanceof insteadof goto
            """),
        (magicConstant, """
            __LINE__ __FILE__ __DIR__ __FUNCTION__ __CLASS__ __TRAIT__ __METHOD__ __NAMESPACE__
            __PROPERTY__
            """),
        (isClass, "class"),
        (isFunction, "function"),
        (isConst, "const"),
        (isNew, "new"),
    ], ignoringCase: true)

    private static let allFunctions = WordTable([(1, functionNames)])

    // Held by the instance: a static would be checked for initialisation on each lookup.
    private let words = PHPLexer.allWords
    private let functions = PHPLexer.allFunctions

    /// What the word just before the position makes of the next identifier.
    private enum Expect { case none, className, functionName, constantName }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        if state.mode == Self.heredoc || state.mode == Self.nowdoc {
            heredocLine(&c, state: &state, into: &sink)
        }
        var expect = Expect.none
        // No `}` closes a `{$` in a string from here on: each byte is searched once.
        var noBraceFrom = Int.max
        while !c.atEnd {
            switch state.mode {
            case Self.html:
                htmlText(&c, state: &state, into: &sink)
            case Self.blockComment, Self.docComment:
                let start = c.pos
                let kind: TokenKind = state.mode == Self.docComment ? .string : .comment
                if c.skip(past: "*/") { pop(&state) }
                sink.add(start, c.pos, kind)
            case Self.singleQuoted, Self.backtick:
                let start = c.pos
                if rawQuoted(&c, state.mode == Self.backtick ? 0x60 : 0x27) { pop(&state) }
                sink.add(start, c.pos, .string)
            case Self.doubleQuoted, Self.heredoc:
                interpolatedBody(&c, noBraceFrom: &noBraceFrom, state: &state, into: &sink)
            case Self.nowdoc:
                sink.add(c.pos, line.count, .string)
                c.skipToEnd()
            default:
                token(&c, expect: &expect, state: &state, into: &sink)
            }
        }
    }

    private func push(_ mode: UInt16, state: inout LexState) {
        if state.mode != Self.code {
            guard state.stack.count < Self.maxStack else { return }
            state.stack.append(state.mode)
        }
        state.mode = mode
    }

    private func pop(_ state: inout LexState) {
        state.mode = state.stack.popLast() ?? Self.code
    }

    /// One token of code (or of an attribute) at the position.
    private func token(_ c: inout LineCursor, expect: inout Expect, state: inout LexState, into sink: inout TokenSink) {
        if c.skipSpaces() { return }
        let line = c.line
        let start = c.pos
        let b = line[start]
        let next = c.peek(1)
        let expected = expect
        expect = .none
        switch b {
        case 0x3F where next == 0x3E:  // ?>
            c.pos += 2
            sink.add(start, c.pos, .attribute)
            state.mode = Self.html
            state.stack.removeAll()
            state.depth = 0
        case 0x3F:
            c.pos += 1
            sink.add(start, c.pos, .operator)
        case 0x3C where next == 0x3F:  // <?php <?=
            openTag(&c, into: &sink)
        case 0x3C where next == 0x3C && c.peek(2) == 0x3C:  // <<<
            if !heredocStart(&c, state: &state, into: &sink) { operators(&c, into: &sink) }
        case 0x23:  // #
            if next == 0x5B {
                c.pos += 2
                sink.add(start, c.pos, .punctuation)
                push(Self.attribute, state: &state)
                state.depth = 0
            } else {
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            }
        case 0x2F where next == 0x2F:  // //
            c.skipToEnd()
            sink.add(start, c.pos, .comment)
        case 0x2F where next == 0x2A:  // /* /** /**/
            let doc = c.peek(2) == 0x2A && c.peek(3) != 0x2F
            c.pos += doc ? 3 : 2
            if !c.skip(past: "*/") { push(doc ? Self.docComment : Self.blockComment, state: &state) }
            sink.add(start, c.pos, doc ? .string : .comment)
        case 0x2D where next == 0x3E, 0x3A where next == 0x3A:  // -> ::
            c.pos += 2
            sink.add(start, c.pos, .operator)
            c.skipSpaces()
            if c.pos < line.count && (ASCII.isIdentifierStart(line[c.pos])) {
                let name = c.pos
                while c.pos < line.count && ASCII.isIdentifierByte(line[c.pos]) { c.pos += 1 }
                sink.add(name, c.pos, .attribute)
            }
        case 0x2E where ASCII.isDigit(next):
            number(&c)
            sink.add(start, c.pos, .number)
        case 0x7E, 0x21, 0x25, 0x5E, 0x26, 0x2A, 0x2B, 0x3D, 0x7C, 0x3A, 0x2E, 0x3C, 0x3E, 0x2F, 0x40, 0x2D:
            operators(&c, into: &sink)
        case 0x5B, 0x5D, 0x7B, 0x7D, 0x28, 0x29, 0x3B, 0x2C:
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            if state.mode == Self.attribute {
                if b == 0x28 {
                    state.depth &+= 1
                } else if b == 0x29 && state.depth > 0 {
                    state.depth -= 1
                } else if b == 0x5D && state.depth == 0 {
                    pop(&state)
                }
            }
        case 0x24:  // $
            c.pos += 1
            while c.peek() == 0x24 { c.pos += 1 }
            if c.peek() == 0x7B && c.pos == start + 1 {
                c.pos += 1
            } else {
                guard c.pos < line.count, Self.isNameStart(line[c.pos]) else {
                    sink.add(start, c.pos, .plain)
                    return
                }
                while c.pos < line.count && Self.isNameByte(line[c.pos]) { c.pos += 1 }
            }
            sink.add(start, c.pos, .variable)
        case 0x27, 0x60:  // ' `
            c.pos += 1
            if !rawQuoted(&c, b) { push(b == 0x27 ? Self.singleQuoted : Self.backtick, state: &state) }
            sink.add(start, c.pos, .string)
        case 0x22:  // "
            c.pos += 1
            sink.add(start, c.pos, .string)
            push(Self.doubleQuoted, state: &state)
        case 0x30...0x39:
            number(&c)
            sink.add(start, c.pos, .number)
        default:
            if Self.isNameStart(b) {
                expect = word(&c, expected: expected, state: state, into: &sink)
            } else {
                c.pos += 1
                sink.add(start, c.pos, .plain)
            }
        }
    }

    /// An identifier (a namespaced name with `\`); returns what it makes of the next one.
    private func word(_ c: inout LineCursor, expected: Expect, state: LexState, into sink: inout TokenSink) -> Expect {
        let line = c.line
        let start = c.pos
        var segmentEnd = start
        while segmentEnd < line.count && ASCII.isIdentifierByte(line[segmentEnd]) { segmentEnd += 1 }
        var end = segmentEnd
        while end < line.count && Self.isNameByte(line[end]) { end += 1 }
        switch expected {
        case .className, .functionName, .constantName:
            c.pos = end
            sink.add(start, end, expected == .className ? .type : expected == .functionName ? .function : .constant)
            return .none
        case .none:
            break
        }
        if state.mode == Self.attribute && state.depth == 0 {
            c.pos = end
            sink.add(start, end, .attribute)
            return .none
        }
        // Pygments tries keywords before names: a keyword ends at a word boundary,
        // which a `\` is.
        let flags = segmentEnd > start ? words.flags(line, start..<segmentEnd) : 0
        if flags != 0 {
            c.pos = segmentEnd
            let following = c.peek()
            let spaced = c.atEnd || ASCII.isSpace(following)
            if flags & Self.isClass != 0 && spaced {
                sink.add(start, c.pos, .keyword)
                return .className
            } else if flags & Self.isFunction != 0 && (spaced || following == 0x28) {
                sink.add(start, c.pos, .keyword)
                c.skipSpaces()
                if c.peek() == 0x26 {
                    sink.add(c.pos, c.pos + 1, .operator)
                    c.pos += 1
                    c.skipSpaces()
                }
                return c.peek() == 0x28 ? .none : .functionName
            } else if flags & Self.isConst != 0 && spaced {
                sink.add(start, c.pos, .keyword)
                return .constantName
            } else if flags & Self.isNew != 0 {
                sink.add(start, c.pos, .keyword)
                // `new class` is an anonymous class, without a name.
                var k = c.pos
                while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                var probe = LineCursor(line, at: k)
                if k > c.pos, let w = probe.identifier(), words.flags(line, w) & Self.isClass != 0 {
                    sink.add(w, .keyword)
                    c.pos = w.upperBound
                }
                return .none
            } else if flags & Self.keyword != 0 {
                sink.add(start, c.pos, .keyword)
                if segmentEnd - start == 5 && ASCII.lower(line[start]) == 0x79 {  // yield from
                    var k = c.pos
                    while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                    var probe = LineCursor(line, at: k)
                    if k > c.pos, let w = probe.identifier(), w.count == 4, Self.isFrom(line, w) {
                        sink.add(w, .keyword)
                        c.pos = w.upperBound
                    }
                }
                return .none
            } else if flags & Self.magicConstant != 0 {
                sink.add(start, c.pos, .constant)
                return .none
            }
        }
        c.pos = end
        sink.add(start, end, functions.flags(line, start..<end) != 0 ? .builtin : .plain)
        return .none
    }

    private static func isFrom(_ line: UnsafeBufferPointer<UInt8>, _ w: Range<Int>) -> Bool {
        let a = w.lowerBound
        return ASCII.lower(line[a]) == 0x66 && ASCII.lower(line[a + 1]) == 0x72
            && ASCII.lower(line[a + 2]) == 0x6F && ASCII.lower(line[a + 3]) == 0x6D
    }

    /// A run of operator characters (Pygments takes `=>`, `!==`, `.=` as one).
    private func operators(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        c.pos += 1
        while c.pos < c.count && LineCursor.contains("~!%^&*+=|:.<>/@-", c.line[c.pos]) {
            // A comment, `->name` or `::name` starts a token of its own.
            let b = c.line[c.pos], n = c.peek(1)
            if b == 0x2F && (n == 0x2F || n == 0x2A) { break }
            if (b == 0x2D && n == 0x3E) || (b == 0x3A && n == 0x3A) { break }
            c.pos += 1
        }
        sink.add(start, c.pos, .operator)
    }

    /// `<?php`, `<?=` or `<?` at the position.
    private func openTag(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        c.pos += 2
        if ASCII.lower(c.peek()) == 0x70 && ASCII.lower(c.peek(1)) == 0x68 && ASCII.lower(c.peek(2)) == 0x70 {
            c.pos += 3
        }
        sink.add(start, c.pos, .attribute)
    }

    /// Text outside PHP, up to the next `<?`.
    private func htmlText(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        while c.pos < c.count {
            if c.line[c.pos] == 0x3C && c.peek(1) == 0x3F {
                sink.add(start, c.pos, .plain)
                openTag(&c, into: &sink)
                state.mode = Self.code
                return
            }
            c.pos += 1
        }
        sink.add(start, c.pos, .plain)
    }

    /// A single-quoted or backtick string's body, from the position: whether it closed.
    private func rawQuoted(_ c: inout LineCursor, _ quote: UInt8) -> Bool {
        while c.pos < c.count {
            let b = c.line[c.pos]
            if b == quote {
                c.pos += 1
                return true
            }
            c.pos += b == 0x5C ? 2 : 1
        }
        c.pos = c.count
        return false
    }

    /// A double-quoted string's (or heredoc line's) body from the position, with its
    /// escapes and interpolations, to the close or the line's end.
    private func interpolatedBody(_ c: inout LineCursor, noBraceFrom: inout Int, state: inout LexState, into sink: inout TokenSink) {
        let line = c.line
        let closes = state.mode == Self.doubleQuoted
        var run = c.pos
        while c.pos < line.count {
            let b = line[c.pos]
            switch b {
            case 0x22 where closes:
                c.pos += 1
                sink.add(run, c.pos, .string)
                pop(&state)
                return
            case 0x5C:  // backslash
                let n = escapeLength(c)
                if n > 0 {
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, c.pos + n, .stringEscape)
                    run = c.pos + n
                }
                c.pos += max(n, 1)
            case 0x24:  // $
                let end = interpolatedVariable(c)
                if end > c.pos {
                    sink.add(run, c.pos, .string)
                    if c.peek(1) == 0x7B {  // ${name}
                        sink.add(c.pos, c.pos + 2, .stringEscape)
                        sink.add(c.pos + 2, end - 1, .variable)
                        sink.add(end - 1, end, .stringEscape)
                    } else {
                        sink.add(c.pos, end, .stringEscape)
                    }
                    c.pos = end
                    run = end
                } else {
                    c.pos += 1
                }
            case 0x7B where c.peek(1) == 0x24:  // {$expr}
                var close = c.pos + 2
                while close < line.count && close < noBraceFrom && line[close] != 0x7D { close += 1 }
                guard close < line.count && close < noBraceFrom else {
                    noBraceFrom = c.pos
                    c.pos += 1
                    continue
                }
                sink.add(run, c.pos, .string)
                sink.add(c.pos, c.pos + 1, .stringEscape)
                // The expression is code; it cannot leave anything open past the `}`.
                var inner = LineCursor(UnsafeBufferPointer(rebasing: line[0..<close]), at: c.pos + 1)
                var scratch = LexState()
                var expect = Expect.none
                while !inner.atEnd && scratch.mode == Self.code {
                    token(&inner, expect: &expect, state: &scratch, into: &sink)
                }
                if !inner.atEnd { sink.add(inner.pos, close, .string) }
                sink.add(close, close + 1, .stringEscape)
                c.pos = close + 1
                run = c.pos
            default:
                c.pos += 1
            }
        }
        sink.add(run, c.pos, .string)
    }

    /// The end of an interpolated `$name`, `$name[key]`, `$name->prop` or `${name}`
    /// at the position (a `$`), or the position if there is none.
    private func interpolatedVariable(_ c: LineCursor) -> Int {
        let line = c.line
        var k = c.pos + 1
        if c[k] == 0x7B {  // ${name}
            var e = k + 1
            while e < line.count && e < k + Self.maxScan && !ASCII.isSpace(line[e]) { e += 1 }
            // The last `}` before a space, as Pygments' greedy `\S+` finds it.
            var last = -1
            for i in (k + 2)..<max(k + 2, e) where line[i] == 0x7D { last = i }
            return last > 0 ? last + 1 : c.pos
        }
        guard k < line.count, Self.isPlainNameStart(line[k]) else { return c.pos }
        while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
        if c[k] == 0x5B {
            var e = k + 1
            while e < line.count && e < k + Self.maxScan && line[e] != 0x5D && !ASCII.isSpace(line[e]) { e += 1 }
            if e < line.count && line[e] == 0x5D && e > k + 1 { return e + 1 }
        } else if c[k] == 0x2D && c[k + 1] == 0x3E && Self.isPlainNameStart(c[k + 2]) {
            k += 2
            while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
        }
        return k
    }

    /// The length of an escape at the position (a backslash) in a `"..."` string, 0 if none.
    private func escapeLength(_ c: LineCursor) -> Int {
        let n = c.peek(1)
        if LineCursor.contains("nrtNRT\"$\\", n) { return 2 }
        if n &- 0x30 < 8 {
            var k = 2
            while k < 4 && c.peek(k) &- 0x30 < 8 { k += 1 }
            return k
        }
        if n | 0x20 == 0x78 && ASCII.isHexDigit(c.peek(2)) { return ASCII.isHexDigit(c.peek(3)) ? 4 : 3 }
        return 0
    }

    /// `<<<ID`, `<<<"ID"` or `<<<'ID'` ending the line: queues the word and returns true.
    private func heredocStart(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        var k = start + 3
        while k < c.count && (c[k] == 0x20 || c[k] == 0x09) { k += 1 }
        var quote: UInt8 = 0
        if c[k] == 0x27 || c[k] == 0x22 {
            quote = c[k]
            k += 1
        }
        guard k < c.count, Self.isPlainNameStart(c[k]) else { return false }
        let name = k
        while k < c.count && ASCII.isIdentifierByte(c[k]) { k += 1 }
        let nameEnd = k
        if quote != 0 {
            guard c[k] == quote else { return false }
            k += 1
        }
        var rest = k
        while rest < c.count && ASCII.isSpace(c[rest]) { rest += 1 }
        guard rest == c.count, nameEnd - name <= Self.maxTerminator, state.stack.count < Self.maxStack else { return false }
        sink.add(start, k, .string)
        c.pos = c.count
        push(quote == 0x27 ? Self.nowdoc : Self.heredoc, state: &state)
        state.terminator = Array(UnsafeBufferPointer(rebasing: c.line[name..<nameEnd]))
        return true
    }

    /// At a heredoc line's start: the closing word (then the rest is code), or nothing.
    private func heredocLine(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        var k = 0
        while k < c.count && ASCII.isSpace(c[k]) { k += 1 }
        let word = state.terminator
        guard k + word.count <= c.count, !word.isEmpty, !ASCII.isIdentifierByte(c[k + word.count]) else { return }
        for i in 0..<word.count where c[k + i] != word[i] { return }
        sink.add(k, k + word.count, .string)
        c.pos = k + word.count
        state.terminator.removeAll()
        pop(&state)
    }

    /// A number: decimal, float (`1.`, `.5`, `1e3`), `0x`, `0b`, `0o`, octal, `_` separators.
    private func number(_ c: inout LineCursor) {
        if c.peek() == 0x30, LineCursor.contains("xXbBoO", c.peek(1)), ASCII.isHexDigit(c.peek(2)) {
            c.pos += 2
            while ASCII.isHexDigit(c.peek()) || (c.peek() == 0x5F && ASCII.isHexDigit(c.peek(1))) { c.pos += 1 }
            return
        }
        digits(&c)
        if c.peek() == 0x2E {
            c.pos += 1
            digits(&c)
        }
        if c.peek() | 0x20 == 0x65 {
            var k = 1
            if c.peek(k) == 0x2B || c.peek(k) == 0x2D { k += 1 }
            if ASCII.isDigit(c.peek(k)) {
                c.pos += k
                digits(&c)
            }
        }
    }

    private func digits(_ c: inout LineCursor) {
        while ASCII.isDigit(c.peek()) || (c.peek() == 0x5F && ASCII.isDigit(c.peek(1))) { c.pos += 1 }
    }

    /// A name's first byte: a letter, `_`, `\` or a non-ASCII byte.
    @inline(__always) private static func isNameStart(_ b: UInt8) -> Bool { ASCII.isIdentifierStart(b) || b == 0x5C }
    @inline(__always) private static func isNameByte(_ b: UInt8) -> Bool { ASCII.isIdentifierByte(b) || b == 0x5C }
    /// A name's first byte where `\` cannot be one (in strings, after `->`).
    @inline(__always) private static func isPlainNameStart(_ b: UInt8) -> Bool { ASCII.isIdentifierStart(b) }

    /// Functions of PHP's commonly bundled extensions, from Pygments' list (arrays,
    /// strings, math, BC Math, PCRE, JSON, files, streams, dates, URLs, variables,
    /// SPL, cURL, OpenSSL, intl, sockets, POSIX...), not its rarer extensions.
    private static let functionNames = """
            __autoload __halt_compiler abs acos acosh addcslashes addslashes array array_change_key_case array_chunk
            array_column array_combine array_count_values array_diff array_diff_assoc array_diff_key
            array_diff_uassoc array_diff_ukey array_fill array_fill_keys array_filter array_flip array_intersect
            array_intersect_assoc array_intersect_key array_intersect_uassoc array_intersect_ukey array_is_list
            array_key_exists array_key_first array_key_last array_keys array_map array_merge array_merge_recursive
            array_multisort array_pad array_pop array_product array_push array_rand array_reduce array_replace
            array_replace_recursive array_reverse array_search array_shift array_slice array_splice array_sum
            array_udiff array_udiff_assoc array_udiff_uassoc array_uintersect array_uintersect_assoc
            array_uintersect_uassoc array_unique array_unshift array_values array_walk array_walk_recursive arsort
            asin asinh asort assert assert_options atan atan2 atanh base64_decode base64_encode base_convert
            basename bcadd bccomp bcdiv bcmod bcmul bcpow bcpowmod bcscale bcsqrt bcsub bin2hex
            bind_textdomain_codeset bindec bindtextdomain boolval bzclose bzcompress bzdecompress bzerrno bzerror
            bzerrstr bzflush bzopen bzread bzwrite cal_days_in_month cal_from_jd cal_info cal_to_jd call_user_func
            call_user_func_array ceil chdir checkdate checkdnsrr chgrp chmod chop chown chr chroot chunk_split
            class_alias class_exists class_implements class_parents class_uses clearstatcache cli_get_process_title
            cli_set_process_title closedir closelog compact connection_aborted connection_status constant
            convert_cyr_string convert_uudecode convert_uuencode copy cos cosh count count_chars crc32
            create_function crypt ctype_alnum ctype_alpha ctype_cntrl ctype_digit ctype_graph ctype_lower
            ctype_print ctype_punct ctype_space ctype_upper ctype_xdigit curl_close curl_copy_handle curl_errno
            curl_error curl_escape curl_exec curl_file_create curl_getinfo curl_init curl_multi_add_handle
            curl_multi_close curl_multi_errno curl_multi_exec curl_multi_getcontent curl_multi_info_read
            curl_multi_init curl_multi_remove_handle curl_multi_select curl_multi_setopt curl_multi_strerror
            curl_pause curl_reset curl_setopt curl_setopt_array curl_share_close curl_share_errno curl_share_init
            curl_share_setopt curl_share_strerror curl_strerror curl_unescape curl_version current date date_add
            date_create date_create_from_format date_create_immutable date_create_immutable_from_format
            date_date_set date_default_timezone_get date_default_timezone_set date_diff date_format
            date_get_last_errors date_interval_create_from_date_string date_interval_format date_isodate_set
            date_modify date_offset_get date_parse date_parse_from_format date_sub date_sun_info date_sunrise
            date_sunset date_time_set date_timestamp_get date_timestamp_set date_timezone_get date_timezone_set
            dcgettext dcngettext debug_backtrace debug_print_backtrace debug_zval_dump decbin dechex decoct define
            defined deflate_add deflate_init deg2rad dgettext die dir dirname disk_free_space disk_total_space
            diskfreespace dl dngettext dns_check_record dns_get_mx dns_get_record doubleval each easter_date
            easter_days echo empty end enum_exists error_clear_last error_get_last error_log error_reporting
            escapeshellarg escapeshellcmd eval exec exif_imagetype exif_read_data exif_tagname exif_thumbnail exit
            exp explode expm1 extension_loaded extract ezmlm_hash fclose fdatasync fdiv feof fflush fgetc fgetcsv
            fgets fgetss file file_exists file_get_contents file_put_contents fileatime filectime filegroup
            fileinode filemtime fileowner fileperms filesize filetype filter_has_var filter_id filter_input
            filter_input_array filter_list filter_var filter_var_array finfo_buffer finfo_close finfo_file
            finfo_open finfo_set_flags floatval flock floor flush fmod fnmatch fopen forward_static_call
            forward_static_call_array fpassthru fprintf fputcsv fputs fread frenchtojd fscanf fseek fsockopen fstat
            fsync ftell ftruncate func_get_arg func_get_args func_num_args function_exists fwrite gc_collect_cycles
            gc_disable gc_enable gc_enabled gc_mem_caches gc_status get_browser get_called_class get_cfg_var
            get_class get_class_methods get_class_vars get_current_user get_debug_type get_declared_classes
            get_declared_interfaces get_declared_traits get_defined_constants get_defined_functions get_defined_vars
            get_extension_funcs get_headers get_html_translation_table get_include_path get_included_files
            get_loaded_extensions get_magic_quotes_gpc get_magic_quotes_runtime get_mangled_object_vars
            get_meta_tags get_object_vars get_parent_class get_required_files get_resource_id get_resource_type
            get_resources getcwd getdate getenv gethostbyaddr gethostbyname gethostbynamel gethostname getlastmod
            getmxrr getmygid getmyinode getmypid getmyuid getopt getprotobyname getprotobynumber getrandmax
            getrusage getservbyname getservbyport gettext gettimeofday gettype glob gmdate gmmktime gmp_abs gmp_add
            gmp_and gmp_binomial gmp_clrbit gmp_cmp gmp_com gmp_div gmp_div_q gmp_div_qr gmp_div_r gmp_divexact
            gmp_export gmp_fact gmp_gcd gmp_gcdext gmp_hamdist gmp_import gmp_init gmp_intval gmp_invert gmp_jacobi
            gmp_kronecker gmp_lcm gmp_legendre gmp_mod gmp_mul gmp_neg gmp_nextprime gmp_or gmp_perfect_power
            gmp_perfect_square gmp_popcount gmp_pow gmp_powm gmp_prob_prime gmp_random gmp_random_bits
            gmp_random_range gmp_random_seed gmp_root gmp_rootrem gmp_scan0 gmp_scan1 gmp_setbit gmp_sign gmp_sqrt
            gmp_sqrtrem gmp_strval gmp_sub gmp_testbit gmp_xor gmstrftime grapheme_extract grapheme_stripos
            grapheme_stristr grapheme_strlen grapheme_strpos grapheme_strripos grapheme_strrpos grapheme_strstr
            grapheme_substr gregoriantojd gzclose gzcompress gzdecode gzdeflate gzencode gzeof gzfile gzgetc gzgets
            gzgetss gzinflate gzopen gzpassthru gzputs gzread gzrewind gzseek gztell gzuncompress gzwrite hash
            hash_algos hash_copy hash_equals hash_file hash_final hash_hkdf hash_hmac hash_hmac_algos hash_hmac_file
            hash_init hash_pbkdf2 hash_update hash_update_file hash_update_stream header header_register_callback
            header_remove headers_list headers_sent hebrev hebrevc hex2bin hexdec highlight_file highlight_string
            hrtime html_entity_decode htmlentities htmlspecialchars htmlspecialchars_decode http_build_query
            http_response_code hypot iconv iconv_get_encoding iconv_mime_decode iconv_mime_decode_headers
            iconv_mime_encode iconv_set_encoding iconv_strlen iconv_strpos iconv_strrpos iconv_substr idate
            idn_to_ascii idn_to_utf8 ignore_user_abort implode in_array inet_ntop inet_pton inflate_add
            inflate_get_read_len inflate_get_status inflate_init ini_alter ini_get ini_get_all ini_restore ini_set
            intdiv interface_exists intl_error_name intl_get_error_code intl_get_error_message intl_is_failure
            intval ip2long is_a is_array is_bool is_callable is_countable is_dir is_double is_executable is_file
            is_finite is_float is_infinite is_int is_integer is_iterable is_link is_long is_nan is_null is_numeric
            is_object is_readable is_real is_resource is_scalar is_string is_subclass_of is_uploaded_file
            is_writable is_writeable isset iterator_apply iterator_count iterator_to_array jddayofweek jdmonthname
            jdtofrench jdtogregorian jdtojewish jdtojulian jdtounix jewishtojd join json_decode json_encode
            json_last_error json_last_error_msg juliantojd key key_exists krsort ksort lcfirst lcg_value lchgrp
            lchown levenshtein libxml_clear_errors libxml_disable_entity_loader libxml_get_errors
            libxml_get_last_error libxml_set_external_entity_loader libxml_set_streams_context
            libxml_use_internal_errors link linkinfo list localeconv localtime log log10 log1p long2ip lstat ltrim
            mail max mb_check_encoding mb_chr mb_convert_case mb_convert_encoding mb_convert_kana
            mb_convert_variables mb_decode_mimeheader mb_decode_numericentity mb_detect_encoding mb_detect_order
            mb_encode_mimeheader mb_encode_numericentity mb_encoding_aliases mb_ereg mb_ereg_match mb_ereg_replace
            mb_ereg_replace_callback mb_ereg_search mb_ereg_search_getpos mb_ereg_search_getregs mb_ereg_search_init
            mb_ereg_search_pos mb_ereg_search_regs mb_ereg_search_setpos mb_eregi mb_eregi_replace mb_get_info
            mb_http_input mb_http_output mb_internal_encoding mb_language mb_list_encodings mb_ord mb_output_handler
            mb_parse_str mb_preferred_mime_name mb_regex_encoding mb_regex_set_options mb_scrub mb_send_mail
            mb_split mb_str_split mb_strcut mb_strimwidth mb_stripos mb_stristr mb_strlen mb_strpos mb_strrchr
            mb_strrichr mb_strripos mb_strrpos mb_strstr mb_strtolower mb_strtoupper mb_strwidth
            mb_substitute_character mb_substr mb_substr_count md5 md5_file memory_get_peak_usage memory_get_usage
            metaphone method_exists microtime mime_content_type min mkdir mktime money_format move_uploaded_file
            mt_getrandmax mt_rand mt_srand natcasesort natsort net_get_interfaces next ngettext nl2br nl_langinfo
            number_format ob_clean ob_end_clean ob_end_flush ob_flush ob_get_clean ob_get_contents ob_get_flush
            ob_get_length ob_get_level ob_get_status ob_gzhandler ob_iconv_handler ob_implicit_flush
            ob_list_handlers ob_start octdec opendir openlog openssl_cipher_iv_length openssl_cms_decrypt
            openssl_cms_encrypt openssl_cms_read openssl_cms_sign openssl_cms_verify openssl_csr_export
            openssl_csr_export_to_file openssl_csr_get_public_key openssl_csr_get_subject openssl_csr_new
            openssl_csr_sign openssl_decrypt openssl_dh_compute_key openssl_digest openssl_encrypt
            openssl_error_string openssl_free_key openssl_get_cert_locations openssl_get_cipher_methods
            openssl_get_curve_names openssl_get_md_methods openssl_get_privatekey openssl_get_publickey openssl_open
            openssl_pbkdf2 openssl_pkcs12_export openssl_pkcs12_export_to_file openssl_pkcs12_read
            openssl_pkcs7_decrypt openssl_pkcs7_encrypt openssl_pkcs7_read openssl_pkcs7_sign openssl_pkcs7_verify
            openssl_pkey_derive openssl_pkey_export openssl_pkey_export_to_file openssl_pkey_free
            openssl_pkey_get_details openssl_pkey_get_private openssl_pkey_get_public openssl_pkey_new
            openssl_private_decrypt openssl_private_encrypt openssl_public_decrypt openssl_public_encrypt
            openssl_random_pseudo_bytes openssl_seal openssl_sign openssl_spki_export openssl_spki_export_challenge
            openssl_spki_new openssl_spki_verify openssl_verify openssl_x509_check_private_key
            openssl_x509_checkpurpose openssl_x509_export openssl_x509_export_to_file openssl_x509_fingerprint
            openssl_x509_free openssl_x509_parse openssl_x509_read openssl_x509_verify ord output_add_rewrite_var
            output_reset_rewrite_vars pack parse_ini_file parse_ini_string parse_str parse_url passthru
            password_algos password_get_info password_hash password_needs_rehash password_verify pathinfo pclose
            pcntl_alarm pcntl_async_signals pcntl_errno pcntl_exec pcntl_fork pcntl_get_last_error pcntl_getpriority
            pcntl_setpriority pcntl_signal pcntl_signal_dispatch pcntl_signal_get_handler pcntl_sigprocmask
            pcntl_sigtimedwait pcntl_sigwaitinfo pcntl_strerror pcntl_wait pcntl_waitpid pcntl_wexitstatus
            pcntl_wifexited pcntl_wifsignaled pcntl_wifstopped pcntl_wstopsig pcntl_wtermsig pfsockopen
            php_ini_loaded_file php_ini_scanned_files php_sapi_name php_strip_whitespace php_uname phpcredits
            phpinfo phpversion pi popen pos posix_access posix_ctermid posix_errno posix_get_last_error posix_getcwd
            posix_getegid posix_geteuid posix_getgid posix_getgrgid posix_getgrnam posix_getgroups posix_getlogin
            posix_getpgid posix_getpgrp posix_getpid posix_getppid posix_getpwnam posix_getpwuid posix_getrlimit
            posix_getsid posix_getuid posix_initgroups posix_isatty posix_kill posix_mkfifo posix_mknod
            posix_setegid posix_seteuid posix_setgid posix_setpgid posix_setrlimit posix_setsid posix_setuid
            posix_strerror posix_times posix_ttyname posix_uname pow preg_filter preg_grep preg_last_error
            preg_last_error_msg preg_match preg_match_all preg_quote preg_replace preg_replace_callback
            preg_replace_callback_array preg_split prev print print_r printf proc_close proc_get_status proc_nice
            proc_open proc_terminate property_exists putenv quoted_printable_decode quoted_printable_encode
            quotemeta rad2deg rand random_bytes random_int range rawurldecode rawurlencode read_exif_data readdir
            readfile readgzfile readline readline_add_history readline_callback_handler_install
            readline_callback_handler_remove readline_callback_read_char readline_clear_history
            readline_completion_function readline_info readline_list_history readline_on_new_line
            readline_read_history readline_redisplay readline_write_history readlink realpath realpath_cache_get
            realpath_cache_size register_shutdown_function register_tick_function rename reset restore_error_handler
            restore_exception_handler restore_include_path rewind rewinddir rmdir round rsort rtrim
            sapi_windows_cp_conv sapi_windows_cp_get sapi_windows_cp_is_utf8 sapi_windows_cp_set
            sapi_windows_generate_ctrl_event sapi_windows_set_ctrl_handler sapi_windows_vt100_support scandir
            serialize session_abort session_cache_expire session_cache_limiter session_commit session_create_id
            session_decode session_destroy session_encode session_gc session_get_cookie_params session_id
            session_module_name session_name session_regenerate_id session_register_shutdown session_reset
            session_save_path session_set_cookie_params session_set_save_handler session_start session_status
            session_unset session_write_close set_error_handler set_exception_handler set_file_buffer
            set_include_path set_time_limit setcookie setlocale setrawcookie settype sha1 sha1_file shell_exec
            show_source shuffle similar_text simplexml_import_dom simplexml_load_file simplexml_load_string sin sinh
            sizeof sleep socket_accept socket_addrinfo_bind socket_addrinfo_connect socket_addrinfo_explain
            socket_addrinfo_lookup socket_bind socket_clear_error socket_close socket_cmsg_space socket_connect
            socket_create socket_create_listen socket_create_pair socket_export_stream socket_get_option
            socket_get_status socket_getopt socket_getpeername socket_getsockname socket_import_stream
            socket_last_error socket_listen socket_read socket_recv socket_recvfrom socket_recvmsg socket_select
            socket_send socket_sendmsg socket_sendto socket_set_block socket_set_blocking socket_set_nonblock
            socket_set_option socket_set_timeout socket_setopt socket_shutdown socket_strerror socket_write
            socket_wsaprotocol_info_export socket_wsaprotocol_info_import socket_wsaprotocol_info_release sodium_add
            sodium_base642bin sodium_bin2base64 sodium_bin2hex sodium_compare sodium_crypto_aead_aes256gcm_decrypt
            sodium_crypto_aead_aes256gcm_encrypt sodium_crypto_aead_aes256gcm_is_available
            sodium_crypto_aead_aes256gcm_keygen sodium_crypto_aead_chacha20poly1305_decrypt
            sodium_crypto_aead_chacha20poly1305_encrypt sodium_crypto_aead_chacha20poly1305_ietf_decrypt
            sodium_crypto_aead_chacha20poly1305_ietf_encrypt sodium_crypto_aead_chacha20poly1305_ietf_keygen
            sodium_crypto_aead_chacha20poly1305_keygen sodium_crypto_aead_xchacha20poly1305_ietf_decrypt
            sodium_crypto_aead_xchacha20poly1305_ietf_encrypt sodium_crypto_aead_xchacha20poly1305_ietf_keygen
            sodium_crypto_auth sodium_crypto_auth_keygen sodium_crypto_auth_verify sodium_crypto_box
            sodium_crypto_box_keypair sodium_crypto_box_keypair_from_secretkey_and_publickey sodium_crypto_box_open
            sodium_crypto_box_publickey sodium_crypto_box_publickey_from_secretkey sodium_crypto_box_seal
            sodium_crypto_box_seal_open sodium_crypto_box_secretkey sodium_crypto_box_seed_keypair
            sodium_crypto_generichash sodium_crypto_generichash_final sodium_crypto_generichash_init
            sodium_crypto_generichash_keygen sodium_crypto_generichash_update sodium_crypto_kdf_derive_from_key
            sodium_crypto_kdf_keygen sodium_crypto_kx_client_session_keys sodium_crypto_kx_keypair
            sodium_crypto_kx_publickey sodium_crypto_kx_secretkey sodium_crypto_kx_seed_keypair
            sodium_crypto_kx_server_session_keys sodium_crypto_pwhash sodium_crypto_pwhash_scryptsalsa208sha256
            sodium_crypto_pwhash_scryptsalsa208sha256_str sodium_crypto_pwhash_scryptsalsa208sha256_str_verify
            sodium_crypto_pwhash_str sodium_crypto_pwhash_str_needs_rehash sodium_crypto_pwhash_str_verify
            sodium_crypto_scalarmult sodium_crypto_scalarmult_base sodium_crypto_secretbox
            sodium_crypto_secretbox_keygen sodium_crypto_secretbox_open
            sodium_crypto_secretstream_xchacha20poly1305_init_pull
            sodium_crypto_secretstream_xchacha20poly1305_init_push
            sodium_crypto_secretstream_xchacha20poly1305_keygen sodium_crypto_secretstream_xchacha20poly1305_pull
            sodium_crypto_secretstream_xchacha20poly1305_push sodium_crypto_secretstream_xchacha20poly1305_rekey
            sodium_crypto_shorthash sodium_crypto_shorthash_keygen sodium_crypto_sign sodium_crypto_sign_detached
            sodium_crypto_sign_ed25519_pk_to_curve25519 sodium_crypto_sign_ed25519_sk_to_curve25519
            sodium_crypto_sign_keypair sodium_crypto_sign_keypair_from_secretkey_and_publickey
            sodium_crypto_sign_open sodium_crypto_sign_publickey sodium_crypto_sign_publickey_from_secretkey
            sodium_crypto_sign_secretkey sodium_crypto_sign_seed_keypair sodium_crypto_sign_verify_detached
            sodium_crypto_stream sodium_crypto_stream_keygen sodium_crypto_stream_xor sodium_hex2bin
            sodium_increment sodium_memcmp sodium_memzero sodium_pad sodium_unpad sort soundex spl_autoload
            spl_autoload_call spl_autoload_extensions spl_autoload_functions spl_autoload_register
            spl_autoload_unregister spl_classes spl_object_hash spl_object_id sprintf sqrt srand sscanf stat
            str_contains str_ends_with str_getcsv str_ireplace str_pad str_repeat str_replace str_rot13 str_shuffle
            str_split str_starts_with str_word_count strcasecmp strchr strcmp strcoll strcspn stream_bucket_append
            stream_bucket_make_writeable stream_bucket_new stream_bucket_prepend stream_context_create
            stream_context_get_default stream_context_get_options stream_context_get_params
            stream_context_set_default stream_context_set_option stream_context_set_params stream_copy_to_stream
            stream_filter_append stream_filter_prepend stream_filter_register stream_filter_remove
            stream_get_contents stream_get_filters stream_get_line stream_get_meta_data stream_get_transports
            stream_get_wrappers stream_is_local stream_isatty stream_notification_callback stream_register_wrapper
            stream_resolve_include_path stream_select stream_set_blocking stream_set_chunk_size
            stream_set_read_buffer stream_set_timeout stream_set_write_buffer stream_socket_accept
            stream_socket_client stream_socket_enable_crypto stream_socket_get_name stream_socket_pair
            stream_socket_recvfrom stream_socket_sendto stream_socket_server stream_socket_shutdown
            stream_supports_lock stream_wrapper_register stream_wrapper_restore stream_wrapper_unregister strftime
            strip_tags stripcslashes stripos stripslashes stristr strlen strnatcasecmp strnatcmp strncasecmp strncmp
            strpbrk strpos strptime strrchr strrev strripos strrpos strspn strstr strtok strtolower strtotime
            strtoupper strtr strval substr substr_compare substr_count substr_replace symlink sys_get_temp_dir
            sys_getloadavg syslog system tan tanh tempnam textdomain time time_nanosleep time_sleep_until
            timezone_abbreviations_list timezone_identifiers_list timezone_location_get timezone_name_from_abbr
            timezone_name_get timezone_offset_get timezone_open timezone_transitions_get timezone_version_get
            tmpfile token_get_all token_name touch trait_exists trigger_error trim uasort ucfirst ucwords uksort
            umask uniqid unixtojd unlink unpack unregister_tick_function unserialize unset urldecode urlencode
            user_error usleep usort utf8_decode utf8_encode var_dump var_export version_compare vfprintf vprintf
            vsprintf wordwrap xml_error_string xml_get_current_byte_index xml_get_current_column_number
            xml_get_current_line_number xml_get_error_code xml_parse xml_parse_into_struct xml_parser_create
            xml_parser_create_ns xml_parser_free xml_parser_get_option xml_parser_set_option
            xml_set_character_data_handler xml_set_default_handler xml_set_element_handler
            xml_set_end_namespace_decl_handler xml_set_external_entity_ref_handler xml_set_notation_decl_handler
            xml_set_object xml_set_processing_instruction_handler xml_set_start_namespace_decl_handler
            xml_set_unparsed_entity_decl_handler zend_thread_id zend_version zip_close zip_entry_close
            zip_entry_compressedsize zip_entry_compressionmethod zip_entry_filesize zip_entry_name zip_entry_open
            zip_entry_read zip_open zip_read zlib_decode zlib_encode zlib_get_coding_type
            """
}
