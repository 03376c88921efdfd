#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's terminal while a view draws on it: its size, its answers to
/// DECRQM queries, echo turned off (typed keys must not land in the answer), and
/// every mode restored at the end, on SIGINT / SIGTERM / SIGHUP and around Ctrl-Z.
///
/// Signals arrive through a self-pipe (``SignalWatcher/start()``) that a poll loop
/// watches beside its input, so a resize or Ctrl-C is handled at once even while
/// input stalls; ``SignalWatcher/takeSignals()`` says which arrived. A second SIGINT, SIGTERM or
/// SIGHUP restores the terminal from the handler and exits at once (for a process
/// stuck writing to a blocked terminal).
///
/// The terminal is reached through `/dev/tty`, so `curl ... | stream-render` is
/// probed and has its echo turned off too. Signal handlers are process-wide: one
/// session per process.
public final class TerminalSession {
    /// The descriptor the view is written to (standard output).
    public let output: Int32
    /// `/dev/tty`, when the process has a controlling terminal.
    private let tty: Int32
    private var savedModes: termios?
    private var echoOff = false

    /// A session for the terminal on `output`, or nil when it is not a terminal.
    /// Only signals are handled then (``SignalWatcher``); nothing else is changed.
    public init(output: Int32 = STDOUT_FILENO) {
        self.output = output
        tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    }

    deinit {
        restoreModes()
        if tty >= 0 { close(tty) }
    }

    /// Whether `output` is a terminal.
    public var outputIsTerminal: Bool { isatty(output) != 0 }

