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
///
/// Not `Sendable`: it owns the terminal's descriptor and saved modes; one session per
/// process, used from the thread that drives the output.
public final class TerminalSession {
    /// The descriptor the view is written to (standard output).
    public let output: Int32
    /// `/dev/tty`, when the process has a controlling terminal.
    private let tty: Int32
    private var savedModes: termios?
    private var echoOff = false
    /// When a probe went unanswered: until this CLOCK_MONOTONIC time (ns) a late reply
    /// may still come, and is read off the terminal before the shell gets it back.
    private var lateReplyDeadline: UInt64?
    /// How long after the probe's queries a late reply is still waited for when the
    /// terminal is handed back (a terminal that never answers costs this at most).
    static let lateReplyMilliseconds: UInt64 = 500
    /// Whether ``probe(timeoutMilliseconds:)`` also measures widths (``WidthCalibration``):
    /// it writes at the cursor (concealed, then erased); ``StreamRenderer/Configuration/forTerminal(_:environment:choices:)``
    /// turns it on unless a width policy is chosen.
    public var measuresWidths = false
    /// The widths the last probe measured (nil: not measured, or not answered).
    public private(set) var widths: WidthCalibration?

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
    /// With ``measuresWidths``, the width samples are measured in the same round trip
    /// (``widths``).
    ///
    /// Only in the terminal's foreground process group (`stream-render a.sse &` must not
    /// stop on SIGTTOU), and best after ``SignalWatcher/start()``: a Ctrl-C then ends
    /// the wait (poll is interrupted) with the modes restored, and a second one
    /// restores them from the handler. Replies that come after the timeout are
    /// discarded (input pending then is flushed; later ones are read off the terminal
    /// by ``restoreModes()``, up to ``lateReplyMilliseconds`` after the queries), so
    /// they never reach the shell as typed text.
    ///
    /// - Complexity: O(1) work, plus up to `timeoutMilliseconds` waiting for the terminal's replies.
    public func probe(timeoutMilliseconds: Int32 = 150) -> (synchronized: Bool?, graphemes: Bool?) {
        guard outputIsTerminal, tty >= 0, isatty(tty) != 0, tcgetpgrp(tty) == getpgrp() else { return (nil, nil) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return (nil, nil) }
        // A second Ctrl-C while the modes are raw exits from the handler: it restores these.
        if SignalWatcher.savedModes == nil {
            SignalWatcher.savedModes = saved
            SignalWatcher.ttyDescriptor = tty
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        Self.setModes(tty, &raw)
        let columns = size?.columns ?? 0
        // The width samples need room right of the cursor; the probe's answer says where it is.
        let queries = (measuresWidths && columns >= WidthCalibration.room ? WidthCalibration.queries : []) + ANSIEncoder.probeQueries
        queries.withUnsafeBufferPointer { _ = FileDescriptorSink.writeAll(tty, $0) }
        let sent = Self.monotonicNanoseconds()
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var descriptor = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
        var answered = false
        while true {
            let ready = poll(&descriptor, 1, timeoutMilliseconds)
            // A signal interrupts poll (no SA_RESTART): a Ctrl-C ends the wait, a
            // resize does not.
            if ready < 0 && errno == EINTR && !SignalWatcher.stopRequested { continue }
            guard ready > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(tty, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            reply += buffer[0..<n]
            if Self.hasDeviceAttributes(reply) { answered = true; break }
        }
        if !answered {
            // The terminal may still answer: what came since the last read goes now,
            // the rest when the terminal is handed back.
            tcflush(tty, TCIFLUSH)
            lateReplyDeadline = sent + Self.lateReplyMilliseconds * 1_000_000
        }
        Self.setModes(tty, &saved)
        if measuresWidths { widths = WidthCalibration.parse(reply, columns: columns) }
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

    /// Puts the terminal modes back as they were; first, if a probe went unanswered,
    /// reads its late reply off the terminal (see ``probe(timeoutMilliseconds:)``).
    ///
    /// - Complexity: O(1) (a write and a system call), plus up to
    ///   ``lateReplyMilliseconds`` after an unanswered probe.
    public func restoreModes() {
        discardLateReply()
        guard echoOff, var modes = savedModes else { return }
        Self.setModes(tty, &modes)
        echoOff = false
    }

    /// Reads an unanswered probe's reply, byte by byte until its device attributes
    /// answer ends it (keys typed after it stay for the shell), waiting until the
    /// deadline at most. Only in the foreground: reading from the background stops
    /// the process (SIGTTIN).
    private func discardLateReply() {
        guard let deadline = lateReplyDeadline, tty >= 0, tcgetpgrp(tty) == getpgrp() else { return }
        lateReplyDeadline = nil
        var modes = termios()
        guard tcgetattr(tty, &modes) == 0 else { return }
        var raw = modes
        // Non-canonical: a reply has no line end, so canonical mode would not hand it over.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        Self.setModes(tty, &raw)
        defer { Self.setModes(tty, &modes) }
        var seen: [UInt8] = []
        var descriptor = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
        while true {
            let now = Self.monotonicNanoseconds()
            let left = deadline > now ? Int32((deadline - now) / 1_000_000) : 0
            guard poll(&descriptor, 1, left) > 0 else { return }
            var byte: UInt8 = 0
            guard read(tty, &byte, 1) == 1 else { return }
            seen.append(byte)
            if byte == UInt8(ascii: "c") && Self.hasDeviceAttributes(seen) { return }
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
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
public enum SignalWatcher: Sendable {
    nonisolated(unsafe) private static var readFD: Int32 = -1
    nonisolated(unsafe) private static var writeFD: Int32 = -1
    nonisolated(unsafe) private static var emergency: UnsafeMutableBufferPointer<UInt8>?
    /// A non-blocking descriptor of its own on the output's terminal (-1: none).
    nonisolated(unsafe) private static var emergencyOutput: Int32 = -1
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

    /// Waits until a watched signal arrives, `input` is readable, or `deadline` passes
    /// (nil: no deadline), for a host's own frame loop. Returns the signals taken
    /// (``takeSignals()``) and whether `input` is readable. Call ``start()`` first.
    ///
    /// - Complexity: O(s) in the signals pending, plus the wait.
    public static func wait(input: Int32? = nil, until deadline: ContinuousClock.Instant?) -> (signals: [Int32], input: Bool) {
        var timeout: Int32 = -1
        if let deadline {
            let left = ContinuousClock.now.duration(to: deadline)
            timeout = left <= .zero ? 0 : Int32(min(left / .milliseconds(1), 86_400_000)) + 1
        }
        let woken = pollOnce(signals: readFD, input: input, timeoutMilliseconds: timeout)
        return (woken.signals ? takeSignals() : [], woken.input)
    }

    /// One poll(2) on the signal descriptor `signals` and `input` (if any), for at most
    /// `timeoutMilliseconds` (-1: no limit): whether anything is ready, whether the
    /// signal descriptor is readable, whether `input` is.
    static func pollOnce(signals: Int32, input: Int32?, timeoutMilliseconds: Int32) -> (ready: Bool, signals: Bool, input: Bool) {
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
        if let input { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        return (ready > 0, fds[0].revents & Int16(POLLIN) != 0, fds.count > 1 && fds[1].revents != 0)
    }

    /// Whether a SIGINT, SIGTERM or SIGHUP arrived (the program is ending).
    static var stopRequested: Bool { pendingStops != 0 }

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

    /// The handler writes `bytes` through a descriptor opened here on the output's
    /// terminal with O_NONBLOCK: a full or stopped (Ctrl-S) terminal makes that write
    /// give up, not block the exit. An open file description of its own, so the
    /// shell's (shared through standard output) is never made non-blocking.
    static func setEmergency(_ bytes: [UInt8], output: Int32) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        let old = emergency, oldOutput = emergencyOutput
        var descriptor: Int32 = -1
        if isatty(output) != 0 {
            var name = [CChar](repeating: 0, count: 256)
            if ttyname_r(output, &name, name.count) != 0 { name = Array("/proc/self/fd/\(output)".utf8CString) }
            descriptor = name.withUnsafeBufferPointer { open($0.baseAddress!, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
        }
        emergency = buffer
        emergencyOutput = descriptor
        old?.deallocate()
        if oldOutput >= 0 { close(oldOutput) }
    }

    /// Stops the process as Ctrl-Z would have, returning when it is continued.
    static func stopNow() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        install(SIGTSTP, handler)
    }

    private static let handler: @convention(c) (Int32) -> Void = { signal in
        // Async-signal-safe only: write(2), tcgetpgrp(3), getpgrp(2), tcsetattr(3), _exit(2).
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: signal)
        if signal == SIGINT || signal == SIGTERM || signal == SIGHUP {
            if SignalWatcher.pendingStops != 0 {
                // The loop did not get to the first one: restore and leave now.
                // Non-blocking: on a full or stopped terminal what does not fit is given up.
                if let bytes = SignalWatcher.emergency, SignalWatcher.emergencyOutput >= 0, let base = bytes.baseAddress {
                    var offset = 0
                    while offset < bytes.count {
                        let n = write(SignalWatcher.emergencyOutput, base + offset, bytes.count - offset)
                        if n <= 0 { break }
                        offset += n
                    }
                }
                // From the background tcsetattr would stop the process (SIGTTOU): the
                // shell owns the modes then.
                let tty = SignalWatcher.ttyDescriptor
                if var modes = SignalWatcher.savedModes, tty >= 0, tcgetpgrp(tty) == getpgrp() {
                    tcsetattr(tty, TCSANOW, &modes)
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
