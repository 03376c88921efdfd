/// YAML, following Pygments' `yaml` lexer closely (it tracks indentation the way a
/// YAML parser does): a mapping key is `tag` (all the text before its `: `, so
/// `- a b: c` keys `a b`), plain scalars are strings in block context and `variable`
/// in flow context (`[a, b]`), literal and folded block scalars (`|`, `>-`, `|2`) are
/// `constant`, tags (`!!str`, `!Ref`) `type`, aliases (`*x`) `variable`, anchors
/// (`&x`) and `---` plain; only the `\x`, `\u`, `\U` escapes of double-quoted strings
/// (and `''` in single-quoted ones) are escapes.
///
/// Where we differ, on purpose: a plain scalar that is a number (`42`, `-1.5e3`,
/// `0x1F`) is a number and `true`, `false`, `null`, `~` (any case YAML 1.2 allows)
/// are constants, which Pygments leaves strings; and a line starting with `#` ends a
/// multi-line plain scalar as a comment, as YAML says.
///
/// Carried from line to line: the mapping indentation (`state.depth`, plus one), what
/// the line continues (`state.mode`'s low bits: a block scalar, with its indentation
/// in the high bits once known; a plain scalar that may go on; a quoted scalar; a flow
/// collection) and the open flow brackets (`state.terminator`, `[` or `{` each).
struct YAMLLexer: LineLexer {
    private static let root: UInt16 = 0
    private static let blockScalar: UInt16 = 1
    private static let plainBlock: UInt16 = 2
    private static let singleQuoted: UInt16 = 3
    private static let doubleQuoted: UInt16 = 4
    private static let flowPlain: UInt16 = 5
    private static let flow: UInt16 = 6
    /// Flow brackets kept open across lines, at most.
    private static let maxFlow = 60

    /// Where the scan of a line is (Pygments' states).
    private enum Place { case blockLine, plain, flow, flowPlain, single, double }

    /// The open flow brackets of the line being lexed, innermost in bit `count - 1`.
    private struct FlowStack {
        var count = 0
        var braces: UInt64 = 0  // bit set: `{`, clear: `[`
        var isEmpty: Bool { count == 0 }
        var topIsBrace: Bool { count > 0 && braces >> UInt64(count - 1) & 1 == 1 }
        mutating func push(brace: Bool) {
            guard count < YAMLLexer.maxFlow else { return }
            if brace { braces |= 1 << UInt64(count) } else { braces &= ~(1 << UInt64(count)) }
            count += 1
        }
        mutating func pop() { if count > 0 { count -= 1 } }
    }

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        var indent = Int(state.depth) - 1
        var flows = FlowStack()
        for b in state.terminator where flows.count < Self.maxFlow { flows.push(brace: b == 0x7B) }
        let kind = state.mode & 0xF
        var place = Place.blockLine
        var nextIndent = 0
        var atRoot = false
        var blockKeys = KeyScan(), flowKeys = KeyScan()

        switch kind {
        case Self.blockScalar:
            var n = 0
            while n < line.count && line[n] == 0x20 { n += 1 }
            if n == line.count { return }  // blank lines belong to the scalar
            var scalarIndent = Int(state.mode >> 4)  // plus one; 0: not known yet
            if scalarIndent == 0 {
                if n <= max(indent, 0) {
                    atRoot = true
                } else {
                    scalarIndent = min(n, 0xFFE) + 1
                }
            } else if n < scalarIndent - 1 {
                atRoot = true
            }
            if !atRoot {
                state.mode = Self.blockScalar | UInt16(scalarIndent) << 4
                sink.add(n, line.count, .constant)
                return
            }
        case Self.plainBlock:
            var n = 0
            while n < line.count && line[n] == 0x20 { n += 1 }
            if n == line.count { return }
            if c.at("---") || c.at("...") || n <= indent || line[n] == 0x23 {
                atRoot = true
            } else {
                c.pos = n
                place = .plain
            }
        case Self.singleQuoted: place = .single
        case Self.doubleQuoted: place = .double
        case Self.flowPlain: place = .flowPlain
        case Self.flow: place = flows.isEmpty ? .blockLine : .flow
        default: atRoot = true
        }
        state.mode = Self.root

