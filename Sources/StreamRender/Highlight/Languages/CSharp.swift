/// C#, modelled on Pygments' C# lexer: a line starting `modifiers type Name(` makes
/// `Name` a function, a line starting with `[` is an attribute up to its `]`,
/// `#region`/`#if`... lines are attributes, `class`/`struct` names are types and
/// `using`/`namespace` paths plain; `true`, `null` and contextual words (`value`,
/// `get`, `where`...) are keywords, as Pygments has them.
///
/// Where Pygments does not know the language, this lexer does: interpolated
/// strings (`$"..."`, `$@"..."`, `$$"""..."""`) show their holes as code between
/// string-escape braces (a `:format` is string), and raw strings `"""` span lines.
/// Interpolation holes nest and may span lines; the open strings are in the line
/// state (at most 32 deep).
struct CSharpLexer: LineLexer {
    private static let code: UInt16 = 0, blockComment: UInt16 = 1, string: UInt16 = 2, attribute: UInt16 = 3

    // A string is described by its kind (bits 0-1), its quote count (raw strings,
    // bits 2-5) and its `$` count (bits 6-9, 0: not interpolated); a hole on the
    // stack adds its bracket nesting (bits 10-15). The innermost hole is kept apart
    // from the stack (in `depth`, flagged by mode bit 2) so that a line with one
    // level of holes allocates nothing; a string's description is in mode bits 3-12.
    private static let regular: UInt16 = 0, verbatim: UInt16 = 1, raw: UInt16 = 2
    private static let maxStack = 32

    // Word classes.
    private static let keyword: UInt32 = 1, type: UInt32 = 2, classWord: UInt32 = 3, namespaceWord: UInt32 = 4,
        fileWord: UInt32 = 5, globalWord: UInt32 = 6

    private static let table = WordTable(kinds: [
        (keyword, """
            abstract as async await base break by case catch checked const continue default delegate do else enum \
            event explicit extern false finally fixed for foreach goto if implicit in interface internal is let lock \
            new null on operator out override params private protected public readonly ref return sealed sizeof \
            stackalloc static switch this throw true try typeof unchecked unsafe virtual void while get set partial \
            yield add remove value alias ascending descending from group into orderby select thenby where join equals \
            record allows and init managed nameof nint not notnull nuint or scoped unmanaged when with
            """),
        (type, "bool byte char decimal double dynamic float int long object sbyte short string uint ulong ushort var"),
        (classWord, "class struct"), (namespaceWord, "namespace using"), (fileWord, "file"), (globalWord, "global"),
    ])
    /// The table, held by the lexer (a static costs a check at every use).
    private let words = CSharpLexer.table

