/// Swift: string interpolation `\( … )` nesting strings inside strings, multi-line
/// `"""` strings, raw strings `#"…"#` (their `#` count kept), nested block comments,
/// `#if` lines, attributes, numbers in every notation.
///
/// The state is a stack of frames: code (with its parenthesis depth inside an
/// interpolation), a string (single-line or multi-line, with its `#` count) or a
/// block comment (its nesting depth in `depth`). Top-level code is the implicit
/// bottom, so a plain string costs no push. A single-line string cannot span
/// lines, so one left open at a line's end is dropped with what it encloses.
///
/// Choices follow Pygments: a name after `func` is a function, after `class`,
/// `struct`, `enum`, `protocol`, `extension` a type, after `var`/`let` a variable;
/// the standard types (`Int`, `String`) are builtins, and the standard functions
/// Pygments lists (`print`, `map`, `count`) keywords, as its pseudo-builtins map;
/// modules after `import` are types; the parentheses of an interpolation are
/// escapes; `=`, `.`, `?`, `->` are punctuation, as are `<`, `&` before a name and
/// `>`, `!` after one; names on `#if` lines are attributes. Unlike Pygments, raw
/// strings, `\u{…}` escapes, hexadecimal floats, `some`/`any` and attributes
/// (`@MainActor`) are recognised, and `class func` keeps `func` a keyword.
struct SwiftLexer: LineLexer {
    // Frames (see `CurlyFamily.Frames`): a code frame keeps its parenthesis depth
    // inside an interpolation above the kind bits, a string its `#` count.
    private typealias Frames = CurlyFamily.Frames
    private static let code = Frames.code
    private static let comment = Frames.comment
    private static let string = Frames.string
    private static let multiLineString = Frames.multiLineString
    private static let maxHashes = 64
    private static let maxParens: UInt16 = 0x3FFF
    private static let maxCommentDepth: UInt16 = 1000

    // Word classes.
    private static let keyword: UInt32 = 1, constant: UInt32 = 2, importKeyword: UInt32 = 3, typeKeyword: UInt32 = 4
    private static let funcKeyword: UInt32 = 5, bindingKeyword: UInt32 = 6, modernKeyword: UInt32 = 7
    private static let builtinType: UInt32 = 8, builtinFunction: UInt32 = 9

    private let words = Self.wordsTable

