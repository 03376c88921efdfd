/// Byte scans the C-family lexers share.
enum CFamilyScan {
    @inline(__always) static func isOctal(_ b: UInt8) -> Bool { b &- 0x30 < 8 }
    @inline(__always) static func isBinary(_ b: UInt8) -> Bool { b &- 0x30 < 2 }

    /// The byte at `i`, 0 past the end.
    @inline(__always)
    static func at(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt8 { i < line.count ? line[i] : 0 }

    /// The end of the character (code point) starting at `i`.
    @inline(__always)
    static func characterEnd(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var j = i + 1
        while j < line.count && line[j] & 0xC0 == 0x80 && j - i < 4 { j += 1 }
        return j
    }

    /// The end of an identifier (`[\w$]+`, non-ASCII bytes included) starting at `i`.
    @inline(__always)
    static func identifierEnd(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var j = i
        while j < line.count && (ASCII.isIdentifierByte(line[j]) || line[j] == 0x24) { j += 1 }
        return j
    }

    /// Digits of one class with single `'` separators between them (C++14), from `i`.
    @inline(__always)
    static func separatedDigits(_ line: UnsafeBufferPointer<UInt8>, _ i: Int, _ isDigit: (UInt8) -> Bool) -> Int? {
        guard i < line.count, isDigit(line[i]) else { return nil }
        var j = i + 1
        while j < line.count {
            if isDigit(line[j]) {
                j += 1
            } else if line[j] == 0x27 && j + 1 < line.count && isDigit(line[j + 1]) {
                j += 2
            } else {
                break
            }
        }
        return j
    }

    /// A C or C++ number at `p` (an optional `-` first), following Pygments' rules in
    /// their order: hex floats, floats with exponents, plain floats, hex, binary,
    /// octal, decimal; integer suffixes `u l ll z`. Nil if none starts there.
    static func cNumber(_ line: UnsafeBufferPointer<UInt8>, _ p: Int) -> Int? {
        let negative = line[p] == 0x2D
        let s = negative ? p + 1 : p
        let dec = ASCII.isDigit, hex = ASCII.isHexDigit
        func fsuffix(_ i: Int) -> Int {
            let b = at(line, i) | 0x20
            return b == 0x66 || b == 0x6C ? i + 1 : i
        }
        func exponent(_ i: Int, _ letter: UInt8, _ digits: (UInt8) -> Bool) -> Int? {
            guard at(line, i) | 0x20 == letter else { return nil }
            var j = i + 1
            if at(line, j) == 0x2B || at(line, j) == 0x2D { j += 1 }
            return separatedDigits(line, j, digits)
        }
        let zero = at(line, s) == 0x30, x = at(line, s + 1) | 0x20
        if !negative && zero && x == 0x78 {
            let h = s + 2
            func hexExponent(_ i: Int) -> Int? {
                guard let e = exponent(i, 0x70, hex) else { return nil }
                return at(line, e) | 0x20 == 0x6C ? e + 1 : e
            }
            if let a = separatedDigits(line, h, hex), at(line, a) == 0x2E, let b = separatedDigits(line, a + 1, hex),
               let r = hexExponent(b) { return r }
            if at(line, h) == 0x2E, let b = separatedDigits(line, h + 1, hex), let r = hexExponent(b) { return r }
            if let a = separatedDigits(line, h, hex), let r = hexExponent(a) { return r }
        }
        let whole = separatedDigits(line, s, dec)
        if let a = whole, at(line, a) == 0x2E, let b = separatedDigits(line, a + 1, dec), let e = exponent(b, 0x65, dec) {
            return fsuffix(e)
        }
        if at(line, s) == 0x2E, let b = separatedDigits(line, s + 1, dec), let e = exponent(b, 0x65, dec) {
            return fsuffix(e)
        }
        if let a = whole, let e = exponent(a, 0x65, dec) { return fsuffix(e) }
        if let a = whole, at(line, a) == 0x2E { return fsuffix(separatedDigits(line, a + 1, dec) ?? a + 1) }
        if at(line, s) == 0x2E, let b = separatedDigits(line, s + 1, dec) { return fsuffix(b) }
        if !negative, let a = whole, fsuffix(a) > a { return a + 1 }
        if zero && x == 0x78, let a = separatedDigits(line, s + 2, hex) { return integerSuffix(line, a) }
        if zero && x == 0x62, let a = separatedDigits(line, s + 2, isBinary) { return integerSuffix(line, a) }
        if zero, let a = separatedDigits(line, s + 1, isOctal) { return integerSuffix(line, a) }
        if zero && at(line, s + 1) == 0x27, let a = separatedDigits(line, s + 2, isOctal) { return integerSuffix(line, a) }
        if let a = whole { return integerSuffix(line, a) }
        return nil
    }

    /// Pygments' C integer suffix: `[uU]?[zZ]`, `[uU][lL]{0,2}` or `[lL]{1,2}[uU]?`.
    private static func integerSuffix(_ line: UnsafeBufferPointer<UInt8>, _ e: Int) -> Int {
        let b0 = at(line, e) | 0x20, b1 = at(line, e + 1) | 0x20
        if b0 == 0x75 && b1 == 0x7A { return e + 2 }
        if b0 == 0x7A { return e + 1 }
        if b0 == 0x75 {
            var j = e + 1
            if at(line, j) | 0x20 == 0x6C { j += 1; if at(line, j) | 0x20 == 0x6C { j += 1 } }
            return j
        }
        if b0 == 0x6C {
            var j = e + 1
            if at(line, j) | 0x20 == 0x6C { j += 1 }
            if at(line, j) | 0x20 == 0x75 { j += 1 }
            return j
        }
        return e
    }

    /// A character literal at `q` (the opening quote) as Pygments' C lexer takes it:
    /// one character or one escape; nil if it is not one.
    static func cCharacter(_ line: UnsafeBufferPointer<UInt8>, _ q: Int) -> Int? {
        let i = q + 1
        guard i < line.count else { return nil }
        let b = line[i]
        if b == 0x5C {
            guard i + 1 < line.count else { return nil }
            let a = characterEnd(line, i + 1)
            if at(line, a) == 0x27 { return a + 1 }
            var j = i + 1, k = 0
            while k < 3 && isOctal(at(line, j)) { j += 1; k += 1 }
            if k > 0 && at(line, j) == 0x27 { return j + 1 }
            if line[i + 1] == 0x78 {
                j = i + 2; k = 0
                while k < 2 && ASCII.isHexDigit(at(line, j)) { j += 1; k += 1 }
                if k > 0 && at(line, j) == 0x27 { return j + 1 }
            }
            return nil
        }
        if b == 0x27 { return nil }
        let a = characterEnd(line, i)
        return at(line, a) == 0x27 ? a + 1 : nil
    }

    /// The position after the next `a b` pair (`*/`) at or after `from`, nil if none.
    static func find(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ a: UInt8, _ b: UInt8) -> Int? {
        var i = from
        while i + 1 < line.count {
            if line[i] == a && line[i + 1] == b { return i + 2 }
            i += 1
        }
        return nil
    }

    /// Whether a byte order mark (U+FEFF) starts at `i`: not part of a name.
    @inline(__always)
    static func isByteOrderMark(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        line[i] == 0xEF && at(line, i + 1) == 0xBB && at(line, i + 2) == 0xBF
    }

    /// Whether the line's last byte is a backslash (a line continuation).
    @inline(__always)
    static func continues(_ line: UnsafeBufferPointer<UInt8>) -> Bool { line.count > 0 && line[line.count - 1] == 0x5C }
}

/// C and C++ (the body of `CLexer` and `CppLexer`), modelled on Pygments' C-family
/// lexer so that the two agree on what they both see.
///
/// Pygments tracks where a statement starts: at the top level (and directly in a
/// struct or class body) `type name(params) {` or `;` makes `name` a function, and
/// the braces of a function body nest until the closing one. That position is the
/// line state's "frame" (top level, inside a statement, inside a function body,
/// inside a signature), so a signature split over lines still ends in the right
/// frame. Preprocessor lines are attributes (`#include`'s file a string), with
/// backslash continuations; `#if 0` blocks are comments; a backslash at the end of
/// a `//` comment or a string carries it to the next line; `case` labels are
/// constants. C++ adds raw strings `R"delim(...)delim"` across lines, class names
/// after `class`/`typename`/`enum class`, and its keywords.
struct CFamilyLexerCore: Sendable {
    let cpp: Bool
    private let words: WordTable

