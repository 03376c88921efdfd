/// JavaScript and, with `typescript`, TypeScript; both with JSX/TSX elements.
///
/// Follows Pygments' choices where a reader would agree: names are plain (a function's
/// or class's own too), the ECMAScript globals are builtins and the `Error` classes
/// types, `=>` `...` `.` are punctuation and `:` an operator, a decorator is a
/// keyword (TypeScript's declaration keyword in Pygments), and a `/` where an
/// expression may start opens a regex literal (a string). It differs where Pygments
/// misleads: a name after `.` is a property, never a keyword (`promise.catch`,
/// `map.delete`); a `/` after `=>` opens a regex; `${…}` counts its braces; escapes in
/// strings and templates are marked; numbers keep their `_` separators; JSX tags are
/// tags, their attributes attributes, the text between them plain (Pygments has no
/// JSX in these lexers). In TypeScript a name after `name:`, `name?:` or `):` is a
/// type when it looks like one (capitalised, or `string`, `unknown`…), not any value
/// after any colon (`{ id: userId }`); `keyof`, `infer`, `is`, `satisfies`,
/// `namespace` are keywords, and `type`, `declare`, `module` only before a name.
///
/// State: `mode` is where the line starts (code, block comment, template, a string
/// continued by a trailing `\`, JSX children or tag); `stack` holds where to go back
/// to when a `${…}` or JSX `{…}` interpolation or a JSX element ends, each as mode
/// and depth (at most 32); `depth` counts the braces open in the current
/// interpolation, or in JSX the elements open around the current one.
struct JavaScriptLexer: LineLexer {
    var typescript: Bool

    init(typescript: Bool) {
        self.typescript = typescript
    }

    private static let code: UInt16 = 0
    private static let blockComment: UInt16 = 1
    private static let template: UInt16 = 2
    private static let jsxChildren: UInt16 = 3
    private static let jsxTag: UInt16 = 4
    private static let jsxClose: UInt16 = 5
    private static let doubleString: UInt16 = 6
    private static let singleString: UInt16 = 7

    private static let maxStack = 32
    private static let maxDepth: UInt16 = 0xFFF

    // The word lists, as flags of one table.
    private static let expressionKeyword: UInt32 = 1
    private static let reserved: UInt32 = 2
    private static let typeScriptKeyword: UInt32 = 4
    private static let contextual: UInt32 = 8
    private static let typeName: UInt32 = 16
    private static let constant: UInt32 = 32
    private static let builtin: UInt32 = 64
    private static let error: UInt32 = 128

    private static let words = WordTable([
        // Keywords after which an expression (so a regex or JSX) may start.
        (expressionKeyword, """
        for in while do break return continue switch case default if else throw try catch finally \
        yield await async this of static export import debugger extends super \
        var let const with function class typeof instanceof void delete new
        """),
        // Keywords after which an operator follows (Pygments' reserved words).
        (reserved, """
        constructor from as abstract boolean byte char double enum final float goto implements int \
        interface long native package private protected public short synchronized throws transient volatile
        """),
        (typeScriptKeyword, """
        abstract implements private protected public readonly enum interface override keyof infer is \
        satisfies asserts declare type namespace module
        """),
        // TypeScript keywords only before a name (`type T = …`, `declare module`).
        (contextual, "declare type namespace module"),
        (typeName, "string number boolean any unknown never object symbol bigint"),
        (constant, "true false null NaN Infinity undefined"),
        (builtin, """
        Array Boolean Date BigInt Function Math ArrayBuffer Number Object RegExp String Promise Proxy \
        decodeURI decodeURIComponent encodeURI encodeURIComponent eval isFinite isNaN parseFloat parseInt \
        DataView document window globalThis global Symbol Intl WeakSet WeakMap Set Map Reflect JSON Atomics \
        Int8Array Int16Array Int32Array BigInt64Array Float32Array Float64Array Uint8ClampedArray \
        Uint8Array Uint16Array Uint32Array BigUint64Array
        """),
        (error, "Error EvalError InternalError RangeError ReferenceError SyntaxError TypeError URIError"),
    ])

