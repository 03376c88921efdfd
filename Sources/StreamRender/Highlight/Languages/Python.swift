/// Python 3, classified the way Pygments' `python` lexer does where that reads well.
///
/// - Strings take the prefixes `r b u f t` (and `rb`, `fr`, ...); a triple-quoted
///   string opening a line is a docstring: plain string, no escapes or `%s`/`{}`
///   fields. Other strings mark escapes, `%`-format specs and `str.format` fields
///   (`{}`, `{name!r:>10}`) as escapes, as Pygments does.
/// - f-strings: `{` and `}` (and a `!r`, `=` or `:` ending the expression) are
///   escapes, the expression between is code, nested strings included; the format
///   spec after `:` is string, with its own `{fields}`. The return modes are on
///   `state.stack`, so a triple-quoted f-string keeps all of this across lines.
/// - A single-quoted string ends at the line's end unless a `\` continues it.
/// - `def`/`class` names are function/type; `@name` is an attribute; builtins,
///   exception classes, `self`/`cls` and dunder names follow Pygments' lists (not
///   after a `.`); `match`/`case` are keywords only opening a statement, as are
///   `_` patterns after `case`. Module paths after `import`/`from` are plain.
/// - Deliberate difference: `3j`, `1.5j` are one number (Pygments stops before `j`).
struct PythonLexer: LineLexer {
    // Modes: 0 code; a string is `string | flags`; inside an f-string's `{...}`,
    // `fieldExpression` (where `}`, `:`, `!r` end it) or `fieldBrackets` (inside
    // brackets there). Where to return is on the stack.
    private static let string: UInt16 = 0x100
    private static let double: UInt16 = 1, triple: UInt16 = 2, raw: UInt16 = 4, format: UInt16 = 8
    private static let bytes: UInt16 = 16, doc: UInt16 = 32
    private static let fieldExpression: UInt16 = 0x200
    private static let fieldBrackets: UInt16 = 0x201
    private static let maxStack = 32
    /// How far a `\N{name}` or a format field's `[key]` is looked for (bounds the work per `{`).
    private static let maxScan = 256

    // Word flags.
    private static let keyword: UInt32 = 1 << 0
    private static let expressionKeyword: UInt32 = 1 << 1
    private static let wordOperator: UInt32 = 1 << 2
    private static let constant: UInt32 = 1 << 3
    private static let pseudo: UInt32 = 1 << 4
    private static let builtin: UInt32 = 1 << 5
    private static let exception: UInt32 = 1 << 6
    private static let magicFunction: UInt32 = 1 << 7
    private static let magicVariable: UInt32 = 1 << 8
    private static let softKeywordBlocker: UInt32 = 1 << 9
    private static let isDef: UInt32 = 1 << 10
    private static let isClass: UInt32 = 1 << 11
    private static let isImport: UInt32 = 1 << 12
    private static let isFrom: UInt32 = 1 << 13
    private static let isYield: UInt32 = 1 << 14
    private static let isAs: UInt32 = 1 << 15
    private static let isNone: UInt32 = 1 << 16
    private static let isMatch: UInt32 = 1 << 17
    private static let isCase: UInt32 = 1 << 18