    // Word classes.
    private static let keyword: UInt32 = 1, type: UInt32 = 2, reservedType: UInt32 = 3, builtin: UInt32 = 4,
        libraryType: UInt32 = 5, structWord: UInt32 = 6, classWord: UInt32 = 7, enumWord: UInt32 = 8,
        namespaceWord: UInt32 = 9, caseWord: UInt32 = 10

    // Lexical modes: the low 4 bits of LexState.mode.
    private static let code: UInt16 = 0, blockComment: UInt16 = 1, lineComment: UInt16 = 2, string: UInt16 = 3,
        macro: UInt16 = 4, macroComment: UInt16 = 5, disabled: UInt16 = 6, raw: UInt16 = 7
    // `struct`, `class` or `enum` ended the line: the next line's first name is the type's.
    private static let classNamePending: UInt16 = 8, enumNamePending: UInt16 = 9
    // Frames: bits 4-6. `params` and `tail` are a function signature before its `{` or `;`.
    private static let root: UInt16 = 0, statement: UInt16 = 1, function: UInt16 = 2, params: UInt16 = 3, tail: UInt16 = 4
    // After `namespace`: a statement whose names are all plain.
    private static let namespace: UInt16 = 5
    // A return type ended the line: the next may name a function (else the top
    // level goes on after a type keyword, a statement after another name).
    private static let maybeAfterType: UInt16 = 6, maybeAfterName: UInt16 = 7
    // Bit 7: inside a `case` label; bits 8-15: `#if 0` nesting.

