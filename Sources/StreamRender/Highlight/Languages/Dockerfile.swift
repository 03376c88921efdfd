/// Dockerfiles, after Pygments' `DockerLexer`: the instruction at a line start is a
/// keyword (any case); `RUN`, `CMD`, `ENTRYPOINT`, `ENV`, `ARG`, `LABEL`, `ADD` and
/// `COPY` arguments are shell (``ShellScanner``, so `ENV A=b` makes `A` a variable),
/// carried across backslash continuations; the JSON form (`CMD ["a", "b"]`) is
/// strings and punctuation; `WORKDIR`, `USER`, `EXPOSE`, `STOPSIGNAL`, `MAINTAINER`
/// and `VOLUME` arguments one string; `FROM`'s image and stage name strings, `AS` a
/// keyword. `ONBUILD` and `HEALTHCHECK [--opt=v…]` are followed by an instruction.
///
/// Heredocs (`RUN <<EOF`, `COPY <<'EOF' /path`) have shell bodies up to their
/// terminator line: they are mostly scripts (Pygments lexes each body line on its
/// own, as shell unless it starts like an instruction). Deliberate difference:
/// after `FROM`, `--platform=…` options are strings and the image and `AS name`
/// still count (Pygments takes the option for the image and leaves the rest plain).
struct DockerfileLexer: LineLexer {
    /// `mode`: the previous line ended a shell chunk with `\`.
    private static let shellContinued: UInt16 = 1
    /// `mode`: `HEALTHCHECK` options ended with `\`; an instruction follows.
    private static let instructionContinued: UInt16 = 2

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        if state.depth & ShellScanner.inHeredoc != 0 {
            if ShellScanner.heredocLine(line, from: 0, state: &state, into: &sink) {
                ShellScanner.closeContexts(&state)
                state.mode = 0
            } else {
                // A body's own heredocs are not followed: the outer terminator matters.
                ShellScanner.lex(line, from: 0, state: &state, heredocs: .none, into: &sink)
            }
            return
        }
        switch state.mode {
        case Self.shellContinued:
            shell(line, from: 0, state: &state, into: &sink)
        case Self.instructionContinued:
            state.mode = 0
            instruction(line, from: Self.skipSpaces(line, 0), state: &state, into: &sink)
        default:
            instruction(line, from: 0, state: &state, into: &sink)
        }
    }

    private func instruction(_ line: UnsafeBufferPointer<UInt8>, from start: Int, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        var p = start
        // ONBUILD and HEALTHCHECK lead to another instruction: a loop, not recursion.
        while p < n {
            if line[p] == 0x23 {  // #
                sink.add(p, n, .comment)
                return
            }
            var after = p
            while after < n && ASCII.isLetter(line[after]) { after += 1 }
            let word = p..<after
            let spaced = after == n || ASCII.isSpace(line[after])
            guard !word.isEmpty, spaced else { break }
            let rest = Self.skipSpaces(line, after)
            if Self.matches(line, word, "FROM") {
                sink.add(word, .keyword)
                from(line, at: rest, state: &state, into: &sink)
                return
            } else if Self.matches(line, word, "ONBUILD") {
                sink.add(word, .keyword)
                p = rest
            } else if Self.matches(line, word, "HEALTHCHECK") {
                sink.add(word, .keyword)
                p = healthcheckOptions(line, at: rest, into: &sink)
                if p == n - 1 && line[p] == 0x5C {
                    sink.add(p, n, .stringEscape)
                    state.mode = Self.instructionContinued
                    return
                }
            } else if Self.matches(line, word, "CMD") || Self.matches(line, word, "ENTRYPOINT")
                        || Self.matches(line, word, "SHELL") || Self.matches(line, word, "VOLUME") {
                sink.add(word, .keyword)
                if rest < n && line[rest] == 0x5B, let close = Self.closingBracket(line, from: rest) {
                    json(line, rest, close, into: &sink)
                    if close < n { shell(line, from: close, state: &state, into: &sink) }
                } else if Self.matches(line, word, "VOLUME") {
                    sink.add(rest, n, .string)
                } else {
                    shell(line, from: rest, state: &state, into: &sink)
                }
                return
            } else if Self.matches(line, word, "RUN") || Self.matches(line, word, "COPY") || Self.matches(line, word, "ADD")
                        || Self.matches(line, word, "ENV") || Self.matches(line, word, "ARG") || Self.matches(line, word, "LABEL") {
                sink.add(word, .keyword)
                shell(line, from: rest, state: &state, into: &sink)
                return
            } else if Self.matches(line, word, "WORKDIR") || Self.matches(line, word, "USER") || Self.matches(line, word, "EXPOSE")
                        || Self.matches(line, word, "STOPSIGNAL") || Self.matches(line, word, "MAINTAINER") {
                sink.add(word, .keyword)
                sink.add(rest, n, .string)
                return
            } else {
                break
            }
        }
        shell(line, from: p, state: &state, into: &sink)
    }

    /// A shell chunk from `start`; a trailing backslash continues it on the next line.
    private func shell(_ line: UnsafeBufferPointer<UInt8>, from start: Int, state: inout LexState, into sink: inout TokenSink) {
        if start < line.count {
            ShellScanner.lex(line, from: start, state: &state, heredocs: .code, into: &sink)
        }
        if let last = line.last, last == 0x5C {
            state.mode = Self.shellContinued
        } else {
            state.mode = 0
            ShellScanner.closeContexts(&state)
        }
    }

    /// `FROM [--option=value…] image [AS name]`.
    private func from(_ line: UnsafeBufferPointer<UInt8>, at start: Int, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        var k = start
        while k < n {
            let isOption = line[k] == 0x2D && k + 1 < n && line[k + 1] == 0x2D
            let e = Self.runEnd(line, k)
            sink.add(k, e, .string)
            k = Self.skipSpaces(line, e)
            if !isOption { break }
        }
        if k + 2 <= n && Self.matches(line, k..<k + 2, "AS") && (k + 2 == n || ASCII.isSpace(line[k + 2])) {
            sink.add(k, k + 2, .keyword)
            k = Self.skipSpaces(line, k + 2)
            let e = Self.runEnd(line, k)
            sink.add(k, e, .string)
            k = Self.skipSpaces(line, e)
        }
        shell(line, from: k, state: &state, into: &sink)
    }

    /// `--name=value` options (word characters only, as Pygments takes them), lexed
    /// as shell; the position after them.
    private func healthcheckOptions(_ line: UnsafeBufferPointer<UInt8>, at start: Int, into sink: inout TokenSink) -> Int {
        let n = line.count
        var k = start
        while k + 2 < n && line[k] == 0x2D && line[k + 1] == 0x2D {
            var e = k + 2
            while e < n && ASCII.isIdentifierByte(line[e]) { e += 1 }
            guard e > k + 2, e < n, line[e] == 0x3D else { break }
            e += 1
            let v = e
            while e < n && ASCII.isIdentifierByte(line[e]) { e += 1 }
            guard e > v else { break }
            var fresh = LexState()
            ShellScanner.lex(UnsafeBufferPointer(rebasing: line[..<e]), from: k, state: &fresh, heredocs: .none, into: &sink)
            k = Self.skipSpaces(line, e)
        }
        return k
    }

    /// A JSON array in `line[start..<end]`: strings, punctuation, numbers, constants.
    private func json(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, into sink: inout TokenSink) {
        var k = start
        while k < end {
            let s = k
            let b = line[k]
            switch b {
            case 0x22:
                k += 1
                while k < end && line[k] != 0x22 { k += line[k] == 0x5C ? 2 : 1 }
                k = min(end, k + 1)
                sink.add(s, k, .string)
            case 0x5B, 0x5D, 0x7B, 0x7D, 0x2C, 0x3A:
                k += 1
                sink.add(s, k, .punctuation)
            case 0x2D, 0x30...0x39:
                k += 1
                while k < end && (ASCII.isDigit(line[k]) || line[k] == 0x2E || (line[k] | 0x20) == 0x65) { k += 1 }
                sink.add(s, k, .number)
            default:
                if ASCII.isLetter(b) {
                    while k < end && ASCII.isLetter(line[k]) { k += 1 }
                    let r = s..<k
                    if Self.constants.contains(line, r) { sink.add(r, .constant) }
                } else {
                    k += 1
                }
            }
        }
    }

    private static let constants = WordTable("true false null")

    /// The position after the first `]` at or after `start`, if there is one.
    private static func closingBracket(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var k = start
        while k < line.count {
            if line[k] == 0x5D { return k + 1 }
            k += 1
        }
        return nil
    }

    private static func skipSpaces(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var k = start
        while k < line.count && ASCII.isSpace(line[k]) { k += 1 }
        return k
    }

    private static func runEnd(_ line: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var k = start
        while k < line.count && !ASCII.isSpace(line[k]) { k += 1 }
        return k
    }

    /// Whether `line[range]` is `word` (upper case), ignoring case.
    private static func matches(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        let p = word.utf8Start
        for i in 0..<range.count where ASCII.upper(line[range.lowerBound + i]) != p[i] { return false }
        return true
    }
}
