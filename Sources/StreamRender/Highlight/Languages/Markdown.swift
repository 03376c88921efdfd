/// Markdown source (a README shown in a ```` ```markdown ```` fence), with Pygments'
/// `markdown` lexer's choices: `#` headings and setext underlines are `heading`, list
/// markers (`-`, `*`, `1.`, `- [x]`) and a quote's `>` are keywords, a quote's text is
/// `emphasis`, `*em*`/`_em_` emphasis, `**strong**`/`__strong__` strong, `~~gone~~`
/// deleted, `` `code` `` a string, a link's text `tag` and its URL `attribute`,
/// `@mentions` and `#123` constants. Like Pygments, emphasis starts only after a space
/// or at a word's first or second character, so `snake_case_names` stay plain.
///
/// Fenced code blocks are carried in the state: a fence naming a language we know is
/// lexed by that language's lexer (Pygments does the same with its own), its state
/// riding in ours (``EmbeddedLexer``); an unknown or missing language makes the block a
/// string, `text` plain. Unlike Pygments, fences follow CommonMark: three or more
/// backticks or tildes, closed by a run at least as long.
///
/// A setext heading's text line cannot be known before its underline arrives (each
/// line is lexed once), so only the `===`/`---` line is a heading; the state records
/// whether the line before could have been its text.
struct MarkdownLexer: LineLexer {
    /// Not in a fence: the previous line could be a setext heading's text.
    private static let afterText: UInt16 = 0x100
    /// In a fence whose content is a string, or plain (`state.depth`: the fence).
    private static let stringFence: UInt16 = 1
    private static let plainFence: UInt16 = 2
    /// Host words in an embedding fence: the language's index, the fence, the marker.
    private static let ownWords = 3
    private static let plainNames = WordTable("text txt plaintext plain")

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        if EmbeddedLexer.isEmbedded(state) {
            let fence = EmbeddedLexer.hostWord(state, 1)
            if Self.closes(line, fence: fence) {
                sink.add(0, line.count, .string)
                state = LexState()
                return
            }
            let index = Int(EmbeddedLexer.hostWord(state, 2))
            let languages = HighlightLanguage.all
            if index < languages.count {
                EmbeddedLexer.lex(languages[index].lexer, line, 0..<line.count, own: Self.ownWords, state: &state, into: &sink)
            }
            return
        }
        switch state.mode {
        case Self.stringFence, Self.plainFence:
            if Self.closes(line, fence: state.depth) {
                sink.add(0, line.count, .string)
                state = LexState()
            } else if state.mode == Self.stringFence {
                sink.add(0, line.count, .string)
            }
            return
        default:
            break
        }
        let afterText = state.mode == Self.afterText
        state.mode = line.isEmpty ? 0 : Self.afterText

        // A `#` heading: `#` then not `#`, then at least one character.
        var hashes = 0
        while hashes < line.count && line[hashes] == 0x23 { hashes += 1 }
        if hashes >= 1 && hashes <= 6 && line.count >= hashes + 2 {
            sink.add(0, line.count, .heading)
            state.mode = 0
            return
        }
        // A setext underline.
        if afterText && !line.isEmpty && (line[0] == 0x3D || line[0] == 0x2D) && line.allSatisfy({ $0 == line[0] }) {
            sink.add(0, line.count, .heading)
            state.mode = 0
            return
        }