    private static let baseKeywords = """
        asm auto break const constexpr continue default do else extern for goto if register restricted \
        return sizeof static switch typedef typeof typeof_unqual volatile while thread_local alignas alignof \
        static_assert _Pragma fortran inline _inline __inline naked restrict thread __m128i __m128d __m128 __m64 \
        __asm __based __except __stdcall __cdecl __fastcall __declspec __finally __try __leave __w64 __unaligned \
        __raise __noop __identifier __forceinline __assume __null
        """
    private static let baseTypes = "bool int long float short double char unsigned signed void _BitInt __int128"
    /// Keywords that Pygments lists with the types (so a function's return type may be one).
    private static let reservedTypes = "__int8 __int16 __int32 __int64 __wchar_t"
    private static let libraryTypes = """
        size_t ssize_t off_t wchar_t ptrdiff_t sig_atomic_t fpos_t clock_t time_t va_list jmp_buf FILE DIR div_t \
        ldiv_t mbstate_t wctrans_t wint_t wctype_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t \
        uint64_t int_least8_t int_least16_t int_least32_t int_least64_t uint_least8_t uint_least16_t \
        uint_least32_t uint_least64_t int_fast8_t int_fast16_t int_fast32_t int_fast64_t uint_fast8_t \
        uint_fast16_t uint_fast32_t uint_fast64_t intptr_t uintptr_t intmax_t uintmax_t clockid_t cpu_set_t \
        cpumask_t dev_t gid_t id_t ino_t key_t mode_t nfds_t pid_t rlim_t sig_t sighandler_t siginfo_t sigset_t \
        sigval_t socklen_t timer_t uid_t atomic_bool atomic_char atomic_schar atomic_uchar atomic_short \
        atomic_ushort atomic_int atomic_uint atomic_long atomic_ulong atomic_llong atomic_ullong atomic_char16_t \
        atomic_char32_t atomic_wchar_t atomic_int_least8_t atomic_uint_least8_t atomic_int_least16_t \
        atomic_uint_least16_t atomic_int_least32_t atomic_uint_least32_t atomic_int_least64_t \
        atomic_uint_least64_t atomic_int_fast8_t atomic_uint_fast8_t atomic_int_fast16_t atomic_uint_fast16_t \
        atomic_int_fast32_t atomic_uint_fast32_t atomic_int_fast64_t atomic_uint_fast64_t atomic_intptr_t \
        atomic_uintptr_t atomic_size_t atomic_ptrdiff_t atomic_intmax_t atomic_uintmax_t
        """
    private static let cWords = WordTable(kinds: [
        (keyword, """
            _Alignas _Alignof _Noreturn _Countof _Generic _Thread_local _Static_assert _Imaginary countof noreturn \
            imaginary complex enum
            """),
        (structWord, "struct union"), (caseWord, "case"), (keyword, baseKeywords),
        (type, "_Bool _Complex _Atomic _Decimal32 _Decimal64 _Decimal128"), (reservedType, reservedTypes), (type, baseTypes), (builtin, "true false NULL nullptr"), (libraryType, libraryTypes),
    ])
    private static let cppWords = WordTable(kinds: [
        (classWord, "class concept typename"),
        (keyword, """
            catch const_cast delete dynamic_cast explicit export friend mutable new operator private protected public \
            reinterpret_cast __restrict static_cast template this throw throws try typeid using virtual decltype \
            noexcept override final constinit consteval co_await co_return co_yield requires import module and \
            and_eq bitand bitor compl not not_eq or or_eq xor xor_eq contract_assert pre post
            """),
        (namespaceWord, "namespace"), (enumWord, "enum"), (structWord, "struct union"), (caseWord, "case"),
        (keyword, baseKeywords), (type, "char16_t char32_t char8_t"), (reservedType, reservedTypes), (type, baseTypes), (builtin, "true false NULL nullptr"), (libraryType, libraryTypes),
    ])

    init(cpp: Bool) {
        self.cpp = cpp
        words = cpp ? Self.cppWords : Self.cWords
    }

    /// Where the lexer is in a line, and the state it leaves.
    private struct Run {
        var pos = 0
        var mode: UInt16
        var frame: UInt16
        var depth: UInt16
        var inCase: Bool
        var disabledDepth: UInt16

        init(_ state: LexState) {
            mode = state.mode & 0xF
            frame = (state.mode >> 4) & 0x7
            inCase = state.mode & 0x80 != 0
            disabledDepth = state.mode >> 8
            depth = state.depth
        }