    private static let wordsTable = WordTable(kinds: [
        (keyword, """
            as async await break case catch continue default defer do else fallthrough for guard if in is
            repeat return switch throw try where while
            associativity convenience dynamic didSet final get indirect infix inout lazy left mutating none
            nonmutating optional override postfix precedence prefix Protocol required rethrows right set throws
            Type unowned weak willSet
            actor associatedtype deinit init internal operator private public static subscript typealias
            """),
        (modernKeyword, "some any fileprivate nonisolated"),
        (constant, "dynamicType false nil self Self super true __COLUMN__ __FILE__ __FUNCTION__ __LINE__ _"),
        (importKeyword, "import"),
        (typeKeyword, "class enum extension struct protocol"),
        (funcKeyword, "func"),
        (bindingKeyword, "var let"),
        (builtinType, """
            Array AutoreleasingUnsafeMutablePointer BidirectionalReverseView Bit Bool CFunctionPointer COpaquePointer
            CVaListPointer Character ClosedInterval CollectionOfOne ContiguousArray Dictionary DictionaryGenerator
            DictionaryIndex Double EmptyCollection EmptyGenerator EnumerateGenerator EnumerateSequence
            FilterCollectionView FilterCollectionViewIndex FilterGenerator FilterSequenceView Float Float80
            FloatingPointClassification GeneratorOf GeneratorOfOne GeneratorSequence HalfOpenInterval HeapBuffer
            HeapBufferStorage ImplicitlyUnwrappedOptional IndexingGenerator Int Int16 Int32 Int64 Int8
            LazyBidirectionalCollection LazyForwardCollection LazyRandomAccessCollection LazySequence
            MapCollectionView MapSequenceGenerator MapSequenceView MirrorDisposition ObjectIdentifier OnHeap
            Optional PermutationGenerator QuickLookObject RandomAccessReverseView Range RangeGenerator RawByte Repeat
            ReverseBidirectionalIndex ReverseRandomAccessIndex SequenceOf SinkOf Slice StaticString StrideThrough
            StrideThroughGenerator StrideTo StrideToGenerator String UInt UInt16 UInt32 UInt64 UInt8 UTF16 UTF32
            UTF8 UnicodeDecodingResult UnicodeScalar Unmanaged UnsafeBufferPointer UnsafeBufferPointerGenerator
            UnsafeMutableBufferPointer UnsafeMutablePointer UnsafePointer Zip2 ZipGenerator2
            AbsoluteValuable AnyObject ArrayLiteralConvertible BidirectionalIndexType BitwiseOperationsType
            BooleanLiteralConvertible BooleanType CVarArgType CollectionType Comparable DebugPrintable
            DictionaryLiteralConvertible Equatable ExtendedGraphemeClusterLiteralConvertible ExtensibleCollectionType
            FloatLiteralConvertible FloatingPointType ForwardIndexType GeneratorType Hashable IntegerArithmeticType
            IntegerLiteralConvertible IntegerType IntervalType MirrorType MutableCollectionType MutableSliceable
            NilLiteralConvertible OutputStreamType Printable RandomAccessIndexType RangeReplaceableCollectionType
            RawOptionSetType RawRepresentable Reflectable SequenceType SignedIntegerType SignedNumberType SinkType
            Sliceable Streamable Strideable StringInterpolationConvertible StringLiteralConvertible UnicodeCodecType
            UnicodeScalarLiteralConvertible UnsignedIntegerType
            C_ARGC C_ARGV Process Any AnyClass BooleanLiteralType CBool CChar CChar16 CChar32 CDouble CFloat CInt
            CLong CLongLong CShort CSignedChar CUnsignedInt CUnsignedLong CUnsignedShort CWideChar
            ExtendedGraphemeClusterType Float32 Float64 FloatLiteralType IntMax IntegerLiteralType StringLiteralType
            UIntMax UWord UnicodeScalarType Void Word NSErrorPointer NSObjectProtocol Selector
            """),
        (builtinFunction, """
            abs advance alignof alignofValue assert assertionFailure contains count countElements debugPrint
            debugPrintln distance dropFirst dropLast dump enumerate equal extend fatalError filter find first
            getVaList indices insert isEmpty join last lexicographicalCompare map max maxElement min minElement
            numericCast overlaps partition precondition preconditionFailure print println reduce reflect
            removeAll removeAtIndex removeLast removeRange reverse sizeof sizeofValue sort sorted splice split
            startsWith stride strideof strideofValue suffix swap toDebugString toString transcode
            underestimateCount unsafeAddressOf unsafeBitCast unsafeDowncast withExtendedLifetime
            withUnsafeMutablePointer withUnsafeMutablePointers withUnsafePointer withUnsafePointers withVaList
            """),
    ])
    /// Directives that make the rest of their line a compiler directive.
    private let directives = Self.directivesTable
    private static let directivesTable = WordTable(kinds: [(1, "if elseif else endif available")])
    private let hashConstants = Self.hashConstantsTable
    private static let hashConstantsTable = WordTable(kinds: [(1, "file line column function"), (2, "selector")])
    /// Attributes Pygments knows as keywords.
    private let keywordAttributes = Self.keywordAttributesTable
    private static let keywordAttributesTable = WordTable(kinds: [(1, """
        availability autoclosure noreturn NSApplicationMain NSCopying NSManaged objc UIApplicationMain IBAction
        IBDesignable IBInspectable IBOutlet
        """)])
    private let punctuation = CurlyFamily.ByteClass("(){}[].,:;=@#`?")
    private let operators = CurlyFamily.ByteClass("/=-+!*%<>&|^?~")

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        // The rest of the line is a compiler directive (`#if …`), or a module path.
        var directive = false
        var module = false
        // What the next name is, after `func`, `class`…, `var`/`let`.
        var nextName: TokenKind? = nil
        while !c.atEnd {
            let kind = state.mode & 3
            if kind == Self.comment {
                blockComment(&c, state: &state, into: &sink)
                continue
            }
            if kind != Self.code {
                stringBody(&c, state: &state, into: &sink)
                continue
            }
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            let expected = nextName
            nextName = nil
            switch b {
            case 0x2F where c.peek(1) == 0x2F:  // //
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x2F where c.peek(1) == 0x2A:  // /*
                if Frames.enter(Self.comment, &state) {
                    c.pos += 2
                    state.depth = 1
                } else {
                    c.skipToEnd()
                }
                sink.add(start, c.pos, .comment)
            case 0x22:  // "
                openString(&c, hashes: 0, state: &state, into: &sink)
            case 0x23:  // #
                if hash(&c, state: &state, into: &sink) { directive = true }
            case 0x40:  // @
                c.pos += 1
                let nameStart = c.pos
                if let name = CurlyFamily.identifier(&c) {
                    if keywordAttributes.kind(line, name) != 0 {
                        if c.at("availability", nameStart) && c.peek() == 0x28 && c.peek(1) != 0x29 {
                            // `@availability(…)` is one keyword, to its closing parenthesis
                            // (looked for nearby only: a line of them stays linear).
                            var k = c.pos
                            let limit = min(line.count, k + 256)
                            while k < limit && line[k] != 0x29 { k += 1 }
                            if k < line.count && line[k] == 0x29 { c.pos = k + 1 }
                        }
                        sink.add(start, c.pos, .keyword)
                    } else {
                        sink.add(start, c.pos, .attribute)
                    }
                } else {
                    sink.add(start, c.pos, .punctuation)
                }
            case 0x24 where ASCII.isDigit(c.peek(1)):  // $0
                c.pos += 1
                while !c.atEnd && ASCII.isDigit(c.peek()) { c.pos += 1 }
                sink.add(start, c.pos, .variable)
            case 0x28 where Frames.inInterpolation(state):  // ( inside an interpolation
                c.pos += 1
                if state.mode >> 2 < Self.maxParens { state.mode += 4 }
                sink.add(start, c.pos, .stringEscape)
            case 0x29 where Frames.inInterpolation(state):  // ) inside an interpolation
                c.pos += 1
                if state.mode >> 2 == 0 {
                    Frames.leave(&state)
                } else {
                    state.mode -= 4
                }
                sink.add(start, c.pos, .stringEscape)
            case 0x2D where c.peek(1) == 0x3E:  // ->
                c.pos += 2
                sink.add(start, c.pos, .punctuation)
            default:
                if ASCII.isDigit(b) {
                    number(&c, into: &sink)
                } else if let word = CurlyFamily.identifier(&c) {
                    if directive || module {
                        let cls = words.kind(line, word)
                        let isKeyword = cls != 0 && cls < Self.builtinType
                        if !isKeyword && line[word.lowerBound] < 0x80 && (module || line[word.lowerBound] != 0x5F) {
                            sink.add(word, module ? .type : .attribute)
                            continue
                        }
                    }
                    if let kind = expected, line[word.lowerBound] < 0x80 {
                        sink.add(word, kind)
                        continue
                    }
                    switch words.kind(line, word) {
                    case Self.keyword: sink.add(word, .keyword)
                    case Self.constant: sink.add(word, .constant)
                    case Self.importKeyword:
                        sink.add(word, .keyword)
                        module = true
                    case Self.typeKeyword:
                        sink.add(word, .keyword)
                        if followedByName(c) { nextName = .type }
                    case Self.funcKeyword:
                        sink.add(word, .keyword)
                        if followedByName(c, keywords: true) { nextName = .function }
                    case Self.bindingKeyword:
                        sink.add(word, .keyword)
                        if ASCII.isSpace(c.peek()) { nextName = .variable }
                    case Self.modernKeyword:
                        // Keywords Pygments predates; after `.` a member (`.some(x)`).
                        sink.add(word, c.previousNonSpace(before: word.lowerBound) == 0x2E ? .plain : .keyword)
                    case Self.builtinType: sink.add(word, .builtin)
                    case Self.builtinFunction: sink.add(word, .keyword)
                    default: sink.add(word, .plain)
                    }
                } else if punctuation.contains(b) || ((b == 0x3C || b == 0x26) && ASCII.isIdentifierByte(c.peek(1)))
                            || ((b == 0x3E || b == 0x21) && start > 0 && ASCII.isIdentifierByte(line[start - 1])) {
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                } else if operators.contains(b) {
                    c.pos += 1
                    // An operator is the longest run of operator bytes, short of a comment.
                    while !c.atEnd && operators.contains(c.peek()) && !(c.peek() == 0x2F && (c.peek(1) == 0x2F || c.peek(1) == 0x2A)) {
                        c.pos += 1
                    }
                    sink.add(start, c.pos, .operator)
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            }
        }
        Frames.endLine(&state)
    }