    private static let allWords = WordTable([
        (keyword, """
            assert async await break continue del elif else except finally for global if lambda
            pass raise nonlocal return try while yield as with
            """),
        (expressionKeyword, """
            async await else for if lambda yield
            """),
        (wordOperator, """
            in is and or not
            """),
        (constant, """
            True False None
            """),
        (pseudo, """
            self cls Ellipsis NotImplemented
            """),
        (builtin, """
            __import__ abs aiter all any bin bool bytearray breakpoint bytes callable chr classmethod
            compile complex delattr dict dir divmod enumerate eval filter float format frozenset
            getattr globals hasattr hash hex id input int isinstance issubclass iter len list locals
            map max memoryview min next object oct open ord pow print property range repr reversed
            round set setattr slice sorted staticmethod str sum super tuple type vars zip
            """),
        (exception, """
            ArithmeticError AssertionError AttributeError BaseException BufferError BytesWarning
            DeprecationWarning EOFError EnvironmentError Exception FloatingPointError FutureWarning
            GeneratorExit IOError ImportError ImportWarning IndentationError IndexError KeyError
            KeyboardInterrupt LookupError MemoryError NameError NotImplementedError OSError
            OverflowError PendingDeprecationWarning ReferenceError ResourceWarning RuntimeError
            RuntimeWarning StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError
            TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError
            UnicodeTranslateError UnicodeWarning UserWarning ValueError VMSError Warning WindowsError
            ZeroDivisionError BlockingIOError ChildProcessError ConnectionError BrokenPipeError
            ConnectionAbortedError ConnectionRefusedError ConnectionResetError FileExistsError
            FileNotFoundError InterruptedError IsADirectoryError NotADirectoryError PermissionError
            ProcessLookupError TimeoutError StopAsyncIteration ModuleNotFoundError RecursionError
            EncodingWarning
            """),
        (magicFunction, """
            __abs__ __add__ __aenter__ __aexit__ __aiter__ __and__ __anext__ __await__ __bool__
            __bytes__ __call__ __complex__ __contains__ __del__ __delattr__ __delete__ __delitem__
            __dir__ __divmod__ __enter__ __eq__ __exit__ __float__ __floordiv__ __format__ __ge__
            __get__ __getattr__ __getattribute__ __getitem__ __gt__ __hash__ __iadd__ __iand__
            __ifloordiv__ __ilshift__ __imatmul__ __imod__ __imul__ __index__ __init__
            __instancecheck__ __int__ __invert__ __ior__ __ipow__ __irshift__ __isub__ __iter__
            __itruediv__ __ixor__ __le__ __len__ __length_hint__ __lshift__ __lt__ __matmul__
            __missing__ __mod__ __mul__ __ne__ __neg__ __new__ __next__ __or__ __pos__ __pow__
            __prepare__ __radd__ __rand__ __rdivmod__ __repr__ __reversed__ __rfloordiv__
            __rlshift__ __rmatmul__ __rmod__ __rmul__ __ror__ __round__ __rpow__ __rrshift__
            __rshift__ __rsub__ __rtruediv__ __rxor__ __set__ __setattr__ __setitem__ __str__
            __sub__ __subclasscheck__ __truediv__ __xor__
            """),
        (magicVariable, """
            __annotations__ __bases__ __class__ __closure__ __code__ __defaults__ __dict__ __doc__
            __file__ __func__ __globals__ __kwdefaults__ __module__ __mro__ __name__ __objclass__
            __qualname__ __self__ __slots__ __weakref__
            """),
        (softKeywordBlocker, """
            and as assert async await break class continue def del elif else except finally for
            from global if import in is lambda nonlocal not or pass raise return try while with yield
            """),
        (isDef, "def"),
        (isClass, "class"),
        (isImport, "import"),
        (isFrom, "from"),
        (isYield, "yield"),
        (isAs, "as"),
        (isNone, "None"),
        (isMatch, "match"),
        (isCase, "case"),
    ])

    // Held by the instance: a static would be checked for initialisation on each lookup.
    private let words = PythonLexer.allWords

