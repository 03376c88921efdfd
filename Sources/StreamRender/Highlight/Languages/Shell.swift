/// The shell lexing that bash, console sessions, Dockerfiles and makefiles share.
///
/// It follows Pygments' `BashLexer`, which those four lexers also build on, so the
/// hosts agree with each other: keywords and builtins are words anywhere (not only
/// in command position), `NAME=` and `NAME+=` make `NAME` a variable, a word that is
/// all digits is a number, anything else up to a shell metacharacter is plain text.
/// Double-quoted strings keep their backslash pairs as string and highlight `$`
/// expansions; single quotes and `$'…'` are plain strings; `$(…)` and `$((…))`
/// delimiters are keywords, `${…}` delimiters string escapes with the name a
/// variable and the operator part punctuation.
///
/// Where it differs from Pygments, on purpose: a heredoc ends at a line that is its
/// word (Pygments ends at the word anywhere, and does not know `<<"EOF"`), the rest
/// of the line that opens it is code (Pygments makes it string), and a word of
/// digits after `<<` is not a heredoc (`(( x << 2 ))`).
///
/// The state it carries is the host's `LexState` minus `mode`: `stack` holds the
/// open contexts (quotes, `$(`, `${`, `$((`, backticks; at most 16 deep, the oldest
/// dropped beyond that), `terminator` and `depth` an open heredoc.
struct ShellScanner {
    /// What a heredoc's body is.
    enum Heredocs {
        /// A string until the terminator line (shell scripts).
        case string
        /// Shell code until the terminator line (Dockerfile `RUN <<EOF`).
        case code
        /// Not recognised (make recipes run each line in its own shell).
        case none
    }

    // Contexts, kept 4 bits each.
    private static let root: UInt16 = 0
    private static let doubleQuoted: UInt16 = 1
    private static let singleQuoted: UInt16 = 2
    private static let ansiQuoted: UInt16 = 3
    private static let parameter: UInt16 = 4
    private static let command: UInt16 = 5
    private static let arithmetic: UInt16 = 6
    private static let backtick: UInt16 = 7
    private static let maxSaved = 15

    // `depth` bits while a heredoc is open.
    static let inHeredoc: UInt16 = 1
    private static let heredocTabs: UInt16 = 2
    private static let heredocIsCode: UInt16 = 4
    private static let maxTerminator = 64

    // The word lists, as flags of one table.
    private static let keyword: UInt32 = 1
    private static let builtin: UInt32 = 2

    private static let words = WordTable([
        (keyword, "if fi else while in do done for then return function case select break continue until esac elif"),
        (builtin, """
            alias bg bind builtin caller cd command compgen complete declare dirs disown echo enable eval exec exit
            export false fc fg getopts hash help history jobs kill let local logout popd printf pushd pwd read readonly
            set shift shopt source suspend test time times trap true type typeset ulimit umask unalias unset wait
            """),
    ])

    // Bytes that end a plain word (Pygments' `[^=\s\[\]{}()$"'`\\<&|;]`), as bit masks.
    private static let textStopLow: UInt64 = 0x3800_03d5_0000_3e00
    private static let textStopHigh: UInt64 = 0x3800_0001_3800_0000
    // Bytes that end the operator part of `${…}` (`[^}:"'`$\\]`).
    private static let parameterStopLow: UInt64 = 0x0400_0094_0000_0000
    private static let parameterStopHigh: UInt64 = 0x2000_0001_1000_0000

    private let line: UnsafeBufferPointer<UInt8>
    /// Where the shell text starts: a word there starts at a word boundary.
    private let start: Int
    private let heredocs: Heredocs
    private var pos: Int
    private var context: UInt16 = 0
    /// Outer contexts, innermost in the low 4 bits.
    private var saved: UInt64 = 0
    private var savedCount = 0
    private var heredocWord: Range<Int>?
    private var heredocStripsTabs = false

    private init(_ line: UnsafeBufferPointer<UInt8>, from start: Int, heredocs: Heredocs) {
        self.line = line
        self.start = start
        self.pos = start
        self.heredocs = heredocs
    }