    /// What the last significant token of the line was, for the choices that depend on it.
    private enum Last { case other, name, dot, close }

    /// Scan state that lives within one line.
    private struct Scan {
        /// Whether an expression may start here (a `/` is a regex, a `<` may open JSX).
        var expression = true
        var last = Last.other
        /// TypeScript: after `name:` (1) or `):` (2), where a type annotation may follow.
        var annotation: UInt8 = 0
        /// Bytes scanned ahead in vain (regex literals that did not close, JSX closing
        /// tags not found): past a budget no more scans are tried, so that a line of
        /// `/[` stays linear.
        var lookahead = 0
    }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        var scan = Scan()
        if state.mode == Self.code && line.count >= 2 && line[0] == 0x23 && line[1] == 0x21 && state.stack.isEmpty {  // #!
            sink.add(0, line.count, .comment)
            return
        }
        while !c.atEnd {
            switch state.mode {
            case Self.blockComment:
                let start = c.pos
                if c.skip(past: "*/") { state.mode = Self.code }
                sink.add(start, c.pos, .comment)
            case Self.template:
                template(&c, &state, &sink, &scan)
            case Self.doubleString, Self.singleString:
                let quote: UInt8 = state.mode == Self.doubleString ? 0x22 : 0x27
                state.mode = Self.code
                string(quote, &c, &state, &sink)
                scan.expression = false
                scan.last = .other
            case Self.jsxChildren:
                jsxChildren(&c, &state, &sink, &scan)
            case Self.jsxTag:
                jsxTag(&c, &state, &sink, &scan)
            case Self.jsxClose:
                jsxClose(&c, &state, &sink, &scan)
            default:
                code(&c, &state, &sink, &scan)
            }
        }
    }

    // MARK: Code

    /// Lexes code until the line ends or the mode changes.
    private func code(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, _ scan: inout Scan) {
        let line = c.line
        while !c.atEnd {
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            let annotation = scan.annotation
            scan.annotation = 0
            // Names and numbers first: they are most tokens.
            if isNameStart(b) {
                c.pos += 1
                while c.pos < c.count && isNameByte(line[c.pos]) { c.pos += 1 }
                word(start..<c.pos, &c, &sink, &scan, annotation: annotation)
                continue
            }
            if ASCII.isDigit(b) {
                number(&c)
                sink.add(start, c.pos, .number)
                scan.expression = false
                scan.last = .other
                continue
            }
            switch b {
            case 0x2F:  // /
                let n = c.peek(1)
                if n == 0x2F {
                    c.skipToEnd()
                    sink.add(start, c.pos, .comment)
                    scan.annotation = annotation
                    continue
                }
                if n == 0x2A {
                    c.pos += 2
                    if c.skip(past: "*/") {
                        sink.add(start, c.pos, .comment)
                        scan.annotation = annotation
                        continue
                    }
                    sink.add(start, c.pos, .comment)
                    state.mode = Self.blockComment
                    return
                }
                if scan.expression && scan.lookahead <= 4 * c.count + 256, let end = regexEnd(c, from: start, &scan) {
                    c.pos = end
                    sink.add(start, end, .string)
                    scan.expression = false
                    scan.last = .other
                    continue
                }
                c.pos += 1
                if c.peek() == 0x3D { c.pos += 1 }
                sink.add(start, c.pos, .operator)
                scan.expression = true
                scan.last = .other
            case 0x22, 0x27:  // " '
                c.pos += 1
                sink.add(start, c.pos, .string)
                if string(b, &c, &state, &sink) {
                    scan.expression = false
                    scan.last = .other
                } else {
                    return
                }
            case 0x60:  // `
                c.pos += 1
                sink.add(start, c.pos, .string)
                state.mode = Self.template
                return
            case 0x7B:  // {
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                if !state.stack.isEmpty && state.depth < Self.maxDepth { state.depth += 1 }
                scan.expression = true
                scan.last = .other
            case 0x7D:  // }
                c.pos += 1
                scan.expression = false
                scan.last = .close
                if state.depth > 0 {
                    state.depth -= 1
                } else if let entry = state.stack.popLast() {
                    state.mode = entry >> 12
                    state.depth = entry & Self.maxDepth
                    sink.add(start, c.pos, state.mode == Self.template ? .stringEscape : .punctuation)
                    return
                }
                sink.add(start, c.pos, .punctuation)
            case 0x28, 0x5B, 0x3B, 0x2C:  // ( [ ; ,
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                scan.expression = true
                scan.last = .other
            case 0x29, 0x5D:  // ) ]
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                scan.expression = false
                scan.last = .close
            case 0x2E:  // .
                if ASCII.isDigit(c.peek(1)) {
                    number(&c)
                    sink.add(start, c.pos, .number)
                    scan.expression = false
                    scan.last = .other
                } else {
                    c.pos += c.peek(1) == 0x2E && c.peek(2) == 0x2E ? 3 : 1
                    sink.add(start, c.pos, .punctuation)
                    scan.expression = c.pos - start == 3
                    scan.last = c.pos - start == 3 ? .other : .dot
                }
            case 0x3C where scan.expression && jsxStarts(c, at: start, &scan) && state.stack.count < Self.maxStack:  // <
                state.stack.append(Self.code << 12 | state.depth)
                state.depth = 0
                openTag(&c, &state, &sink)
                return
            case 0x40:  // @ a decorator: a declaration keyword, as Pygments has it in TypeScript
                c.pos += 1
                while c.pos < c.count && (isNameByte(c.peek()) || (c.peek() == 0x2E && isNameStart(c.peek(1)))) { c.pos += 1 }
                sink.add(start, c.pos, c.pos - start > 1 ? .keyword : .plain)
                scan.expression = false
                scan.last = .other
            case 0x23:  // # private name
                c.pos += 1
                while c.pos < c.count && isNameByte(c.peek()) { c.pos += 1 }
                sink.add(start, c.pos, .plain)
                scan.expression = false
                scan.last = .name
            case 0x3D where c.peek(1) == 0x3E:  // =>
                c.pos += 2
                sink.add(start, c.pos, .punctuation)
                scan.expression = true
                scan.last = .other
            case 0x3A:  // :
                c.pos += 1
                sink.add(start, c.pos, .operator)
                if typescript {
                    scan.annotation = scan.last == .name ? 1 : scan.last == .close ? 2 : 0
                }
                scan.expression = true
                scan.last = .other
            case 0x3F:  // ?
                c.pos += 1
                if typescript && c.peek() == 0x3A && (scan.last == .name || scan.last == .close) {
                    // An optional member (`name?: T`, `[K in T]?: U`): part of its name, as
                    // Pygments has it, and a type annotation follows.
                    let named = scan.last == .name && isNameStart(c.nextNonSpace(from: c.pos + 1))
                    sink.add(start, c.pos, named ? .plain : .operator)
                    scan.last = .name
                    continue
                }
                if c.peek() == 0x3F { c.pos += 1; if c.peek() == 0x3D { c.pos += 1 } }
                sink.add(start, c.pos, .operator)
                scan.expression = true
                scan.last = .other
            case 0x21 where typescript && c.peek(1) == 0x3A && scan.last == .name:  // `name!: T`
                c.pos += 1
                sink.add(start, c.pos, .operator)
            case 0x2B, 0x2D, 0x2A, 0x25, 0x26, 0x7C, 0x5E, 0x3C, 0x3E, 0x3D, 0x21, 0x7E:
                operatorRun(&c, b)
                sink.add(start, c.pos, .operator)
                scan.expression = true
                scan.last = .other
            case 0x5C:  // a line continuation
                c.pos += 1
                sink.add(start, c.pos, .operator)
            default:
                c.pos += 1
                sink.add(start, c.pos, .plain)
                scan.expression = false
                scan.last = .other
            }
        }
    }

    /// Classifies a name and reports it.
    private func word(_ w: Range<Int>, _ c: inout LineCursor, _ sink: inout TokenSink, _ scan: inout Scan, annotation: UInt8) {
        let line = c.line
        let afterDot = scan.last == .dot
        scan.last = .name
        scan.expression = false
        if afterDot {
            sink.add(w, .plain)
            return
        }
        let flags = Self.words.flags(line, w)
        if flags == 0 {
            if annotation != 0 && ASCII.isUpper(line[w.lowerBound]) {
                annotated(w, &c, &sink)
            } else {
                sink.add(w, .plain)
            }
            return
        }
        if flags & Self.expressionKeyword != 0 {
            sink.add(w, .keyword)
            // After `this` and `super` an operator follows, as after any name.
            let isThis = w.count == 4 && line[w.lowerBound] == 0x74 && line[w.lowerBound + 1] == 0x68
            let isSuper = w.count == 5 && line[w.lowerBound] == 0x73 && line[w.lowerBound + 1] == 0x75
            scan.expression = !(isThis || isSuper)
            scan.last = .other
            return
        }
        if typescript {
            if flags & Self.typeName != 0 {
                sink.add(w, .type)
                return
            }
            if flags & Self.typeScriptKeyword != 0 {
                if flags & Self.contextual != 0 {
                    let next = c.nextNonSpace(from: w.upperBound)
                    guard isNameStart(next) || next == 0x7B || next == 0x2A || next == 0x22 || next == 0x27 else {
                        sink.add(w, .plain)
                        return
                    }
                }
                sink.add(w, .keyword)
                scan.expression = true
                scan.last = .other
                return
            }
        }
        if flags & Self.reserved != 0 {
            sink.add(w, .keyword)
            scan.last = .other
        } else if flags & Self.constant != 0 {
            sink.add(w, .constant)
        } else if annotation == 1 && flags & (Self.builtin | Self.error) != 0 && ASCII.isUpper(line[w.lowerBound]) {
            // After `name:` a global class names a type, as Pygments has it.
            annotated(w, &c, &sink)
        } else if flags & Self.builtin != 0 {
            sink.add(w, .builtin)
        } else if flags & Self.error != 0 {
            sink.add(w, .type)
        } else {
            sink.add(w, .plain)
        }
    }

    /// A type annotation's name (`User`, `Foo.Bar`, with the dotted names that follow).
    private func annotated(_ w: Range<Int>, _ c: inout LineCursor, _ sink: inout TokenSink) {
        let line = c.line
        while c.peek() == 0x2E && isNameStart(c.peek(1)) {
            c.pos += 2
            while c.pos < c.count && isNameByte(line[c.pos]) { c.pos += 1 }
        }
        sink.add(w.lowerBound, c.pos, .type)
    }

    /// Moves past an operator starting with `b`.
    private func operatorRun(_ c: inout LineCursor, _ b: UInt8) {
        let n = c.peek(1)
        switch b {
        case 0x2B, 0x2D:  // ++ -- += -=
            c.pos += n == b || n == 0x3D ? 2 : 1
        case 0x7E:
            c.pos += 1
        case 0x3C:  // < << <= <<=
            c.pos += n == 0x3C ? 2 : 1
            if c.peek() == 0x3D { c.pos += 1 }
        case 0x3E:  // > >> >>> >= >>= >>>=
            c.pos += 1
            if c.peek() == 0x3E { c.pos += 1; if c.peek() == 0x3E { c.pos += 1 } }
            if c.peek() == 0x3D { c.pos += 1 }
        case 0x3D, 0x21:  // = == === ! != !==
            c.pos += 1
            if c.peek() == 0x3D { c.pos += 1; if c.peek() == 0x3D { c.pos += 1 } }
        default:  // * ** % & && | || ^, each with an optional =
            c.pos += 1
            if (b == 0x2A || b == 0x26 || b == 0x7C) && n == b { c.pos += 1 }
            if c.peek() == 0x3D { c.pos += 1 }
        }
    }

    /// Moves past a number: `0x`/`0o`/`0b` integers, decimals with fraction and
    /// exponent, `_` separators, a BigInt's `n`.
    private func number(_ c: inout LineCursor) {
        let line = c.line
        if c.peek() == 0x30, case let p = c.peek(1) | 0x20, p == 0x78 || p == 0x6F || p == 0x62 {
            c.pos += 2
            while c.pos < c.count && (ASCII.isHexDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
        } else {
            while c.pos < c.count && (ASCII.isDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
            if c.peek() == 0x2E && c.peek(1) != 0x2E {
                c.pos += 1
                while c.pos < c.count && (ASCII.isDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
            }
            if c.peek() | 0x20 == 0x65 {
                var k = 1
                if c.peek(1) == 0x2B || c.peek(1) == 0x2D { k = 2 }
                if ASCII.isDigit(c.peek(k)) {
                    c.pos += k
                    while c.pos < c.count && (ASCII.isDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
                }
            }
        }
        if c.peek() == 0x6E { c.pos += 1 }  // BigInt
    }

    /// The end of a regex literal starting at `start` (a `/`), if one does.
    private func regexEnd(_ c: LineCursor, from start: Int, _ scan: inout Scan) -> Int? {
        let line = c.line
        var i = start + 1
        var inClass = false
        while i < line.count {
            let b = line[i]
            if b == 0x5C {
                i += 2
                continue
            }
            if inClass {
                if b == 0x5D { inClass = false }
            } else if b == 0x5B {
                inClass = true
            } else if b == 0x2F {
                if i == start + 1 { return nil }
                i += 1
                while i < line.count && isFlag(line[i]) { i += 1 }
                return i
            }
            i += 1
        }
        scan.lookahead += i - start
        return nil
    }

    /// A regex flag: d g i m s u v y.
    @inline(__always) private func isFlag(_ b: UInt8) -> Bool {
        b == 0x67 || b == 0x69 || b == 0x6D || b == 0x73 || b == 0x75 || b == 0x79 || b == 0x64 || b == 0x76
    }

    // MARK: Strings

    /// The rest of a quoted string after its opening quote; a trailing `\` continues
    /// it on the next line. Returns whether it closed.
    @discardableResult
    private func string(_ quote: UInt8, _ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink) -> Bool {
        let line = c.line
        var run = c.pos
        while c.pos < c.count {
            let b = line[c.pos]
            if b == quote {
                c.pos += 1
                sink.add(run, c.pos, .string)
                return true
            }
            if b == 0x5C {
                sink.add(run, c.pos, .string)
                if c.pos + 1 == c.count {
                    c.pos += 1
                    sink.add(c.pos - 1, c.pos, .stringEscape)
                    state.mode = quote == 0x22 ? Self.doubleString : Self.singleString
                    return false
                }
                let e = c.pos
                escape(&c)
                sink.add(e, c.pos, .stringEscape)
                run = c.pos
                continue
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
        return true  // an unclosed string ends with its line
    }

    /// Moves past an escape at a `\`: `\u{…}`, `\uXXXX`, `\xXX`, or one character.
    private func escape(_ c: inout LineCursor) {
        let line = c.line
        c.pos += 1
        let b = c.peek()
        if b == 0x75 && c.peek(1) == 0x7B {
            var k = c.pos + 2
            while k < c.count && ASCII.isHexDigit(line[k]) && k - c.pos < 10 { k += 1 }
            if k < c.count && line[k] == 0x7D {
                c.pos = k + 1
                return
            }
        } else if b == 0x75 || b == 0x78 {
            let n = b == 0x75 ? 4 : 2
            var k = 1
            while k <= n && ASCII.isHexDigit(c.peek(k)) { k += 1 }
            if k > n {
                c.pos += n + 1
                return
            }
        }
        if c.pos < c.count { c.pos += 1 }
        while c.pos < c.count && line[c.pos] & 0xC0 == 0x80 { c.pos += 1 }
    }

    /// A template literal's text until its closing backtick or an interpolation.
    private func template(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, _ scan: inout Scan) {
        let line = c.line
        var run = c.pos
        while c.pos < c.count {
            let b = line[c.pos]
            if b == 0x60 {
                c.pos += 1
                sink.add(run, c.pos, .string)
                state.mode = Self.code
                scan.expression = false
                scan.last = .other
                return
            }
            if b == 0x5C {
                sink.add(run, c.pos, .string)
                let e = c.pos
                escape(&c)
                sink.add(e, c.pos, .stringEscape)
                run = c.pos
                continue
            }
            if b == 0x24 && c.peek(1) == 0x7B && state.stack.count < Self.maxStack {
                sink.add(run, c.pos, .string)
                sink.add(c.pos, c.pos + 2, .stringEscape)
                c.pos += 2
                state.stack.append(Self.template << 12 | state.depth)
                state.mode = Self.code
                state.depth = 0
                scan.expression = true
                scan.last = .other
                return
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
    }

    // MARK: JSX

    /// Whether the `<` at `i` opens a JSX element (it is where an expression may start).
    private func jsxStarts(_ c: LineCursor, at i: Int, _ scan: inout Scan) -> Bool {
        let first = c[i + 1]
        if first == 0x3E { return true }  // <>
        guard isNameStart(first) else { return false }
        var k = i + 2
        while k < c.count && (isNameByte(c[k]) || c[k] == 0x2E || c[k] == 0x2D || c[k] == 0x3A) { k += 1 }
        let nameEnd = k
        while k < c.count && ASCII.isSpace(c[k]) { k += 1 }
        let next = c[k]
        if typescript {
            // Generics: `<T,>`, `<T extends U>`, `<T = U>`, `<T>(x: T) => x`.
            if next == 0x2C || next == 0x3D || (c.at("extends", k) && !isNameByte(c[k + 7])) { return false }
            if next == 0x3E && Self.words.flags(c.line, (i + 1)..<nameEnd) & Self.typeName != 0 { return false }  // <any>x
            if next == 0x3E && !ASCII.isLower(first) {
                if c.nextNonSpace(from: k + 1) == 0x28 { return false }
                // A type assertion, `<Foo>value`, unless a closing tag follows (`<B>bold</B>`).
                if isNameStart(c[k + 1]) && !closingTagFollows(c, from: k + 1, &scan) { return false }
            }
        }
        return next == 0x3E || next == 0x2F || next == 0x7B || next == 0 || isNameStart(next)
    }

    /// Whether `</` comes after `i` on the line (within the look-ahead budget).
    private func closingTagFollows(_ c: LineCursor, from i: Int, _ scan: inout Scan) -> Bool {
        guard scan.lookahead <= 4 * c.count + 256 else { return false }
        var k = i
        while k + 1 < c.count {
            if c[k] == 0x3C && c[k + 1] == 0x2F { return true }
            k += 1
        }
        scan.lookahead += k - i
        return false
    }

    /// Reports `<` and a tag's name, then lexes the tag (mode `jsxTag`).
    private func openTag(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink) {
        sink.add(c.pos, c.pos + 1, .punctuation)
        c.pos += 1
        let start = c.pos
        while c.pos < c.count && (isNameByte(c.peek()) || c.peek() == 0x2E || c.peek() == 0x2D || c.peek() == 0x3A) { c.pos += 1 }
        sink.add(start, c.pos, .tag)
        state.mode = Self.jsxTag
    }

    /// Inside a tag: attributes, their values, `>` or `/>`.
    private func jsxTag(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, _ scan: inout Scan) {
        let line = c.line
        while !c.atEnd {
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            switch b {
            case 0x3E:  // >
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                if state.depth < Self.maxDepth { state.depth += 1 }
                state.mode = Self.jsxChildren
                return
            case 0x2F where c.peek(1) == 0x3E:  // />
                c.pos += 2
                sink.add(start, c.pos, .punctuation)
                endElement(&state, &scan)
                return
            case 0x22, 0x27:
                c.pos += 1
                while c.pos < c.count && line[c.pos] != b { c.pos += 1 }
                if c.pos < c.count { c.pos += 1 }
                sink.add(start, c.pos, .string)
            case 0x3D:
                c.pos += 1
                sink.add(start, c.pos, .operator)
            case 0x7B:  // {
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                if state.stack.count < Self.maxStack {
                    state.stack.append(Self.jsxTag << 12 | state.depth)
                    state.mode = Self.code
                    state.depth = 0
                    scan.expression = true
                    scan.last = .other
                    return
                }
            case 0x2F where c.peek(1) == 0x2F:
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            default:
                if isNameStart(b) {
                    while c.pos < c.count && (isNameByte(line[c.pos]) || line[c.pos] == 0x2D || line[c.pos] == 0x3A) { c.pos += 1 }
                    sink.add(start, c.pos, .attribute)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            }
        }
    }

    /// Between tags: text, `{…}` expressions, nested and closing tags.
    private func jsxChildren(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, _ scan: inout Scan) {
        let line = c.line
        while c.pos < c.count {
            let b = line[c.pos]
            let start = c.pos
            if b == 0x7B && state.stack.count < Self.maxStack {
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
                state.stack.append(Self.jsxChildren << 12 | state.depth)
                state.mode = Self.code
                state.depth = 0
                scan.expression = true
                scan.last = .other
                return
            }
            if b == 0x3C {
                let n = c.peek(1)
                if n == 0x2F {  // </
                    c.pos += 2
                    sink.add(start, c.pos, .punctuation)
                    let name = c.pos
                    while c.pos < c.count && (isNameByte(line[c.pos]) || line[c.pos] == 0x2E || line[c.pos] == 0x2D || line[c.pos] == 0x3A) { c.pos += 1 }
                    sink.add(name, c.pos, .tag)
                    state.mode = Self.jsxClose
                    return
                }
                if n == 0x3E || isNameStart(n) {
                    openTag(&c, &state, &sink)
                    return
                }
            }
            c.pos += 1
            // Text is plain: nothing to report.
        }
    }

    /// After `</name`: the `>` that ends the element.
    private func jsxClose(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, _ scan: inout Scan) {
        c.skipSpaces()
        guard !c.atEnd else { return }
        let start = c.pos
        if c.peek() == 0x3E {
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            if state.depth > 0 { state.depth -= 1 }
            if state.depth == 0 {
                endElement(&state, &scan)
            } else {
                state.mode = Self.jsxChildren
            }
        } else {
            // Not JSX after all: give the rest of the line back to the children.
            state.mode = Self.jsxChildren
            c.pos += 1
        }
    }

    /// The outermost element ended (or a self-closing one): back to its parent.
    private func endElement(_ state: inout LexState, _ scan: inout Scan) {
        if state.depth == 0, let entry = state.stack.popLast() {
            state.mode = entry >> 12
            state.depth = entry & Self.maxDepth
            scan.expression = false
            scan.last = .close
        } else {
            state.mode = Self.jsxChildren
        }
    }

    /// A letter, `_`, `$` or non-ASCII byte (ASCII as a 128-bit mask).
    @inline(__always) private func isNameStart(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 0x40 ? (0x0000_0010_0000_0000 as UInt64) &>> UInt64(b) : (0x07FF_FFFE_87FF_FFFE as UInt64) &>> UInt64(b & 63)) & 1 != 0
    }
    /// A letter, digit, `_`, `$` or non-ASCII byte.
    @inline(__always) private func isNameByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 0x40 ? (0x03FF_0010_0000_0000 as UInt64) &>> UInt64(b) : (0x07FF_FFFE_87FF_FFFE as UInt64) &>> UInt64(b & 63)) & 1 != 0
    }
}
