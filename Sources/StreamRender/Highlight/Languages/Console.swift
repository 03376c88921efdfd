/// Shell sessions: a line that starts with a prompt is a command, lexed as bash
/// from the prompt's end, other lines are output (plain).
///
/// Prompts are the ones Pygments' `BashSessionLexer` knows, decided the same way:
/// `$ `, `# `, `% ` (any leading spaces), `user@host:dir$ `, `[user@host dir]$ `,
/// `sh-5.2$ `, each optionally after a `(venv) `. Bash state carries from one command
/// line to the next until an output line (a quote left open continues on the next
/// prompt). A line after one ending in `\` continues the command, with or without a
/// `> ` prompt. Deliberate differences from Pygments: a `> ` line continues an open
/// quote or heredoc too (the shell prints that prompt there), and `(…)` at the start
/// of an output line is output, not a virtualenv prompt.
struct ConsoleLexer: LineLexer {
    /// `mode`: the previous command line ended with a backslash.
    private static let continued: UInt16 = 1

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        let n = line.count
        var code: Int?
        if n > 0 && line[0] == 0x28 {  // (venv)
            var k = 1
            while k < n && line[k] != 0x29 { k += 1 }
            if k < n {
                k += 1
                while k < n && ASCII.isSpace(line[k]) { k += 1 }
                code = Self.promptEnd(line, from: k)
            }
        }
        if code == nil { code = Self.promptEnd(line, from: 0) }
        if let end = code {
            sink.add(0, end, .prompt)
        } else if state.mode & Self.continued != 0 || ShellScanner.isOpen(state) {
            if n >= 2 && line[0] == 0x3E && line[1] == 0x20 {
                sink.add(0, 1, .prompt)
                code = 2
            } else if state.mode & Self.continued != 0 {
                code = 0
            }
        }
        guard let from = code else {
            // Output: the next command starts afresh.
            ShellScanner.reset(&state)
            state.mode = 0
            return
        }
        if !ShellScanner.heredocLine(line, from: from, state: &state, into: &sink) {
            ShellScanner.lex(line, from: from, state: &state, into: &sink)
        }
        state.mode = n > from && line[n - 1] == 0x5C ? Self.continued : 0
    }

    /// The end of the prompt (with the spaces after it) at `p`, if the line has one
    /// there: Pygments' `_ps1rgx`, whose backtracking is reproduced here in linear time.
    static func promptEnd(_ line: UnsafeBufferPointer<UInt8>, from p: Int) -> Int? {
        let n = line.count
        guard p < n else { return nil }
        @inline(__always) func isSigil(_ b: UInt8) -> Bool { b == 0x24 || b == 0x23 || b == 0x25 }
        // `\s*[$#%]\s*` at k.
        func sigilEnd(_ k: Int) -> Int? {
            var k = k
            while k < n && ASCII.isSpace(line[k]) { k += 1 }
            guard k < n, isSigil(line[k]) else { return nil }
            k += 1
            while k < n && ASCII.isSpace(line[k]) { k += 1 }
            return k
        }
        func runEnd(_ k: Int) -> Int {
            var k = k
            while k < n && !ASCII.isSpace(line[k]) { k += 1 }
            return k
        }
        // The leftmost `@` or `:` in line[from..<to].
        func firstAtOrColon(_ from: Int, _ to: Int) -> Int? {
            var k = from
            while k < to {
                if line[k] == 0x40 || line[k] == 0x3A { return k }
                k += 1
            }
            return nil
        }
        // The rightmost sigil in line[from..<to], with the spaces after it.
        func lastSigilEnd(_ from: Int, _ to: Int) -> Int? {
            var k = to - 1
            while k >= from {
                if isSigil(line[k]) { return sigilEnd(k) }
                k -= 1
            }
            return nil
        }
        // [anything]$
        if line[p] == 0x5B {
            var j = p + 1
            while j < n {
                if line[j] == 0x5D, let e = sigilEnd(j + 1) { return e }
                j += 1
            }
        }
        // $ (after spaces)
        if let e = sigilEnd(p) { return e }
        // sh-5.2$
        if line[p] == 0x73 && p + 1 < n && line[p + 1] == 0x68 {
            var k = p + 2
            while true {
                if let e = sigilEnd(k) { return e }
                if k >= n || ASCII.isSpace(line[k]) { break }
                k += 1
            }
        }
        // user@host:dir$, optionally with one more word before the sigil.
        if ASCII.isIdentifierByte(line[p]) {
            let t1End = runEnd(p)
            if t1End - p >= 4, let a = firstAtOrColon(p + 2, t1End - 1) {
                if t1End < n {
                    var t2 = t1End
                    while t2 < n && ASCII.isSpace(line[t2]) { t2 += 1 }
                    if t2 < n {
                        let t2End = runEnd(t2)
                        if let e = sigilEnd(t2End) { return e }
                        if let e = lastSigilEnd(t2 + 1, t2End) { return e }
                    }
                }
                if let e = sigilEnd(t1End) { return e }
                if let e = lastSigilEnd(a + 2, t1End) { return e }
            }
        }
        // [user@host dir]…$
        if line[p] == 0x5B {
            let t1End = runEnd(p)
            if let a = firstAtOrColon(p + 2, t1End) {
                var j = a + 2
                while j < n && line[j] != 0x5D { j += 1 }
                if j < n, let e = lastSigilEnd(j + 2, n) { return e }
            }
        }
        return nil
    }
}