    // MARK: Entry points

    /// Lexes `line[from...]` as shell, continuing the contexts `state` holds.
    static func lex(_ line: UnsafeBufferPointer<UInt8>, from start: Int, state: inout LexState,
                    heredocs: Heredocs = .string, into sink: inout TokenSink) {
        var scanner = ShellScanner(line, from: start, heredocs: heredocs)
        scanner.load(state.stack)
        scanner.run(into: &sink)
        scanner.store(&state)
    }

    /// A line of an open heredoc from `from`: reports it and returns true when it is
    /// string body or the terminator (which closes the heredoc); returns false when
    /// the caller should lex it as code (a code heredoc's body, or no heredoc open).
    static func heredocLine(_ line: UnsafeBufferPointer<UInt8>, from start: Int, state: inout LexState,
                            into sink: inout TokenSink) -> Bool {
        guard state.depth & inHeredoc != 0 else { return false }
        var k = start
        if state.depth & heredocTabs != 0 {
            while k < line.count && line[k] == 0x09 { k += 1 }
        }
        var isEnd = line.count - k == state.terminator.count
        if isEnd {
            for (i, b) in state.terminator.enumerated() where line[k + i] != b {
                isEnd = false
                break
            }
        }
        if isEnd {
            sink.add(k, line.count, .string)
            state.depth = 0
            state.terminator = []
            return true
        }
        if state.depth & heredocIsCode != 0 { return false }
        sink.add(start, line.count, .string)
        return true
    }

    /// Closes every open context but keeps an open heredoc (a Dockerfile's shell
    /// chunk ends at a line without a continuation; its heredoc body follows).
    static func closeContexts(_ state: inout LexState) {
        if !state.stack.isEmpty { state.stack = [] }
    }

    /// Forgets all shell state.
    static func reset(_ state: inout LexState) {
        closeContexts(&state)
        if !state.terminator.isEmpty { state.terminator = [] }
        state.depth = 0
    }

    /// Whether a multi-line construct (quote, substitution, heredoc) is open.
    static func isOpen(_ state: LexState) -> Bool {
        !state.stack.isEmpty || state.depth & inHeredoc != 0
    }

    // MARK: State

    private mutating func load(_ stack: [UInt16]) {
        guard let last = stack.last else { return }
        for c in stack.dropLast().suffix(Self.maxSaved) {
            saved = saved << 4 | UInt64(c <= Self.backtick ? c : 0)
        }
        savedCount = min(stack.count - 1, Self.maxSaved)
        context = last <= Self.backtick ? last : 0
    }

    private func store(_ state: inout LexState) {
        if context == Self.root && savedCount == 0 {
            if !state.stack.isEmpty { state.stack = [] }
        } else {
            var stack: [UInt16] = []
            stack.reserveCapacity(savedCount + 1)
            var i = savedCount - 1
            while i >= 0 {
                stack.append(UInt16(truncatingIfNeeded: saved >> UInt64(4 * i)) & 0xF)
                i -= 1
            }
            stack.append(context)
            if stack != state.stack { state.stack = stack }
        }
        if let word = heredocWord, heredocs != .none {
            state.terminator = Array(line[word])
            state.depth = Self.inHeredoc | (heredocStripsTabs ? Self.heredocTabs : 0)
                | (heredocs == .code ? Self.heredocIsCode : 0)
        }
    }

    private mutating func push(_ c: UInt16) {
        saved = saved << 4 | UInt64(context)
        savedCount = min(savedCount + 1, Self.maxSaved)
        context = c
    }

    private mutating func pop() {
        if savedCount > 0 {
            context = UInt16(truncatingIfNeeded: saved & 0xF)
            saved >>= 4
            savedCount -= 1
        } else {
            context = Self.root
        }
    }

    // MARK: Byte classes

    @inline(__always)
    private static func isTextStop(_ b: UInt8) -> Bool {
        b < 64 ? (textStopLow >> UInt64(b)) & 1 != 0 : b < 128 ? (textStopHigh >> UInt64(b - 64)) & 1 != 0 : false
    }

