/// Scans shared by the Swift, Rust, Go and Kotlin lexers.
enum CurlyFamily {
    /// A set of ASCII bytes, as a 128-bit mask: one test per byte, no allocation.
    struct ByteClass: Sendable {
        private let low: UInt64
        private let high: UInt64

        init(_ chars: StaticString) {
            var low: UInt64 = 0, high: UInt64 = 0
            let p = chars.utf8Start
            for k in 0..<chars.utf8CodeUnitCount {
                let b = p[k]
                if b < 64 { low |= 1 << UInt64(b) } else if b < 128 { high |= 1 << UInt64(b - 64) }
            }
            self.low = low
            self.high = high
        }

        @inline(__always)
        func contains(_ b: UInt8) -> Bool {
            b < 64 ? (low >> UInt64(b)) & 1 == 1 : b < 128 ? (high >> UInt64(b - 64)) & 1 == 1 : false
        }
    }
}

extension CurlyFamily {
    /// An identifier at the cursor (letters, digits, `_`, non-ASCII bytes), if one starts there.
    @inline(__always)
    static func identifier(_ c: inout LineCursor) -> Range<Int>? {
        let line = c.line
        let start = c.pos
        guard start < line.count, ASCII.isIdentifierStart(line[start]) else { return nil }
        var k = start + 1
        while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
        c.pos = k
        return start..<k
    }
}

extension CurlyFamily {
    /// The frame stack of a language with interpolated strings (Swift, Kotlin), in
    /// a ``LexState``: `mode` is the innermost frame, `stack` the frames around it,
    /// innermost last. A frame's low 2 bits are its kind (``code``, ``comment``,
    /// ``string``, ``multiLineString``), the rest the lexer's own (a code frame's
    /// bracket depth inside an interpolation, a raw string's `#` count). Top-level
    /// code is the implicit bottom: a string or comment opened there pushes nothing,
    /// so a line of plain strings never touches the stack. Code with a non-empty
    /// stack is an interpolation's, and the frame below it its string.
    enum Frames {
        static let code: UInt16 = 0
        static let comment: UInt16 = 1
        static let string: UInt16 = 2
        static let multiLineString: UInt16 = 3
        /// At most this many frames around the innermost (the brief's bound on state).
        static let maxFrames = 30

        @inline(__always)
        static func kind(_ state: LexState) -> UInt16 { state.mode & 3 }

        /// Whether the innermost frame is an interpolation's code.
        @inline(__always)
        static func inInterpolation(_ state: LexState) -> Bool { state.mode & 3 == code && !state.stack.isEmpty }

        /// Enters `mode` (a string or comment) from the current frame; false when the stack is full.
        static func enter(_ mode: UInt16, _ state: inout LexState) -> Bool {
            if !(state.stack.isEmpty && state.mode == code) {
                guard state.stack.count < maxFrames else { return false }
                state.stack.append(state.mode)
            }
            state.mode = mode
            return true
        }

        /// Enters an interpolation's code from the current string; false when the stack is full.
        static func enterInterpolation(_ state: inout LexState) -> Bool {
            guard state.stack.count < maxFrames - 1 else { return false }
            state.stack.append(state.mode)
            state.mode = code
            return true
        }

        /// Leaves the innermost frame.
        static func leave(_ state: inout LexState) {
            state.mode = state.stack.popLast() ?? code
        }

        /// At a line's end: a single-line string still open is dropped, with
        /// everything it encloses (it cannot span lines; an unbalanced quote must not
        /// turn the rest of the code into a string).
        static func endLine(_ state: inout LexState) {
            if let i = state.stack.firstIndex(where: { $0 & 3 == string }) {
                state.mode = i == 0 ? code : state.stack[i - 1]
                state.stack.removeSubrange(max(0, i - 1)...)
                state.depth = 0
            } else if state.mode & 3 == string {
                leave(&state)
                state.depth = 0
            }
        }
    }
}