        if atRoot {
            // Pygments' root state, at the line start.
            var n = 0
            while n < line.count && (line[n] == 0x20 || line[n] == 0x09) { n += 1 }
            if n == line.count { state.depth = UInt16(clamping: indent + 1); return }
            if line[n] == 0x23 {
                sink.add(n, line.count, .comment)
                state.depth = UInt16(clamping: indent + 1)
                return
            }
            if directive(&c, state: &state, into: &sink) { return }
            if (c.at("---") || c.at("...")) && (line.count == 3 || line[3] == 0x20) {
                indent = -1
                c.pos = 3
            } else {
                // Indentation, then `- `, `? `, `: ` indicators (each an indentation level).
                var spaces = 0
                var k = 0
                while k < n { spaces = line[k] == 0x09 ? 0 : spaces + 1; k += 1 }
                nextIndent = spaces
                if nextIndent < indent { indent = nextIndent }
                c.pos = n
                while !c.atEnd {
                    let b = c.peek()
                    guard b == 0x2D || b == 0x3F || b == 0x3A, c.peek(1) == 0x20 || c.pos + 1 == line.count else { break }
                    sink.add(c.pos, c.pos + 1, .punctuation)
                    if indent < nextIndent { indent = nextIndent }
                    nextIndent += 1
                    c.pos += 1
                    let s = c.pos
                    c.skipSpaces()
                    nextIndent += c.pos - s
                }
            }
        }

        // Pygments' block-line state and the states it enters.
        scan: while true {
            switch place {
            case .blockLine:
                c.skipSpaces()
                if c.atEnd { break scan }
                let start = c.pos
                let b = c.peek()
                if b == 0x23 {
                    sink.add(start, line.count, .comment)
                    c.skipToEnd()
                    break scan
                }
                if let colon = blockKeyColon(c, &blockKeys) {
                    sink.add(start, colon, .tag)
                    sink.add(colon, colon + 1, .punctuation)
                    c.pos = colon + 1
                    if indent < nextIndent { indent = nextIndent }
                    continue
                }
                if descriptor(&c, into: &sink) { continue }
                let spaceAfter = c.peek(1) == 0x20 || c.pos + 1 == line.count
                switch b {
                case 0x3A where spaceAfter:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    if indent < nextIndent { indent = nextIndent }
                case 0x7C, 0x3E:  // | >
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    blockScalarHeader(&c, indent: indent, state: &state, into: &sink)
                    state.depth = UInt16(clamping: indent + 1)
                    state.terminator = []
                    return
                case 0x5B, 0x7B:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    flows.push(brace: b == 0x7B)
                    place = .flow
                case 0x27:
                    c.pos += 1
                    sink.add(start, c.pos, .string)
                    place = .single
                case 0x22:
                    c.pos += 1
                    sink.add(start, c.pos, .string)
                    place = .double
                default:
                    if Self.startsPlain(b) || ((b == 0x3F || b == 0x3A || b == 0x2D) && !spaceAfter && !ASCII.isSpace(c.peek(1))) {
                        place = .plain
                    } else {
                        c.pos += 1
                        sink.add(start, c.pos, .plain)
                    }
                }

            case .plain:
                // A plain scalar in block context: up to `: `, ` #` or the line end.
                let runStart = c.pos
                var end = c.pos
                scalar: while !c.atEnd {
                    switch c.peek() {
                    case 0x3A where c.pos + 1 == line.count || c.peek(1) == 0x20:
                        break scalar
                    case 0x09:
                        break scalar
                    case 0x20:
                        // A run of spaces: part of the scalar unless `#` or `: ` follows.
                        var e = c.pos
                        while e < line.count && line[e] == 0x20 { e += 1 }
                        if e < line.count && (line[e] == 0x23 || line[e] == 0x09 || (line[e] == 0x3A && (e + 1 == line.count || line[e + 1] == 0x20))) {
                            break scalar
                        }
                        c.pos = e
                    default:
                        c.pos += 1
                        end = c.pos
                    }
                }
                sink.add(runStart, end, Self.scalarKind(line, runStart..<end, otherwise: .string))
                if c.atEnd {
                    state.mode = Self.plainBlock
                    break scan
                }
                if c.peek() == 0x09 {
                    c.pos += 1
                    continue
                }
                place = .blockLine

            case .flow:
                if flows.isEmpty { place = .blockLine; continue }
                if flows.topIsBrace, let colon = flowKeyColon(c, &flowKeys) {
                    sink.add(c.pos, colon, .tag)
                    sink.add(colon, colon + 1, .punctuation)
                    c.pos = colon + 1
                    continue
                }
                c.skipSpaces()
                if c.atEnd { state.mode = Self.flow; break scan }
                let start = c.pos
                let b = c.peek()
                switch b {
                case 0x23:
                    sink.add(start, line.count, .comment)
                    c.skipToEnd()
                    state.mode = Self.flow
                    break scan
                case 0x3F, 0x3A, 0x2C:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                case 0x5D where !flows.topIsBrace, 0x7D where flows.topIsBrace:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    flows.pop()
                    if flows.isEmpty { place = .blockLine }
                case 0x5B, 0x7B:
                    c.pos += 1
                    sink.add(start, c.pos, .punctuation)
                    flows.push(brace: b == 0x7B)
                case 0x27:
                    c.pos += 1
                    sink.add(start, c.pos, .string)
                    place = .single
                case 0x22:
                    c.pos += 1
                    sink.add(start, c.pos, .string)
                    place = .double
                default:
                    if descriptor(&c, into: &sink) { continue }
                    if Self.startsPlain(b) || b == 0x2D {
                        place = .flowPlain
                    } else {
                        c.pos += 1
                        sink.add(start, c.pos, .plain)
                    }
                }

            case .flowPlain:
                c.skipSpaces()
                if c.atEnd { state.mode = Self.flowPlain; break scan }
                let b = c.peek()
                if Self.isFlowIndicator(b) || (b == 0x23 && c.pos > 0 && c.line[c.pos - 1] == 0x20) {
                    place = .flow
                    continue
                }
                let runStart = c.pos
                while !c.atEnd && !ASCII.isSpace(c.peek()) && !Self.isFlowIndicator(c.peek()) { c.pos += 1 }
                if c.pos == runStart { c.pos += 1 }
                sink.add(runStart, c.pos, Self.scalarKind(line, runStart..<c.pos, otherwise: .variable))

            case .single:
                var runStart = c.pos
                var closed = false
                while !c.atEnd {
                    if c.peek() == 0x27 {
                        if c.peek(1) == 0x27 {
                            sink.add(runStart, c.pos, .string)
                            sink.add(c.pos, c.pos + 2, .stringEscape)
                            c.pos += 2
                            runStart = c.pos
                            continue
                        }
                        c.pos += 1
                        closed = true
                        break
                    }
                    c.pos += 1
                }
                sink.add(runStart, c.pos, .string)
                if !closed { state.mode = Self.singleQuoted; break scan }
                place = flows.isEmpty ? .blockLine : .flow

            case .double:
                let start = c.pos
                var runStart = start
                var closed = false
                while !c.atEnd {
                    let b = c.peek()
                    if b == 0x22 {
                        c.pos += 1
                        closed = true
                        break
                    }
                    if b == 0x5C {
                        let n = Self.hexEscapeLength(c)
                        if n > 0 {
                            sink.add(runStart, c.pos, .string)
                            sink.add(c.pos, c.pos + n, .stringEscape)
                            c.pos += n
                            runStart = c.pos
                            continue
                        }
                        if c.pos + 1 == line.count || Self.isSimpleEscape(c.peek(1)) {
                            c.pos = min(line.count, c.pos + 2)
                            continue
                        }
                        // Pygments knows no other escapes: the backslash alone is plain.
                        sink.add(runStart, c.pos, .string)
                        sink.add(c.pos, c.pos + 1, .plain)
                        c.pos += 1
                        runStart = c.pos
                        continue
                    }
                    c.pos += 1
                }
                sink.add(runStart, c.pos, .string)
                if !closed { state.mode = Self.doubleQuoted; break scan }
                place = flows.isEmpty ? .blockLine : .flow
            }
        }