    @inline(__always)
    private static func isParameterStop(_ b: UInt8) -> Bool {
        b < 64 ? (parameterStopLow >> UInt64(b)) & 1 != 0 : b < 128 ? (parameterStopHigh >> UInt64(b - 64)) & 1 != 0 : false
    }

    @inline(__always)
    private func byte(_ i: Int) -> UInt8 { i < line.count ? line[i] : 0 }

    // MARK: Scanning

    private mutating func run(into sink: inout TokenSink) {
        let n = line.count
        while pos < n {
            let b = line[pos]
            switch context {
            case Self.doubleQuoted:
                doubleQuoted(into: &sink)
            case Self.singleQuoted:
                let s = pos
                while pos < n && line[pos] != 0x27 { pos += 1 }
                if pos < n {
                    pos += 1
                    pop()
                }
                sink.add(s, pos, .string)
            case Self.ansiQuoted:
                let s = pos
                if ansiBody() { pop() }
                sink.add(s, pos, .string)
            case Self.parameter:
                parameter(b, into: &sink)
            case Self.command:
                if b == 0x29 {  // )
                    sink.add(pos, pos + 1, .keyword)
                    pos += 1
                    pop()
                } else {
                    code(b, into: &sink)
                }
            case Self.arithmetic:
                arithmetic(b, into: &sink)
            case Self.backtick:
                if b == 0x60 {
                    sink.add(pos, pos + 1, .string)
                    pos += 1
                    pop()
                } else {
                    code(b, into: &sink)
                }
            default:
                code(b, into: &sink)
            }
        }
    }

    /// One token of code (the top level, and inside `$(`, backticks, `$((` and `${`).
    private mutating func code(_ b: UInt8, into sink: inout TokenSink) {
        let n = line.count
        let s = pos
        if ASCII.isIdentifierByte(b) {
            word(into: &sink)
            return
        }
        switch b {
        case 0x20, 0x09, 0x0B, 0x0C, 0x0D:
            pos += 1
            while pos < n && ASCII.isSpace(line[pos]) { pos += 1 }
        case 0x23:  // # to the end of the line
            pos = n
            sink.add(s, n, .comment)
        case 0x5C:  // \x
            pos = min(n, pos + 2)
            while pos < n && line[pos] & 0xC0 == 0x80 { pos += 1 }
            sink.add(s, pos, .stringEscape)
        case 0x5B, 0x5D, 0x7B, 0x7D, 0x28, 0x29, 0x3D:  // [ ] { } ( ) =
            pos += 1
            sink.add(s, pos, .operator)
        case 0x3C:  // <
            if byte(pos + 1) == 0x3C && byte(pos + 2) == 0x3C {
                pos += 3
                sink.add(s, pos, .operator)
            } else if byte(pos + 1) == 0x3C, let end = heredocStart() {
                pos = end
                sink.add(s, pos, .string)
            } else {
                pos += 1
            }
        case 0x26, 0x7C:  // && || & |
            if byte(pos + 1) == b {
                pos += 2
                sink.add(s, pos, .operator)
            } else {
                pos += 1
                sink.add(s, pos, .punctuation)
            }
        case 0x3B:  // ;
            pos += 1
            sink.add(s, pos, .punctuation)
        case 0x60:  // `
            pos += 1
            sink.add(s, pos, .string)
            push(Self.backtick)
        case 0x22:  // "
            pos += 1
            sink.add(s, pos, .string)
            push(Self.doubleQuoted)
        case 0x27:  // '
            pos += 1
            while pos < n && line[pos] != 0x27 { pos += 1 }
            if pos < n { pos += 1 } else { push(Self.singleQuoted) }
            sink.add(s, pos, .string)
        case 0x24:  // $
            let next = byte(pos + 1)
            if next == 0x27 {  // $'…'
                pos += 2
                if !ansiBody() { push(Self.ansiQuoted) }
                sink.add(s, pos, .string)
            } else if next == 0x22 {  // $"…"
                pos += 2
                sink.add(s, pos, .string)
                push(Self.doubleQuoted)
            } else {
                expansion(into: &sink)
            }
        default:
            text()
        }
    }