        var packed: UInt16 { mode | frame << 4 | (inCase ? 0x80 : 0) | disabledDepth << 8 }

        /// A statement token begins: the top level becomes a statement; a quote or
        /// a stray `/` after a signature means it was not one.
        @inline(__always)
        mutating func open(breaking: Bool = false) {
            if inCase { return }
            if frame == root {
                frame = statement
            } else if breaking && (frame == params || frame == tail) {
                frame = statement
            }
        }
    }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var r = Run(state)
        run(line, &r, &state.terminator, &sink)
        if r.mode != Self.raw && !state.terminator.isEmpty { state.terminator = [] }
        state.mode = r.packed
        state.depth = r.depth
    }

    private func run(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ terminator: inout [UInt8],
                     _ sink: inout TokenSink) {
        let n = line.count
        switch r.mode {
        case Self.blockComment:
            guard let e = CFamilyScan.find(line, 0, 0x2A, 0x2F) else { sink.add(0, n, .comment); return }
            sink.add(0, e, .comment)
            r.mode = Self.code
            r.pos = e
        case Self.lineComment:
            sink.add(0, n, .comment)
            if !CFamilyScan.continues(line) { r.mode = Self.code }
            return
        case Self.string:
            r.mode = Self.code
            string(line, &r, &sink)
        case Self.macro:
            r.mode = Self.code
            macro(line, 0, first: false, &r, &sink)
            return
        case Self.macroComment:
            guard let e = CFamilyScan.find(line, 0, 0x2A, 0x2F) else { sink.add(0, n, .comment); return }
            sink.add(0, e, .comment)
            r.mode = Self.code
            macro(line, e, first: false, &r, &sink)
            return
        case Self.disabled:
            disabled(line, &r, &sink)
            return
        case Self.raw:
            guard let e = find(line, 0, terminator) else { sink.add(0, n, .string); return }
            sink.add(0, e, .string)
            r.mode = Self.code
            r.pos = e
        default:
            let pending = r.mode
            r.mode = Self.code
            var i = 0
            while i < n && ASCII.isSpace(line[i]) { i += 1 }
            if i < n && line[i] == 0x23 {
                if r.frame >= Self.maybeAfterType { r.frame = r.frame == Self.maybeAfterType ? Self.root : Self.statement }
                preprocessor(line, i, &r, &sink)
                return
            }
            r.pos = i
            if pending == Self.classNamePending || pending == Self.enumNamePending {
                if i == n {
                    r.mode = pending
                    return
                }
                className(line, i, isEnum: pending == Self.enumNamePending, &r, &sink)
            } else if r.frame >= Self.maybeAfterType && i < n && !isCommentStart(line, i) {
                resolve(line, &r, &sink)
            }
            if r.pos == i { label(line, &r, &sink) }
        }
        code(line, &r, &terminator, &sink)
    }

    private func find(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first else { return from }
        var i = from
        while i + bytes.count <= line.count {
            if line[i] == first {
                var k = 1
                while k < bytes.count && line[i + k] == bytes[k] { k += 1 }
                if k == bytes.count { return i + k }
            }
            i += 1
        }
        return nil
    }

    @inline(__always)
    private func isCommentStart(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        line[i] == 0x2F && (CFamilyScan.at(line, i + 1) == 0x2F || CFamilyScan.at(line, i + 1) == 0x2A)
    }

    /// A label at the line start (`fail:`, not `public:` or `default:`): its colon is punctuation.
    private func label(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        let start = r.pos
        guard start < line.count, ASCII.isIdentifierStart(line[start]) || line[start] == 0x24 else { return }
        let e = CFamilyScan.identifierEnd(line, start)
        var c = e
        while c < line.count && ASCII.isSpace(line[c]) { c += 1 }
        guard CFamilyScan.at(line, c) == 0x3A, CFamilyScan.at(line, c + 1) != 0x3A else { return }
        let cursor = LineCursor(line)
        for word: StaticString in ["public", "private", "protected", "default"]
        where e - start == word.utf8CodeUnitCount && cursor.at(word, start) { return }
        sink.add(start, e, .plain)
        sink.add(c, c + 1, .punctuation)
        r.pos = c + 1
    }

    /// A preprocessor line from its `#`: an attribute, `#include`'s file a string,
    /// `#if 0` the start of a disabled block.
    private func preprocessor(_ line: UnsafeBufferPointer<UInt8>, _ i: Int, _ r: inout Run, _ sink: inout TokenSink) {
        let cursor = LineCursor(line)
        if cursor.at("#if", i) && ASCII.isSpace(CFamilyScan.at(line, i + 3)) {
            var j = i + 3
            while j < line.count && ASCII.isSpace(line[j]) { j += 1 }
            if CFamilyScan.at(line, j) == 0x30 {
                sink.add(i, j + 1, .attribute)
                sink.add(j + 1, line.count, .comment)
                r.mode = Self.disabled
                r.disabledDepth = 1
                return
            }
        }
        sink.add(i, i + 1, .attribute)
        macro(line, i + 1, first: true, &r, &sink)
    }