    /// What the words just before the position make of the next identifier.
    private enum Expect { case none, functionName, className, importPath, fromPath, afterYield }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        var expect = Expect.none
        var softUnderscore = -1
        var continued = false
        if state.mode == 0 && state.stack.isEmpty {
            c.skipSpaces()
            if !docstring(&c, state: &state, into: &sink) {
                softUnderscore = softKeyword(&c, into: &sink)
            }
        }
        while !c.atEnd {
            let mode = state.mode
            if mode & Self.string != 0 {
                if stringBody(&c, state: &state, into: &sink) { continued = true }
                continue
            }
            let start = c.pos
            let b = line[start]
            if b == 0x20 || ASCII.isSpace(b) {
                c.pos += 1
                continue
            }
            let inField = mode != 0
            switch b {
            case 0x23 where !inField:  // #
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x22, 0x27:  // " '
                openString(&c, prefix: start, flags: 0, state: &state, into: &sink)
                expect = .none
            case 0x40:  // @
                c.pos += 1
                if c.identifier() != nil { sink.add(start, c.pos, .attribute) } else { sink.add(start, c.pos, .operator) }
            case 0x30...0x39:
                number(&c)
                sink.add(start, c.pos, .number)
            case 0x2E:  // .
                if ASCII.isDigit(c.peek(1)) {
                    number(&c)
                    sink.add(start, c.pos, .number)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, expect == .importPath || expect == .fromPath ? .plain : .operator)
                }
            case 0x7B, 0x28, 0x5B:  // { ( [
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                if inField && state.stack.count < Self.maxStack {
                    state.stack.append(mode)
                    state.mode = Self.fieldBrackets
                }
                expect = .none
            case 0x7D, 0x29, 0x5D:  // } ) ]
                if mode == Self.fieldExpression && b == 0x7D {
                    c.pos += 1
                    sink.add(start, c.pos, .stringEscape)
                    state.mode = state.stack.popLast() ?? 0
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    if mode == Self.fieldBrackets { state.mode = state.stack.popLast() ?? 0 }
                }
                expect = .none
            case 0x21 where mode == Self.fieldExpression && LineCursor.contains("sraf", c.peek(1))
                && (c.peek(2) == 0x7D || c.peek(2) == 0x3A):  // !r} !s:
                c.pos += 3
                sink.add(start, c.pos, .stringEscape)
                state.mode = state.stack.popLast() ?? 0
            case 0x3A where mode == Self.fieldExpression:  // : starts the format spec
                c.pos += 1
                sink.add(start, c.pos, .stringEscape)
                state.mode = state.stack.popLast() ?? 0
            case 0x3D where mode == Self.fieldExpression && debugSpecifier(c):  // {x=}
                c.pos += 1
                c.skipSpaces()
                sink.add(start, c.pos, .stringEscape)
            case 0x2C where expect == .importPath:
                c.pos += 1
                sink.add(start, c.pos, .operator)
            case 0x3A, 0x2C, 0x3B:  // : , ;
                if b == 0x3A && c.peek(1) == 0x3D {
                    c.pos += 2
                    sink.add(start, c.pos, .operator)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                }
                expect = .none
            case 0x2D, 0x7E, 0x2B, 0x2F, 0x2A, 0x25, 0x3D, 0x3C, 0x3E, 0x26, 0x5E, 0x7C:
                c.pos += 1
                sink.add(start, c.pos, .operator)
                expect = .none
            case 0x21 where c.peek(1) == 0x3D:  // !=
                c.pos += 2
                sink.add(start, c.pos, .operator)
            default:
                guard ASCII.isIdentifierStart(b) else {
                    c.pos += 1
                    while c.pos < line.count && line[c.pos] & 0xC0 == 0x80 { c.pos += 1 }
                    sink.add(start, c.pos, .plain)
                    expect = .none
                    continue
                }
                // The identifier, scanned here rather than by `LineCursor.identifier()`:
                // this is the hottest path.
                var end = start + 1
                while end < line.count && ASCII.isIdentifierByte(line[end]) { end += 1 }
                c.pos = end
                let word = start..<end
                let next = c[end]
                if (next == 0x22 || next == 0x27), let flags = Self.prefixFlags(line, word) {
                    openString(&c, prefix: start, flags: flags, state: &state, into: &sink)
                    expect = .none
                    continue
                }
                if word.lowerBound == softUnderscore && word.count == 1 {
                    sink.add(word, .keyword)
                    continue
                }
                expect = classify(line, word, after: c, expect: expect, inField: inField, into: &sink)
            }
        }
        // A single-quoted string (or an f-string field inside one) ends with its
        // line unless a backslash continues it.
        if state.mode != 0 && !continued && !Self.spansLines(state) {
            state.mode = 0
            state.stack.removeAll()
        }
    }

    /// Classifies an identifier; returns what it makes of the next one.
    private func classify(_ line: UnsafeBufferPointer<UInt8>, _ word: Range<Int>, after c: LineCursor,
                          expect: Expect, inField: Bool, into sink: inout TokenSink) -> Expect {
        let followedBySpace = c.atEnd || ASCII.isSpace(c.peek())
        let flags = words.flags(line, word)
        switch expect {
        case .functionName:
            sink.add(word, .function)
            return .none
        case .className:
            sink.add(word, .type)
            return .none
        case .importPath:
            let isAs = flags & Self.isAs != 0 && followedBySpace && ASCII.isSpace(c[word.lowerBound - 1])
            sink.add(word, isAs ? .keyword : .plain)
            return .importPath
        case .fromPath:
            if flags & Self.isImport != 0 && ASCII.isSpace(c[word.lowerBound - 1]) {
                sink.add(word, .keyword)
                return .none
            }
            if flags & Self.isNone != 0 {
                sink.add(word, .constant)
                return .none
            }
            sink.add(word, .plain)
            return .fromPath
        case .none, .afterYield:
            break
        }
        if flags == 0 {
            sink.add(word, .plain)
            return .none
        }
        if !inField {
            if followedBySpace {
                if flags & Self.isDef != 0 { sink.add(word, .keyword); return .functionName }
                if flags & Self.isClass != 0 { sink.add(word, .keyword); return .className }
                if flags & Self.isImport != 0 { sink.add(word, .keyword); return .importPath }
                if flags & Self.isFrom != 0 {
                    sink.add(word, .keyword)
                    return expect == .afterYield ? .none : .fromPath
                }
            }
            if flags & Self.keyword != 0 {
                sink.add(word, .keyword)
                return flags & Self.isYield != 0 ? .afterYield : .none
            }
        } else if flags & Self.expressionKeyword != 0 {
            sink.add(word, .keyword)
            return .none
        }
        let afterDot = c[word.lowerBound - 1] == 0x2E
        let kind: TokenKind
        if flags & Self.constant != 0 {
            kind = .constant
        } else if flags & Self.wordOperator != 0 {
            kind = .keyword
        } else if flags & Self.magicFunction != 0 {
            kind = .function
        } else if flags & Self.magicVariable != 0 {
            kind = .variable
        } else if afterDot {
            kind = .plain
        } else if flags & Self.builtin != 0 {
            kind = .builtin
        } else if flags & Self.pseudo != 0 {
            kind = .keyword
        } else if flags & Self.exception != 0 {
            kind = .type
        } else {
            kind = .plain
        }
        sink.add(word, kind)
        return .none
    }

    /// A docstring opening the line (after its indentation): the rest is string,
    /// to the closing quotes, without escapes.
    private func docstring(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        var k = c.pos
        while k < c.pos + 2, Self.isDocstringPrefix(c[k]) { k += 1 }
        let q = c[k]
        guard (q == 0x22 || q == 0x27) && c[k + 1] == q && c[k + 2] == q else { return false }
        state.mode = Self.string | Self.triple | Self.doc | (q == 0x22 ? Self.double : 0)
        sink.add(c.pos, k + 3, .string)
        c.pos = k + 3
        return true
    }

    /// `match`/`case` opening a statement: a keyword, and so is the first `_`
    /// pattern after it. Returns that `_`'s position (or -1).
    private func softKeyword(_ c: inout LineCursor, into sink: inout TokenSink) -> Int {
        var probe = c
        guard let word = probe.identifier(), words.flags(c.line, word) & (Self.isMatch | Self.isCase) != 0 else { return -1 }
        var k = word.upperBound
        while k < c.count && (c[k] == 0x20 || c[k] == 0x09) { k += 1 }
        let next = c[k]
        if LineCursor.contains(":,;=^&|@~)]}", next) { return -1 }
        var after = LineCursor(c.line, at: k)
        if let w = after.identifier(), words.flags(c.line, w) & Self.softKeywordBlocker != 0 { return -1 }
        sink.add(word, .keyword)
        c.pos = word.upperBound
        guard c.count > c.pos, ASCII.isSpace(c[c.pos]) else { return -1 }
        var u = c.pos
        while u < c.count && c[u] != 0x5F { u += 1 }
        guard u < c.count, !ASCII.isIdentifierByte(c[u + 1]), !ASCII.isIdentifierByte(c[u - 1]) else { return -1 }
        return u
    }

    /// After `=` in an f-string field: whether it is the `{x=}` debug form.
    private func debugSpecifier(_ c: LineCursor) -> Bool {
        var k = c.pos + 1
        while k < c.count && ASCII.isSpace(c[k]) { k += 1 }
        if c[k] == 0x21, LineCursor.contains("sraf", c[k + 1]) { k += 2 }
        return c[k] == 0x7D || c[k] == 0x3A
    }

    /// Opens a string whose prefix starts at `prefix` and whose quote is at the position.
    private func openString(_ c: inout LineCursor, prefix: Int, flags: UInt16, state: inout LexState, into sink: inout TokenSink) {
        let q = c.peek()
        var flags = flags | (q == 0x22 ? Self.double : 0)
        if c.peek(1) == q && c.peek(2) == q {
            flags |= Self.triple
            c.pos += 3
        } else {
            c.pos += 1
        }
        sink.add(prefix, c.pos, .string)
        if state.mode != 0 {
            guard state.stack.count < Self.maxStack else { return }
            state.stack.append(state.mode)
        }
        state.mode = Self.string | flags
    }

    /// The string's body from the position, to its end or the line's end (or an
    /// f-string field). Returns whether a backslash continues it onto the next line.
    private func stringBody(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let mode = state.mode
        let line = c.line
        let quote: UInt8 = mode & Self.double != 0 ? 0x22 : 0x27
        let isTriple = mode & Self.triple != 0
        let isRaw = mode & Self.raw != 0
        let isFormat = mode & Self.format != 0
        let isDoc = mode & Self.doc != 0
        var run = c.pos
        while c.pos < line.count {
            let b = line[c.pos]
            if b == quote {
                if !isTriple || (c.peek(1) == quote && c.peek(2) == quote) {
                    c.pos += isTriple ? 3 : 1
                    sink.add(run, c.pos, .string)
                    state.mode = state.stack.popLast() ?? 0
                    return false
                }
                c.pos += 1
                continue
            }
            if isDoc { c.pos += 1; continue }
            switch b {
            case 0x5C:  // backslash
                let n = escapeLength(c, raw: isRaw, triple: isTriple, quote: quote, bytes: mode & Self.bytes != 0)
                if n > 0 {
                    sink.add(run, c.pos, .string)
                    let e = c.pos
                    c.pos += n
                    sink.add(e, c.pos, .stringEscape)
                    run = c.pos
                    if c.pos >= line.count { return true }
                } else {
                    c.pos += 1
                }
            case 0x7B where isFormat:  // {
                sink.add(run, c.pos, .string)
                let e = c.pos
                if c.peek(1) == 0x7B {
                    c.pos += 2
                    sink.add(e, c.pos, .stringEscape)
                    run = c.pos
                    continue
                }
                c.pos += 1
                sink.add(e, c.pos, .stringEscape)
                if state.stack.count < Self.maxStack {
                    state.stack.append(mode)
                    state.mode = Self.fieldExpression
                    return false
                }
                run = c.pos
            case 0x7D where isFormat:  // }
                sink.add(run, c.pos, .string)
                let e = c.pos
                c.pos += c.peek(1) == 0x7D ? 2 : 1
                sink.add(e, c.pos, .stringEscape)
                run = c.pos
            case 0x7B:
                if let end = formatField(c) {
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, end, .stringEscape)
                    c.pos = end
                    run = end
                } else {
                    c.pos += c.peek(1) == 0x7B ? 2 : 1
                }
            case 0x25 where !isFormat:  // %
                if let end = percentSpec(c) {
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, end, .stringEscape)
                    c.pos = end
                    run = end
                } else {
                    c.pos += 1
                }
            default:
                c.pos += 1
            }
        }
        sink.add(run, c.pos, .string)
        return false
    }

    /// The length of the escape at the position (a backslash), 0 if it is none.
    private func escapeLength(_ c: LineCursor, raw: Bool, triple: Bool, quote: UInt8, bytes: Bool) -> Int {
        let n = c.peek(1)
        if c.pos + 1 >= c.count { return raw && triple ? 0 : 1 }  // continues the line
        if raw {
            return !triple && (n == 0x5C || n == quote) ? 2 : 0
        }
        switch n {
        case 0x5C, 0x27, 0x22, 0x61, 0x62, 0x66, 0x6E, 0x72, 0x74, 0x76: return 2
        case 0x78: return ASCII.isHexDigit(c.peek(2)) && ASCII.isHexDigit(c.peek(3)) ? 4 : 0
        case 0x30...0x37:
            var k = 2
            while k < 4 && c.peek(k) &- 0x30 < 8 { k += 1 }
            return k
        case 0x4E where !bytes && c.peek(2) == 0x7B:  // \N{NAME}
            // Character names are short: a bounded look keeps many `\N{` linear.
            var k = c.pos + 3
            while k < c.count && k < c.pos + Self.maxScan && c[k] != 0x7D { k += 1 }
            return c[k] == 0x7D ? k + 1 - c.pos : 0
        case 0x75 where !bytes: return hexRun(c, 4) ? 6 : 0
        case 0x55 where !bytes: return hexRun(c, 8) ? 10 : 0
        default: return 0
        }
    }

    private func hexRun(_ c: LineCursor, _ n: Int) -> Bool {
        for k in 0..<n where !ASCII.isHexDigit(c.peek(2 + k)) { return false }
        return true
    }

    /// A `str.format` field at the position (`{}`, `{0}`, `{name.attr[key]!r:>10}`): its end.
    private func formatField(_ c: LineCursor) -> Int? {
        var k = c.pos + 1
        // Field name: a word, then `.word` or `[...]` parts.
        if ASCII.isIdentifierByte(c[k]) {
            while k < c.count && ASCII.isIdentifierByte(c[k]) { k += 1 }
            while true {
                if c[k] == 0x2E && ASCII.isIdentifierByte(c[k + 1]) {
                    k += 1
                    while k < c.count && ASCII.isIdentifierByte(c[k]) { k += 1 }
                } else if c[k] == 0x5B && c[k + 1] != 0x5D && k + 1 < c.count {
                    var j = k + 1
                    while j < c.count && j < k + Self.maxScan && c[j] != 0x5D { j += 1 }
                    guard c[j] == 0x5D else { break }
                    k = j + 1
                } else {
                    break
                }
            }
        }
        if c[k] == 0x21 && (c[k + 1] == 0x73 || c[k + 1] == 0x72 || c[k + 1] == 0x61) { k += 2 }
        if c[k] == 0x3A {
            // :[[fill]align][sign][#][0][width][,][.precision][type]
            k += 1
            if LineCursor.contains("<>=^", c[k + 1]) && k < c.count && c[k] != 0x7D {
                k += 2
            } else if LineCursor.contains("<>=^", c[k]) {
                k += 1
            }
            if LineCursor.contains("-+ ", c[k]) { k += 1 }
            if c[k] == 0x23 { k += 1 }
            if c[k] == 0x30 { k += 1 }
            while ASCII.isDigit(c[k]) { k += 1 }
            if c[k] == 0x2C { k += 1 }
            if c[k] == 0x2E && ASCII.isDigit(c[k + 1]) {
                k += 1
                while ASCII.isDigit(c[k]) { k += 1 }
            }
            if LineCursor.contains("EFGXbcdefgnosx%", c[k]) { k += 1 }
        }
        return c[k] == 0x7D ? k + 1 : nil
    }

    /// A printf-style spec at the position (`%s`, `%-5.2f`, `%(name)d`, `%%`): its end.
    private func percentSpec(_ c: LineCursor) -> Int? {
        var k = c.pos + 1
        if c[k] == 0x28 {
            var j = k + 1
            while ASCII.isIdentifierByte(c[j]) { j += 1 }
            guard j > k + 1, c[j] == 0x29 else { return nil }
            k = j + 1
        }
        while LineCursor.contains("-#0 +", c[k]) { k += 1 }
        if c[k] == 0x2A { k += 1 } else { while ASCII.isDigit(c[k]) { k += 1 } }
        if c[k] == 0x2E && (ASCII.isDigit(c[k + 1]) || c[k + 1] == 0x2A) {
            k += 1
            if c[k] == 0x2A { k += 1 } else { while ASCII.isDigit(c[k]) { k += 1 } }
        }
        if LineCursor.contains("hlL", c[k]) { k += 1 }
        return LineCursor.contains("EFGXcdefgiorsaux%", c[k]) ? k + 1 : nil
    }

    /// A number: decimal, float, `0x`/`0o`/`0b`, `_` separators, a `j` suffix.
    private func number(_ c: inout LineCursor) {
        if c.peek() == 0x30, LineCursor.contains("xXoObB", c.peek(1)) {
            c.pos += 2
            while c.pos < c.count && (ASCII.isHexDigit(c.peek()) || c.peek() == 0x5F) { c.pos += 1 }
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
        if c.peek() | 0x20 == 0x6A { c.pos += 1 }
    }

    private func digits(_ c: inout LineCursor) {
        while c.pos < c.count && (ASCII.isDigit(c.peek()) || (c.peek() == 0x5F && ASCII.isDigit(c.peek(1)))) { c.pos += 1 }
    }

    /// The flags of a string prefix (`r`, `b`, `f`, `rb`, `Rf`...), nil if `word` is not one.
    private static func prefixFlags(_ line: UnsafeBufferPointer<UInt8>, _ word: Range<Int>) -> UInt16? {
        guard word.count <= 2 else { return nil }
        var flags: UInt16 = 0
        var u = false
        for i in word {
            switch line[i] | 0x20 {
            case 0x72: if flags & raw != 0 { return nil }; flags |= raw
            case 0x62: if flags & (bytes | format) != 0 { return nil }; flags |= bytes
            case 0x66, 0x74: if flags & (bytes | format) != 0 { return nil }; flags |= format
            case 0x75: u = true
            default: return nil
            }
        }
        if u && word.count > 1 { return nil }
        return flags
    }

    private static func isDocstringPrefix(_ b: UInt8) -> Bool {
        let l = b | 0x20
        return l == 0x72 || l == 0x75 || l == 0x62
    }

    /// Whether the mode, or one it returns to, is a triple-quoted string.
    private static func spansLines(_ state: LexState) -> Bool {
        if state.mode & string != 0 && state.mode & triple != 0 { return true }
        for m in state.stack where m & string != 0 && m & triple != 0 { return true }
        return false
    }
}
