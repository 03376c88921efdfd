/// Highlights code line by line: each finished line is lexed once, from the state
/// the line before left, and keeps its tokens; an unfinished line is lexed again
/// each time it is shown, without moving the state.
///
/// ```swift
/// var highlighter = Highlighter(language: HighlightLanguage.named("swift")!)
/// let tokens = highlighter.finishLine("let x = \"hi\"")  // keyword, plain, operator, string
/// ```
public struct Highlighter: Sendable {
    public let language: HighlightLanguage
    /// The state the next line starts in.
    private(set) var state = LexState.initial
    /// Finished lines lexed so far (each exactly once).
    public private(set) var linesLexed = 0

    let lexer: any LineLexer

    public init(language: HighlightLanguage) {
        self.language = language
        lexer = language.lexer
    }

    /// Lexes a finished line (without its line break) and moves to the next line.
    /// Offsets are UTF-8 byte offsets in `line`.
    ///
    /// - Complexity: O(n) in the line's bytes.
    public mutating func finishLine(_ line: String) -> [Token] {
        var line = line
        return line.withUTF8 { finishLine(utf8: $0) }
    }

    /// ``finishLine(_:)`` of a line's UTF-8 bytes.
    ///
    /// - Complexity: O(n) in the line's bytes.
    mutating func finishLine(utf8 line: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokens: [Token] = []
        finishLine(utf8: line, into: &tokens)
        return tokens
    }

    /// ``finishLine(utf8:)`` into `tokens`, emptied first (its room kept): a caller that
    /// lexes line after line grows no array per line.
    ///
    /// - Complexity: O(n) in the line's bytes.
    mutating func finishLine(utf8 line: UnsafeBufferPointer<UInt8>, into tokens: inout [Token]) {
        linesLexed += 1
        var sink = TokenSink()
        swap(&sink.tokens, &tokens)
        sink.tokens.removeAll(keepingCapacity: true)
        Self.lex(line, lexer, state: &state, offset: 0, into: &sink)
        swap(&sink.tokens, &tokens)
    }

    /// The tokens of an unfinished line as it stands; the state does not move.
    ///
    /// - Complexity: O(n) in the line's bytes.
    public func peekLine(_ line: String) -> [Token] {
        var line = line
        var state = self.state
        return line.withUTF8 { Self.lex($0, lexer, state: &state, offset: 0) }
    }

    /// The tokens of a whole text in one pass (lines split at LF; a CR before it is
    /// part of no token). Offsets are UTF-8 byte offsets in `text`.
    ///
    /// - Complexity: O(n) in the text's bytes.
    public static func tokens(in text: String, language: HighlightLanguage) -> [Token] {
        var text = text
        return text.withUTF8 { bytes in
            var stream = TokenStream(language: language)
            var sink = TokenSink()
            stream.append(bytes, into: &sink)
            stream.finish(into: &sink)
            return sink.tokens
        }
    }

    /// Lexes one line (a CR at its end excluded) into `sink`, at `offset`.
    @inline(__always)
    static func lex(_ line: UnsafeBufferPointer<UInt8>, _ lexer: any LineLexer, state: inout LexState,
                    offset: Int, into sink: inout TokenSink) {
        sink.offset = offset
        var body = line
        if let last = body.last, last == 0x0D { body = UnsafeBufferPointer(rebasing: body.dropLast()) }
        lexer.lex(body, state: &state, into: &sink)
    }

    static func lex(_ line: UnsafeBufferPointer<UInt8>, _ lexer: any LineLexer, state: inout LexState, offset: Int) -> [Token] {
        var sink = TokenSink()
        lex(line, lexer, state: &state, offset: offset, into: &sink)
        return sink.tokens
    }
}

/// Tokens of a text arriving in pieces of any size (a line completes when its LF
/// arrives): the tokens of each line as it completes, with offsets in the whole text.
///
/// For every way of cutting the text, the tokens are those of one pass, and each
/// line is lexed once.
public struct TokenStream: Sendable {
    public private(set) var highlighter: Highlighter
    private var partial: [UInt8] = []
    /// The offset of the unfinished line in the whole text.
    private var lineStart = 0

    public init(language: HighlightLanguage) {
        highlighter = Highlighter(language: language)
    }

    /// Finished lines lexed so far.
    public var linesLexed: Int { highlighter.linesLexed }

    /// Appends bytes; returns the tokens of the lines they complete.
    ///
    /// - Complexity: O(n) in the bytes appended plus the unfinished line they complete.
    public mutating func append(_ bytes: some Collection<UInt8>) -> [Token] {
        var sink = TokenSink()
        if bytes.withContiguousStorageIfAvailable({ append($0, into: &sink) }) == nil {
            Array(bytes).withUnsafeBufferPointer { append($0, into: &sink) }
        }
        return sink.tokens
    }

    /// Ends the text: the tokens of its last line, if it did not end with a line break.
    ///
    /// - Complexity: O(n) in the unfinished line's bytes.
    public mutating func finish() -> [Token] {
        var sink = TokenSink()
        finish(into: &sink)
        return sink.tokens
    }

    /// Appends bytes, adding the tokens of the lines they complete to `sink`. A line
    /// wholly inside `bytes` is lexed where it is; only an unfinished line is copied.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout TokenSink) {
        guard !bytes.isEmpty else { return }
        let lexer = highlighter.lexer
        var state = highlighter.state
        var start = 0
        var lines = 0
        var newline = 0
        while true {
            while newline < bytes.count && bytes[newline] != 0x0A { newline += 1 }
            guard newline < bytes.count else { break }
            let length: Int
            if partial.isEmpty {
                length = newline - start
                Highlighter.lex(UnsafeBufferPointer(rebasing: bytes[start..<newline]), lexer, state: &state,
                                offset: lineStart, into: &sink)
            } else {
                partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<newline]))
                length = partial.count
                partial.withUnsafeBufferPointer {
                    Highlighter.lex($0, lexer, state: &state, offset: lineStart, into: &sink)
                }
                partial.removeAll(keepingCapacity: true)
            }
            lines += 1
            lineStart += length + 1
            newline += 1
            start = newline
        }
        if start < bytes.count { partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        highlighter.advance(to: state, lines: lines)
    }

    mutating func finish(into sink: inout TokenSink) {
        guard !partial.isEmpty else { return }
        var state = highlighter.state
        partial.withUnsafeBufferPointer {
            Highlighter.lex($0, highlighter.lexer, state: &state, offset: lineStart, into: &sink)
        }
        highlighter.advance(to: state, lines: 1)
        lineStart += partial.count
        partial.removeAll()
    }
}

extension Highlighter {
    mutating func advance(to state: LexState, lines: Int) {
        self.state = state
        linesLexed += lines
    }
}
