#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the terminal (DECRQM) whether it supports synchronized output (mode 2026)
/// and grapheme clustering (mode 2027). Only when standard input is the terminal:
/// the answers arrive there. Waits at most `timeoutMilliseconds` in all.
enum TerminalProbe {
    static func query(timeoutMilliseconds: Int32 = 150) -> (synchronized: Bool?, graphemes: Bool?) {
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else { return (nil, nil) }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return (nil, nil) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        // The two queries, then a primary device attributes request every terminal
        // answers: its reply marks the end (a terminal that ignores DECRQM says nothing).
        FileDescriptorWriter.write(STDOUT_FILENO, "\u{1B}[?2026$p\u{1B}[?2027$p\u{1B}[c")
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var pollFD = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        while poll(&pollFD, 1, timeoutMilliseconds) > 0 {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            reply += buffer[0..<n]
            if reply.contains(UInt8(ascii: "c")) { break }  // the device attributes reply
        }
        let text = String(decoding: reply, as: UTF8.self)
        return (answer(text, mode: 2026), answer(text, mode: 2027))
    }

    /// Ps of `CSI ? mode ; Ps $ y`: 1 or 2 (set or reset: supported), 3 or 4
    /// (permanently set or reset), 0 (not recognised).
    static func answer(_ text: String, mode: Int) -> Bool? {
        let bytes = Array(text.utf8), needle = Array("[?\(mode);".utf8)
        guard bytes.count > needle.count else { return nil }
        for i in 0...(bytes.count - needle.count - 1) where Array(bytes[i..<i + needle.count]) == needle {
            switch bytes[i + needle.count] {
            case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "3"): return true
            default: return false
            }
        }
        return nil
    }
}
