/// HTML and XML, with Pygments' choices for each: in HTML `<`, `/` and `>` are
/// punctuation around the tag name (`tag`) and `=` an operator; in XML the whole of
/// `<name`, `>`, `/>` and `</name>` is `tag` and an attribute's `=` belongs to its name
/// (`attribute`). Both: attribute values are strings (quoted ones may span lines),
/// entities (`&amp;`, `&#x20AC;`) constants, comments span lines, and CDATA sections,
/// processing instructions (`<?xml … ?>`) and declarations (`<!DOCTYPE …>`) are
/// `attribute`, as Pygments has them (a preprocessor-like colour).
///
/// HTML's `<script>` and `<style>` bodies are lexed by the JavaScript and CSS lexers,
/// as Pygments does, up to the closing tag (even one inside a JavaScript string, as in
/// browsers); their state rides in ours (``EmbeddedLexer``).
///
/// Carried from line to line (`state.mode`): an open tag, an attribute value still to
/// come or still open, a comment, CDATA section, processing instruction or
/// declaration, with whether the tag being closed opens a script or style body.
struct MarkupLexer: LineLexer {
    var html: Bool

    private static let text: UInt16 = 0
    private static let inTag: UInt16 = 1
    private static let valuePending: UInt16 = 2
    private static let inDouble: UInt16 = 3
    private static let inSingle: UInt16 = 4
    private static let inComment: UInt16 = 5
    private static let inCDATA: UInt16 = 6
    private static let inInstruction: UInt16 = 7
    private static let inDeclaration: UInt16 = 8
    /// Flags on the tag modes: the tag opens a `<script>` or `<style>` body.
    private static let opensScript: UInt16 = 0x10
    private static let opensStyle: UInt16 = 0x20
    /// Host words while a body is embedded: which body, then the marker.
    private static let scriptBody: UInt16 = 1
    private static let styleBody: UInt16 = 2

