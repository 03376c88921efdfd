/// Java, modelled on Pygments' Java lexer: `type name(` makes `name` a function
/// (declarations and constructors alike), a name after `.` is an attribute,
/// annotations are attributes, `class`/`interface`/`record` names are types and
/// `package`/`import` paths are plain. Text blocks `"""` span lines; block comments
/// too. Strings have no escape tokens (Pygments gives none) and, unlike Pygments,
/// an unclosed `"` ends with its line, so one stray quote does not swallow the code
/// after it.
struct JavaLexer: LineLexer {
    private static let code: UInt16 = 0, blockComment: UInt16 = 1, textBlock: UInt16 = 2
    /// After `class`, `interface` or `module`: the next name is the declared type,
    /// whatever comes between (Pygments waits for it).
    private static let className: UInt16 = 3

    // Word classes.
    private static let statementWord: UInt32 = 1, declarationWord: UInt32 = 2, type: UInt32 = 3, packageWord: UInt32 = 4,
        constant: UInt32 = 5, classWord: UInt32 = 6, varWord: UInt32 = 7, importWord: UInt32 = 8, nonWord: UInt32 = 9

    private static let table = WordTable(kinds: [
        (statementWord, """
            assert break case catch continue default do else finally for if goto instanceof new return switch this \
            throw try while
            """),
        (declarationWord, """
            abstract const enum exports extends final implements native open opens permits private protected \
            provides public requires sealed static strictfp super synchronized throws to transient transitive uses \
            volatile with yield
            """),
        (type, "boolean byte char double float int long short void"),
        (packageWord, "package"), (constant, "true false null"), (classWord, "class interface module"),
        (varWord, "var"), (importWord, "import"), (nonWord, "non"),
    ])
    /// The table, held by the lexer (a static costs a check at every use).
    private let words = JavaLexer.table

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        var pos = 0
        var mode = state.mode
        switch mode {
        case Self.blockComment:
            guard let e = CFamilyScan.find(line, 0, 0x2A, 0x2F) else { sink.add(0, n, .comment); return }
            sink.add(0, e, .comment)
            pos = e
            mode = Self.code
        case Self.textBlock:
            guard let e = Self.textBlockEnd(line, 0) else { sink.add(0, n, .string); return }
            sink.add(0, e, .string)
            pos = e
            mode = Self.code
        case Self.className:
            break
        default:
            pos = record(line, &sink, &mode)
        }
        // Method names: where the function's name starts, and how far a failed
        // search got (it fails the same way from any later word before that).
        var functionAt = -1, failedUntil = -1
        while pos < n {
            let start = pos
            let b = line[start]
            if ASCII.isSpace(b) { pos += 1; continue }
            if mode == Self.className {
                if ASCII.isIdentifierStart(b) || b == 0x24 {
                    pos = CFamilyScan.identifierEnd(line, start)
                    sink.add(start, pos, .type)
                    mode = Self.code
                } else {
                    pos = CFamilyScan.characterEnd(line, start)
                }
                continue
            }
            switch b {
            case 0x2F where CFamilyScan.at(line, start + 1) == 0x2F:
                sink.add(start, n, .comment)
                pos = n
            case 0x2F where CFamilyScan.at(line, start + 1) == 0x2A:
                guard let e = CFamilyScan.find(line, start + 2, 0x2A, 0x2F) else {
                    sink.add(start, n, .comment)
                    state.mode = Self.blockComment
                    return
                }
                sink.add(start, e, .comment)
                pos = e
            case 0x22:  // "
                if CFamilyScan.at(line, start + 1) == 0x22 && CFamilyScan.at(line, start + 2) == 0x22 {
                    var j = start + 3
                    while j < n && ASCII.isSpace(line[j]) { j += 1 }
                    if j == n {
                        sink.add(start, n, .string)
                        state.mode = Self.textBlock
                        return
                    }
                }
                pos = Self.stringEnd(line, start + 1)
                sink.add(start, pos, .string)
            case 0x27:  // '
                if let e = Self.character(line, start) {
                    sink.add(start, e, .string)
                    pos = e
                } else {
                    pos += 1
                }
            case 0x2E:  // .
                let next = CFamilyScan.at(line, start + 1)
                if ASCII.isIdentifierStart(next) || next == 0x24 {
                    sink.add(start, start + 1, .punctuation)
                    pos = CFamilyScan.identifierEnd(line, start + 1)
                    sink.add(start + 1, pos, .attribute)
                } else if ASCII.isDigit(next) {
                    pos = Self.number(line, start)
                    sink.add(start, pos, .number)
                } else {
                    sink.add(start, start + 1, .punctuation)
                    pos += 1
                }
            case 0x40:  // @
                let next = CFamilyScan.at(line, start + 1)
                if ASCII.isIdentifierStart(next) {
                    pos = start + 1
                    while pos < n && (ASCII.isIdentifierByte(line[pos]) || line[pos] == 0x2E) { pos += 1 }
                    sink.add(start, pos, .attribute)
                } else {
                    pos += 1
                }
            case 0x30...0x39:
                pos = Self.number(line, start)
                sink.add(start, pos, .number)
            case 0x7E, 0x5E, 0x2A, 0x21, 0x25, 0x26, 0x5B, 0x5D, 0x3C, 0x3E, 0x7C, 0x2B, 0x3D, 0x2F, 0x3F, 0x2D:
                sink.add(start, start + 1, .operator)
                pos += 1
            case 0x7B, 0x7D, 0x28, 0x29, 0x3B, 0x3A, 0x2C:
                sink.add(start, start + 1, .punctuation)
                pos += 1
            default:
                guard (ASCII.isIdentifierStart(b) || b == 0x24) && !CFamilyScan.isByteOrderMark(line, start) else {
                    pos = CFamilyScan.characterEnd(line, start)
                    continue
                }
                let e = CFamilyScan.identifierEnd(line, start)
                pos = e
                if start == functionAt {
                    sink.add(start, e, .function)
                    continue
                }
                let cls = words.value(line, start, e)
                if cls == Self.statementWord {
                    sink.add(start, e, .keyword)
                    continue
                }
                if start > functionAt && start >= failedUntil {
                    switch Self.methodName(line, start) {
                    case .found(let name): functionAt = name
                    case .failed(let at): failedUntil = at
                    }
                    if start == functionAt {
                        sink.add(start, e, .function)
                        continue
                    }
                }
                switch cls {
                case Self.declarationWord:
                    sink.add(start, e, .keyword)
                case Self.type:
                    sink.add(start, e, .type)
                case Self.constant:
                    sink.add(start, e, .constant)
                case Self.classWord:
                    sink.add(start, e, .keyword)
                    mode = Self.className
                case Self.packageWord, Self.importWord:
                    guard e < n, ASCII.isSpace(line[e]) else { break }
                    var j = e
                    while j < n && ASCII.isSpace(line[j]) { j += 1 }
                    var keywordEnd = e
                    if cls == Self.importWord, j < n, ASCII.isIdentifierStart(line[j]) {
                        let w = CFamilyScan.identifierEnd(line, j)
                        let c = LineCursor(line)
                        if w < n && ASCII.isSpace(line[w]) && w - j == 6 && (c.at("static", j) || c.at("module", j)) {
                            keywordEnd = w
                            j = w
                            while j < n && ASCII.isSpace(line[j]) { j += 1 }
                        }
                    }
                    sink.add(start, keywordEnd, .keyword)
                    // The path: plain, dots and a final `*` included.
                    var k = j
                    while k < n && (ASCII.isIdentifierByte(line[k]) || line[k] == 0x2E) { k += 1 }
                    if k > j && CFamilyScan.at(line, k) == 0x2A { k += 1 }
                    pos = k
                case Self.varWord:
                    guard e < n, ASCII.isSpace(line[e]) else { break }
                    sink.add(start, e, .keyword)
                    var j = e
                    while j < n && ASCII.isSpace(line[j]) { j += 1 }
                    if j < n && (ASCII.isIdentifierStart(line[j]) || line[j] == 0x24) {
                        pos = CFamilyScan.identifierEnd(line, j)
                    }
                case Self.nonWord:
                    if LineCursor(line).at("-sealed", e) && !ASCII.isIdentifierByte(CFamilyScan.at(line, e + 7)) {
                        pos = e + 7
                        sink.add(start, pos, .keyword)
                    }
                default:
                    break
                }
            }
        }
        state.mode = mode
    }

    /// A record declaration at the line start (`public static record Point(`):
    /// modifiers and `record` are keywords and the name a type. Returns where
    /// lexing goes on.
    private func record(_ line: UnsafeBufferPointer<UInt8>, _ sink: inout TokenSink, _ mode: inout UInt16) -> Int {
        let n = line.count
        var i = 0
        while i < n && ASCII.isSpace(line[i]) { i += 1 }
        let first = i
        let c = LineCursor(line)
        while i < n && ASCII.isIdentifierStart(line[i]) {
            let w = CFamilyScan.identifierEnd(line, i)
            let count = w - i
            if count == 6 && c.at("record", i) {
                sink.add(first, w, .keyword)
                mode = Self.className
                return w
            }
            let modifier = (count == 6 && (c.at("public", i) || c.at("static", i)))
                || (count == 7 && c.at("private", i)) || (count == 9 && c.at("protected", i))
                || (count == 8 && c.at("strictfp", i))
            guard modifier, w < n, ASCII.isSpace(line[w]) else { return 0 }
            i = w
            while i < n && ASCII.isSpace(line[i]) { i += 1 }
        }
        return 0
    }

    private enum MethodSearch {
        case found(Int)
        case failed(Int)
    }

    /// Pygments' method rule from `start`: words (with `.[]<>?`) separated by
    /// spaces, the last a plain name followed by `(`, at least two words.
    private static func methodName(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> MethodSearch {
        let n = line.count
        var i = start, parts = 0
        while true {
            guard i < n, ASCII.isIdentifierStart(line[i]) || line[i] == 0x24 else { return .failed(i) }
            var j = i + 1, plain = true
            while j < n {
                let b = line[j]
                if ASCII.isIdentifierByte(b) || b == 0x24 {
                    j += 1
                } else if b == 0x2E || b == 0x5B || b == 0x5D || b == 0x3C || b == 0x3E || b == 0x3F {
                    plain = false
                    j += 1
                } else {
                    break
                }
            }
            var k = j
            while k < n && ASCII.isSpace(line[k]) { k += 1 }
            if k < n && line[k] == 0x28 {
                return plain && parts > 0 ? .found(i) : .failed(k)
            }
            if k == j || k == n { return .failed(k) }
            parts += 1
            i = k
        }
    }

    /// The end of a string from `i` (after its opening quote); the line's end if it is not closed.
    private static func stringEnd(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var j = i
        while j < line.count {
            let b = line[j]
            if b == 0x22 { return j + 1 }
            j += b == 0x5C ? 2 : 1
        }
        return line.count
    }

    /// The end of a text block's closing `"""` at or after `i`, nil if the line has none.
    private static func textBlockEnd(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        var j = i
        while j < line.count {
            let b = line[j]
            if b == 0x5C { j += 2; continue }
            if b == 0x22 && CFamilyScan.at(line, j + 1) == 0x22 && CFamilyScan.at(line, j + 2) == 0x22 { return j + 3 }
            j += 1
        }
        return nil
    }

    /// A character literal at `q`: `'x'`, `'\x'` or `'\uXXXX'`.
    private static func character(_ line: UnsafeBufferPointer<UInt8>, _ q: Int) -> Int? {
        let i = q + 1
        guard i < line.count else { return nil }
        if line[i] == 0x5C {
            guard i + 1 < line.count else { return nil }
            let a = CFamilyScan.characterEnd(line, i + 1)
            if CFamilyScan.at(line, a) == 0x27 { return a + 1 }
            if line[i + 1] == 0x75 {
                var k = 0
                while k < 4 && ASCII.isHexDigit(CFamilyScan.at(line, i + 2 + k)) { k += 1 }
                if k == 4 && CFamilyScan.at(line, i + 6) == 0x27 { return i + 7 }
            }
            return nil
        }
        let a = CFamilyScan.characterEnd(line, i)
        return CFamilyScan.at(line, a) == 0x27 ? a + 1 : nil
    }

    /// A number at `p` (a digit, or `.` before one), by Pygments' rules in their order.
    static func number(_ line: UnsafeBufferPointer<UInt8>, _ p: Int) -> Int {
        let at = { (i: Int) in CFamilyScan.at(line, i) }
        func digits(_ i: Int, _ isDigit: (UInt8) -> Bool) -> Int? {
            guard isDigit(at(i)) else { return nil }
            var j = i + 1
            while isDigit(at(j)) || at(j) == 0x5F { j += 1 }
            return j
        }
        func exponent(_ i: Int, _ letter: UInt8) -> Int? {
            guard at(i) | 0x20 == letter else { return nil }
            var j = i + 1
            if at(j) == 0x2B || at(j) == 0x2D { j += 1 }
            return digits(j, ASCII.isDigit)
        }
        func suffix(_ i: Int) -> Int {
            let b = at(i) | 0x20
            return b == 0x66 || b == 0x64 ? i + 1 : i
        }
        if let a = digits(p, ASCII.isDigit), at(a) == 0x2E {
            let b = digits(a + 1, ASCII.isDigit) ?? a + 1
            return suffix(exponent(b, 0x65) ?? b)
        }
        if at(p) == 0x2E, let b = digits(p + 1, ASCII.isDigit) { return suffix(exponent(b, 0x65) ?? b) }
        if let e = exponent(p + 1, 0x65) { return suffix(e) }
        if suffix(p + 1) > p + 1 { return p + 2 }
        let zero = at(p) == 0x30, x = at(p + 1) | 0x20
        if zero && x == 0x78 {
            let h = p + 2
            if let a = digits(h, ASCII.isHexDigit) {
                if at(a) == 0x2E, let e = exponent(a + 1, 0x70) { return suffix(e) }
                if let e = exponent(a, 0x70) { return suffix(e) }
            }
            let dot = digits(h, ASCII.isHexDigit) ?? h
            if at(dot) == 0x2E, let b = digits(dot + 1, ASCII.isHexDigit), let e = exponent(b, 0x70) { return suffix(e) }
            if let a = digits(h, ASCII.isHexDigit) { return at(a) | 0x20 == 0x6C ? a + 1 : a }
        }
        if zero && x == 0x62, let a = digits(p + 2, CFamilyScan.isBinary) { return at(a) | 0x20 == 0x6C ? a + 1 : a }
        if zero, let a = digits(p + 1, { CFamilyScan.isOctal($0) || $0 == 0x5F }) { return at(a) | 0x20 == 0x6C ? a + 1 : a }
        if zero { return p + 1 }
        var j = p + 1
        while ASCII.isDigit(at(j)) || at(j) == 0x5F { j += 1 }
        return at(j) | 0x20 == 0x6C ? j + 1 : j
    }
}
