/// Makefiles (GNU and BSD), after Pygments' `MakefileLexer`: conditional and include
/// directive lines (`ifeq`, `else`, `endif`, `define`, `-include`, `.if`…, with their
/// backslash continuations) are attributes, `#` lines comments. Indented lines are
/// shell (``ShellScanner``, state carried through a recipe, so `$(CC)` shows as a
/// substitution and `$$x` as a variable). `NAME :=`/`=`/`?=`/`+=`/`!=` makes `NAME` a
/// variable and its value shell; `target: prerequisites` makes everything before the
/// colon a function, with `$(…)` expansions (`$`, `(`, `)` keywords, names variables)
/// in the prerequisites; `export NAME…` makes the names variables.
///
/// Deliberate difference: a line starting with a tab is never a directive. GNU make
/// passes it to the shell in a rule, so `if`/`else` there are shell words; Pygments
/// makes such recipe lines, and every `\`-continued line after them, attributes.
struct MakefileLexer: LineLexer {
    // `mode & placeMask`: what the line continues.
    private static let placeMask: UInt16 = 7
    private static let lineStart: UInt16 = 0
    /// A recipe: its shell state carries on.
    private static let recipe: UInt16 = 1
    /// An assignment's value ended with `\`.
    private static let assignment: UInt16 = 2
    /// A rule's prerequisites ended with `\`.
    private static let header: UInt16 = 3
    /// A `$(` left open at the top level / in prerequisites; its depth in `mode >> 8`.
    private static let expansionInRoot: UInt16 = 4
    private static let expansionInHeader: UInt16 = 5
    /// `mode` flag: a directive line ended with `\`.
    private static let directiveContinued: UInt16 = 8
    private static let maxExpansionDepth = 15

