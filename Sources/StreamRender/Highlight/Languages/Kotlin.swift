/// Kotlin: string templates `$name` and `${expr}` (strings nest inside them), raw
/// `"""` strings across lines, nested block comments, annotations and labels,
/// modifiers, numbers with separators and suffixes.
///
/// The state is the frame stack of `CurlyFamily.Frames`: a code frame keeps its
/// brace depth inside a template, a string whether it is raw. A `"…"` string
/// cannot span lines, so one left open at a line's end is dropped.
///
/// Choices follow Pygments: a member after `.` or `?.` is an attribute (Pygments'
/// property-access class); modifiers are keywords only before `fun`, `val`/`var`,
/// `class`/`interface`/`object`; the name after `fun` is a function (after its
/// receiver, `fun String.shout`), after `val`/`var` a variable, after `class`,
/// `interface`, `object` a type; `it` is a builtin; `Int`, `String?`… are types;
/// annotations and labels (`@Serializable`, `outer@`, `@outer`) are attributes;
/// `$`/`${`/`}` of a template are escapes and a `$name`'s name plain; `[ ]` and
/// `< >` are operators. Unlike Pygments, backslash escapes in `"…"` are marked,
/// strings inside `${…}` are strings, block comments nest, and numbers are whole
/// (`0xFF`, `1_000L`, `1e10`, `0b1010`).
struct KotlinLexer: LineLexer {
    private typealias Frames = CurlyFamily.Frames
    private static let maxCommentDepth: UInt16 = 1000
    private static let maxBraces: UInt16 = 0x3FFF

    // Word classes.
    private static let keyword: UInt32 = 1, constant: UInt32 = 2, builtinName: UInt32 = 3, type: UInt32 = 4
    private static let modifier: UInt32 = 5, typeDeclaration: UInt32 = 6, binding: UInt32 = 7, fun: UInt32 = 8
    private static let namespace: UInt32 = 9, variance: UInt32 = 10

    private let words = Self.wordsTable

    private static let wordsTable = WordTable(kinds: [
        (keyword, """
            as break by catch constructor continue do dynamic else finally get for if init in is return set super
            this throw try typealias typeof vararg when where while
            """),
        (variance, "out reified"),
        (constant, "true false null"),
        (builtinName, "it"),
        (type, "Boolean Byte Char Double Float Int Long Short String Any Unit"),
        (modifier, """
            actual abstract annotation companion const crossinline data enum expect external final infix inline
            inner internal lateinit noinline open operator override private protected public sealed suspend
            tailrec value
            """),
        (typeDeclaration, "class interface object"),
        (binding, "val var"),
        (fun, "fun"),
        (namespace, "package import"),
    ])
    private let punctuation = CurlyFamily.ByteClass("{}();:.,")
    private let operators = CurlyFamily.ByteClass("~^*!%&[]<>|+=/?-")

    /// What the lexer expects next on the line, after a declaration keyword.
    /// How far the line has been scanned ahead for labels and modifier chains, so
    /// that no byte is scanned twice for either (a line of a million modifiers stays linear).
    private struct Lookahead {
        /// Names before this offset do not start a label (`name@`).
        var noLabelBefore = 0
        /// Modifiers before this offset are in a chain already scanned, a declaration's or not.
        var chainEnd = 0
        var chainIsDeclaration = false
    }

