#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the signal handlers need, kept where a C handler can reach it: SIGINT and
/// SIGTERM restore the terminal (pen, links, synchronized output, alternate screen,
/// cursor) and exit; SIGWINCH records that the size changed.
enum TerminalRestore {
    /// The restore sequence, written with write(2) from the handler (async-signal-safe).
    nonisolated(unsafe) private static var restoreBytes: [UInt8] = []
    nonisolated(unsafe) private static var armed: sig_atomic_t = 0
    nonisolated(unsafe) private static var resized: sig_atomic_t = 0

    static func arm(fullscreen: Bool) {
        var sequence = "\u{1B}]8;;\u{1B}\\\u{1B}[0m\u{1B}[?2026l"
        if fullscreen { sequence += "\u{1B}[r\u{1B}[?1049l" }
        sequence += "\u{1B}[?25h\r\n"
        restoreBytes = Array(sequence.utf8)
        armed = 1
        install(SIGINT) { signal in
            TerminalRestore.restoreNow()
            _exit(128 + signal)
        }
        install(SIGTERM) { signal in
            TerminalRestore.restoreNow()
            _exit(128 + signal)
        }
        install(SIGWINCH) { _ in TerminalRestore.resized = 1 }
    }

    static func disarm() {
        armed = 0
    }

    private static func restoreNow() {
        guard armed != 0 else { return }
        restoreBytes.withUnsafeBufferPointer { buf in
            _ = Glibc_write(STDOUT_FILENO, buf.baseAddress!, buf.count)
        }
    }

    /// The new size if SIGWINCH arrived since the last call.
    static func takeResize() -> (columns: Int, rows: Int)? {
        guard resized != 0 else { return nil }
        resized = 0
        return terminalSize(STDOUT_FILENO)
    }

    /// Installs `handler` without SA_RESTART, so a blocked read(2) returns EINTR and
    /// the read loop gets to draw the next frame.
    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }
}

/// The size of the terminal on `fd`, if it is one.
func terminalSize(_ fd: Int32) -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
}