        state.depth = UInt16(clamping: indent + 1)
        if flows.isEmpty {
            if !state.terminator.isEmpty { state.terminator = [] }
        } else if !Self.same(flows, state.terminator) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(flows.count)
            for i in 0..<flows.count { bytes.append(flows.braces >> UInt64(i) & 1 == 1 ? 0x7B : 0x5B) }
            state.terminator = bytes
        }
    }

    /// `%YAML 1.2` and `%TAG ! prefix` lines; whether the line was one.
    private func directive(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) -> Bool {
        let line = c.line
        let isYAML = c.at("%YAML"), isTag = c.at("%TAG")
        let n = isYAML ? 5 : 4
        guard (isYAML || isTag) && (line.count == n || line[n] == 0x20) else { return false }
        sink.add(0, n, .tag)
        state = LexState()
        c.pos = n
        c.skipSpaces()
        if isYAML {
            let s = c.pos
            while ASCII.isDigit(c.peek()) { c.pos += 1 }
            if c.pos > s && c.peek() == 0x2E && ASCII.isDigit(c.peek(1)) {
                c.pos += 1
                while ASCII.isDigit(c.peek()) { c.pos += 1 }
                sink.add(s, c.pos, .number)
            } else {
                c.pos = s
            }
        } else {
            let s = c.pos
            while !c.atEnd && !ASCII.isSpace(c.peek()) { c.pos += 1 }
            sink.add(s, c.pos, .type)
            c.skipSpaces()
            let p = c.pos
            while !c.atEnd && !ASCII.isSpace(c.peek()) { c.pos += 1 }
            sink.add(p, c.pos, .type)
        }
        ignoredLine(&c, into: &sink)
        return true
    }

    /// The rest of a directive or block scalar header line: a comment, or plain.
    private func ignoredLine(_ c: inout LineCursor, into sink: inout TokenSink) {
        c.skipSpaces()
        // Anything but a comment is plain (Pygments: an error).
        if c.peek() == 0x23 { sink.add(c.pos, c.count, .comment) }
        c.skipToEnd()
    }

    /// After `|` or `>`: the indentation and chomping indicators, then the scalar
    /// starts on the next line (unless other text follows, which Pygments leaves plain).
    private func blockScalarHeader(_ c: inout LineCursor, indent: Int, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        var increment = 0
        var k = c.pos
        if ASCII.isDigit(c[k]) && c[k] != 0x30 {
            increment = Int(c[k] - 0x30)
            k += 1
            if c[k] == 0x2B || c[k] == 0x2D { k += 1 }
        } else if c[k] == 0x2B || c[k] == 0x2D {
            k += 1
            if ASCII.isDigit(c[k]) && c[k] != 0x30 {
                increment = Int(c[k] - 0x30)
                k += 1
            }
        }
        guard k == c.count || c[k] == 0x20 else {
            // Not a header: Pygments leaves the rest of the line plain.
            c.skipToEnd()
            state.mode = Self.root
            return
        }
        sink.add(start, k, .punctuation)
        c.pos = k
        c.skipSpaces()
        if c.atEnd || c.peek() == 0x23 {
            sink.add(c.pos, c.count, .comment)
            c.skipToEnd()
            let scalarIndent = increment > 0 ? max(indent, 0) + increment + 1 : 0
            state.mode = Self.blockScalar | UInt16(min(scalarIndent, 0xFFF)) << 4
        } else {
            c.skipToEnd()
            state.mode = Self.root
        }
    }

    /// Tags, anchors and aliases at the cursor; whether one was there.
    private func descriptor(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        switch c.peek() {
        case 0x21:  // !
            c.pos += 1
            if c.peek() == 0x3C {
                var k = c.pos + 1
                while k < c.count && Self.isTagByte(c.line[k]) && c.line[k] != 0x3E { k += 1 }
                if k > c.pos + 1 && c[k] == 0x3E {
                    c.pos = k + 1
                    sink.add(start, c.pos, .type)
                    return true
                }
            }
            while !c.atEnd && Self.isTagByte(c.peek()) { c.pos += 1 }
            sink.add(start, c.pos, .type)
            return true
        case 0x26, 0x2A:  // & *
            var k = c.pos + 1
            while k < c.count && Self.isWordOrDash(c.line[k]) { k += 1 }
            guard k > c.pos + 1 else { return false }
            c.pos = k
            sink.add(start, k, c.line[start] == 0x26 ? .plain : .variable)
            return true
        default:
            return false
        }
    }

    /// Where a key's run of allowed bytes ends and its last `: ` is, remembered so
    /// that tokens of one run do not scan it again (a line stays linear).
    private struct KeyScan {
        var from = Int.max
        var end = 0
        var colon = -1
    }

    /// The `:` ending a block mapping key that starts at the cursor (Pygments: the
    /// last `: ` before any of `#,?[]{}"'`), if there is one.
    private func blockKeyColon(_ c: LineCursor, _ scan: inout KeyScan) -> Int? {
        if !(c.pos >= scan.from && c.pos < scan.end) {
            scan.from = c.pos
            scan.colon = -1
            var k = c.pos
            run: while k < c.count {
                switch c.line[k] {
                case 0x23, 0x2C, 0x3F, 0x5B, 0x5D, 0x7B, 0x7D, 0x22, 0x27: break run
                case 0x3A where k + 1 == c.count || c.line[k + 1] == 0x20: scan.colon = k
                default: break
                }
                k += 1
            }
            scan.end = k
        }
        return scan.colon > c.pos ? scan.colon : nil
    }

    /// The `:` ending a flow mapping key that starts at the cursor, if there is one.
    private func flowKeyColon(_ c: LineCursor, _ scan: inout KeyScan) -> Int? {
        if !(c.pos >= scan.from && c.pos < scan.end) {
            scan.from = c.pos
            var k = c.pos
            run: while k < c.count {
                switch c.line[k] {
                case 0x3A, 0x2C, 0x3F, 0x5B, 0x5D, 0x7B, 0x7D, 0x22, 0x27: break run
                default: k += 1
                }
            }
            scan.end = k
            scan.colon = k < c.count && c.line[k] == 0x3A && (k + 1 == c.count || c.line[k + 1] == 0x20) ? k : -1
        }
        return scan.colon > c.pos ? scan.colon : nil
    }

    /// A plain scalar's kind: numbers and the core schema's `true`, `false`, `null`
    /// and `~` stand out (Pygments leaves every plain scalar a string).
    private static func scalarKind(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, otherwise: TokenKind) -> TokenKind {
        if constants.contains(line, range) { return .constant }
        return isNumber(line, range) ? .number : otherwise
    }

    private static let constants = WordTable("true True TRUE false False FALSE null Null NULL ~ .inf .Inf .INF -.inf -.Inf -.INF +.inf .nan .NaN .NAN")

    /// `[-+]?` decimal with `_`, fraction and exponent; `0x`, `0o`.
    private static func isNumber(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        let end = range.upperBound
        guard i < end else { return false }
        if line[i] == 0x30 && i + 2 < end && (line[i + 1] == 0x78 || line[i + 1] == 0x6F) {
            let hex = line[i + 1] == 0x78
            for k in (i + 2)..<end where !(hex ? ASCII.isHexDigit(line[k]) : line[k] &- 0x30 < 8) && line[k] != 0x5F { return false }
            return true
        }
        if line[i] == 0x2D || line[i] == 0x2B { i += 1 }
        var digits = 0
        while i < end && (ASCII.isDigit(line[i]) || (digits > 0 && line[i] == 0x5F)) { i += 1; digits += 1 }
        if i < end && line[i] == 0x2E {
            i += 1
            while i < end && ASCII.isDigit(line[i]) { i += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if i < end && line[i] | 0x20 == 0x65 {
            i += 1
            if i < end && (line[i] == 0x2D || line[i] == 0x2B) { i += 1 }
            guard i < end && ASCII.isDigit(line[i]) else { return false }
            while i < end && ASCII.isDigit(line[i]) { i += 1 }
        }
        return i == end
    }

    /// Whether a plain scalar may start with `b` (Pygments: not an indicator).
    private static func startsPlain(_ b: UInt8) -> Bool {
        switch b {
        case 0x20, 0x09, 0x3F, 0x3A, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x23, 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x27, 0x22, 0x25, 0x40, 0x60, 0x2D:
            return false
        default:
            return true
        }
    }

    private static func isFlowIndicator(_ b: UInt8) -> Bool {
        b == 0x2C || b == 0x3A || b == 0x3F || b == 0x5B || b == 0x5D || b == 0x7B || b == 0x7D
    }

    private static func isWordOrDash(_ b: UInt8) -> Bool { ASCII.isIdentifierByte(b) || b == 0x2D }

    /// `[\w#;/?:@&=+$,.!~*'()\[\]%-]`
    private static func isTagByte(_ b: UInt8) -> Bool {
        if isWordOrDash(b) { return true }
        switch b {
        case 0x23, 0x3B, 0x2F, 0x3F, 0x3A, 0x40, 0x26, 0x3D, 0x2B, 0x24, 0x2C, 0x2E, 0x21, 0x7E, 0x2A, 0x27, 0x28, 0x29, 0x5B, 0x5D, 0x25:
            return true
        default:
            return false
        }
    }

    /// The escapes Pygments keeps as string (`\n`, `\"`, `\\`...).
    private static func isSimpleEscape(_ b: UInt8) -> Bool {
        switch b {
        case 0x30, 0x61, 0x62, 0x74, 0x09, 0x6E, 0x76, 0x66, 0x72, 0x65, 0x20, 0x22, 0x5C, 0x4E, 0x5F, 0x4C, 0x50: return true
        default: return false
        }
    }

    /// The length of a `\xHH`, `\uHHHH` or `\UHHHHHHHH` escape at the cursor, or 0.
    private static func hexEscapeLength(_ c: LineCursor) -> Int {
        let digits: Int
        switch c.peek(1) {
        case 0x78: digits = 2
        case 0x75: digits = 4
        case 0x55: digits = 8
        default: return 0
        }
        for k in 0..<digits where !ASCII.isHexDigit(c.peek(2 + k)) { return 0 }
        return 2 + digits
    }

    private static func same(_ flows: FlowStack, _ bytes: [UInt8]) -> Bool {
        guard flows.count == bytes.count else { return false }
        for i in 0..<flows.count where (bytes[i] == 0x7B) != (flows.braces >> UInt64(i) & 1 == 1) { return false }
        return true
    }
}