    /// A word: keyword, builtin, assigned variable, number, or the start of plain text.
    private mutating func word(into sink: inout TokenSink) {
        let n = line.count
        let s = pos
        var e = pos + 1
        while e < n && ASCII.isIdentifierByte(line[e]) { e += 1 }
        if s == start || !ASCII.isIdentifierByte(line[s - 1]) {
            // Keywords and builtins are 2 to 8 lower-case letters.
            let candidate = e - s >= 2 && e - s <= 8 && ASCII.isLower(line[s])
            let flags = candidate ? Self.words.flags(line, s..<e) : 0
            if flags & Self.keyword != 0 {
                pos = e
                sink.add(s, e, .keyword)
                return
            }
            if flags & Self.builtin != 0 {
                let next = byte(e)
                if e == n || ASCII.isSpace(next) || next == 0x29 || next == 0x60 {
                    pos = e
                    sink.add(s, e, .builtin)
                    return
                }
            }
            var k = e
            while k < n && ASCII.isSpace(line[k]) { k += 1 }
            let assign = byte(k) == 0x3D ? 1 : byte(k) == 0x2B && byte(k + 1) == 0x3D ? 2 : 0
            if assign > 0 {
                sink.add(s, e, .variable)
                sink.add(k, k + assign, .operator)
                pos = k + assign
                return
            }
        }
        var d = s
        while d < e && ASCII.isDigit(line[d]) { d += 1 }
        if d == e {
            pos = e
            sink.add(s, e, .number)
            return
        }
        text()
    }

    /// Plain text up to the next shell metacharacter.
    private mutating func text() {
        pos += 1
        while pos < line.count && !Self.isTextStop(line[pos]) { pos += 1 }
    }

    /// `$…`: a substitution, a parameter or a lone `$`.
    private mutating func expansion(into sink: inout TokenSink) {
        let s = pos
        let next = byte(pos + 1)
        if next == 0x28 {  // $( $((
            if byte(pos + 2) == 0x28 {
                pos += 3
                sink.add(s, pos, .keyword)
                push(Self.arithmetic)
            } else {
                pos += 2
                sink.add(s, pos, .keyword)
                push(Self.command)
            }
        } else if next == 0x7B {  // ${ ${#
            pos += byte(pos + 2) == 0x23 ? 3 : 2
            sink.add(s, pos, .stringEscape)
            push(Self.parameter)
        } else if ASCII.isLetter(next) || next == 0x5F {
            pos += 2
            while pos < line.count && ASCII.isIdentifierByte(line[pos]) { pos += 1 }
            sink.add(s, pos, .variable)
        } else if ASCII.isDigit(next) {
            pos += 2
            while pos < line.count && ASCII.isDigit(line[pos]) { pos += 1 }
            sink.add(s, pos, .variable)
        } else if next == 0x23 || next == 0x24 || next == 0x3F || next == 0x21 || next == 0x2A || next == 0x40 || next == 0x2D {
            pos += 2  // $# $$ $? $! $* $@ $-
            sink.add(s, pos, .variable)
        } else {
            pos += 1
        }
    }

    /// Inside `"…"`: string up to the closing quote or the next `$`.
    private mutating func doubleQuoted(into sink: inout TokenSink) {
        let n = line.count
        let s = pos
        while pos < n {
            let b = line[pos]
            if b == 0x22 {
                pos += 1
                sink.add(s, pos, .string)
                pop()
                return
            }
            if b == 0x5C {
                pos = min(n, pos + 2)
                continue
            }
            if b == 0x24 {
                sink.add(s, pos, .string)
                expansion(into: &sink)
                return
            }
            pos += 1
        }
        sink.add(s, pos, .string)
    }

    /// The body of `$'…'` from the position; whether it closed.
    private mutating func ansiBody() -> Bool {
        let n = line.count
        while pos < n {
            let b = line[pos]
            if b == 0x5C {
                pos = min(n, pos + 2)
            } else {
                pos += 1
                if b == 0x27 { return true }
            }
        }
        return false
    }