    /// The body of a preprocessor line from `from`: attributes and comments; a
    /// backslash at the end continues it.
    private func macro(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, first: Bool, _ r: inout Run,
                       _ sink: inout TokenSink) {
        let n = line.count
        var i = from
        if first {
            var j = i
            while j < n && ASCII.isSpace(line[j]) { j += 1 }
            if LineCursor(line).at("include", j) {
                var m = j + 7
                while m < n && ASCII.isSpace(line[m]) { m += 1 }
                let open = CFamilyScan.at(line, m)
                if open == 0x22 || open == 0x3C {
                    let close: UInt8 = open == 0x22 ? 0x22 : 0x3E
                    var e = m + 1
                    while e < n && line[e] != close { e += 1 }
                    if e < n && e > m + 1 {
                        sink.add(j, j + 7, .attribute)
                        sink.add(m, e + 1, .string)
                        sink.add(e + 1, n, .comment)
                        return
                    }
                }
            }
        }
        while i < n {
            var j = i
            while j < n && line[j] != 0x2F { j += 1 }
            sink.add(i, j, .attribute)
            if j == n { break }
            let next = CFamilyScan.at(line, j + 1)
            if next == 0x2A {
                guard let e = CFamilyScan.find(line, j + 2, 0x2A, 0x2F) else {
                    sink.add(j, n, .comment)
                    r.mode = Self.macroComment
                    return
                }
                sink.add(j, e, .comment)
                i = e
            } else if next == 0x2F {
                sink.add(j, n, .comment)
                return
            } else {
                sink.add(j, j + 1, .attribute)
                i = j + 1
            }
        }
        if CFamilyScan.continues(line) { r.mode = Self.macro }
    }

    /// A line inside `#if 0`: a comment, or a directive that nests or ends the block.
    private func disabled(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        let n = line.count
        var i = 0
        while i < n && ASCII.isSpace(line[i]) { i += 1 }
        let c = LineCursor(line)
        let continued = CFamilyScan.continues(line)
        if c.at("#if", i) && !continued {
            sink.add(i, n, .attribute)
            r.disabledDepth = min(r.disabledDepth + 1, 0xFF)
        } else if c.at("#else", i) || c.at("#elif", i) || (c.at("#endif", i) && !continued) {
            sink.add(i, n, .attribute)
            r.disabledDepth = r.disabledDepth > 0 ? r.disabledDepth - 1 : 0
        } else {
            sink.add(i, n, .comment)
        }
        if r.disabledDepth == 0 { r.mode = Self.code }
    }

    /// A string's body from the position (after its opening quote), with its escapes.
    private func string(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        let n = line.count
        var run = r.pos, i = r.pos
        while i < n {
            let b = line[i]
            if b == 0x22 {
                sink.add(run, i + 1, .string)
                r.pos = i + 1
                return
            }
            if b == 0x5C {
                if i + 1 == n {
                    sink.add(run, n, .string)
                    r.pos = n
                    r.mode = Self.string
                    return
                }
                let length = escapeLength(line, i)
                if length > 0 {
                    sink.add(run, i, .string)
                    sink.add(i, i + length, .stringEscape)
                    i += length
                    run = i
                    continue
                }
            }
            i += 1
        }
        sink.add(run, n, .string)
        r.pos = n
        // Pygments starts over at the top level after a string left open.
        r.frame = Self.root
        r.depth = 0
        r.inCase = false
    }

    /// The length of the escape at `i` (a backslash), 0 for a stray backslash.
    private func escapeLength(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let b = line[i + 1]
        switch b {
        case 0x5C, 0x61, 0x62, 0x66, 0x6E, 0x72, 0x74, 0x76, 0x22, 0x27: return 2
        case 0x78:
            var k = 0
            while k < 4 && ASCII.isHexDigit(CFamilyScan.at(line, i + 2 + k)) { k += 1 }
            return k >= 2 ? 2 + k : 0
        case 0x75, 0x55:
            let want = b == 0x75 ? 4 : 8
            var k = 0
            while k < want && ASCII.isHexDigit(CFamilyScan.at(line, i + 2 + k)) { k += 1 }
            return k == want ? 2 + k : 0
        default:
            var k = 0
            while k < 3 && CFamilyScan.isOctal(CFamilyScan.at(line, i + 1 + k)) { k += 1 }
            return k > 0 ? 1 + k : 0
        }
    }