    private enum Expect {
        case nothing
        /// A class's, interface's or object's name.
        case typeName
        /// A property's name (or a destructuring `(a, b)`).
        case variable
        /// A function's name, after its type parameters and receiver.
        case function
    }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        var expect = Expect.nothing
        // Inside `val (a, b)`: names are variables.
        var destructuring = false
        // Inside a function's `<…>` type parameters: their nesting.
        var typeParameters = 0
        var scanned = Lookahead()
        while !c.atEnd {
            let kind = Frames.kind(state)
            if kind == Frames.comment {
                blockComment(&c, state: &state, into: &sink)
                continue
            }
            if kind != Frames.code {
                stringBody(&c, state: &state, into: &sink)
                continue
            }
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            let expected = expect
            expect = .nothing
            switch b {
            case 0x2F where c.peek(1) == 0x2F:  // //
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x23 where start == 0 && c.peek(1) == 0x21 && c.peek(2) == 0x2F:  // #!/ a script's shebang
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x2F where c.peek(1) == 0x2A:  // /*
                if Frames.enter(Frames.comment, &state) {
                    c.pos += 2
                    state.depth = 1
                } else {
                    c.skipToEnd()
                }
                sink.add(start, c.pos, .comment)
            case 0x22:  // "
                let raw = c.at("\"\"\"")
                if Frames.enter(raw ? Frames.multiLineString : Frames.string, &state) {
                    c.pos += raw ? 3 : 1
                    sink.add(start, c.pos, .string)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            case 0x27:  // '
                if let end = charLiteral(line, at: start) {
                    c.pos = end
                    sink.add(start, end, .string)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            case 0x5C where start == line.count - 1:  // a line continuation
                c.pos += 1
                sink.add(start, c.pos, .stringEscape)
            case 0x7B where Frames.inInterpolation(state):  // { inside a template
                c.pos += 1
                if state.mode >> 2 < Self.maxBraces { state.mode += 4 }
                sink.add(start, c.pos, .punctuation)
            case 0x7D where Frames.inInterpolation(state):  // } inside a template
                c.pos += 1
                if state.mode >> 2 == 0 {
                    Frames.leave(&state)
                    sink.add(start, c.pos, .stringEscape)
                } else {
                    state.mode -= 4
                    sink.add(start, c.pos, .punctuation)
                }
            case 0x40:  // @: an annotation or a label reference
                c.pos += 1
                if CurlyFamily.identifier(&c) != nil {
                    while c.peek() == 0x2E || ASCII.isIdentifierByte(c.peek()) { c.pos += 1 }
                    sink.add(start, c.pos, .attribute)
                } else {
                    sink.add(start, c.pos, .plain)
                }
            case 0x2E where isMemberStart(c.peek(1)):  // .member
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                let name = memberName(&c)!
                sink.add(name, .attribute)
            case 0x3F where c.peek(1) == 0x2E && isMemberStart(c.peek(2)):  // ?.member
                c.pos += 2
                sink.add(start, c.pos, .operator)
                let name = memberName(&c)!
                sink.add(name, .attribute)
            case 0x21 where c.peek(1) == 0x69 && (c.peek(2) == 0x6E || c.peek(2) == 0x73) && !ASCII.isIdentifierByte(c.peek(3)):  // !in !is
                c.pos += 3
                sink.add(start, c.pos, .keyword)
            case 0x60:  // `a name in backticks`
                c.pos += 1
                while !c.atEnd && c.peek() != 0x60 { c.pos += 1 }
                if !c.atEnd { c.pos += 1 }
                sink.add(start, c.pos, name(expected, destructuring: destructuring))
            default:
                if ASCII.isDigit(b) {
                    number(&c, into: &sink)
                } else if ASCII.isIdentifierStart(b) {
                    let word = CurlyFamily.identifier(&c)!
                    identifier(word, &c, expected: expected, expect: &expect, destructuring: &destructuring,
                               typeParameters: &typeParameters, scanned: &scanned, into: &sink)
                } else if b == 0x3C && (expected == .function || typeParameters > 0) {
                    c.pos += 1
                    sink.add(start, c.pos, .operator)
                    typeParameters += 1
                    expect = .function
                } else if b == 0x3E && typeParameters > 0 {
                    c.pos += 1
                    sink.add(start, c.pos, .operator)
                    typeParameters -= 1
                    expect = .function
                } else if typeParameters > 0 && (b == 0x2C || b == 0x3A || b == 0x3F) {
                    c.pos += 1
                    sink.add(start, c.pos, b == 0x3F ? .operator : .punctuation)
                    expect = .function
                } else if destructuring && b == 0x29 {
                    destructuring = false
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                } else if expected == .variable && b == 0x28 {
                    destructuring = true
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                } else if let end = operatorEnd(c) {
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
        Frames.endLine(&state)
    }

    // MARK: Names

    private func identifier(_ word: Range<Int>, _ c: inout LineCursor, expected: Expect, expect: inout Expect,
                            destructuring: inout Bool, typeParameters: inout Int, scanned: inout Lookahead,
                            into sink: inout TokenSink) {
        let line = c.line
        if expected != .nothing && (expected != .function || typeParameters == 0) {
            if expected == .function && c.peek() == 0x2E && isMemberStart(c.peek(1)) {
                // A receiver: `fun String.shout()`.
                sink.add(word, .plain)
                c.pos += 1
                sink.add(c.pos - 1, c.pos, .punctuation)
                sink.add(memberName(&c)!, .function)
                return
            }
            sink.add(word, name(expected, destructuring: destructuring))
            return
        }
        let cls = words.kind(line, word)
        if typeParameters > 0 {
            // Inside a function's `<…>`: variance and `reified` are keywords, the rest names.
            let isKeyword = cls == Self.variance || (cls == Self.keyword && word.count == 2 && c.at("in", word.lowerBound))
            sink.add(word, isKeyword ? .keyword : .plain)
            expect = .function
            return
        }
        if destructuring {
            sink.add(word, c.previousNonSpace(before: word.lowerBound) == 0x3A ? .plain : .variable)
            return
        }
        switch cls {
        case Self.keyword, Self.variance:
            if word.count == 2 && c.at("as", word.lowerBound) && c.peek() == 0x3F { c.pos += 1 }  // as?
            sink.add(word.lowerBound, c.pos, .keyword)
        case Self.constant:
            sink.add(word, .constant)
        case Self.builtinName:
            sink.add(word, .builtin)
        case Self.type:
            if c.peek() == 0x3F { c.pos += 1 }
            sink.add(word.lowerBound, c.pos, .type)
        case Self.namespace:
            sink.add(word, .keyword)
            // `package a.b.c`, `import a.b.*`: the path is one plain name.
            var k = c.pos
            while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
            guard k > c.pos else { return }
            var e = k
            while e < line.count && !ASCII.isSpace(line[e]) { e += 1 }
            c.pos = e
            sink.add(k, e, .plain)
        case _ where word.lowerBound >= scanned.noLabelBefore && isLabel(word, &c, scanned: &scanned):
            sink.add(word.lowerBound, c.pos, .attribute)
        case Self.modifier:
            if word.lowerBound >= scanned.chainEnd {
                (scanned.chainIsDeclaration, scanned.chainEnd) = modifierChain(line, from: word.lowerBound)
            }
            if scanned.chainIsDeclaration {
                sink.add(word, .keyword)
            } else {
                nullableName(word, &c, into: &sink)
            }
        case Self.typeDeclaration, Self.binding, Self.fun:
            guard ASCII.isSpace(c.peek()) || c.atEnd else {
                nullableName(word, &c, into: &sink)
                return
            }
            sink.add(word, .keyword)
            switch cls {
            case Self.typeDeclaration:
                // `object : Base` is an object expression: its base is the name.
                var k = c.pos
                while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                if k < line.count && line[k] == 0x3A && c.at("object", word.lowerBound) {
                    c.pos = k + 1
                    sink.add(k, c.pos, .punctuation)
                    if !ASCII.isSpace(c.peek()) { return }
                }
                expect = .typeName
            case Self.binding: expect = .variable
            default: expect = .function
            }
        default:
            nullableName(word, &c, into: &sink)
        }
    }

    /// A plain name; a `?` right after it (a nullable type, not `?.`, `?:`) is part of it.
    private func nullableName(_ word: Range<Int>, _ c: inout LineCursor, into sink: inout TokenSink) {
        if c.peek() == 0x3F && c.peek(1) != 0x2E && c.peek(1) != 0x3A { c.pos += 1 }
        sink.add(word.lowerBound, c.pos, .plain)
    }

    private func name(_ expected: Expect, destructuring: Bool) -> TokenKind {
        switch expected {
        case .typeName: .type
        case .variable: .variable
        case .function: .function
        case .nothing: destructuring ? .variable : .plain
        }
    }

    /// Whether modifiers (and spaces) from `i` lead to a declaration keyword
    /// (`private const val`, `data class`, `override suspend fun`), and where the chain ends.
    private func modifierChain(_ line: UnsafeBufferPointer<UInt8>, from i: Int) -> (Bool, Int) {
        var k = i
        while k < line.count {
            var e = k
            while e < line.count && ASCII.isIdentifierByte(line[e]) { e += 1 }
            guard e > k, e == line.count || ASCII.isSpace(line[e]) else { return (false, e) }
            let cls = words.kind(line, k..<e)
            if cls == Self.binding || cls == Self.typeDeclaration || cls == Self.fun { return (true, e) }
            guard cls == Self.modifier, e < line.count else { return (false, e) }
            k = e
            while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        }
        return (false, k)
    }

    /// Whether `word` starts a label `name@` (dots allowed, as Pygments has it); if
    /// so the cursor moves past the `@`, otherwise `noLabelBefore` past the run scanned.
    private func isLabel(_ word: Range<Int>, _ c: inout LineCursor, scanned: inout Lookahead) -> Bool {
        let line = c.line
        var k = word.upperBound
        while k < line.count && (ASCII.isIdentifierByte(line[k]) || line[k] == 0x2E) { k += 1 }
        if k > word.lowerBound + 1 && k < line.count && line[k] == 0x40 {
            c.pos = k + 1
            return true
        }
        scanned.noLabelBefore = k
        return false
    }

    @inline(__always)
    private func isMemberStart(_ b: UInt8) -> Bool { ASCII.isIdentifierStart(b) || b == 0x24 }

    /// A member name (`$` allowed) at the cursor.
    private func memberName(_ c: inout LineCursor) -> Range<Int>? {
        let start = c.pos
        guard isMemberStart(c.peek()) else { return nil }
        c.pos += 1
        while !c.atEnd && (ASCII.isIdentifierByte(c.peek()) || c.peek() == 0x24) { c.pos += 1 }
        return start..<c.pos
    }

    /// The end of `::`, `!!`, `?:`, `?.`, or a one-byte operator at the cursor.
    private func operatorEnd(_ c: LineCursor) -> Int? {
        let b = c.peek(), n = c.peek(1)
        if (b == 0x3A && n == 0x3A) || (b == 0x21 && n == 0x21) || (b == 0x3F && (n == 0x3A || n == 0x2E)) { return c.pos + 2 }
        return operators.contains(b) ? c.pos + 1 : nil
    }

    // MARK: Literals

    /// `'a'`, `'\n'`, `'\''`: a quote, one character or a backslash and one, a quote.
    private func charLiteral(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        var k = i + 1
        guard k < line.count else { return nil }
        if line[k] == 0x5C {
            k += 1
            // `'\uXXXX'` too, which Pygments leaves out.
            if k + 4 < line.count && line[k] == 0x75 && ASCII.isHexDigit(line[k + 1]) && ASCII.isHexDigit(line[k + 2])
                && ASCII.isHexDigit(line[k + 3]) && ASCII.isHexDigit(line[k + 4]) {
                k += 4
            }
        }
        guard k < line.count else { return nil }
        k += 1
        while k < line.count && line[k] & 0xC0 == 0x80 { k += 1 }
        return k < line.count && line[k] == 0x27 ? k + 1 : nil
    }

    /// A number: decimal with `_`, fraction, exponent, `f`/`F`/`L`/`u` suffixes; `0x`, `0b`.
    private func number(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        let line = c.line
        let p = c.peek(1) | 0x20
        if c.peek() == 0x30 && (p == 0x78 || p == 0x62) {
            c.pos += 2
            while !c.atEnd && (ASCII.isHexDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
        } else {
            digits(&c)
            if c.peek() == 0x2E && ASCII.isDigit(c.peek(1)) {
                c.pos += 1
                digits(&c)
            }
            if c.peek() | 0x20 == 0x65 {
                var k = 1
                if c.peek(1) == 0x2B || c.peek(1) == 0x2D { k = 2 }
                if ASCII.isDigit(c.peek(k)) {
                    c.pos += k
                    digits(&c)
                }
            }
        }
        // Suffixes: f F L u U uL.
        let s = c.peek() | 0x20
        if s == 0x66 || c.peek() == 0x4C { c.pos += 1 } else if s == 0x75 {
            c.pos += 1
            if c.peek() == 0x4C { c.pos += 1 }
        }
        sink.add(start, c.pos, .number)
    }

    private func digits(_ c: inout LineCursor) {
        while !c.atEnd && (ASCII.isDigit(c.peek()) || c.peek() == 0x5F) { c.pos += 1 }
    }

    /// A string's body, to its end, a template or the line's end.
    private func stringBody(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let line = c.line
        let raw = Frames.kind(state) == Frames.multiLineString
        var run = c.pos
        while !c.atEnd {
            let b = line[c.pos]
            if b == 0x22 && (!raw || c.at("\"\"\"")) {
                c.pos += raw ? 3 : 1
                sink.add(run, c.pos, .string)
                Frames.leave(&state)
                return
            }
            if b == 0x24 {
                let n = c.peek(1)
                if n == 0x7B {  // ${
                    guard Frames.enterInterpolation(&state) else { c.pos += 2; continue }
                    sink.add(run, c.pos, .string)
                    c.pos += 2
                    sink.add(c.pos - 2, c.pos, .stringEscape)
                    return
                }
                if ASCII.isIdentifierByte(n) {  // $name
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, c.pos + 1, .stringEscape)
                    c.pos += 1
                    let nameStart = c.pos
                    while !c.atEnd && ASCII.isIdentifierByte(c.peek()) { c.pos += 1 }
                    sink.add(nameStart, c.pos, .plain)
                    run = c.pos
                    continue
                }
            }
            if b == 0x5C && !raw && c.pos + 1 < line.count {
                sink.add(run, c.pos, .string)
                let e = c.pos
                c.pos += 2
                if line[e + 1] == 0x75 {  // \uXXXX
                    var k = 0
                    while k < 4 && !c.atEnd && ASCII.isHexDigit(c.peek()) { c.pos += 1; k += 1 }
                }
                while !c.atEnd && c.peek() & 0xC0 == 0x80 { c.pos += 1 }
                sink.add(e, c.pos, .stringEscape)
                run = c.pos
                continue
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
    }

    /// A nested block comment's body, to its end or the line's end.
    private func blockComment(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        let line = c.line
        while !c.atEnd {
            let b = line[c.pos]
            if b == 0x2A && c.peek(1) == 0x2F {
                c.pos += 2
                state.depth -= 1
                if state.depth == 0 {
                    Frames.leave(&state)
                    break
                }
            } else if b == 0x2F && c.peek(1) == 0x2A {
                c.pos += 2
                if state.depth < Self.maxCommentDepth { state.depth += 1 }
            } else {
                c.pos += 1
            }
        }
        sink.add(start, c.pos, .comment)
    }
}