    /// Where lexing is in a line and what it carries to the next.
    private struct Run {
        var pos = 0
        var mode: UInt16
        var desc: UInt16
        /// The innermost interpolation hole, if `inHole`.
        var top: UInt16
        var inHole: Bool
        /// The holes around it, innermost last.
        var stack: [UInt16]
        var functionAt = -1
    }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var r = Run(mode: state.mode & 3, desc: state.mode >> 3, top: state.depth, inHole: state.mode & 4 != 0,
                    stack: state.stack)
        run(line, &r, &sink)
        state.mode = r.mode | (r.inHole ? 4 : 0) | (r.mode == Self.string ? r.desc << 3 : 0)
        state.depth = r.inHole ? r.top : 0
        if r.stack != state.stack { state.stack = r.stack }
    }

    private func run(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        let n = line.count
        switch r.mode {
        case Self.blockComment:
            guard let e = CFamilyScan.find(line, 0, 0x2A, 0x2F) else { sink.add(0, n, .comment); return }
            sink.add(0, e, .comment)
            r.mode = Self.code
            r.pos = e
        case Self.string:
            r.mode = Self.code
            string(line, r.desc, &r, &sink)
        case Self.attribute:
            var e = 0
            while e < n && line[e] != 0x5D { e += 1 }
            if e == n { sink.add(0, n, .attribute); return }
            sink.add(0, e + 1, .attribute)
            r.mode = Self.code
            r.pos = e + 1
        default:
            r.mode = Self.code
            var i = 0
            while i < n && ASCII.isSpace(line[i]) { i += 1 }
            if i < n && line[i] == 0x5B {
                var e = i
                while e < n && line[e] != 0x5D { e += 1 }
                if e == n {
                    sink.add(i, n, .attribute)
                    r.mode = Self.attribute
                    return
                }
                sink.add(i, e + 1, .attribute)
                r.pos = e + 1
            } else {
                r.functionAt = Self.methodName(line, i)
                r.pos = i
            }
        }
        code(line, &r, &sink)
    }

    /// Pygments' method rule at the line start: names (`[]` allowed) separated by
    /// spaces, the last followed by `(`, at least two names. The last one's start,
    /// or -1.
    private static func methodName(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        let n = line.count
        var i = start, parts = 0
        while true {
            var j = i
            if CFamilyScan.at(line, j) == 0x40 { j += 1 }
            guard j < n, ASCII.isIdentifierStart(line[j]) else { return -1 }
            while j < n && ASCII.isIdentifierByte(line[j]) { j += 1 }
            var k = j
            if CFamilyScan.at(line, k) == 0x5B && CFamilyScan.at(line, k + 1) == 0x5D { k += 2 }
            var m = k
            while m < n && ASCII.isSpace(line[m]) { m += 1 }
            if m < n && line[m] == 0x28 { return k == j && parts > 0 ? i : -1 }
            if m == k || m == n { return -1 }
            parts += 1
            i = m
        }
    }

    private func code(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        let n = line.count
        while r.pos < n {
            let start = r.pos
            let b = line[start]
            switch b {
            case 0x20, 0x09, 0x0D, 0x0C, 0x0B:
                r.pos += 1
            case 0x30...0x39:
                r.pos = Self.number(line, start)
                sink.add(start, r.pos, .number)
            case 0x2E:  // .
                if ASCII.isDigit(CFamilyScan.at(line, start + 1)) {
                    r.pos = Self.number(line, start)
                    sink.add(start, r.pos, .number)
                } else {
                    sink.add(start, start + 1, .punctuation)
                    r.pos += 1
                }
            case 0x2F where CFamilyScan.at(line, start + 1) == 0x2F:
                sink.add(start, n, .comment)
                r.pos = n
            case 0x2F where CFamilyScan.at(line, start + 1) == 0x2A:
                guard let e = CFamilyScan.find(line, start + 2, 0x2A, 0x2F) else {
                    sink.add(start, n, .comment)
                    r.mode = Self.blockComment
                    return
                }
                sink.add(start, e, .comment)
                r.pos = e
            case 0x22, 0x24, 0x40:  // " $ @
                if !stringStart(line, &r, &sink) {
                    if b == 0x40 && ASCII.isIdentifierStart(CFamilyScan.at(line, start + 1)) {
                        r.pos = CFamilyScan.identifierEnd(line, start + 1)
                    } else {
                        r.pos += 1
                    }
                }
            case 0x27:  // '
                let i = start + 1
                var e: Int?
                if CFamilyScan.at(line, i) == 0x5C && i + 1 < n {
                    e = CFamilyScan.characterEnd(line, i + 1)
                } else if i < n && line[i] != 0x5C {
                    e = CFamilyScan.characterEnd(line, i)
                }
                if let e, CFamilyScan.at(line, e) == 0x27 {
                    sink.add(start, e + 1, .string)
                    r.pos = e + 1
                } else {
                    r.pos += 1
                }
            case 0x23:  // #
                if directive(line, start) {
                    sink.add(start, n, .attribute)
                    r.pos = n
                } else {
                    r.pos += 1
                }
            case 0x7B:  // {
                nest(&r, 1)
                sink.add(start, start + 1, .punctuation)
                r.pos += 1
            case 0x7D:  // }
                if r.inHole && r.top >> 10 == 0 {
                    let top = r.top
                    let braces = top & 3 == Self.raw ? Int(top >> 6 & 0xF) : 1
                    var e = start
                    while e < n && line[e] == 0x7D && e - start < braces { e += 1 }
                    if e - start == braces {
                        sink.add(start, e, .stringEscape)
                        if let outer = r.stack.popLast() { r.top = outer } else { r.inHole = false }
                        r.pos = e
                        string(line, top & 0x3FF, &r, &sink)
                        continue
                    }
                }
                nest(&r, -1)
                sink.add(start, start + 1, .punctuation)
                r.pos += 1
            case 0x28, 0x5B:  // ( [
                nest(&r, 1)
                sink.add(start, start + 1, .punctuation)
                r.pos += 1
            case 0x29, 0x5D:  // ) ]
                nest(&r, -1)
                sink.add(start, start + 1, .punctuation)
                r.pos += 1
            case 0x3A:  // :
                if r.inHole && r.top >> 10 == 0 {
                    // An interpolation's format: string up to the closing brace.
                    var e = start + 1
                    while e < n && line[e] != 0x7D { e += 1 }
                    sink.add(start, e, .string)
                    r.pos = e
                } else {
                    sink.add(start, start + 1, .punctuation)
                    r.pos += 1
                }
            case 0x3B, 0x2C:  // ; ,
                sink.add(start, start + 1, .punctuation)
                r.pos += 1
            case 0x3F:  // ?, and ?. as one operator
                r.pos += CFamilyScan.at(line, start + 1) == 0x2E ? 2 : 1
                sink.add(start, r.pos, .operator)
            case 0x2B, 0x2D, 0x2A, 0x2F, 0x25, 0x26, 0x7C, 0x5E, 0x3C, 0x3E, 0x21, 0x7E, 0x3D:
                sink.add(start, start + 1, .operator)
                r.pos += 1
            default:
                if ASCII.isIdentifierStart(b) && !CFamilyScan.isByteOrderMark(line, start) {
                    identifier(line, &r, &sink)
                } else {
                    r.pos = CFamilyScan.characterEnd(line, start)
                }
            }
        }
    }

    /// Counts an opening (+1) or closing (-1) bracket inside an interpolation hole.
    @inline(__always)
    private func nest(_ r: inout Run, _ delta: Int) {
        guard r.inHole else { return }
        let depth = Int(r.top >> 10)
        let next = max(0, min(63, depth + delta))
        r.top = r.top & 0x3FF | UInt16(next) << 10
    }

    /// `#if`, `#region`... (not `#nullable`, which Pygments does not know).
    private func directive(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        var i = start + 1
        while i < line.count && (line[i] == 0x20 || line[i] == 0x09) { i += 1 }
        let e = CFamilyScan.identifierEnd(line, i)
        let c = LineCursor(line)
        switch e - i {
        case 2: return c.at("if", i)
        case 4: return c.at("else", i) || c.at("elif", i) || c.at("line", i)
        case 5: return c.at("endif", i) || c.at("undef", i) || c.at("error", i)
        case 6: return c.at("define", i) || c.at("region", i) || c.at("pragma", i)
        case 7: return c.at("warning", i)
        case 9: return c.at("endregion", i)
        default: return false
        }
    }

    private func identifier(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        let n = line.count
        let start = r.pos
        let e = CFamilyScan.identifierEnd(line, start)
        r.pos = e
        if start == r.functionAt {
            sink.add(start, e, .function)
            return
        }
        let cls = words.value(line, start, e)
        switch cls {
        case Self.keyword:
            sink.add(start, e, .keyword)
        case Self.type:
            if CFamilyScan.at(line, e) == 0x3F { r.pos = e + 1 }  // `int?` is one type
            sink.add(start, r.pos, .type)
        case Self.classWord, Self.namespaceWord:
            guard e < n, ASCII.isSpace(line[e]) else { return }
            sink.add(start, e, .keyword)
            var j = e
            while j < n && ASCII.isSpace(line[j]) { j += 1 }
            if cls == Self.classWord {
                if j < n && j != r.functionAt && (ASCII.isIdentifierStart(line[j]) || line[j] == 0x40) {
                    r.pos = CFamilyScan.identifierEnd(line, j + 1)
                    sink.add(j, r.pos, .type)
                }
            } else {
                // A path: plain (the words in it are not keywords).
                while j < n && (ASCII.isIdentifierByte(line[j]) || line[j] == 0x2E || line[j] == 0x40) { j += 1 }
                r.pos = j
            }
        case Self.fileWord:
            guard e < n, ASCII.isSpace(line[e]) else { return }
            var j = e
            while j < n && ASCII.isSpace(line[j]) { j += 1 }
            let w = CFamilyScan.identifierEnd(line, j)
            let c = LineCursor(line)
            let modifier: Bool
            switch w - j {
            case 3: modifier = c.at("new", j)
            case 4: modifier = c.at("enum", j)
            case 5: modifier = c.at("class", j)
            case 6: modifier = c.at("record", j) || c.at("sealed", j) || c.at("static", j)
            case 8: modifier = c.at("abstract", j)
            default: modifier = false
            }
            if modifier { sink.add(start, e, .keyword) }
        case Self.globalWord:
            if CFamilyScan.at(line, e) == 0x3A && CFamilyScan.at(line, e + 1) == 0x3A { sink.add(start, e, .keyword) }
        default:
            break
        }
    }

    /// A string starting at the position (`"`, `@"`, `$"`, `$@"`, `@$"`, `"""`,
    /// `$$"""`...), if one does: lexes it (or its part up to a hole or the line's
    /// end) and returns true.
    private func stringStart(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) -> Bool {
        let n = line.count
        let start = r.pos
        var i = start, dollars = 0, at = false
        while i < n && line[i] == 0x24 && dollars < 15 { dollars += 1; i += 1 }
        if i < n && line[i] == 0x40 { at = true; i += 1 }
        if !at || dollars > 0 { while i < n && line[i] == 0x24 && dollars < 15 { dollars += 1; i += 1 } }
        guard i < n, line[i] == 0x22 else { return false }
        var quotes = 0
        while i + quotes < n && line[i + quotes] == 0x22 { quotes += 1 }
        var desc: UInt16
        if quotes >= 3 && !at {
            desc = Self.raw | UInt16(min(quotes, 15)) << 2
            i += quotes
        } else {
            desc = at ? Self.verbatim : Self.regular
            i += 1
        }
        desc |= UInt16(dollars) << 6
        sink.add(start, i, .string)
        r.pos = i
        string(line, desc, &r, &sink)
        return true
    }

    /// A string's body from the position: up to its end, a hole (pushed on the
    /// stack) or the line's end (a regular string ends there; others carry on).
    private func string(_ line: UnsafeBufferPointer<UInt8>, _ desc: UInt16, _ r: inout Run, _ sink: inout TokenSink) {
        let n = line.count
        let kind = desc & 3, quotes = Int(desc >> 2 & 0xF), dollars = Int(desc >> 6 & 0xF)
        let start = r.pos
        var i = start
        while i < n {
            let b = line[i]
            if b == 0x22 {
                if kind == Self.raw {
                    var e = i
                    while e < n && line[e] == 0x22 { e += 1 }
                    if e - i >= quotes {
                        sink.add(start, e, .string)
                        r.pos = e
                        return
                    }
                    i = e
                    continue
                }
                if kind == Self.verbatim && CFamilyScan.at(line, i + 1) == 0x22 {
                    i += 2
                    continue
                }
                sink.add(start, i + 1, .string)
                r.pos = i + 1
                return
            }
            if b == 0x5C && kind == Self.regular {
                i += 2
                continue
            }
            if b == 0x7B && dollars > 0 {
                var e = i
                while e < n && line[e] == 0x7B { e += 1 }
                let run = e - i
                if kind == Self.raw ? run < dollars : run % 2 == 0 {
                    i = e
                    continue
                }
                // The last `dollars` braces open the hole (one, outside raw strings).
                let open = kind == Self.raw ? e - dollars : e - 1
                guard r.stack.count + 1 < Self.maxStack else { i = e; continue }
                sink.add(start, open, .string)
                sink.add(open, e, .stringEscape)
                if r.inHole { r.stack.append(r.top) }
                r.top = desc
                r.inHole = true
                r.pos = e
                return
            }
            i += 1
        }
        sink.add(start, n, .string)
        r.pos = n
        if kind != Self.regular {
            r.mode = Self.string
            r.desc = desc
        }
    }

    /// A number at `p` (a digit, or `.` before one), by Pygments' C# rules.
    private static func number(_ line: UnsafeBufferPointer<UInt8>, _ p: Int) -> Int {
        let at = { (i: Int) in CFamilyScan.at(line, i) }
        func digits(_ i: Int, _ isDigit: (UInt8) -> Bool) -> Int? {
            guard isDigit(at(i)) else { return nil }
            var j = i + 1
            while isDigit(at(j)) { j += 1 }
            return j
        }
        func exponent(_ i: Int) -> Int? {
            guard at(i) | 0x20 == 0x65 else { return nil }
            var j = i + 1
            if at(j) == 0x2B || at(j) == 0x2D { j += 1 }
            return digits(j, ASCII.isDigit)
        }
        func suffix(_ i: Int) -> Int {
            let b = at(i) | 0x20
            return b == 0x66 || b == 0x64 || b == 0x6D ? i + 1 : i
        }
        func integerSuffix(_ i: Int) -> Int {
            let b = at(i) | 0x20, c = at(i + 1) | 0x20
            if b == 0x75 { return c == 0x6C ? i + 2 : i + 1 }
            if b == 0x6C { return c == 0x75 ? i + 2 : i + 1 }
            return i
        }
        let whole = digits(p, ASCII.isDigit)
        if let a = whole, at(a) == 0x2E, let b = digits(a + 1, ASCII.isDigit) { return suffix(exponent(b) ?? b) }
        if at(p) == 0x2E, let b = digits(p + 1, ASCII.isDigit) { return suffix(exponent(b) ?? b) }
        if let a = whole, let e = exponent(a) { return suffix(e) }
        if let a = whole, suffix(a) > a { return a + 1 }
        let zero = at(p) == 0x30, x = at(p + 1) | 0x20
        if zero && x == 0x78, let a = digits(p + 2, ASCII.isHexDigit) { return integerSuffix(a) }
        if zero && x == 0x62, let a = digits(p + 2, CFamilyScan.isBinary) { return integerSuffix(a) }
        return integerSuffix(whole ?? p + 1)
    }
}
