#if os(Linux)
import Foundation
import Glibc
import StreamRender
import Testing

/// A pseudo-terminal the test plays the terminal of: the command runs with the slave
/// as its controlling terminal and its standard input, output and error, in a session
/// of its own (`setsid -c`), so the test sees what it writes, answers its queries (or
/// not, or late), types keys (a typed ^C is a SIGINT from the line discipline) and
/// reads the terminal's modes and pending input once it has exited.
///
/// Unlike the other end-to-end tests (see `Child`) it waits holding its thread: its
/// tests act within the probe's 150 ms, which a task woken late on a busy pool would miss.
final class PseudoTerminal: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let master: Int32
    /// The test's own descriptor on the slave: the modes and pending input are read through it.
    let slave: Int32
    private let lock = NSLock()
    private var storage: [UInt8] = []
    private var reading = false
    private var reader: Thread?
    /// Where the started command writes its process id (the one to signal).
    let pidFile: String

    init(columns: Int = 60, rows: Int = 16) throws {
        guard let (primary, secondary) = openPseudoTerminal(columns: columns, rows: rows) else {
            throw Failure(description: "no pseudo-terminal")
        }
        master = primary
        slave = secondary
        pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("sr-pty-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).pid").path
    }

    deinit {
        stopReading()
        reader = nil
        if isRunning, let pid {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(slave)
        if !hungUp { close(master) }
        try? FileManager.default.removeItem(atPath: pidFile)
    }

    /// Starts `command` on the terminal through `sh` (which writes its pid and execs
    /// it, so the pid is the command's) in a new session whose controlling terminal
    /// this is. `shell` replaces `exec "$@"` (the command is then `"$@"` in it).
    ///
    /// Spawned with posix_spawn, no signal blocked and every handler the default, as a
    /// shell starts a command: a Foundation `Process` hands on the test runner's mask,
    /// which blocks SIGINT and SIGTTOU, and hides the very stops and deaths tested here.
    func start(_ command: [String], shell: String = "exec \"$@\"") throws {
        let arguments = ["/usr/bin/setsid", "-c", "/bin/sh", "-c", "echo $$ > '\(pidFile)'; " + shell, "sh"] + command
        var environment = ProcessInfo.processInfo.environment
        // Capabilities come from the probe and TERM alone, not from the developer's terminal.
        for name in ["COLUMNS", "STREAM_RENDER_OPTS", "TERM_PROGRAM", "COLORTERM", "NO_COLOR", "FORCE_COLOR"] { environment[name] = nil }
        environment["TERM"] = "xterm-256color"
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let error = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard error == 0 else { throw Failure(description: "posix_spawn: \(String(cString: strerror(error)))") }
        self.pid = pid
    }

    /// The spawned process (setsid, then sh, then the command: one process).
    private(set) var pid: pid_t?
    private var exitStatus: Int32?

    /// Whether the command is still running (it is reaped once it ended).
    var isRunning: Bool {
        guard let pid, exitStatus == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        // Exited: its status; killed by a signal: 128 + the signal, as a shell says.
        exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return false
    }

    /// The started shell's (then the command's) process id, once it wrote it.
    var commandPID: pid_t? {
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            usleep(10_000)
        }
        return nil
    }

    /// Reads what the command writes to the terminal, on a thread, until stopped.
    func startReading() {
        lock.withLock { reading = true }
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while lock.withLock({ reading }) {
                var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 20) > 0 else { continue }
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if n <= 0 { usleep(5_000); continue }
                lock.withLock { storage += buffer[0..<n] }
            }
            lock.withLock { readerDone = true }
        }
        reader = thread
        thread.start()
    }

    private var readerDone = false

    /// Stops reading, with what the command wrote before it ended read to the end: on a
    /// busy machine the reader lagged behind a command that had just exited, and the
    /// end of its output was lost (a test of the background job failed so, once).
    func stopReading() {
        lock.withLock { reading = false }
        while reader != nil && !lock.withLock({ readerDone }) { usleep(1_000) }
        guard !hungUp else { return }  // (the master is closed: its number may be another file's)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0, p.revents & Int16(POLLIN) != 0 else { break }
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            lock.withLock { storage += buffer[0..<n] }
        }
    }

    /// What the command wrote so far (a copy, made under the lock).
    var received: [UInt8] { lock.withLock { storage.withUnsafeBufferPointer { Array($0) } } }

    /// Waits until what was written contains `bytes`; false after `seconds`.
    func waitFor(_ bytes: [UInt8], seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let got = received
            if got.count >= bytes.count, (0...(got.count - bytes.count)).contains(where: { got[$0..<($0 + bytes.count)].elementsEqual(bytes) }) {
                return true
            }
            usleep(5_000)
        }
        return false
    }

    private var hungUp = false

    /// Closes the master, as a terminal window closing does: the kernel hangs up the
    /// terminal (SIGHUP to its session, EIO on writes).
    func hangUp() {
        stopReading()
        hungUp = true
        close(master)
    }

    /// Bytes as if typed (or sent by the terminal, like a reply).
    func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// The exit status once the command ended, nil if it is still running after
    /// `seconds` (it is then killed).
    func waitForExit(seconds: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning, let pid {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = -1
            return nil
        }
        return exitStatus
    }

    /// The terminal's local modes now.
    var localModes: tcflag_t {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes.c_lflag
    }

    /// The input waiting on the terminal for the next reader (the shell), read
    /// without blocking in non-canonical mode (the modes are put back after).
    func pendingInput() -> [UInt8] {
        var saved = termios()
        tcgetattr(slave, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(slave, TCSANOW, &raw)
        defer { tcsetattr(slave, TCSANOW, &saved) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        var p = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
        while poll(&p, 1, 100) > 0 {
            let n = buffer.withUnsafeMutableBytes { read(slave, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}

/// The command on a terminal the test plays: the probe, signals and the modes.
@Suite(.serialized)
struct PseudoTerminalTests: EndToEnd {
    static let binary = CommandLineTests.binary.path
    static let query = Array("\u{1B}[?2026$p".utf8)
    static let reply = Array("\u{1B}[?2026;2$y\u{1B}[?2027;0$y\u{1B}[?62;22c".utf8)

    /// A FIFO the test writes the input into, held open read-write so the command's
    /// open never waits and its input ends only when the test closes it.
    final class Feed {
        let path: String
        let descriptor: Int32
        init() {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("sr-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
            mkfifo(path, 0o600)
            descriptor = open(path, O_RDWR | O_CLOEXEC)
        }
        func write(_ text: String) { _ = text.withCString { Glibc.write(descriptor, $0, strlen($0)) } }
        func end() { close(descriptor) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// `stream-render a.sse &` from a shell with job control: in the background the
    /// probe must not run (its tcsetattr would stop the job with SIGTTOU), and the
    /// answer is still drawn.
    @Test func aBackgroundJobIsNotStoppedByTheProbe() throws {
        let terminal = try PseudoTerminal()
        terminal.startReading()
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        try terminal.start(["/bin/bash", "-c", "set -m; \"$0\" \"$@\" & wait $!", Self.binary, "--pace", "off", fixture],
                           shell: "exec \"$@\"")
        let status = terminal.waitForExit()
        terminal.stopReading()
        #expect(status == 0, "the background job did not end (stopped by SIGTTOU?)")
        let shown = String(decoding: terminal.received, as: UTF8.self)
        #expect(!shown.contains("\u{1B}[?2026$p"), "the probe's queries were written from the background")
        #expect(shown.contains("fn"), "the answer was not drawn")
    }

    /// A Ctrl-C while the probe waits for the terminal's replies (its modes raw): the
    /// command ends as a Ctrl-C does (exit 130) with the terminal's modes restored.
    @Test func ctrlCDuringTheProbeRestoresTheTerminal() throws {
        let terminal = try PseudoTerminal()
        let feed = Feed()
        defer { feed.end() }
        let before = terminal.localModes
        #expect(before & tcflag_t(ICANON) != 0 && before & tcflag_t(ECHO) != 0)
        terminal.startReading()
        try terminal.start([Self.binary, feed.path])
        #expect(terminal.waitFor(Self.query), "no probe")
        terminal.type([0x03])  // ^C, unanswered queries pending
        let status = terminal.waitForExit(seconds: 10)
        terminal.stopReading()
        #expect(status == 130)
        let after = terminal.localModes
        #expect(after & tcflag_t(ICANON) != 0, "canonical mode left off")
        #expect(after & tcflag_t(ECHO) != 0, "echo left off")
    }

    /// A terminal that answers after the probe gave up: the reply is read off the
    /// terminal before the command exits, so the shell never gets it as typed text;
    /// keys typed after it still wait for the shell.
    @Test func lateProbeRepliesNeverReachTheShell() throws {
        let terminal = try PseudoTerminal()
        let feed = Feed()
        terminal.startReading()
        try terminal.start([Self.binary, "--pace", "off", feed.path])
        #expect(terminal.waitFor(Self.query), "no probe")
        usleep(250_000)  // past the probe's 150 ms
        terminal.type(Self.reply)
        terminal.type(Array("typed".utf8))
        usleep(50_000)
        feed.write("Hello from a late terminal.\n")
        feed.end()
        let status = terminal.waitForExit()
        terminal.stopReading()
        #expect(status == 0)
        let pending = terminal.pendingInput()
        #expect(String(decoding: pending, as: UTF8.self) == "typed", "the shell would read \(String(decoding: pending, as: UTF8.self).debugDescription)")
        #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo left off")
    }

    /// A resize while the probe waits (SIGWINCH interrupts its poll) does not end the
    /// wait: the reply that follows is used (synchronized output, which TERM alone
    /// does not give, wraps the frames) and nothing is left for the shell.
    @Test func aResizeDuringTheProbeDoesNotCutItShort() throws {
        let terminal = try PseudoTerminal()
        let feed = Feed()
        terminal.startReading()
        try terminal.start([Self.binary, "--pace", "off", feed.path])
        let pid = try #require(terminal.commandPID)
        #expect(terminal.waitFor(Self.query), "no probe")
        kill(pid, SIGWINCH)
        usleep(60_000)
        terminal.type(Self.reply)
        feed.write("# A title\n\nSome text under it, and **bold** words.\n")
        feed.end()
        let status = terminal.waitForExit()
        terminal.stopReading()
        #expect(status == 0)
        #expect(terminal.waitFor(Array("\u{1B}[?2026h".utf8), seconds: 1), "the terminal's answer was not used")
        #expect(terminal.pendingInput().isEmpty)
    }

    /// The second Ctrl-C while the first cannot be handled (the loop is stuck writing
    /// to a terminal that reads nothing): the handler's restore bytes are written
    /// without blocking, given up where they do not fit, and the process exits 130.
    @Test func aSecondCtrlCExitsThoughTheTerminalIsFull() throws {
        let terminal = try PseudoTerminal()  // never read: its buffer fills
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("sr-full-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: input) }
        let line = "Words that fill a terminal which is reading nothing at all, line after line.\n"
        try String(repeating: line, count: 40_000).write(toFile: input, atomically: true, encoding: .utf8)
        try terminal.start([Self.binary, "--pace", "off", "--format", "text", input])
        let pid = try #require(terminal.commandPID)
        usleep(1_500_000)  // the probe gives up, then the output fills the terminal's buffer
        #expect(terminal.isRunning, "the command ended before the terminal was full")
        kill(pid, SIGINT)
        usleep(200_000)
        kill(pid, SIGINT)
        let status = terminal.waitForExit(seconds: 5)
        #expect(status == 130, "a second Ctrl-C on a full terminal did not exit (\(status.map(String.init) ?? "still running"))")
        #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo left off by the handler")
    }

    /// SIGHUP mid-stream (the terminal's window closed, or `kill -HUP`): what arrived
    /// is shown, the modes are restored and the exit status is 129.
    @Test func sigHupMidStreamShowsWhatArrivedAndRestoresTheTerminal() throws {
        let terminal = try PseudoTerminal()
        let feed = Feed()
        defer { feed.end() }
        terminal.startReading()
        try terminal.start([Self.binary, "--pace", "off", "--format", "text", "--markdown", "off", feed.path])
        let pid = try #require(terminal.commandPID)
        feed.write("The first line arrived whole.\nThe second is cut mid-wo")
        #expect(terminal.waitFor(Array("arrived whole.".utf8)), "the first line was not shown")
        usleep(100_000)
        kill(pid, SIGHUP)
        let status = terminal.waitForExit(seconds: 10)
        terminal.stopReading()
        #expect(status == 129)
        #expect(terminal.waitFor(Array("cut mid-wo".utf8), seconds: 1), "the held-back end was not shown")
        #expect(terminal.localModes & tcflag_t(ECHO) != 0, "echo left off")
    }

    /// The terminal itself goes away (its master closed: the kernel's SIGHUP, then
    /// EIO on every write): the command exits 129 at once, not stuck.
    @Test func aHangUpEndsTheCommandWith129() throws {
        let terminal = try PseudoTerminal()
        let feed = Feed()
        defer { feed.end() }
        terminal.startReading()
        try terminal.start([Self.binary, "--pace", "off", "--format", "text", feed.path])
        feed.write("Some text before the hang-up.\n")
        #expect(terminal.waitFor(Array("before the hang-up.".utf8)), "the text was not shown")
        usleep(50_000)
        terminal.hangUp()
        let status = terminal.waitForExit(seconds: 10)
        #expect(status == 129, "\(status.map(String.init) ?? "still running") after the hang-up")
    }
}
#endif