    /// Whether spaces and then a name (a keyword only if `keywords`) follow: `class Name`, `func name`.
    private func followedByName(_ c: LineCursor, keywords: Bool = false) -> Bool {
        var k = c.pos
        let line = c.line
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        guard k > c.pos, k < line.count, ASCII.isIdentifierStart(line[k]), line[k] < 0x80 else { return false }
        if keywords { return true }
        var e = k
        while e < line.count && ASCII.isIdentifierByte(line[e]) { e += 1 }
        let cls = words.kind(line, k..<e)
        return cls == 0 || cls >= Self.builtinType
    }

    // MARK: Pieces

    /// After `#`: a directive, a raw string, `#file` and friends, or punctuation.
    /// Returns whether the rest of the line is a directive.
    private func hash(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        let line = c.line
        var k = start
        while k < line.count && line[k] == 0x23 && k - start < Self.maxHashes { k += 1 }
        if k < line.count && line[k] == 0x22 {
            c.pos = k
            openString(&c, hashes: k - start, state: &state, into: &sink)
            return false
        }
        c.pos = start + 1
        let nameStart = c.pos
        if let name = CurlyFamily.identifier(&c) {
            if directives.kind(line, name) != 0 {
                sink.add(start, c.pos, .attribute)
                return true
            }
            switch hashConstants.kind(line, name) {
            case 1:
                sink.add(start, c.pos, .constant)
                return false
            case 2:
                sink.add(start, c.pos, .keyword)
                return false
            default:
                c.pos = nameStart
            }
        }
        sink.add(start, c.pos, .punctuation)
        return false
    }