    /// Inside `${…}`: the name is a variable, `:-` a keyword, the rest punctuation.
    private mutating func parameter(_ b: UInt8, into sink: inout TokenSink) {
        let n = line.count
        let s = pos
        if b == 0x7D {  // }
            pos += 1
            sink.add(s, pos, .stringEscape)
            pop()
        } else if b == 0x3A && byte(pos + 1) == 0x2D {  // :-
            pos += 2
            sink.add(s, pos, .keyword)
        } else if ASCII.isIdentifierByte(b) {
            pos += 1
            while pos < n && ASCII.isIdentifierByte(line[pos]) { pos += 1 }
            sink.add(s, pos, .variable)
        } else if !Self.isParameterStop(b) {
            pos += 1
            while pos < n && !Self.isParameterStop(line[pos]) { pos += 1 }
            sink.add(s, pos, .punctuation)
        } else if b == 0x3A {
            pos += 1
            sink.add(s, pos, .punctuation)
        } else {
            code(b, into: &sink)
        }
    }

    /// Inside `$((…))`: operators, numbers (`16#ff`, `0x1f`) and bare variable names.
    private mutating func arithmetic(_ b: UInt8, into sink: inout TokenSink) {
        let n = line.count
        let s = pos
        switch b {
        case 0x29 where byte(pos + 1) == 0x29:  // ))
            pos += 2
            sink.add(s, pos, .keyword)
            pop()
        case 0x2A, 0x7C, 0x3C, 0x3E:  // * | < > and ** || << >>
            pos += byte(pos + 1) == b ? 2 : 1
            sink.add(s, pos, .operator)
        case 0x2D, 0x2B, 0x2F, 0x25, 0x5E, 0x26:  // - + / % ^ &
            pos += 1
            sink.add(s, pos, .operator)
        case 0x30...0x39:
            var e = pos
            while e < n && ASCII.isDigit(line[e]) { e += 1 }
            if byte(e) == 0x23 {  // base#digits
                var f = e + 1
                while f < n && (ASCII.isDigit(line[f]) || ASCII.isLetter(line[f])) { f += 1 }
                if f > e + 1 || (e + 1 < n && line[e + 1] != 0x20) || e + 1 == n { e = max(f, e + 1) }
            } else if b == 0x30 && (byte(pos + 1) | 0x20) == 0x78 && ASCII.isHexDigit(byte(pos + 2)) {
                e = pos + 2
                while e < n && ASCII.isHexDigit(line[e]) { e += 1 }
            }
            pos = e
            sink.add(s, pos, .number)
        default:
            if ASCII.isLetter(b) || b == 0x5F {
                pos += 1
                while pos < n && ASCII.isIdentifierByte(line[pos]) { pos += 1 }
                sink.add(s, pos, .variable)
            } else {
                code(b, into: &sink)
            }
        }
    }

    /// `<<WORD`, `<<-WORD`, `<<'WORD'`, `<<"WORD"`, `<<\WORD` at the position: the
    /// end of the opener (the first opener on a line is the one whose body follows).
    private mutating func heredocStart() -> Int? {
        guard heredocs != .none else { return nil }
        let n = line.count
        var k = pos + 2
        let tabs = byte(k) == 0x2D
        if tabs { k += 1 }
        while k < n && ASCII.isSpace(line[k]) { k += 1 }
        var quote: UInt8 = 0
        if byte(k) == 0x27 || byte(k) == 0x22 {
            quote = line[k]
            k += 1
        } else if byte(k) == 0x5C {
            k += 1
        }
        let w = k
        guard k < n, ASCII.isIdentifierStart(line[k]) else { return nil }
        while k < n && ASCII.isIdentifierByte(line[k]) { k += 1 }
        guard k - w <= Self.maxTerminator else { return nil }
        let word = w..<k
        if quote != 0 && byte(k) == quote { k += 1 }
        if heredocWord == nil {
            heredocWord = word
            heredocStripsTabs = tabs
        }
        return k
    }
}