    private func code(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ terminator: inout [UInt8],
                      _ sink: inout TokenSink) {
        let n = line.count
        while r.pos < n {
            let start = r.pos
            let b = line[start]
            if r.frame >= Self.maybeAfterType && !ASCII.isSpace(b) && !isCommentStart(line, start) {
                resolve(line, &r, &sink)
                continue
            }
            switch b {
            case 0x20, 0x09, 0x0D, 0x0C, 0x0B:
                r.pos += 1
            case 0x2F:  // /
                let next = CFamilyScan.at(line, start + 1)
                if next == 0x2F {
                    sink.add(start, n, .comment)
                    if CFamilyScan.continues(line) { r.mode = Self.lineComment }
                    r.pos = n
                } else if next == 0x2A {
                    guard let e = CFamilyScan.find(line, start + 2, 0x2A, 0x2F) else {
                        sink.add(start, n, .comment)
                        r.mode = Self.blockComment
                        r.pos = n
                        return
                    }
                    sink.add(start, e, .comment)
                    r.pos = e
                } else {
                    r.open(breaking: r.frame == Self.tail)
                    sink.add(start, start + 1, .operator)
                    r.pos += 1
                }
            case 0x22:  // "
                r.open(breaking: true)
                r.pos += 1
                sink.add(start, r.pos, .string)
                string(line, &r, &sink)
            case 0x27:  // '
                r.open(breaking: true)
                if let e = CFamilyScan.cCharacter(line, start) {
                    sink.add(start, e, .string)
                    r.pos = e
                } else {
                    r.pos += 1
                }
            case 0x7B, 0x7D, 0x3B:  // { } ;
                r.pos += 1
                if r.inCase { continue }
                sink.add(start, r.pos, .punctuation)
                brace(b, &r)
            case 0x28, 0x29, 0x5B, 0x5D, 0x2C:  // ( ) [ ] ,
                r.open()
                sink.add(start, start + 1, .punctuation)
                r.pos += 1
                if b == 0x29 && r.frame == Self.params && !r.inCase { r.frame = Self.tail }
            case 0x2E:  // .
                r.open()
                if ASCII.isDigit(CFamilyScan.at(line, start + 1)), let e = CFamilyScan.cNumber(line, start) {
                    sink.add(start, e, .number)
                    r.pos = e
                } else {
                    sink.add(start, start + 1, .punctuation)
                    r.pos += 1
                }
            case 0x30...0x39:
                r.open()
                r.pos = CFamilyScan.cNumber(line, start) ?? start + 1
                sink.add(start, r.pos, .number)
            case 0x2D:  // -
                r.open()
                let next = CFamilyScan.at(line, start + 1)
                if ASCII.isDigit(next) || (next == 0x2E && ASCII.isDigit(CFamilyScan.at(line, start + 2))),
                   let e = CFamilyScan.cNumber(line, start) {
                    sink.add(start, e, .number)
                    r.pos = e
                } else {
                    sink.add(start, start + 1, .operator)
                    r.pos += 1
                }
            case 0x3A:  // :
                if r.frame == Self.root && !r.inCase && CFamilyScan.at(line, start + 1) == 0x3A
                    && ASCII.isIdentifierStart(CFamilyScan.at(line, start + 2)) && function(line, &r, &sink) {
                    continue
                }
                r.pos += 1
                if r.inCase && CFamilyScan.at(line, start + 1) != 0x3A && (start == 0 || line[start - 1] != 0x3A) {
                    sink.add(start, r.pos, .punctuation)
                    r.inCase = false
                } else {
                    r.open()
                    sink.add(start, r.pos, .operator)
                }
            case 0x7E, 0x21, 0x25, 0x5E, 0x26, 0x2A, 0x2B, 0x3D, 0x7C, 0x3F, 0x3C, 0x3E:  // ~ ! % ^ & * + = | ? < >
                r.open()
                sink.add(start, start + 1, .operator)
                r.pos += 1
            case 0x5C where start == n - 1:  // a line continuation
                r.pos += 1
            default:
                if (ASCII.isIdentifierStart(b) || b == 0x24) && !CFamilyScan.isByteOrderMark(line, start) {
                    identifier(line, &r, &terminator, &sink)
                } else {
                    r.open()
                    r.pos = CFamilyScan.characterEnd(line, start)
                }
            }
        }
    }

    @inline(__always)
    private func brace(_ b: UInt8, _ r: inout Run) {
        switch r.frame {
        case Self.root:
            if b == 0x7D { r.frame = Self.statement }
        case Self.statement, Self.namespace:
            if b != 0x7D { r.frame = Self.root }
        case Self.function:
            if b == 0x7B {
                r.depth = r.depth == .max ? r.depth : r.depth + 1
            } else if b == 0x7D {
                if r.depth <= 1 {
                    r.depth = 0
                    r.frame = Self.root
                } else {
                    r.depth -= 1
                }
            }
        case Self.params:
            if b == 0x3B { r.frame = Self.root }
        case Self.tail:
            if b == 0x7B {
                r.frame = Self.function
                r.depth = 1
            } else if b == 0x3B {
                r.frame = Self.root
            }
        default:
            break
        }
    }

