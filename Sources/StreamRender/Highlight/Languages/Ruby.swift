/// Ruby, classified the way Pygments' `ruby` lexer does where that reads well.
///
/// - Strings: `"..."`, `'...'`, backticks, `:"sym"` and `%Q(...)`/`%(...)` mark
///   escapes and `#{...}` / `#@ivar` interpolation (Pygments treats `'...'` like
///   `"..."`, and so do we); `%q %w %s %i` are plain strings; `/re/` and `%r{...}`
///   are strings with interpolation. Bracket delimiters nest (depth kept in the
///   mode); inside `#{...}` braces are escapes too, as in Pygments. Every string
///   may span lines; the modes to return to are on `state.stack`.
/// - `/` starts a regex at a line's start, after `= < > ~ ! :`, after `( , [`, or
///   after a space when no space follows it (`a /b/`, not `a / b`); after a number
///   it is always division. `?x` is a character literal.
/// - Heredocs (`<<ID`, `<<-ID`, `<<~ID`, quoted) start on the next line; their
///   words and whether they are indented or interpolating are queued in
///   `state.terminator` (several per line, 64 bytes in all).
/// - `def` names are functions (`self.` before one is a type), `class` names
///   types, capitalised words constants, `name:` labels and `:sym` strings;
///   builtins and pseudo-keywords (`new`, `include`, `true`, `nil`...) follow
///   Pygments' lists; a word after `.` is plain.
/// - Deliberate differences: floats, exponents, `0o`, `3r`/`2i` are one number
///   (Pygments splits `1.5` at the dot); `%i[...]` is a string like `%w[...]`;
///   heredoc bodies (unless `<<~'ID'`) mark escapes and interpolation like a
///   `"..."` string (Pygments makes the whole body one string).
struct RubyLexer: LineLexer {
    // A mode is a kind (low 4 bits), a string's closing delimiter (8 bits) and
    // the nesting of its bracket delimiters, or of braces in `#{...}` (4 bits).
    private static let code: UInt16 = 0
    /// `"..."`, `'...'`, `` `...` ``, `:"..."`, `%Q(...)`: escapes and interpolation.
    private static let escaped: UInt16 = 1
    /// `%Q|...|`, `%|...|`: interpolation only.
    private static let interpolated: UInt16 = 2
    /// `%q`, `%w`, `%s`, `%i`, `:'...'`: neither.
    private static let literal: UInt16 = 3
    /// `/.../`, `%r{...}`: interpolation, flags after the close.
    private static let regex: UInt16 = 4
    /// Code inside `#{...}`.
    private static let interpolation: UInt16 = 5
    private static let heredoc: UInt16 = 6
    private static let blockComment: UInt16 = 7
    /// After `__END__`.
    private static let data: UInt16 = 8
    private static let maxStack = 32
    private static let maxTerminator = 64
    private static let tolerant: UInt8 = 1, interpolating: UInt8 = 2