        c.skipSpaces()
        let indentEnd = c.pos
        let b = c.peek()
        // `- item`, `* item`, `- [x] task`.
        if (b == 0x2D || b == 0x2A) && ASCII.isSpace(c.peek(1)) && c.pos + 2 < line.count {
            let marker = c.pos
            if c.peek(1) == 0x20 && c.peek(2) == 0x5B && (c.peek(3) == 0x20 || c.peek(3) | 0x20 == 0x78) && c.peek(4) == 0x5D
                && c.peek(5) == 0x20 && c.pos + 6 < line.count {
                sink.add(marker, marker + 2, .keyword)
                sink.add(marker + 2, marker + 5, .keyword)
                inline(line, from: marker + 5, into: &sink)
            } else {
                sink.add(marker, marker + 1, .keyword)
                inline(line, from: marker + 2, into: &sink)
            }
            return
        }
        // `1. item`
        if ASCII.isDigit(b) {
            var k = c.pos
            while k < line.count && ASCII.isDigit(line[k]) { k += 1 }
            if k < line.count && line[k] == 0x2E && k + 2 < line.count && line[k + 1] == 0x20 {
                sink.add(c.pos, k + 1, .keyword)
                inline(line, from: k + 1, into: &sink)
                return
            }
        }
        // `> quote`
        if b == 0x3E && ASCII.isSpace(c.peek(1)) && c.pos + 2 < line.count {
            sink.add(0, c.pos + 2, .keyword)
            sink.add(c.pos + 2, line.count, .emphasis)
            return
        }
        // A fence opens.
        if b == 0x60 || b == 0x7E {
            var k = c.pos
            while k < line.count && line[k] == b { k += 1 }
            let length = k - c.pos
            if length >= 3 && (b == 0x7E || !line[k...].contains(0x60)) {
                openFence(line, fenceStart: indentEnd, infoStart: k, fence: Self.fence(b, length), state: &state, into: &sink)
                return
            }
        }
        inline(line, from: 0, into: &sink)
    }

    private static func fence(_ b: UInt8, _ length: Int) -> UInt16 {
        UInt16(min(length, 0xFF)) | (b == 0x7E ? 0x100 : 0)
    }

    /// Whether `line` closes the fence: its character, at least as many, then only spaces.
    private static func closes(_ line: UnsafeBufferPointer<UInt8>, fence: UInt16) -> Bool {
        let char: UInt8 = fence & 0x100 != 0 ? 0x7E : 0x60
        var k = 0
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        let start = k
        while k < line.count && line[k] == char { k += 1 }
        guard k - start >= Int(fence & 0xFF) else { return false }
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        return k == line.count
    }

    /// An opening fence: the fence and language are a string (the rest of the info
    /// plain); the state says how the block's lines are lexed.
    private func openFence(_ line: UnsafeBufferPointer<UInt8>, fenceStart: Int, infoStart: Int, fence: UInt16,
                           state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line, at: infoStart)
        c.skipSpaces()
        let wordStart = c.pos
        while !c.atEnd && !ASCII.isSpace(c.peek()) { c.pos += 1 }
        let word = wordStart..<c.pos
        sink.add(fenceStart, word.isEmpty ? infoStart : word.upperBound, .string)
        if Self.plainNames.contains(line, word) {
            state = LexState(mode: Self.plainFence, depth: fence)
            return
        }
        state = LexState(mode: Self.stringFence, depth: fence)
        guard !word.isEmpty else { return }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[word]), as: UTF8.self)
        guard let language = HighlightLanguage.named(name),
              let index = HighlightLanguage.all.firstIndex(where: { $0.name == language.name }) else { return }
        state = EmbeddedLexer.start([UInt16(index), fence])
    }

    /// Pygments' inline rules from `from` (where `^` matches) to the line's end.
    private func inline(_ line: UnsafeBufferPointer<UInt8>, from: Int, into sink: inout TokenSink) {
        var p = from
        var links = LinkScan()
        let n = line.count
        while p < n {
            let b = line[p]
            if b == 0x5C {  // \x: text
                p = min(n, p + 1 + Self.characterLength(line, p + 1))
                continue
            }
            // Rules with an optional first character that is not their delimiter.
            if let end = delimited(line, p, open: 0x60, count: 1, excludeSpace: false) {  // `code`
                sink.add(end.start, end.end, .string)
                p = end.end
                continue
            }
            if let end = delimited(line, p, open: 0x2A, count: 2, excludeSpace: true) {
                sink.add(end.start, end.end, .strong)
                p = end.end
                continue
            }
            if let end = delimited(line, p, open: 0x5F, count: 2, excludeSpace: true) {
                sink.add(end.start, end.end, .strong)
                p = end.end
                continue
            }
            if let end = delimited(line, p, open: 0x2A, count: 1, excludeSpace: true) {
                sink.add(end.start, end.end, .emphasis)
                p = end.end
                continue
            }
            if let end = delimited(line, p, open: 0x5F, count: 1, excludeSpace: true) {
                sink.add(end.start, end.end, .emphasis)
                p = end.end
                continue
            }
            if let end = delimited(line, p, open: 0x7E, count: 2, excludeSpace: true) {
                sink.add(end.start, end.end, .deleted)
                p = end.end
                continue
            }
            // @mention, #123
            if b == 0x40 || b == 0x23 {
                var k = p + 1
                while k < n && (ASCII.isIdentifierByte(line[k]) || line[k] == 0x2F || line[k] == 0x3A) { k += 1 }
                if k > p + 1 {
                    sink.add(p, k, .constant)
                    p = k
                    continue
                }
            }
            if b == 0x5B || (b == 0x21 && p + 1 < n && line[p + 1] == 0x5B), let end = link(line, p, &links, into: &sink) {
                p = end
                continue
            }
            if p == from, let end = referenceDefinition(line, p, into: &sink) {
                p = end
                continue
            }
            // Text: up to a space or backslash (at least one character).
            if ASCII.isSpace(b) {
                p += 1
            } else {
                p += 1
                while p < n && !ASCII.isSpace(line[p]) && line[p] != 0x5C { p += 1 }
            }
        }
    }

    /// `([^X]?)(X{count}[^X \n][^X\n]*X{count})` at `p` (the space excluded from the
    /// first character when `excludeSpace`): the delimited span, if it matches.
    private func delimited(_ line: UnsafeBufferPointer<UInt8>, _ p: Int, open x: UInt8, count: Int,
                           excludeSpace: Bool) -> (start: Int, end: Int)? {
        let n = line.count
        let s = line[p] == x ? p : p + Self.characterLength(line, p)
        guard s + count < n else { return nil }
        for k in 0..<count where line[s + k] != x { return nil }
        let first = line[s + count]
        guard first != x && !(excludeSpace && first == 0x20) else { return nil }
        var k = s + count + 1
        while k < n && line[k] != x { k += 1 }
        guard k + count <= n else { return nil }
        for j in 0..<count where line[k + j] != x { return nil }
        return (s, k + count)
    }

    /// The next byte of a kind at or after a position, remembered: the searches of one
    /// line start at increasing positions, so each byte is looked at about once.
    private struct NextByte {
        var from = Int.max
        var found = 0

        mutating func find(_ b: UInt8, in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
            if start >= from && found >= start { return found }
            var k = start
            while k < line.count && line[k] != b { k += 1 }
            from = start
            found = k
            return k
        }
    }

    /// The searches of a link's parts.
    private struct LinkScan {
        var text = NextByte()
        var url = NextByte()
        var reference = NextByte()
    }

    /// `[text](url)`, `![alt](src)` or `[text][ref]` at `p`: its end, if one is there.
    private func link(_ line: UnsafeBufferPointer<UInt8>, _ p: Int, _ scan: inout LinkScan, into sink: inout TokenSink) -> Int? {
        let n = line.count
        let open = line[p] == 0x21 ? p + 1 : p
        let textStart = open + 1
        let k = scan.text.find(0x5D, in: line, from: textStart)
        guard k > textStart, k + 1 < n else { return nil }
        let textEnd = k
        if line[k + 1] == 0x28 {  // (url)
            let u = scan.url.find(0x29, in: line, from: k + 2)
            guard u > k + 2, u < n else { return nil }
            sink.add(textStart, textEnd, .tag)
            sink.add(k + 2, u, .attribute)
            return u + 1
        }
        guard line[p] == 0x5B, line[k + 1] == 0x5B else { return nil }  // [ref]
        let r = scan.reference.find(0x5D, in: line, from: k + 2)
        guard r < n else { return nil }
        sink.add(textStart, textEnd, .tag)
        return r + 1
    }

    /// `[label]: url` at the start of the inline text: the URL is an attribute.
    private func referenceDefinition(_ line: UnsafeBufferPointer<UInt8>, _ p: Int, into sink: inout TokenSink) -> Int? {
        let n = line.count
        var k = p
        while k < n && ASCII.isSpace(line[k]) { k += 1 }
        guard k < n, line[k] == 0x5B else { return nil }
        k += 1
        while k < n && line[k] != 0x5D { k += 1 }
        guard k + 1 < n, line[k + 1] == 0x3A else { return nil }
        k += 2
        while k < n && ASCII.isSpace(line[k]) { k += 1 }
        guard k < n else { return nil }
        sink.add(k, n, .attribute)
        return n
    }

    /// The UTF-8 length of the character starting at `i` (1 past the end or on a stray byte).
    @inline(__always)
    private static func characterLength(_ line: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        guard i < line.count else { return 1 }
        var k = i + 1
        while k < line.count && line[k] & 0xC0 == 0x80 && k - i < 4 { k += 1 }
        return k - i
    }
}