    private func identifier(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ terminator: inout [UInt8],
                            _ sink: inout TokenSink) {
        let n = line.count
        let start = r.pos
        let e = CFamilyScan.identifierEnd(line, start)
        if r.inCase {
            sink.add(start, e, .constant)
            r.pos = e
            return
        }
        if r.frame == Self.namespace {
            sink.add(start, e, e - start == 6 && LineCursor(line).at("inline", start) ? .keyword : .plain)
            r.pos = e
            return
        }
        let quote = CFamilyScan.at(line, e)
        if (quote == 0x22 || quote == 0x27) && e - start <= 3 {
            if isStringPrefix(line, start, e) {
                if quote == 0x22 {
                    r.open(breaking: true)
                    sink.add(start, e + 1, .string)
                    r.pos = e + 1
                    string(line, &r, &sink)
                    return
                }
                if let end = CFamilyScan.cCharacter(line, e) {
                    r.open(breaking: true)
                    sink.add(start, end, .string)
                    r.pos = end
                    return
                }
            } else if cpp && quote == 0x22 && line[e - 1] == 0x52 && (e - start == 1 || isStringPrefix(line, start, e - 1)),
                      rawString(line, start, e, &r, &terminator, &sink) {
                return
            }
        }
        let cls = words.value(line, start, e)
        switch cls {
        case Self.keyword:
            sink.add(start, e, .keyword)
            r.pos = e
        case Self.structWord, Self.classWord, Self.enumWord:
            sink.add(start, e, .keyword)
            r.pos = e
            guard e == n || ASCII.isSpace(line[e]) else { return }
            var j = e
            while j < n && ASCII.isSpace(line[j]) { j += 1 }
            if j == n {
                r.mode = cls == Self.enumWord ? Self.enumNamePending : Self.classNamePending
                return
            }
            className(line, j, isEnum: cls == Self.enumWord, &r, &sink)
        case Self.namespaceWord:
            sink.add(start, e, .keyword)
            r.pos = e
            r.frame = Self.namespace
            r.depth = 0
        case Self.caseWord:
            sink.add(start, e, .keyword)
            r.pos = e
            r.inCase = true
        default:
            if r.frame == Self.root {
                if function(line, &r, &sink) { return }
                if cls != Self.type && cls != Self.reservedType { r.frame = Self.statement }
            }
            let kind: TokenKind
            switch cls {
            case Self.type, Self.libraryType: kind = .type
            case Self.reservedType: kind = .keyword
            case Self.builtin: kind = .builtin
            default: kind = .plain
            }
            sink.add(start, e, kind)
            r.pos = e
        }
    }

    /// The name a `struct`, `class` or `enum` (then maybe `class`) declares, from `j`.
    private func className(_ line: UnsafeBufferPointer<UInt8>, _ j: Int, isEnum: Bool, _ r: inout Run,
                           _ sink: inout TokenSink) {
        let n = line.count
        var j = j
        if isEnum && ASCII.isIdentifierStart(line[j]) {
            let w = CFamilyScan.identifierEnd(line, j)
            let c = LineCursor(line)
            if (w - j == 5 && c.at("class", j)) || (w - j == 6 && c.at("struct", j)) {
                sink.add(j, w, .keyword)
                r.pos = w
                j = w
                while j < n && ASCII.isSpace(line[j]) { j += 1 }
                if j == n {
                    r.mode = Self.classNamePending
                    return
                }
            }
        }
        if ASCII.isIdentifierStart(line[j]) || line[j] == 0x24 {
            let w = CFamilyScan.identifierEnd(line, j)
            sink.add(j, w, .type)
            r.pos = w
        }
    }

    /// Whether `line[start..<end]` is a string prefix: `L`, `u`, `U` or `u8`.
    @inline(__always)
    private func isStringPrefix(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        switch end - start {
        case 1: return line[start] == 0x4C || line[start] == 0x75 || line[start] == 0x55
        case 2: return line[start] == 0x75 && line[start + 1] == 0x38
        default: return false
        }
    }

    /// A C++ raw string from its prefix at `start` (its quote at `quote`), if it is one.
    private func rawString(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ quote: Int, _ r: inout Run,
                           _ terminator: inout [UInt8], _ sink: inout TokenSink) -> Bool {
        let n = line.count
        var d = quote + 1
        while d < n && d - quote - 1 <= 16 {
            let b = line[d]
            if b == 0x28 || b == 0x5C || b == 0x29 || ASCII.isSpace(b) { break }
            d += 1
        }
        guard d < n, line[d] == 0x28, d - quote - 1 <= 16 else { return false }
        r.open(breaking: true)
        var end: [UInt8] = [0x29]
        end.append(contentsOf: line[(quote + 1)..<d])
        end.append(0x22)
        if let e = find(line, d + 1, end) {
            sink.add(start, e, .string)
            r.pos = e
        } else {
            sink.add(start, n, .string)
            r.pos = n
            r.mode = Self.raw
            terminator = end
        }
        return true
    }