    private static let javaScript = JavaScriptLexer(typescript: false)
    private static let css = CSSLexer()

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var from = 0
        while true {
            if EmbeddedLexer.isEmbedded(state) {
                let isScript = EmbeddedLexer.hostWord(state, 1) == Self.scriptBody
                guard let close = Self.closingTag(line, from: from, name: isScript ? "script" : "style") else {
                    embedded(isScript, line, from..<line.count, state: &state, into: &sink)
                    return
                }
                embedded(isScript, line, from..<close.lowerBound, state: &state, into: &sink)
                state = LexState()
                var c = LineCursor(line, at: close.lowerBound)
                closeTag(&c, into: &sink)
                from = c.pos
            }
            guard let body = markup(line, from: from, state: &state, into: &sink) else { return }
            from = body
        }
    }

    /// Lexes markup from `from`: nil at the line's end, or where a script or style
    /// body starts (with `state` embedding its language).
    private func markup(_ line: UnsafeBufferPointer<UInt8>, from: Int, state: inout LexState, into sink: inout TokenSink) -> Int? {
        var c = LineCursor(line, at: from)
        var entityStop = 0
        var mode = state.mode & 0xF
        var opens = state.mode & 0x30
        state.mode = 0

        while !c.atEnd {
            switch mode {
            case Self.inComment:
                mode = delimited(&c, "-->", .comment, into: &sink) ? Self.text : mode
            case Self.inCDATA:
                mode = delimited(&c, "]]>", .attribute, into: &sink) ? Self.text : mode
            case Self.inInstruction:
                mode = delimited(&c, "?>", .attribute, into: &sink) ? Self.text : mode
            case Self.inDeclaration:
                mode = delimited(&c, ">", .attribute, into: &sink) ? Self.text : mode
            case Self.inDouble, Self.inSingle:
                let start = c.pos
                let closed = c.skip(past: mode == Self.inDouble ? "\"" : "'")
                sink.add(start, c.pos, .string)
                if closed { mode = Self.inTag }
            case Self.valuePending:
                c.skipSpaces()
                if c.atEnd { break }
                mode = value(&c, into: &sink)
            case Self.inTag:
                c.skipSpaces()
                if c.atEnd { break }
                let start = c.pos
                let b = c.peek()
                if b == 0x3E || (b == 0x2F && c.nextNonSpace(from: c.pos + 1) == 0x3E) {
                    if b == 0x2F {
                        c.pos += 1
                        sink.add(start, c.pos, html ? .punctuation : .tag)
                        c.skipSpaces()
                    }
                    let s = c.pos
                    c.pos += 1
                    sink.add(s, c.pos, html ? .punctuation : .tag)
                    mode = Self.text
                    if opens != 0 {
                        // The body starts right after the tag.
                        state = EmbeddedLexer.start([opens == Self.opensScript ? Self.scriptBody : Self.styleBody])
                        return c.pos
                    }
                } else if let name = attributeName(&c) {
                    // `name =` takes a value; without `=` it stands alone.
                    var k = name.upperBound
                    while k < c.count && ASCII.isSpace(c.line[k]) { k += 1 }
                    if c[k] == 0x3D {
                        if html {
                            sink.add(start, name.upperBound, .attribute)
                            sink.add(k, k + 1, .operator)
                        } else {
                            sink.add(start, k + 1, .attribute)
                        }
                        c.pos = k + 1
                        mode = Self.valuePending
                    } else if html {
                        sink.add(name, .attribute)
                    } else {
                        // Pygments' XML lexer knows no attribute without a value.
                        sink.add(name, .plain)
                    }
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            default:
                mode = Self.text
                let start = c.pos
                switch c.peek() {
                case 0x3C:  // <
                    mode = tagStart(&c, opens: &opens, into: &sink)
                case 0x26:  // &
                    // The first space or `;` after it (remembered: `&&&…` stays linear).
                    if entityStop <= c.pos {
                        entityStop = c.pos + 1
                        while entityStop < c.count && !ASCII.isSpace(c.line[entityStop]) && c.line[entityStop] != 0x3B { entityStop += 1 }
                    }
                    let k = entityStop
                    c.pos = k < c.count && c.line[k] == 0x3B ? k + 1 : start + 1
                    sink.add(start, c.pos, c.pos > start + 1 ? .constant : .plain)
                default:
                    // Text is plain: nothing to report.
                    while !c.atEnd && c.peek() != 0x3C && c.peek() != 0x26 { c.pos += 1 }
                }
            }
        }
        state.mode = mode == Self.text ? 0 : mode | opens
        return nil
    }

    private func embedded(_ isScript: Bool, _ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, state: inout LexState,
                          into sink: inout TokenSink) {
        EmbeddedLexer.lex(isScript ? Self.javaScript : Self.css, line, range, own: 2, state: &state, into: &sink)
    }

    /// Something starting with `<` in text: a tag, a comment, CDATA, an instruction or
    /// a declaration. Returns the mode after it.
    private func tagStart(_ c: inout LineCursor, opens: inout UInt16, into sink: inout TokenSink) -> UInt16 {
        let start = c.pos
        if c.at("<!--") {
            c.pos += 4
            sink.add(start, c.pos, .comment)
            return delimited(&c, "-->", .comment, into: &sink) ? Self.text : Self.inComment
        }
        if c.at("<![CDATA[") || (html && Self.atIgnoringCase(c, "<![cdata[")) {
            c.pos += 9
            sink.add(start, c.pos, .attribute)
            return delimited(&c, "]]>", .attribute, into: &sink) ? Self.text : Self.inCDATA
        }
        if c.at("<?") {
            c.pos += 2
            sink.add(start, c.pos, .attribute)
            return delimited(&c, "?>", .attribute, into: &sink) ? Self.text : Self.inInstruction
        }
        if c.at("<!") {
            c.pos += 2
            sink.add(start, c.pos, .attribute)
            return delimited(&c, ">", .attribute, into: &sink) ? Self.text : Self.inDeclaration
        }
        if c.nextNonSpace(from: start + 1) == 0x2F {
            if closeTag(&c, into: &sink) { return Self.text }
            c.pos = start + 1
            sink.add(start, c.pos, .plain)
            return Self.text
        }
        var k = start + 1
        while k < c.count && ASCII.isSpace(c.line[k]) { k += 1 }
        var n = k
        while n < c.count && Self.isNameByte(c.line[n], dot: true) { n += 1 }
        guard n > k else {
            c.pos = start + 1
            sink.add(start, c.pos, .plain)
            return Self.text
        }
        if html {
            sink.add(start, start + 1, .punctuation)
            // Pygments matches these names as prefixes, ignoring case.
            let afterScript = Self.atIgnoringCase(c, "script", k) ? k + 6 : nil
            let afterStyle = Self.atIgnoringCase(c, "style", k) ? k + 5 : nil
            if let end = afterScript ?? afterStyle {
                opens = afterScript != nil ? Self.opensScript : Self.opensStyle
                n = end
            }
            sink.add(k, n, .tag)
        } else {
            sink.add(start, n, .tag)
        }
        c.pos = n
        return Self.inTag
    }

    /// A closing tag `</name>` at the cursor (all on this line); whether there was one.
    @discardableResult
    private func closeTag(_ c: inout LineCursor, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        var k = start + 1
        while k < c.count && ASCII.isSpace(c.line[k]) { k += 1 }
        let slash = k
        k += 1
        while k < c.count && ASCII.isSpace(c.line[k]) { k += 1 }
        let nameStart = k
        while k < c.count && Self.isNameByte(c.line[k], dot: true) { k += 1 }
        let nameEnd = k
        while k < c.count && ASCII.isSpace(c.line[k]) { k += 1 }
        guard nameEnd > nameStart, c[slash] == 0x2F, c[k] == 0x3E else { return false }
        if html {
            sink.add(start, start + 1, .punctuation)
            sink.add(slash, slash + 1, .punctuation)
            sink.add(nameStart, nameEnd, .tag)
            sink.add(k, k + 1, .punctuation)
        } else {
            sink.add(start, k + 1, .tag)
        }
        c.pos = k + 1
        return true
    }

    /// An attribute value at the cursor; the mode after it.
    private func value(_ c: inout LineCursor, into sink: inout TokenSink) -> UInt16 {
        let start = c.pos
        let b = c.peek()
        if b == 0x22 || b == 0x27 {
            c.pos += 1
            let closed = b == 0x22 ? c.skip(past: "\"") : c.skip(past: "'")
            sink.add(start, c.pos, .string)
            return closed ? Self.inTag : (b == 0x22 ? Self.inDouble : Self.inSingle)
        }
        while !c.atEnd && !ASCII.isSpace(c.peek()) && c.peek() != 0x3E { c.pos += 1 }
        if c.pos == start {
            // `=>`: Pygments has no value here and moves on.
            c.pos += 1
            sink.add(start, c.pos, .plain)
            return Self.valuePending
        }
        sink.add(start, c.pos, .string)
        return Self.inTag
    }

    /// An attribute name at the cursor (HTML: `[\w:-]+`, XML: `[\w.:-]+`).
    private func attributeName(_ c: inout LineCursor) -> Range<Int>? {
        let start = c.pos
        while !c.atEnd && Self.isNameByte(c.peek(), dot: !html) { c.pos += 1 }
        return c.pos > start ? start..<c.pos : nil
    }

    /// Up to and including `end` (true), or to the line's end, as `kind`.
    private func delimited(_ c: inout LineCursor, _ end: StaticString, _ kind: TokenKind, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        let found = c.skip(past: end)
        sink.add(start, c.pos, kind)
        return found
    }

    /// Where `</name>` (spaces allowed, any case) is in `line` at or after `from`.
    private static func closingTag(_ line: UnsafeBufferPointer<UInt8>, from: Int, name: StaticString) -> Range<Int>? {
        let c = LineCursor(line)
        var i = from
        while i < line.count {
            if line[i] == 0x3C {
                var k = i + 1
                while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                if k < line.count && line[k] == 0x2F {
                    k += 1
                    while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                    if atIgnoringCase(c, name, k) {
                        k += name.utf8CodeUnitCount
                        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
                        if k < line.count && line[k] == 0x3E { return i..<(k + 1) }
                    }
                }
            }
            i += 1
        }
        return nil
    }

    private static func atIgnoringCase(_ c: LineCursor, _ word: StaticString, _ at: Int? = nil) -> Bool {
        let i = at ?? c.pos
        let n = word.utf8CodeUnitCount
        guard i >= 0, i + n <= c.count else { return false }
        let p = word.utf8Start
        for k in 0..<n where ASCII.lower(c.line[i + k]) != p[k] { return false }
        return true
    }

    /// `\w`, `:`, `-` and, if `dot`, `.`.
    @inline(__always)
    private static func isNameByte(_ b: UInt8, dot: Bool) -> Bool {
        ASCII.isIdentifierByte(b) || b == 0x3A || b == 0x2D || (dot && b == 0x2E)
    }
}