    @inline(__always) private static func kind(_ mode: UInt16) -> UInt16 { mode & 0xF }
    @inline(__always) private static func close(_ mode: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: mode >> 4) }
    @inline(__always) private static func depth(_ mode: UInt16) -> UInt16 { mode >> 12 }
    @inline(__always) private static func mode(_ kind: UInt16, close: UInt8 = 0, depth: UInt16 = 0) -> UInt16 {
        kind | UInt16(close) << 4 | min(depth, 15) << 12
    }

    // Word flags.
    private static let keyword: UInt32 = 1 << 0
    private static let pseudo: UInt32 = 1 << 1
    private static let wordOperator: UInt32 = 1 << 2
    private static let predicate: UInt32 = 1 << 3
    private static let bang: UInt32 = 1 << 4
    private static let builtin: UInt32 = 1 << 5
    private static let pseudoBuiltin: UInt32 = 1 << 6
    private static let isDef: UInt32 = 1 << 7
    private static let isClass: UInt32 = 1 << 8
    private static let isModule: UInt32 = 1 << 9
    private static let isEnd: UInt32 = 1 << 10

    private static let allWords = WordTable([
        (keyword, """
            BEGIN END alias begin break case do else elsif end ensure for if in next redo rescue
            raise retry return super then undef unless until when while yield
            """),
        (pseudo, """
            initialize new loop include extend raise attr_reader attr_writer attr_accessor attr
            catch throw private module_function public protected true false nil
            """),
        (wordOperator, "not and or"),
        // Builtins when a `?` follows.
        (predicate, """
            autoload block_given const_defined eql equal frozen include instance_of is_a iterator
            kind_of method_defined nil private_method_defined protected_method_defined
            public_method_defined respond_to tainted
            """),
        // Builtins when a `!` follows.
        (bang, "chomp chop exit gsub sub"),
        (builtin, """
            Array Float Integer String __id__ __send__ abort ancestors at_exit autoload binding
            callcc caller catch chomp chop class_eval class_variables clone const_get
            const_missing const_set constants display dup eval exec exit extend fail fork format
            freeze getc gets global_variables gsub hash id included_modules inspect instance_eval
            instance_method instance_methods instance_variable_get instance_variable_set
            instance_variables lambda load local_variables loop method method_missing methods
            module_eval name object_id open p print printf private_class_method
            private_instance_methods private_methods proc protected_instance_methods
            protected_methods public_class_method public_instance_methods public_methods putc
            puts raise rand readline readlines require scan select self send set_trace_func
            singleton_methods sleep split sprintf srand sub syscall system taint test throw to_a
            to_s trace_var trap untaint untrace_var warn
            """),
        (pseudoBuiltin, "__FILE__ __LINE__"),
        (isDef, "def"),
        (isClass, "class"),
        (isModule, "module"),
        (isEnd, "__END__"),
    ])

    // Held by the instance: a static would be checked for initialisation on each lookup.
    private let words = RubyLexer.allWords

    /// What the word just before the position makes of the next token.
    private enum Expect { case none, methodName, className }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        switch Self.kind(state.mode) {
        case Self.heredoc:
            if heredocEnd(line, state: &state, into: &sink) { return }
        case Self.blockComment:
            sink.add(0, line.count, .comment)
            if c.at("=end") && (line.count == 4 || ASCII.isSpace(line[4])) { state.mode = 0 }
            return
        case Self.data:
            sink.add(0, line.count, .attribute)
            return
        case Self.code where state.stack.isEmpty:
            if c.at("=begin") && (line.count == 6 || ASCII.isSpace(line[6])) {
                sink.add(0, line.count, .comment)
                state.mode = Self.blockComment
                return
            }
        default:
            break
        }
        // Heredocs are queued only outside another heredoc's body.
        let inHeredoc = Self.kind(state.mode) == Self.heredoc || state.stack.contains { Self.kind($0) == Self.heredoc }
        var queued = false
        var expect = Expect.none
        while !c.atEnd {
            let kind = Self.kind(state.mode)
            if kind != Self.code && kind != Self.interpolation {
                if kind == Self.data {
                    sink.add(c.pos, line.count, .attribute)
                    return
                }
                stringBody(&c, state: &state, into: &sink)
                continue
            }
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = line[start]
            if expect != .none {
                let e = expect
                expect = .none
                if e == .methodName ? methodName(&c, into: &sink) : className(&c, into: &sink) { continue }
            }
            switch b {
            case 0x23:  // #
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x22, 0x27:  // " '
                c.pos += 1
                sink.add(start, c.pos, .string)
                push(Self.mode(Self.escaped, close: b), state: &state)
            case 0x60:  // `
                c.pos += 1
                if c[start - 1] == 0x2E {
                    sink.add(start, c.pos, .plain)
                } else {
                    sink.add(start, c.pos, .string)
                    push(Self.mode(Self.escaped, close: b), state: &state)
                }
            case 0x3A:  // :
                colon(&c, state: &state, into: &sink)
            case 0x3F:  // ?
                c.pos += 1
                if let end = characterLiteral(c) {
                    c.pos = end
                    sink.add(start, c.pos, .string)
                } else {
                    sink.add(start, c.pos, .punctuation)
                }
            case 0x40:  // @
                c.pos += 1
                if c.peek() == 0x40 { c.pos += 1 }
                if ASCII.isLetter(c.peek()) || c.peek() == 0x5F {
                    _ = c.identifier()
                    sink.add(start, c.pos, .variable)
                } else {
                    sink.add(start, c.pos, .plain)
                }
            case 0x24:  // $
                c.pos += 1
                if ASCII.isIdentifierByte(c.peek()) {
                    _ = c.identifier()
                    while ASCII.isDigit(c.peek()) { c.pos += 1 }
                    sink.add(start, c.pos, .variable)
                } else if LineCursor.contains("!@&`'+~=/\\,;.<>_*$?:\"^-", c.peek()) {
                    c.pos += 1
                    sink.add(start, c.pos, .variable)
                } else {
                    sink.add(start, c.pos, .plain)
                }
            case 0x25:  // %
                if !percentLiteral(&c, state: &state, into: &sink) {
                    c.pos += c.peek(1) == 0x3D ? 2 : 1
                    sink.add(start, c.pos, .operator)
                }
            case 0x3C where c.peek(1) == 0x3C:  // <<
                if !heredocStart(&c, queue: !inHeredoc, state: &state, into: &sink) {
                    c.pos += 2
                    if c.peek() == 0x3D { c.pos += 1 }
                    sink.add(start, c.pos, .operator)
                } else if !inHeredoc {
                    queued = true
                }
            case 0x2F:  // /
                if startsRegex(c) {
                    c.pos += 1
                    sink.add(start, c.pos, .string)
                    push(Self.mode(Self.regex, close: 0x2F), state: &state)
                } else {
                    c.pos += c.peek(1) == 0x3D ? 2 : 1
                    sink.add(start, c.pos, .operator)
                }
            case 0x30...0x39:
                number(&c)
                sink.add(start, c.pos, .number)
                // Pygments takes a `/` or `?` after a number as an operator.
                var k = c.pos
                while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                if k < line.count && (line[k] == 0x2F || line[k] == 0x3F) {
                    c.pos = k + 1
                    sink.add(k, c.pos, .operator)
                }
            case 0x2E:  // .
                c.pos += 1
                if c.peek() == 0x2E {
                    c.pos += 1
                    if c.peek() == 0x2E { c.pos += 1 }
                    sink.add(start, c.pos, .operator)
                } else {
                    sink.add(start, c.pos, .operator)
                    if ASCII.isLetter(c.peek()) || c.peek() == 0x5F {
                        let name = c.pos
                        _ = c.identifier()
                        if c.peek() == 0x3F || c.peek() == 0x21 { c.pos += 1 }
                        sink.add(name, c.pos, .plain)
                    }
                }
            case 0x7B, 0x7D:  // { }
                c.pos += 1
                if Self.kind(state.mode) == Self.interpolation {
                    sink.add(start, c.pos, .stringEscape)
                    let depth = Self.depth(state.mode)
                    if b == 0x7B {
                        state.mode = Self.mode(Self.interpolation, depth: depth + 1)
                    } else if depth > 0 {
                        state.mode = Self.mode(Self.interpolation, depth: depth - 1)
                    } else {
                        state.mode = state.stack.popLast() ?? 0
                    }
                } else {
                    sink.add(start, c.pos, .punctuation)
                }
            case 0x28, 0x29, 0x3B, 0x2C, 0x5C:  // ( ) ; , backslash
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
            case 0x5B, 0x5D, 0x2D, 0x2B, 0x2A, 0x3D, 0x3C, 0x3E, 0x26, 0x21, 0x5E, 0x7C, 0x7E:
                c.pos += 1
                sink.add(start, c.pos, .operator)
            default:
                if ASCII.isIdentifierStart(b) {
                    expect = word(&c, state: &state, into: &sink)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            }
        }
        if queued {
            if state.stack.count < Self.maxStack {
                state.stack.append(state.mode)
                state.mode = Self.heredoc
            } else {
                state.terminator.removeAll()
            }
        }
    }

    private func push(_ mode: UInt16, state: inout LexState) {
        guard state.stack.count < Self.maxStack || state.mode == 0 else { return }
        if state.mode != 0 { state.stack.append(state.mode) }
        state.mode = mode
    }

    /// An identifier in code; returns what it makes of the next token.
    private func word(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Expect {
        let line = c.line
        let start = c.pos
        guard let word = c.identifier() else { return .none }
        let next = c.peek()
        let asciiStart = line[start] < 0x80
        let flags = asciiStart ? words.flags(line, word) : 0
        if flags != 0 {
            let spaced = c.atEnd || ASCII.isSpace(next)
            if flags & Self.isDef != 0 && (spaced || LineCursor.contains("*%&^`~+-/[<>=", next)) {
                sink.add(word, .keyword)
                return .methodName
            }
            if flags & Self.isClass != 0 && spaced {
                sink.add(word, .keyword)
                return .className
            }
            if flags & Self.isModule != 0 && spaced {
                // The module's path (`A::B`) is plain.
                sink.add(word, .keyword)
                c.skipSpaces()
                let path = c.pos
                while ASCII.isLetter(c.peek()) || c.peek() == 0x5F {
                    _ = c.identifier()
                    guard c.at("::"), ASCII.isLetter(c.peek(2)) || c.peek(2) == 0x5F else { break }
                    c.pos += 2
                }
                sink.add(path, c.pos, .plain)
                return .none
            }
            if flags & (Self.keyword | Self.pseudo | Self.wordOperator) != 0 {
                sink.add(word, .keyword)
                return .none
            }
            if flags & Self.predicate != 0 && next == 0x3F || flags & Self.bang != 0 && next == 0x21 {
                c.pos += 1
                sink.add(start, c.pos, .builtin)
                return .none
            }
            if flags & Self.builtin != 0 && c[start - 1] != 0x2E {
                sink.add(word, .builtin)
                return .none
            }
            if flags & Self.pseudoBuiltin != 0 {
                sink.add(word, .keyword)
                return .none
            }
            if flags & Self.isEnd != 0 {
                c.skipToEnd()
                sink.add(start, c.pos, .attribute)
                state.mode = Self.data
                return .none
            }
        }
        if asciiStart && next == 0x3A && c.peek(1) != 0x3A {  // label:
            sink.add(word, .string)
            c.pos += 1
            sink.add(word.upperBound, c.pos, .punctuation)
            return .none
        }
        if ASCII.isUpper(line[start]) && word.count > 1 {
            sink.add(word, .constant)
            return .none
        }
        if next == 0x3F || next == 0x21 { c.pos += 1 }
        sink.add(start, c.pos, .plain)
        return .none
    }

    /// After `def `: `self.` (a type) and the method's name, which may be an operator.
    private func methodName(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        let line = c.line
        let start = c.pos
        var k = start
        var scope: Range<Int>?
        if ASCII.isLetter(c[k]) || c[k] == 0x5F {
            while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
            if c[k] == 0x2E {
                scope = start..<k
                k += 1
            } else {
                k = start
            }
        }
        let nameStart = k
        let b = c[k]
        if ASCII.isLetter(b) || b >= 0x80 {
            while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
            if LineCursor.contains("!?=", c[k]) { k += 1 }
        } else {
            let n = operatorMethodLength(c, at: k)
            guard n > 0 else { return false }
            k += n
        }
        if let scope {
            sink.add(scope, .type)
            sink.add(scope.upperBound, nameStart, .operator)
        }
        sink.add(nameStart, k, .function)
        c.pos = k
        return true
    }

    /// The length of an operator method name at `k` (`==`, `<=>`, `[]=`, `+@`...), 0 if none.
    private func operatorMethodLength(_ c: LineCursor, at k: Int) -> Int {
        let b = c[k], n = c[k + 1]
        switch b {
        case 0x21: return n == 0x3D || n == 0x7E || n == 0x40 ? 2 : 1  // != !~ !@ !
        case 0x3D: return n == 0x7E ? 2 : n == 0x3D ? (c[k + 2] == 0x3D ? 3 : 2) : 0  // =~ == ===
        case 0x2A: return n == 0x2A ? 2 : 1
        case 0x2D, 0x2B, 0x7E: return n == 0x40 ? 2 : 1
        case 0x2F, 0x25, 0x26, 0x7C, 0x5E: return 1
        case 0x3C:
            if n == 0x3D { return c[k + 2] == 0x3E ? 3 : 2 }
            return n == 0x3C ? 2 : 1
        case 0x3E: return n == 0x3E || n == 0x3D ? 2 : 1
        case 0x5B: return n == 0x5D ? (c[k + 2] == 0x3D ? 3 : 2) : 0
        case 0x60: return 1
        default: return 0
        }
    }

    /// After `class `: `<<` or the class's name.
    private func className(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        if c.at("<<") {
            c.pos += 2
            sink.add(start, c.pos, .operator)
            return true
        }
        guard ASCII.isUpper(c.peek()) || c.peek() == 0x5F, let name = c.identifier() else { return false }
        sink.add(name, .type)
        return true
    }

    /// `::`, a symbol (`:name`, `:+`, `:"..."`) or a lone `:`.
    private func colon(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        let n = c.peek(1)
        if n == 0x3A {
            c.pos += 2
            sink.add(start, c.pos, .operator)
            return
        }
        if n == 0x22 {
            c.pos += 2
            sink.add(start, c.pos, .string)
            push(Self.mode(Self.escaped, close: 0x22), state: &state)
            return
        }
        if n == 0x27 {
            c.pos += 2
            sink.add(start, c.pos, .string)
            push(Self.mode(Self.literal, close: 0x27), state: &state)
            return
        }
        var k = start + 1
        while k < start + 3 && c[k] == 0x40 { k += 1 }
        if ASCII.isLetter(c[k]) || c[k] == 0x5F {
            c.pos = k
            _ = c.identifier()
            if c.peek() == 0x3F || c.peek() == 0x21 { c.pos += 1 }
            sink.add(start, c.pos, .string)
            return
        }
        let op = symbolOperatorLength(c, at: k)
        c.pos = op > 0 ? k + op : start + 1
        sink.add(start, c.pos, op > 0 ? .string : .punctuation)
    }

    /// The length of an operator symbol's name at `k` (`+`, `<=>`, `[]=`, `-@`...), 0 if none.
    private func symbolOperatorLength(_ c: LineCursor, at k: Int) -> Int {
        let b = c[k], n = c[k + 1]
        switch b {
        case 0x2A: return n == 0x2A ? 2 : 1
        case 0x2D, 0x2B: return n == 0x40 ? 2 : 1
        case 0x2F, 0x25, 0x26, 0x7C, 0x5E, 0x60, 0x7E: return 1
        case 0x5B: return n == 0x5D ? (c[k + 2] == 0x3D ? 3 : 2) : 0
        case 0x3C:
            if n == 0x3C || n == 0x3E { return 2 }
            if n == 0x3D { return c[k + 2] == 0x3E ? 3 : 2 }
            return 1
        case 0x3E: return n == 0x3E || n == 0x3D ? 2 : 1
        case 0x3D: return n == 0x3D ? (c[k + 2] == 0x3D ? 3 : 2) : 0
        default: return 0
        }
    }

    /// A character literal after `?` (the position): its end, if it is one.
    private func characterLiteral(_ c: LineCursor) -> Int? {
        var k = c.pos
        while c[k] == 0x5C && (c[k + 1] == 0x4D || c[k + 1] == 0x43) && c[k + 2] == 0x2D { k += 3 }  // \M- \C-
        let b = c[k]
        if b == 0x5C {
            let n = c[k + 1]
            var end = 0
            if LineCursor.contains("\\abefnrstv#\"'", n) {
                end = k + 2
            } else if n == 0x78 && ASCII.isHexDigit(c[k + 2]) {
                end = k + 3
                if ASCII.isHexDigit(c[end]) { end += 1 }
            } else if n &- 0x30 < 8 {
                end = k + 2
                while end < k + 4 && c[end] &- 0x30 < 8 { end += 1 }
            }
            if end > 0 && !ASCII.isIdentifierByte(c[end]) { return end }
        }
        guard k < c.count, !ASCII.isSpace(b) else { return nil }
        var end = k + 1
        if b >= 0x80 { while end < c.count && c[end] & 0xC0 == 0x80 { end += 1 } }
        return ASCII.isIdentifierByte(c[end]) ? nil : end
    }

    /// Whether the `/` at the position starts a regex rather than dividing.
    private func startsRegex(_ c: LineCursor) -> Bool {
        var k = c.pos - 1
        while k >= 0 && ASCII.isSpace(c[k]) { k -= 1 }
        if k < 0 { return true }
        let previous = c[k]
        if LineCursor.contains("=<>~!:", previous) { return true }
        let spaced = k < c.pos - 1
        if !spaced { return previous == 0x28 || previous == 0x2C || previous == 0x5B }
        let next = c.peek(1)
        return c.pos + 1 < c.count && !ASCII.isSpace(next) && next != 0x3D
    }

    /// A `%` literal at the position: opens it and returns true, or returns false.
    private func percentLiteral(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        var k = start + 1
        var type = c[k]
        if LineCursor.contains("qwsiQWIxr", type) {
            k += 1
        } else {
            type = 0
        }
        let delimiter = c[k]
        guard k < c.count, delimiter < 0x80, !ASCII.isLetter(delimiter), !ASCII.isDigit(delimiter),
              !ASCII.isSpace(delimiter) else { return false }
        if type == 0 && delimiter == 0x3D { return false }  // %=
        let close: UInt8
        switch delimiter {
        case 0x28: close = 0x29
        case 0x5B: close = 0x5D
        case 0x7B: close = 0x7D
        case 0x3C: close = 0x3E
        default: close = delimiter
        }
        let bracket = close != delimiter
        let kind: UInt16
        switch type {
        case 0x71, 0x77, 0x73, 0x69: kind = Self.literal
        case 0x72: kind = Self.regex
        default: kind = bracket ? Self.escaped : Self.interpolated
        }
        c.pos = k + 1
        sink.add(start, c.pos, .string)
        push(Self.mode(kind, close: close), state: &state)
        return true
    }

    /// A heredoc's start at the position (`<<~EOS`, `<<-'SQL'`): reports it and
    /// queues its terminator (when `queue`). Returns false if there is none.
    private func heredocStart(_ c: inout LineCursor, queue: Bool, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        if ASCII.isIdentifierByte(c[start - 1]) { return false }
        var k = start + 2
        var flags: UInt8 = Self.interpolating
        if c[k] == 0x2D || c[k] == 0x7E {
            flags |= Self.tolerant
            k += 1
        }
        let opEnd = k
        var quote: UInt8 = 0
        if c[k] == 0x22 || c[k] == 0x27 || c[k] == 0x60 {
            quote = c[k]
            if quote == 0x27 { flags &= ~Self.interpolating }
            k += 1
        }
        guard ASCII.isLetter(c[k]) || c[k] == 0x5F else { return false }
        let nameStart = k
        while k < c.count && ASCII.isIdentifierByte(c[k]) { k += 1 }
        let nameEnd = k
        if quote != 0 {
            guard c[k] == quote else { return false }
            k += 1
        }
        sink.add(start, opEnd, .operator)
        sink.add(opEnd, k, .string)
        c.pos = k
        let count = nameEnd - nameStart
        if queue && state.terminator.count + count + 2 <= Self.maxTerminator {
            state.terminator.append(flags)
            state.terminator.append(UInt8(count))
            state.terminator.append(contentsOf: UnsafeBufferPointer(rebasing: c.line[nameStart..<nameEnd]))
        }
        return true
    }

    /// In a heredoc at a line's start: if the line is the first queued terminator,
    /// reports it, dequeues it and returns true (the line is done).
    private func heredocEnd(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) -> Bool {
        guard state.terminator.count >= 2 else {
            state.mode = state.stack.popLast() ?? 0
            return false
        }
        let flags = state.terminator[0]
        let count = Int(state.terminator[1])
        var lo = 0, hi = line.count
        while hi > lo && ASCII.isSpace(line[hi - 1]) { hi -= 1 }
        if flags & Self.tolerant != 0 { while lo < hi && ASCII.isSpace(line[lo]) { lo += 1 } }
        guard hi - lo == count, 2 + count <= state.terminator.count else { return false }
        for i in 0..<count where line[lo + i] != state.terminator[2 + i] { return false }
        sink.add(lo, hi, .string)
        state.terminator.removeFirst(2 + count)
        if state.terminator.isEmpty { state.mode = state.stack.popLast() ?? 0 }
        return true
    }

    /// A string's (or regex's, or heredoc line's) body from the position, to its
    /// close, an interpolation or the line's end.
    private func stringBody(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let line = c.line
        let mode = state.mode
        let kind = Self.kind(mode)
        let close = Self.close(mode)
        let open: UInt8
        switch close {
        case 0x29: open = 0x28
        case 0x5D: open = 0x5B
        case 0x7D: open = 0x7B
        case 0x3E: open = 0x3C
        default: open = 0
        }
        var depth = Self.depth(mode)
        let isHeredoc = kind == Self.heredoc
        let interpolates = kind != Self.literal && (!isHeredoc || (state.terminator.first ?? 0) & Self.interpolating != 0)
        let escapes = kind == Self.escaped || (isHeredoc && interpolates)
        var run = c.pos
        while c.pos < line.count {
            let b = line[c.pos]
            if b == 0x5C {  // backslash
                let n = c.peek(1)
                if kind != Self.escaped && !escapes {
                    c.pos += (n == close || n == 0x5C || (n == open && open != 0)) && c.pos + 1 < line.count ? 2 : 1
                    continue
                }
                if open != 0 && (n == 0x5C || n == open || n == close) {
                    c.pos += 2
                    continue
                }
                let e = escapeLength(c)
                if e > 0 {
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, c.pos + e, .stringEscape)
                    c.pos += e
                    run = c.pos
                } else {
                    c.pos += 1
                }
                continue
            }
            if b == 0x23 && interpolates {  // #
                let n = c.peek(1)
                if n == 0x7B {
                    sink.add(run, c.pos, .string)
                    sink.add(c.pos, c.pos + 2, .stringEscape)
                    c.pos += 2
                    if state.stack.count < Self.maxStack {
                        state.stack.append(Self.mode(kind, close: close, depth: depth))
                        state.mode = Self.interpolation
                        return
                    }
                    run = c.pos
                    continue
                }
                if n == 0x40 || n == 0x24 {
                    var k = c.pos + 2
                    if n == 0x40 && c[k] == 0x40 { k += 1 }
                    if ASCII.isLetter(c[k]) || c[k] == 0x5F {
                        while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
                        sink.add(run, c.pos, .string)
                        sink.add(c.pos, k, .stringEscape)
                        c.pos = k
                        run = k
                        continue
                    }
                }
                c.pos += 1
                continue
            }
            if isHeredoc {
                c.pos += 1
                continue
            }
            if b == open && open != 0 {
                depth = min(depth + 1, 15)
            } else if b == close {
                if depth > 0 {
                    depth -= 1
                } else {
                    c.pos += 1
                    if kind == Self.regex {
                        while c.pos < line.count && LineCursor.contains("mixounse", line[c.pos]) { c.pos += 1 }
                    }
                    sink.add(run, c.pos, .string)
                    state.mode = state.stack.popLast() ?? 0
                    return
                }
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
        if !isHeredoc { state.mode = Self.mode(kind, close: close, depth: depth) }
    }

    /// The length of a string escape at the position (a backslash), 0 if none.
    private func escapeLength(_ c: LineCursor) -> Int {
        let n = c.peek(1)
        if LineCursor.contains("\\abefnrstv#\"'", n) { return 2 }
        if n == 0x78 && ASCII.isHexDigit(c.peek(2)) { return ASCII.isHexDigit(c.peek(3)) ? 4 : 3 }
        if n &- 0x30 < 8 {
            var k = 2
            while k < 4 && c.peek(k) &- 0x30 < 8 { k += 1 }
            return k
        }
        return 0
    }

    /// A number: `0x`, `0b`, `0o`, `0d`, octal, decimal with `_`, fraction,
    /// exponent, and the `r`/`i` suffixes.
    private func number(_ c: inout LineCursor) {
        if c.peek() == 0x30, LineCursor.contains("xXbBoOdD", c.peek(1)), ASCII.isHexDigit(c.peek(2)) {
            c.pos += 2
            while ASCII.isHexDigit(c.peek()) || (c.peek() == 0x5F && ASCII.isHexDigit(c.peek(1))) { c.pos += 1 }
            return
        }
        digits(&c)
        if c.peek() == 0x2E && ASCII.isDigit(c.peek(1)) {
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
        if c.peek() == 0x72 { c.pos += 1 }
        if c.peek() == 0x69 { c.pos += 1 }
        if ASCII.isIdentifierByte(c.peek()) {
            // `3times`: the number ends at the digits, as Pygments has it.
            while c.pos > 0 && !ASCII.isDigit(c[c.pos - 1]) { c.pos -= 1 }
        }
    }

    private func digits(_ c: inout LineCursor) {
        while ASCII.isDigit(c.peek()) || (c.peek() == 0x5F && ASCII.isDigit(c.peek(1))) { c.pos += 1 }
    }
}