    /// At the top level, `type name(params)` followed by `{` or `;` (or a line end
    /// before either: the rest may follow): reports the return type and the name,
    /// and moves into the signature. Pygments' return type is one name (with `::`)
    /// followed by `&`, `*` or spaces; the name may start the next line
    /// (`static int` / `main(void)`), which the frame waits for.
    private func function(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) -> Bool {
        let n = line.count
        let start = r.pos
        let typeEnd = scopedIdentifierEnd(line, start)
        var j = typeEnd
        while j < n && (ASCII.isSpace(line[j]) || line[j] == 0x26 || line[j] == 0x2A) { j += 1 }
        if j == n {
            let isType = returnType(line, start, typeEnd, j, &sink)
            r.pos = n
            r.frame = isType ? Self.maybeAfterType : Self.maybeAfterName
            return true
        }
        guard j > typeEnd, let nameEnd = signature(line, j) else { return false }
        _ = returnType(line, start, typeEnd, j, &sink)
        sink.add(j, nameEnd, .function)
        r.pos = nameEnd
        r.frame = Self.params
        return true
    }

    /// The line after a return type that ended its line: a function's name and
    /// signature, or else the frame the return type alone leaves.
    private func resolve(_ line: UnsafeBufferPointer<UInt8>, _ r: inout Run, _ sink: inout TokenSink) {
        var j = r.pos
        while j < line.count && (ASCII.isSpace(line[j]) || line[j] == 0x26 || line[j] == 0x2A) { j += 1 }
        guard let nameEnd = signature(line, j) else {
            r.frame = r.frame == Self.maybeAfterType ? Self.root : Self.statement
            return
        }
        for p in r.pos..<j where !ASCII.isSpace(line[p]) { sink.add(p, p + 1, .operator) }
        sink.add(j, nameEnd, .function)
        r.pos = nameEnd
        r.frame = Self.params
    }

    /// Reports a return type `line[start..<end]` and the `&`/`*` up to `stop`;
    /// whether it is a type keyword (after which Pygments stays at the top level).
    private func returnType(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ stop: Int,
                            _ sink: inout TokenSink) -> Bool {
        var i = start
        var isType = false
        while i < end {
            if line[i] == 0x3A {
                sink.add(i, i + 2, .operator)
                i += 2
                continue
            }
            let w = CFamilyScan.identifierEnd(line, i)
            let kind: TokenKind
            let cls = words.value(line, i, w)
            switch cls {
            case Self.type, Self.libraryType: kind = .type
            case Self.builtin: kind = .builtin
            case 0: kind = .plain
            default: kind = .keyword
            }
            if i == start { isType = cls == Self.type || cls == Self.reservedType }
            sink.add(i, w, kind)
            i = w
        }
        for p in end..<stop where !ASCII.isSpace(line[p]) { sink.add(p, p + 1, .operator) }
        return isType
    }

    /// From `j`: a name (with `::`) followed by a parameter list without `;` or
    /// quotes, then `{` or `;` without quotes or `/` before it (or the line's end
    /// anywhere after the `(`). The name's end, nil if not.
    private func signature(_ line: UnsafeBufferPointer<UInt8>, _ j: Int) -> Int? {
        let n = line.count
        guard j < n,
              ASCII.isIdentifierStart(line[j]) || line[j] == 0x24 || (line[j] == 0x3A && CFamilyScan.at(line, j + 1) == 0x3A)
        else { return nil }
        let nameEnd = scopedIdentifierEnd(line, j)
        var k = nameEnd
        while k < n && ASCII.isSpace(line[k]) { k += 1 }
        guard k < n, line[k] == 0x28 else { return nil }
        k += 1
        while k < n && line[k] != 0x29 {
            let b = line[k]
            if b == 0x3B || b == 0x22 || b == 0x27 { return nil }
            k += 1
        }
        guard k < n else { return nameEnd }
        k += 1
        while k < n {
            let b = line[k]
            if b == 0x7B || b == 0x3B { break }
            if b == 0x22 || b == 0x27 { return nil }
            if b == 0x2F {
                let next = CFamilyScan.at(line, k + 1)
                if next == 0x2F { break }
                guard next == 0x2A, let e = CFamilyScan.find(line, k + 2, 0x2A, 0x2F) else {
                    if next == 0x2A { break }
                    return nil
                }
                k = e
                continue
            }
            k += 1
        }
        return nameEnd
    }

    /// The end of a name with `::` scopes from `i`.
    @inline(__always)
    private func scopedIdentifierEnd(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var j = i
        while j < line.count {
            let b = line[j]
            if ASCII.isIdentifierByte(b) || b == 0x24 {
                j += 1
            } else if b == 0x3A && CFamilyScan.at(line, j + 1) == 0x3A {
                j += 2
            } else {
                break
            }
        }
        return j
    }
}