    // The directives, as flags of one table: GNU make's, and BSD make's (after a `.`).
    private static let gnuDirective: UInt32 = 1
    private static let bsdDirective: UInt32 = 2
    private static let directives = WordTable([
        (gnuDirective, "ifeq ifneq ifdef ifndef else endif include -include define endef : vpath if"),
        (bsdDirective, "include undef error warning if else elif endif for endfor"),
    ])

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        if state.mode & Self.directiveContinued != 0 || Self.isDirective(line) {
            sink.add(0, n, .attribute)
            var last = n - 1
            while last >= 0 && ASCII.isSpace(line[last]) { last -= 1 }
            state.mode &= ~Self.directiveContinued
            if last >= 0 && line[last] == 0x5C { state.mode |= Self.directiveContinued }
            return
        }
        if let hash = Self.commentStart(line) {
            sink.add(hash, n, .comment)
            return
        }
        let place = state.mode & Self.placeMask
        switch place {
        case Self.header:
            prerequisites(line, from: 0, state: &state, into: &sink)
            return
        case Self.expansionInRoot, Self.expansionInHeader:
            guard let p = expansion(line, from: 0, depth: Int(state.mode >> 8), returning: place, state: &state, into: &sink) else { return }
            if place == Self.expansionInRoot {
                top(line, from: p, state: &state, into: &sink)
            } else {
                prerequisites(line, from: p, state: &state, into: &sink)
            }
            return
        case Self.assignment where n > 0 && line[n - 1] == 0x5C:
            ShellScanner.lex(line, from: 0, state: &state, heredocs: .none, into: &sink)
            return
        default:
            break
        }
        if n == 0 || line[0] == 0x20 || line[0] == 0x09 {
            if place != Self.recipe {
                ShellScanner.reset(&state)
                state.mode = Self.recipe
            }
            ShellScanner.lex(line, from: 0, state: &state, heredocs: .none, into: &sink)
            return
        }
        ShellScanner.reset(&state)
        state.mode = Self.lineStart
        top(line, from: 0, state: &state, into: &sink)
    }

    /// The top level from `start`: assignments, rules, exports, expansions.
    private func top(_ line: UnsafeBufferPointer<UInt8>, from start: Int, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        var p = start
        state.mode = Self.lineStart
        // Remembered so that a line of junk stays linear: the end of a name that was
        // no assignment (any later start inside it ends there too), the next colon.
        var failedNameEnd = -1
        var colon = -1
        var lastNonName: Int?
        // A quote that found no end leaves every later one of its kind inside an escape
        // pair of that scan, so those find none either.
        var unclosedQuotes: (double: Bool, single: Bool) = (false, false)
        while p < n {
            let b = line[p]
            if b == 0x24 && p + 1 < n && Self.isAutomatic(line[p + 1]) {  // $@ $< …
                sink.add(p, p + 2, .keyword)
                p += 2
                continue
            }
            if ASCII.isSpace(b) {
                p += 1
                continue
            }
            if b == 0x23 {
                sink.add(p, n, .comment)
                return
            }
            if b == 0x65 || b == 0x75, let keywordEnd = Self.exportKeyword(line, at: p) {  // export unexport
                let names = Self.skipSpaces(line, keywordEnd)
                sink.add(p, keywordEnd, .keyword)
                if lastNonName == nil { lastNonName = Self.lastNonName(line) }
                if names < n, let last = lastNonName, names > last {
                    exportNames(line, from: names, into: &sink)
                    return
                }
                p = names
                continue
            }
            if p >= failedNameEnd {
                let nameEnd = Self.nameEnd(line, from: p)
                if nameEnd > p {
                    if let op = Self.assignmentOperator(line, at: Self.skipSpaces(line, nameEnd)) {
                        sink.add(p, nameEnd, .variable)
                        sink.add(op, .operator)
                        var v = op.upperBound
                        while v < n && (line[v] == 0x20 || line[v] == 0x09) { v += 1 }
                        ShellScanner.lex(line, from: v, state: &state, heredocs: .none, into: &sink)
                        if line[n - 1] == 0x5C {
                            state.mode = Self.assignment
                        } else {
                            ShellScanner.reset(&state)
                        }
                        return
                    }
                    failedNameEnd = nameEnd
                }
            }
            if (b == 0x22 && !unclosedQuotes.double) || (b == 0x27 && !unclosedQuotes.single) {
                if let end = Self.quotedEnd(line, from: p) {
                    sink.add(p, end, .string)
                    p = end
                    continue
                }
                if b == 0x22 { unclosedQuotes.double = true } else { unclosedQuotes.single = true }
            }
            if colon < p {
                colon = p
                while colon < n && line[colon] != 0x3A { colon += 1 }
            }
            if colon < n && colon > p {
                sink.add(p, colon, .function)
                var k = colon
                while k < n && line[k] == 0x3A { k += 1 }
                sink.add(colon, k, .operator)
                prerequisites(line, from: k, state: &state, into: &sink)
                return
            }
            if b == 0x24 && p + 1 < n && line[p + 1] == 0x28 {
                sink.add(p, p + 2, .keyword)
                guard let end = expansion(line, from: p + 2, depth: 1, returning: Self.expansionInRoot, state: &state, into: &sink) else { return }
                p = end
                continue
            }
            p += 1
        }
    }

    /// A rule's prerequisites from `start`: plain, with `,` `|` punctuation,
    /// expansions and a trailing comment; a final `\` continues them.
    private func prerequisites(_ line: UnsafeBufferPointer<UInt8>, from start: Int, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        var p = start
        state.mode = Self.lineStart
        while p < n {
            let b = line[p]
            switch b {
            case 0x2C, 0x7C:
                sink.add(p, p + 1, .punctuation)
                p += 1
            case 0x23:
                sink.add(p, n, .comment)
                return
            case 0x5C where p == n - 1:
                state.mode = Self.header
                return
            case 0x24 where p + 1 < n && line[p + 1] == 0x28:
                sink.add(p, p + 2, .keyword)
                guard let end = expansion(line, from: p + 2, depth: 1, returning: Self.expansionInHeader, state: &state, into: &sink) else { return }
                p = end
            default:
                p += 1
            }
        }
    }

    /// Inside `$(…)` from `start` at `depth`: the position after its `)`, or nil when the
    /// line ends first (the state then says where to resume).
    private func expansion(_ line: UnsafeBufferPointer<UInt8>, from start: Int, depth: Int, returning place: UInt16,
                           state: inout LexState, into sink: inout TokenSink) -> Int? {
        let n = line.count
        var p = start
        var depth = max(1, depth)
        while p < n {
            let s = p
            let b = line[p]
            switch b {
            case 0x28:
                depth = min(depth + 1, Self.maxExpansionDepth)
                p += 1
                sink.add(s, p, .keyword)
            case 0x29:
                depth -= 1
                p += 1
                sink.add(s, p, .keyword)
                if depth == 0 { return p }
            case 0x24:
                p += 1
                sink.add(s, p, .keyword)
            default:
                if Self.isExpansionName(b) {
                    while p < n && Self.isExpansionName(line[p]) { p += 1 }
                    sink.add(s, p, .variable)
                } else {
                    while p < n && !Self.isExpansionName(line[p]) && line[p] != 0x24 && line[p] != 0x28 && line[p] != 0x29 { p += 1 }
                }
            }
        }
        state.mode = place | UInt16(depth) << 8
        return nil
    }

    private func exportNames(_ line: UnsafeBufferPointer<UInt8>, from start: Int, into sink: inout TokenSink) {
        var p = start
        while p < line.count {
            let s = p
            while p < line.count && !ASCII.isSpace(line[p]) { p += 1 }
            sink.add(s, p, .variable)
            while p < line.count && ASCII.isSpace(line[p]) { p += 1 }
        }
    }

    // MARK: Line classes

    /// `ifeq …`, `else`, `include …`, `define …`, BSD `.if …`: Pygments' `r_special`
    /// (never after a tab, see above).
    private static func isDirective(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = line.count
        guard n > 0, line[0] != 0x09 else { return false }
        if line[0] == 0x2E {  // .
            let w = skipSpaces(line, 1)
            var e = w
            while e < n && !ASCII.isSpace(line[e]) { e += 1 }
            if directives.flags(line, w..<e) & bsdDirective != 0 { return true }
        }
        let w = skipSpaces(line, 0)
        var e = w
        while e < n && !ASCII.isSpace(line[e]) { e += 1 }
        return directives.flags(line, w..<e) & gnuDirective != 0
    }

    /// Where a comment line's `#` is (`#…`, `@#…`, after any indent).
    private static func commentStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var k = skipSpaces(line, 0)
        if k < line.count && line[k] == 0x40 { k += 1 }
        return k < line.count && line[k] == 0x23 ? skipSpaces(line, 0) : nil
    }

    // MARK: Scans

    private static func skipSpaces(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var k = start
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        return k
    }

    @inline(__always)
    private static func isAutomatic(_ b: UInt8) -> Bool {
        b == 0x3C || b == 0x40 || b == 0x24 || b == 0x2B || b == 0x25 || b == 0x3F || b == 0x7C || b == 0x2A  // < @ $ + % ? | *
    }

    @inline(__always)
    private static func isExpansionName(_ b: UInt8) -> Bool { ASCII.isIdentifierByte(b) || b == 0x2E || b == 0x2D }

    /// The end of a variable name (`[\w${}().-]*`) from `start`.
    private static func nameEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var k = start
        while k < line.count {
            let b = line[k]
            guard isExpansionName(b) || b == 0x24 || b == 0x7B || b == 0x7D || b == 0x28 || b == 0x29 else { break }
            k += 1
        }
        return k
    }

    /// `=`, `:=`, `?=`, `+=` or `!=` at `k`.
    private static func assignmentOperator(_ line: UnsafeBufferPointer<UInt8>, at k: Int) -> Range<Int>? {
        guard k < line.count else { return nil }
        let b = line[k]
        if b == 0x3D { return k..<k + 1 }
        if (b == 0x3A || b == 0x3F || b == 0x2B || b == 0x21) && k + 1 < line.count && line[k + 1] == 0x3D { return k..<k + 2 }
        return nil
    }

    /// The end of `export`/`unexport` and the space after it at `k`, if there.
    private static func exportKeyword(_ line: UnsafeBufferPointer<UInt8>, at k: Int) -> Int? {
        let c = LineCursor(line, at: k)
        let end = c.at("export") ? k + 6 : c.at("unexport") ? k + 8 : 0
        guard end > 0, end < line.count, ASCII.isSpace(line[end]) else { return nil }
        return end
    }

    /// The last byte that cannot be in an export's list of names (`[\w${}\t -]`), or -1:
    /// the names after `export` are a list when they all come after it.
    private static func lastNonName(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var k = line.count - 1
        while k >= 0 {
            let b = line[k]
            if !(ASCII.isIdentifierByte(b) || b == 0x24 || b == 0x7B || b == 0x7D || b == 0x20 || b == 0x09 || b == 0x2D) { return k }
            k -= 1
        }
        return -1
    }

    /// The end of a quoted string closed on this line at `start`.
    private static func quotedEnd(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let quote = line[start]
        var k = start + 1
        while k < line.count {
            if line[k] == 0x5C {
                k += 2
            } else if line[k] == quote {
                return k + 1
            } else {
                k += 1
            }
        }
        return nil
    }
}