    /// The terminal's size, if `output` is one.
    public var size: (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row))
    }

    // MARK: - Probe

    /// The terminal's answers about synchronized output (mode 2026: supported when
    /// recognised) and grapheme clustering (mode 2027: on only when set), asked
    /// through `/dev/tty` with a device-attributes request after them that every
    /// terminal answers; nil for a question not answered within `timeoutMilliseconds`.
    ///
    /// - Complexity: O(1) work, plus up to `timeoutMilliseconds` waiting for the terminal's replies.
    public func probe(timeoutMilliseconds: Int32 = 150) -> (synchronized: Bool?, graphemes: Bool?) {
        guard outputIsTerminal, tty >= 0, isatty(tty) != 0 else { return (nil, nil) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return (nil, nil) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(tty, TCSANOW, &raw)
        defer { tcsetattr(tty, TCSANOW, &saved) }
        ANSIEncoder.probeQueries.withUnsafeBufferPointer { _ = FileDescriptorSink.writeAll(tty, $0) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var descriptor = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, timeoutMilliseconds) > 0 {
            let n = buffer.withUnsafeMutableBytes { read(tty, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            reply += buffer[0..<n]
            if Self.hasDeviceAttributes(reply) { break }
        }
        let synchronized = Self.modeReport(reply, mode: 2026)
        let graphemes = Self.modeReport(reply, mode: 2027)
        return (synchronized.map { $0 != 0 && $0 != 4 }, graphemes.map { $0 == 1 || $0 == 3 })
    }

    /// Whether `reply` holds a primary device attributes answer (`CSI ? ... c`).
    static func hasDeviceAttributes(_ reply: [UInt8]) -> Bool {
        guard let start = reply.indices.first(where: { reply[$0] == 0x1B && $0 + 2 < reply.count && reply[$0 + 2] == UInt8(ascii: "?") }) else {
            return false
        }
        return reply[start...].contains(UInt8(ascii: "c"))
    }

    /// Ps of the DECRQM report `CSI ? mode ; Ps $ y` in `reply`, if there is one:
    /// 0 not recognised, 1 set, 2 reset, 3 permanently set, 4 permanently reset.
    ///
    /// - Complexity: O(n) in the bytes of `reply`.
    public static func modeReport(_ reply: [UInt8], mode: Int) -> Int? {
        let needle = Array("\u{1B}[?\(mode);".utf8)
        guard reply.count > needle.count else { return nil }
        for i in 0..<(reply.count - needle.count) where reply[i..<(i + needle.count)].elementsEqual(needle) {
            let digit = reply[i + needle.count]
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
            return Int(digit - UInt8(ascii: "0"))
        }
        return nil
    }

    // MARK: - Modes

    /// Turns echo off (keys typed while the view draws are neither shown nor lost:
    /// they wait for the shell) and keeps what to restore. Signals from keys (Ctrl-C,
    /// Ctrl-Z) keep working.
    ///
    /// Only while the process is in the terminal's foreground: continued in the
    /// background (`bg`), the shell owns the terminal's modes.
    ///
    /// - Complexity: O(1) (two system calls).
    public func disableEcho() {
        guard tty >= 0, isatty(tty) != 0, tcgetpgrp(tty) == getpgrp() else { return }
        var modes = termios()
        guard tcgetattr(tty, &modes) == 0 else { return }
        if savedModes == nil { savedModes = modes }
        modes.c_lflag &= ~tcflag_t(ECHO)
        Self.setModes(tty, &modes)
        echoOff = true
        SignalWatcher.savedModes = savedModes
        SignalWatcher.ttyDescriptor = tty
    }

    /// Puts the terminal modes back as they were.
    ///
    /// - Complexity: O(1) (a write and a system call).
    public func restoreModes() {
        guard echoOff, var modes = savedModes else { return }
        Self.setModes(tty, &modes)
        echoOff = false
    }

    /// tcsetattr with SIGTTOU ignored: after Ctrl-Z the shell may already have taken
    /// the terminal, and a stop by SIGTTOU here would swallow the SIGCONT meant to
    /// end the stop that follows (the process would stay stopped after `fg`).
    private static func setModes(_ fd: Int32, _ modes: inout termios) {
        let previous = signal(SIGTTOU, SIG_IGN)
        tcsetattr(fd, TCSANOW, &modes)
        signal(SIGTTOU, previous)
    }

    /// Stops the process (Ctrl-Z) with the terminal's modes restored, and returns
    /// once it is continued, with echo off again. The caller suspends its view first.
    ///
    /// - Complexity: O(1) (a signal to this process).
    public func stopProcess() {
        let wasOff = echoOff
        restoreModes()
        SignalWatcher.stopNow()
        if wasOff { disableEcho() }
    }

    /// The bytes a handler writes if the process must exit before the view ends
    /// normally (a second Ctrl-C): pen and link reset, synchronized output off, the
    /// alternate screen left, the cursor shown.
    ///
    /// - Complexity: O(n) in the bytes.
    public func setEmergencyRestore(_ bytes: [UInt8]) {
        SignalWatcher.setEmergency(bytes, output: output)
    }
}

/// SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP and SIGCONT delivered through a
/// self-pipe. Installed without `SA_RESTART`, so a blocked read(2) returns too.
public enum SignalWatcher {
    nonisolated(unsafe) private static var readFD: Int32 = -1
    nonisolated(unsafe) private static var writeFD: Int32 = -1
    nonisolated(unsafe) private static var emergency: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var emergencyOutput: Int32 = STDOUT_FILENO
    nonisolated(unsafe) private static var pendingStops: sig_atomic_t = 0
    nonisolated(unsafe) static var savedModes: termios?
    nonisolated(unsafe) static var ttyDescriptor: Int32 = -1
    nonisolated(unsafe) private static var installed = false

    /// The signals watched.
    public static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// Installs the handlers (once) and returns the descriptor that becomes readable
    /// when a signal arrives.
    ///
    /// - Complexity: O(1) (a pipe and the handlers installed).
    public static func start() -> Int32 {
        if !installed {
            var fds: [Int32] = [0, 0]
            _ = fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            readFD = fds[0]
            writeFD = fds[1]
            for s in watched { install(s, handler) }
            // A parent may have left them blocked (the mask is inherited across exec).
            var set = sigset_t()
            sigemptyset(&set)
            for s in watched { sigaddset(&set, s) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            installed = true
        }
        return readFD
    }

    /// The signals that arrived since the last call, in order.
    ///
    /// - Complexity: O(s) in the signals pending.
    public static func takeSignals() -> [Int32] {
        guard installed else { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        var result: [Int32] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            result += buffer[0..<n].map { Int32($0) }
        }
        // `pendingStops` stays set: a SIGINT or SIGTERM taken here ends the program, so
        // another one while it ends (stuck writing to a blocked terminal) exits at once.
        return result
    }

    /// Puts the default handlers back.
    ///
    /// - Complexity: O(1).
    public static func stop() {
        guard installed else { return }
        for s in watched { signal(s, SIG_DFL) }
        installed = false
        close(readFD)
        close(writeFD)
    }

    static func setEmergency(_ bytes: [UInt8], output: Int32) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        let old = emergency
        emergency = buffer
        emergencyOutput = output
        old?.deallocate()
    }

    /// Stops the process as Ctrl-Z would have, returning when it is continued.
    static func stopNow() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        install(SIGTSTP, handler)
    }

    private static let handler: @convention(c) (Int32) -> Void = { signal in
        // Async-signal-safe only: write(2), tcsetattr(3), _exit(2).
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: signal)
        if signal == SIGINT || signal == SIGTERM || signal == SIGHUP {
            if SignalWatcher.pendingStops != 0 {
                // The loop did not get to the first one: restore and leave now.
                if let bytes = SignalWatcher.emergency {
                    _ = write(SignalWatcher.emergencyOutput, bytes.baseAddress, bytes.count)
                }
                if var modes = SignalWatcher.savedModes, SignalWatcher.ttyDescriptor >= 0 {
                    tcsetattr(SignalWatcher.ttyDescriptor, TCSANOW, &modes)
                }
                _exit(128 + signal)
            }
            SignalWatcher.pendingStops = 1
        }
        _ = write(SignalWatcher.writeFD, &byte, 1)
        errno = saved
    }

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