    /// A string's opening quotes at the cursor (after `hashes` `#`s before it); a
    /// plain quote when the frame stack is full.
    private func openString(_ c: inout LineCursor, hashes: Int, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos - hashes
        let multi = c.at("\"\"\"")
        guard Frames.enter((multi ? Self.multiLineString : Self.string) | UInt16(hashes) << 2, &state) else {
            c.pos += 1
            sink.add(start, c.pos, .plain)
            return
        }
        c.pos += multi ? 3 : 1
        sink.add(start, c.pos, .string)
    }

    /// A string's body, to its end, an interpolation or the line's end.
    private func stringBody(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let line = c.line
        let multi = state.mode & 3 == Self.multiLineString
        let hashes = Int(state.mode >> 2)
        var run = c.pos
        while !c.atEnd {
            let b = line[c.pos]
            if b == 0x22 {
                let quotes = multi ? 3 : 1
                if (!multi || c.at("\"\"\"")) && hashesAt(line, c.pos + quotes, hashes) {
                    c.pos += quotes + hashes
                    sink.add(run, c.pos, .string)
                    Frames.leave(&state)
                    return
                }
                c.pos += 1
                continue
            }
            if b == 0x5C && hashesAt(line, c.pos + 1, hashes) {
                let escape = c.pos
                let k = c.pos + 1 + hashes
                let n = k < line.count ? line[k] : 0
                if n == 0x28 {  // \( an interpolation
                    guard Frames.enterInterpolation(&state) else { c.pos = k; continue }
                    sink.add(run, escape, .string)
                    c.pos = k + 1
                    sink.add(escape, c.pos, .stringEscape)
                    return
                }
                var end = k
                switch n {
                case 0x30, 0x5C, 0x74, 0x6E, 0x72, 0x22, 0x27:
                    end = k + 1
                case 0x75 where k + 1 < line.count && line[k + 1] == 0x7B:  // \u{…}
                    var e = k + 2
                    while e < line.count && e < k + 11 && ASCII.isHexDigit(line[e]) { e += 1 }
                    if e < line.count && line[e] == 0x7D && e > k + 2 { end = e + 1 }
                default:
                    break
                }
                if end > k {
                    sink.add(run, escape, .string)
                    sink.add(escape, end, .stringEscape)
                    run = end
                    c.pos = end
                } else {
                    c.pos = k
                }
                continue
            }
            c.pos += 1
        }
        sink.add(run, c.pos, .string)
    }

    @inline(__always)
    private func hashesAt(_ line: UnsafeBufferPointer<UInt8>, _ i: Int, _ n: Int) -> Bool {
        guard n > 0 else { return true }
        guard i + n <= line.count else { return false }
        for k in i..<i + n where line[k] != 0x23 { return false }
        return true
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

    /// A number: `0b`, `0o`, `0x` (with hexadecimal fractions and `p` exponents),
    /// decimal with `_` separators, fraction and exponent.
    private func number(_ c: inout LineCursor, into sink: inout TokenSink) {
        let start = c.pos
        let line = c.line
        let p = c.peek(1)
        if c.peek() == 0x30 && (p == 0x78 || p == 0x6F || p == 0x62) {
            c.pos += 2
            while !c.atEnd && (ASCII.isHexDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
            if p == 0x78 {
                if c.peek() == 0x2E && ASCII.isHexDigit(c.peek(1)) {
                    c.pos += 1
                    while !c.atEnd && (ASCII.isHexDigit(line[c.pos]) || line[c.pos] == 0x5F) { c.pos += 1 }
                }
                if c.peek() | 0x20 == 0x70 { exponent(&c) }
            }
        } else {
            digits(&c)
            if c.peek() == 0x2E && ASCII.isDigit(c.peek(1)) {
                c.pos += 1
                digits(&c)
            }
            if c.peek() | 0x20 == 0x65 { exponent(&c) }
        }
        sink.add(start, c.pos, .number)
    }

    private func digits(_ c: inout LineCursor) {
        while !c.atEnd && (ASCII.isDigit(c.peek()) || c.peek() == 0x5F) { c.pos += 1 }
    }

    private func exponent(_ c: inout LineCursor) {
        var k = 1
        if c.peek(1) == 0x2B || c.peek(1) == 0x2D { k = 2 }
        guard ASCII.isDigit(c.peek(k)) else { return }
        c.pos += k
        digits(&c)
    }
}
