import Foundation
import StreamRender
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hostile input matrix (issue 14, item 5), end to end on the built binary.
///
/// Every case builds an input (an Anthropic Messages stream unless it says otherwise),
/// runs `stream-render` on it from a file and checks:
///
/// - **no crash**: the exit status is 0 or 1, never a signal;
/// - **bounded time**: killed (SIGKILL) after ``timeLimit`` seconds, which fails the case;
/// - **bounded memory**: the peak resident set size (`/usr/bin/time -f %M`, else VmHWM
///   polled from `/proc`), under 128 MB, or 512 MB for the cases whose input is a large
///   event;
/// - where the input is at fault, **one error line** (`stream-render: error: …`);
/// - **every legitimate character** that arrived is in the output (the letters of the
///   expected text, in order), and a control character in the content shows as its
///   visible replacement (␛ for ESC, ␇, ␀, ␡, U+FFFD for C1 controls), never raw.
///
/// Sizes. Issue 14 names a 10 MB line and a 100 MB event accepted with a raised
/// limit. In a debug build (what `swift test` runs) the binary wraps text at 0.2-0.7
/// MB/s, so those alone would take minutes; the default sizes here are the
/// smallest that still cross every internal limit (the 1 MiB paragraph split, the 256 KB
/// markdown region, the 16 MiB event limit), and the 100 MB event that must be dropped
/// is always 100 MB. `STREAMRENDER_HOSTILE_FULL=1` (or a release build) runs the sizes
/// of the issue.
@Suite struct HostileInputTests: EndToEnd {
    static let full: Bool = {
        #if DEBUG
        return ProcessInfo.processInfo.environment["STREAMRENDER_HOSTILE_FULL"] != nil
        #else
        return true
        #endif
    }()

    static let timeLimit = 60.0
    static let megabyte = 1 << 20

    // MARK: - Inputs

    /// `text` as a JSON string literal: quotes and backslashes escaped, and every C0
    /// control, DEL, C1 control and line/paragraph separator as a `\uXXXX` escape.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                    let hex = String(v, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func event(_ type: String, _ json: String) -> String { "event: \(type)\ndata: \(json)\n\n" }

    static let messageStart = event("message_start", #"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}"#)
    static let messageStop = event("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}"#)
        + event("message_stop", #"{"type":"message_stop"}"#)

    static func textDelta(_ index: Int, _ text: String) -> String {
        event("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"text_delta","text":\#(jsonString(text))}}"#)
    }

    static func thinkingDelta(_ index: Int, _ text: String) -> String {
        event("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"thinking_delta","thinking":\#(jsonString(text))}}"#)
    }

    /// A piece of a tool call's input: `partialJSON` is the text of the input JSON (it
    /// is a JSON string inside the event).
    static func toolInputDelta(_ index: Int, _ partialJSON: String) -> String {
        event("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"input_json_delta","partial_json":\#(jsonString(partialJSON))}}"#)
    }

    static func blockStart(_ index: Int, _ block: String) -> String {
        event("content_block_start", #"{"type":"content_block_start","index":\#(index),"content_block":\#(block)}"#)
    }

    static func blockStop(_ index: Int) -> String {
        event("content_block_stop", #"{"type":"content_block_stop","index":\#(index)}"#)
    }

    /// A whole Messages stream: thinking (if any), the answer's text deltas, then tool
    /// calls, each given as the pieces of its input JSON.
    static func messages(text: [String], thinking: [String] = [], toolCalls: [[String]] = [], stop: Bool = true) -> String {
        var s = messageStart
        var index = 0
        if !thinking.isEmpty {
            s += blockStart(index, #"{"type":"thinking","thinking":""}"#)
            for piece in thinking { s += thinkingDelta(index, piece) }
            s += event("content_block_delta", #"{"type":"content_block_delta","index":\#(index),"delta":{"type":"signature_delta","signature":"c2ln"}}"#)
            s += blockStop(index)
            index += 1
        }
        s += blockStart(index, #"{"type":"text","text":""}"#)
        for piece in text { s += textDelta(index, piece) }
        s += blockStop(index)
        index += 1
        for (k, pieces) in toolCalls.enumerated() {
            s += blockStart(index, #"{"type":"tool_use","id":"toolu_\#(k)","name":"run","input":{}}"#)
            for piece in pieces { s += toolInputDelta(index, piece) }
            s += blockStop(index)
            index += 1
        }
        if stop { s += messageStop }
        return s
    }

    // MARK: - Running

    struct Ran {
        var status: Int32?
        var signal: Int32?
        var timedOut: Bool
        var seconds: Double
        var peakKB: Int
        var stdout: Data
        var stderr: String
        var label: String

        var text: String { String(decoding: stdout, as: UTF8.self) }
        var peakMB: Int { peakKB / 1024 }
    }

    static func temporaryURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("sr-hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)")
    }

    /// Runs the binary with `stdin` as its standard input (written to a file first).
    static func run(_ arguments: [String], stdin: Data, environment: [String: String?] = [:],
                    label: String = "") throws -> Ran {
        let file = temporaryURL("input")
        try stdin.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(arguments, input: file, environment: environment, label: label)
    }

    static func run(_ arguments: [String], stdin: String, environment: [String: String?] = [:],
                    label: String = "") throws -> Ran {
        try run(arguments, stdin: Data(stdin.utf8), environment: environment, label: label)
    }

    static let timeCommand = "/usr/bin/time"
    static let hasTimeCommand = FileManager.default.isExecutableFile(atPath: timeCommand)

    /// Runs the binary on `input` (its standard input), standard output and error going
    /// to files, in a process group of its own that is killed once ``timeLimit`` passes.
    ///
    /// Peak memory comes from `/usr/bin/time -f %M`: `time` is a small process that forks
    /// the binary, so the figure is the binary's own. (`ru_maxrss` of a child spawned
    /// straight from the test process starts at the test process's size: the kernel
    /// keeps the high-water mark of the memory image the child had before `exec`.)
    /// Without `time`, `/proc/PID/status` VmHWM is polled every 2 ms.
    static func run(_ arguments: [String], input: URL, environment: [String: String?] = [:],
                    label: String = "") throws -> Ran {
        let outFile = temporaryURL("out"), errFile = temporaryURL("err"), timeFile = temporaryURL("time")
        defer {
            for file in [outFile, errFile, timeFile] { try? FileManager.default.removeItem(at: file) }
        }
        var env = ProcessInfo.processInfo.environment
        // The developer's COLUMNS, options and NO_COLOR would change the defaults under test.
        for name in ["COLUMNS", "STREAM_RENDER_OPTS", "NO_COLOR"] { env[name] = nil }
        for (name, value) in environment { env[name] = value }
        let binary = CommandLineTests.binary.path
        let command = hasTimeCommand ? [timeCommand, "-f", "%M", "-o", timeFile.path, binary] : [binary]
        let argv: [UnsafeMutablePointer<CChar>?] = (command + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var timedOut = false
        var polledKB = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if Date().timeIntervalSince(started) > timeLimit {
                timedOut = true
                kill(-pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            if !hasTimeCommand, let hwm = highWaterMarkKB(pid) { polledKB = max(polledKB, hwm) }
            usleep(2_000)
        }
        let seconds = Date().timeIntervalSince(started)
        let out = (try? Data(contentsOf: outFile)) ?? Data()
        let err = (try? Data(contentsOf: errFile)) ?? Data()
        var exitStatus: Int32? = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : nil
        var signal: Int32? = (status & 0x7F) != 0 && (status & 0x7F) != 0x7F ? status & 0x7F : nil
        var peakKB = polledKB
        if hasTimeCommand, !timedOut {
            // `time` writes "Command terminated by signal N" (or "exited with non-zero
            // status N") before the figure, and exits 128 + N for a signal.
            let report = ((try? String(contentsOf: timeFile, encoding: .utf8)) ?? "").split(separator: "\n")
            peakKB = report.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            if let line = report.first(where: { $0.contains("terminated by signal") }),
               let number = line.split(separator: " ").last.flatMap({ Int32($0) }) {
                signal = number
                exitStatus = nil
            }
        }
        return Ran(status: exitStatus, signal: signal, timedOut: timedOut, seconds: seconds, peakKB: peakKB, stdout: out,
                   stderr: String(decoding: err, as: UTF8.self), label: label)
    }

    /// VmHWM of a running process, in KB.
    static func highWaterMarkKB(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    /// No crash, within the time limit and `memoryMB`; exit status 0 or 1.
    static func expectSurvived(_ r: Ran, memoryMB: Int = 128, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.timedOut, "\(r.label): still running after \(Int(timeLimit)) s, killed", sourceLocation: sourceLocation)
        #expect(r.signal == nil, "\(r.label): ended by signal \(r.signal ?? 0) after \(r.seconds) s\n\(r.stderr.prefix(2000))",
                sourceLocation: sourceLocation)
        #expect(r.status == 0 || r.status == 1, "\(r.label): exit status \(r.status.map(String.init) ?? "none")\n\(r.stderr.prefix(2000))",
                sourceLocation: sourceLocation)
        #expect(r.peakKB < (memoryMB * CommandLineTests.memoryFactor) << 10, "\(r.label): peak RSS \(r.peakMB) MB, limit \(memoryMB) MB", sourceLocation: sourceLocation)
    }

    /// Standard error is exactly one error line per fault, each naming `naming`.
    static func expectErrorLines(_ r: Ran, count: Int = 1, naming: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast(r.stderr.hasSuffix("\n") ? 1 : 0)
        #expect(lines.count == count && lines.allSatisfy { $0.hasPrefix("stream-render: error: ") && $0.contains(naming) },
                "\(r.label): wanted \(count) error line(s) naming \(naming): \(r.stderr.prefix(2000).debugDescription)",
                sourceLocation: sourceLocation)
    }

    // MARK: - Reading the output

    /// The letters and digits of `text`, in order.
    static func letters(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    /// Whether `needle` occurs in `haystack` in order (other scalars between).
    static func isSubsequence(_ needle: [Unicode.Scalar], of haystack: [Unicode.Scalar]) -> Bool {
        var k = 0
        for s in haystack where k < needle.count && s == needle[k] { k += 1 }
        return k == needle.count
    }

    /// The letters of `expected` appear in `output` in order (markdown and wrapping may
    /// add prefixes and marks, never drop a letter).
    static func expectLetters(of expected: String, in output: String, _ label: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let want = letters(expected), got = letters(output)
        let kept = isSubsequence(want, of: got)
        #expect(kept, "\(label): letters lost (\(want.count) sent, \(got.count) shown): \(output.prefix(1000).debugDescription)",
                sourceLocation: sourceLocation)
    }

    /// What the content shows as: the library's sanitiser (controls to pictures, C1 to
    /// U+FFFD, CR to LF).
    static func sanitized(_ text: String) -> String {
        var sanitizer = ControlSanitizer()
        var out = sanitizer.sanitize(text)
        sanitizer.finish(into: &out)
        return out
    }

    /// The visible replacements in `text`: Control Pictures and U+FFFD (one count: markdown
    /// shows NUL as U+FFFD, the sanitiser as ␀).
    static func replacementCounts(_ text: String) -> [UInt32: Int] {
        var counts: [UInt32: Int] = [:]
        for s in text.unicodeScalars where (0x2400...0x2426).contains(s.value) || s.value == 0xFFFD {
            counts[s.value == 0x2400 ? 0xFFFD : s.value, default: 0] += 1
        }
        return counts
    }

    /// Every replacement symbol the sanitised `content` has appears in `output` at
    /// least as often.
    static func expectReplacements(of content: String, in output: String, _ label: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        let want = replacementCounts(sanitized(content)), got = replacementCounts(output)
        for (symbol, count) in want where got[symbol, default: 0] < count {
            Issue.record("\(label): U+\(String(symbol, radix: 16, uppercase: true)) \(count)x expected, \(got[symbol, default: 0])x shown: \(output.prefix(1500).debugDescription)",
                         sourceLocation: sourceLocation)
        }
    }

    /// What a terminal would obey in plain output: any C0 control but LF and TAB, DEL,
    /// a C1 control (U+0080-U+009F), or bytes that are not UTF-8 (a lone 0x9B is CSI to
    /// an 8-bit terminal).
    static func rawControls(_ data: Data) -> [String] {
        guard let text = String(validating: data, as: UTF8.self) else { return ["invalid UTF-8"] }
        var found: [String] = []
        for s in text.unicodeScalars {
            let v = s.value
            if (v < 0x20 && v != 0x0A && v != 0x09) || v == 0x7F || (0x80...0x9F).contains(v) {
                found.append("U+" + String(v, radix: 16, uppercase: true))
                if found.count > 10 { break }
            }
        }
        return found
    }

    /// The escape sequences (and raw controls) in live-view bytes that the ANSI encoder
    /// does not write. The encoder writes: CSI with decimal parameters ending in one of
    /// `A B C D H J K m r S` (cursor moves, erase, SGR, scroll region, scroll up);
    /// `CSI ? 25/1049/2026 h` or `l` (cursor, alternate screen, synchronized output);
    /// OSC 8 hyperlinks `ESC ] 8 ; ; target ESC \` with a target free of controls (the
    /// renderer's own, for markdown links); CR and LF. Anything else came from the content.
    static func foreignSequences(_ data: Data) -> [String] {
        guard let text = String(validating: data, as: UTF8.self) else { return ["invalid UTF-8"] }
        let s = Array(text.unicodeScalars)
        var found: [String] = []
        func show(_ from: Int, _ to: Int) -> String {
            String(String.UnicodeScalarView(s[from..<min(to, s.count)])).debugDescription
        }
        var i = 0
        while i < s.count && found.count < 10 {
            let v = s[i].value
            if v == 0x1B {
                let start = i
                if i + 1 < s.count && s[i + 1] == "[" {
                    var j = i + 2
                    let isPrivate = j < s.count && s[j] == "?"
                    if isPrivate { j += 1 }
                    var parameters = ""
                    while j < s.count, s[j].properties.numericType != nil || s[j] == ";", s[j].isASCII {
                        parameters.unicodeScalars.append(s[j])
                        j += 1
                    }
                    let final = j < s.count ? s[j] : "\u{0}"
                    let ok = isPrivate
                        ? ["25", "1049", "2026"].contains(parameters) && (final == "h" || final == "l")
                        : "ABCDHJKmrS".unicodeScalars.contains(final)
                    if !ok { found.append(show(start, j + 1)) }
                    i = j + 1
                    continue
                }
                if i + 4 < s.count && s[i + 1] == "]" && s[i + 2] == "8" && s[i + 3] == ";" && s[i + 4] == ";" {
                    var j = i + 5
                    var ok = false
                    while j < s.count {
                        let c = s[j].value
                        if c == 0x07 { ok = true; j += 1; break }
                        if c == 0x1B { ok = j + 1 < s.count && s[j + 1] == "\\"; j += 2; break }
                        if c < 0x20 || c == 0x7F || (0x80...0x9F).contains(c) { break }
                        j += 1
                    }
                    if !ok { found.append(show(start, j + 1)) }
                    i = j
                    continue
                }
                if i + 1 < s.count && (s[i + 1] == "7" || s[i + 1] == "8") {
                    i += 2  // DECSC / DECRC: the inline view's erase keeps the cursor with them
                    continue
                }
                found.append(show(start, start + 8))
                i += 1
                continue
            }
            if (v < 0x20 && v != 0x0A && v != 0x0D) || v == 0x7F || (0x80...0x9F).contains(v) {
                found.append(show(i, i + 1))
            }
            i += 1
        }
        return found
    }

    // MARK: - 1. Escape sequences in answer text, thinking and tool-call input

    struct Payload: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        /// What must be shown, when it is not the text itself (list markers are syntax).
        var shown: String? = nil
        /// Markdown bombs: run as text only (also as SSE and the live view otherwise).
        var textOnly = false
        var testDescription: String { name }
    }

    static let escapePayloads: [Payload] = [
        Payload(name: "OSC 0 and 2 title", text: "\u{1B}]0;pwned title\u{07}x\u{1B}]2;pwned too\u{1B}\\y\u{1B}]1;icon\u{07}"),
        Payload(name: "OSC 8 link", text: "\u{1B}]8;;https://evil.example/\u{1B}\\click me\u{1B}]8;;\u{1B}\\ and \u{1B}]8;id=1;file:///etc/passwd\u{07}file\u{1B}]8;;\u{07}"),
        Payload(name: "OSC 52 clipboard", text: "\u{1B}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u{07}copy\u{1B}]52;p;?\u{1B}\\paste"),
        Payload(name: "OSC palette and queries", text: "\u{1B}]4;1;rgb:ff/00/00\u{07}\u{1B}]10;?\u{07}\u{1B}]11;rgb:00/00/00\u{1B}\\\u{1B}]104\u{07}colours"),
        Payload(name: "CSI clear screen", text: "\u{1B}[2J\u{1B}[3J\u{1B}[H\u{1B}[1J\u{1B}[0K\u{1B}[2Kcleared"),
        Payload(name: "CSI scroll", text: "\u{1B}[5S\u{1B}[3T\u{1B}[1;3r\u{1B}D\u{1B}M\u{1B}Escrolled"),
        Payload(name: "CSI cursor moves", text: "\u{1B}[10A\u{1B}[5B\u{1B}[3C\u{1B}[2D\u{1B}[1;1H\u{1B}[5G\u{1B}[3d\u{1B}7\u{1B}8\u{1B}[s\u{1B}[umoved"),
        Payload(name: "CSI SGR", text: "\u{1B}[31;1;5;7;8mhidden\u{1B}[0m\u{1B}[38;2;255;0;0mred\u{1B}[48;5;196m\u{1B}[mreset"),
        Payload(name: "CSI modes", text: "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[?7l\u{1B}[4h\u{1B}[?6h\u{1B}=modes"),
        Payload(name: "CSI queries", text: "\u{1B}[6n\u{1B}[c\u{1B}[>c\u{1B}[18t\u{1B}[?2026$p\u{1B}[21tasked"),
        Payload(name: "DCS", text: "\u{1B}P1$qm\u{1B}\\\u{1B}Pq#0;2;0;0;0#0~~@@vv\u{1B}\\\u{1B}P+q544e\u{1B}\\sixel"),
        Payload(name: "APC", text: "\u{1B}_Gf=24,s=1,v=1;AAAA\u{1B}\\kitty"),
        Payload(name: "PM", text: "\u{1B}^privacy message\u{1B}\\private"),
        Payload(name: "SOS", text: "\u{1B}Xstart of string\u{1B}\\string"),
        Payload(name: "ESC singles", text: "\u{1B}c\u{1B}#8\u{1B}(0lqqk\u{1B}(B\u{1B})0\u{0E}x\u{0F}\u{1B}N\u{1B}O\u{1B}Z\u{1B}Hsingles"),
        Payload(name: "C1 controls", text: (0x80...0x9F).map { String(Character(Unicode.Scalar($0)!)) + "c" }.joined()
            + "\u{9B}2J\u{9B}31m\u{9D}0;pwned\u{9C}\u{90}dcs\u{9C}\u{9E}pm\u{9C}\u{9F}apc\u{9C}\u{98}sos\u{9C}eight"),
        Payload(name: "bare CR", text: "overwritten\rXXXXXXXXX\r\rtwice\r"),
        Payload(name: "backspace", text: "abc\u{08}\u{08}\u{08}xyz\u{08}"),
        Payload(name: "BEL", text: "ding\u{07}dong\u{07}\u{07}"),
        Payload(name: "NUL", text: "nul\u{00}byte\u{00}\u{00}"),
        Payload(name: "DEL", text: "del\u{7F}ete\u{7F}"),
        Payload(name: "every C0 control", text: (0x00...0x1F).filter { $0 != 0x0A && $0 != 0x0D }
            .map { "c" + String(Character(Unicode.Scalar($0)!)) }.joined() + "end"),
    ]

    /// How each escape case is run: plain output (defaults, thinking shown in the
    /// answer, raw text) and the live view's bytes (defaults, with thinking shown, and
    /// fullscreen), with a terminal that takes colours and links.
    struct Mode: Sendable {
        var name: String
        var arguments: [String]
        var ansi: Bool
        var thinkingInAnswer: Bool
    }

    static let modes: [Mode] = [
        Mode(name: "plain", arguments: [], ansi: false, thinkingInAnswer: false),
        Mode(name: "plain --show-thinking", arguments: ["--show-thinking"], ansi: false, thinkingInAnswer: true),
        Mode(name: "plain raw", arguments: ["--markdown", "off", "--width", "0"], ansi: false, thinkingInAnswer: false),
        Mode(name: "ansi", arguments: ["--output", "ansi", "--width", "60", "--height", "12"], ansi: true, thinkingInAnswer: false),
        Mode(name: "ansi --show-thinking", arguments: ["--output", "ansi", "--width", "60", "--height", "12", "--show-thinking"],
             ansi: true, thinkingInAnswer: true),
        Mode(name: "ansi --fullscreen", arguments: ["--output", "ansi", "--width", "60", "--height", "12", "--fullscreen"],
             ansi: true, thinkingInAnswer: false),
    ]

    static let colourTerminal: [String: String?] = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "TERM_PROGRAM": nil]

    /// The payload in the answer (split across deltas), in thinking, and in two tool
    /// calls: one whose input JSON carries it properly escaped (shown as the JSON text:
    /// `\u001b`) and one whose input text holds the raw characters (not valid JSON, shown
    /// as it came: ␛).
    @Test(arguments: escapePayloads)
    func escapeSequencesAreShownNeverObeyed(_ payload: Payload) throws {
        let content = "before " + payload.text + " after"
        let half = content.unicodeScalars.index(content.unicodeScalars.startIndex, offsetBy: content.unicodeScalars.count / 2)
        let answer = ["Answer: ", String(content.unicodeScalars[..<half]), String(content.unicodeScalars[half...]), " end of answer."]
        let thinking = "Thinking: " + content
        let rawTool = "R " + content
        let stream = Self.messages(text: answer, thinking: ["Thinking: ", content], toolCalls: [
            ["{\"cmd\": ", Self.jsonString("J " + content), "}"],
            [rawTool],
        ])
        let runs = try Self.runAll(Self.modes.map { mode in
            (mode.arguments, mode.ansi ? Self.colourTerminal : [:], "\(payload.name) [\(mode.name)]")
        }, stdin: Data(stream.utf8))
        for (mode, r) in zip(Self.modes, runs) {
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr)")
            let stderrData = Data(r.stderr.utf8)
            if mode.ansi {
                let foreign = Self.foreignSequences(r.stdout)
                #expect(foreign.isEmpty, "\(r.label): sequences the encoder does not write: \(foreign)")
            } else {
                let raw = Self.rawControls(r.stdout)
                #expect(raw.isEmpty, "\(r.label): raw controls on standard output: \(raw)")
            }
            let rawErr = Self.rawControls(stderrData)
            #expect(rawErr.isEmpty, "\(r.label): raw controls on standard error: \(rawErr)")

            let out = r.text
            let plainOut = mode.ansi ? LiveViewFlagTests.strippingEscapes(out) : out
            Self.expectReplacements(of: answer.joined(), in: plainOut, "\(r.label) answer")
            Self.expectReplacements(of: thinking, in: mode.thinkingInAnswer ? Self.thinkingPart(of: plainOut) : r.stderr,
                                    "\(r.label) thinking")
            if !mode.ansi {
                // The live view redraws rows in place (cells that did not change are not
                // written again), so only its pictures are counted here (the tmux tests
                // read its screen); plain output has every letter.
                Self.expectLetters(of: answer.joined(), in: out, "\(r.label) answer")
                Self.expectLetters(of: thinking, in: mode.thinkingInAnswer ? out : r.stderr, "\(r.label) thinking")
            }
            if mode.name == "plain raw" {
                // Unwrapped, without markdown: exactly the sanitised text.
                #expect(out == Self.sanitized(answer.joined()), "\(r.label): \(out.debugDescription)")
            }
            // Tool calls go to standard error in every mode, cut at 200 characters: the
            // escaped one shows the JSON text, the raw one the pictures. Above a live view
            // they are wrapped at its width; into a pipe each is one line.
            let calls = r.stderr.split(separator: "\n").filter { $0.hasPrefix("[tool call] run ") }.map(String.init)
            #expect(calls.count == 2, "\(r.label): \(r.stderr.debugDescription)")
            if calls.count == 2 && !mode.ansi {
                let escapedShown = calls[0].hasPrefix(#"[tool call] run {"cmd": "J before "#)
                #expect(escapedShown, "\(r.label): \(calls[0].debugDescription)")
                let shownRaw = String(calls[1].dropFirst("[tool call] run ".count))
                let rawShown = Self.sanitized(rawTool.replacingOccurrences(of: "\r", with: " "))
                let kept = shownRaw.hasSuffix(" (toolu_1)") ? String(shownRaw.dropLast(" (toolu_1)".count)) : shownRaw
                let comparable = kept.hasSuffix("…") ? String(kept.dropLast()) : kept
                let rawOK = rawShown.hasPrefix(comparable) && comparable.count >= min(rawShown.count, 150)
                #expect(rawOK, "\(r.label): raw tool input shown as \(kept.debugDescription), sanitised \(rawShown.debugDescription)")
            }
        }
    }

    /// The OSC 8 targets in live-view bytes, in order ("" closes a link).
    static func hyperlinkTargets(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var targets: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "\u{1B}]8;;") {
            rest = rest[open.upperBound...]
            let end = rest.firstIndex { $0 == "\u{1B}" || $0 == "\u{07}" } ?? rest.endIndex
            targets.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return targets
    }

    /// Markdown links whose text and destination carry the payload: the live view's only
    /// OSC 8 sequences are the renderer's, with targets free of controls (a destination
    /// holding a raw C0 control is no link at all); plain output shows `text (url)`.
    @Test(arguments: escapePayloads.filter { ["OSC 8 link", "OSC 52 clipboard", "C1 controls", "DCS", "every C0 control"].contains($0.name) })
    func linksCarryingEscapesBecomeCleanHyperlinks(_ payload: Payload) throws {
        let p = payload.text
        let answer = "See [link \(p) text](https://example.com/p\(p)q), <https://example.com/auto\(p)x>,"
            + " [ref][r] and [clean](https://example.com/clean).\n\n[r]: https://example.com/ref\(p)r\n"
        let runs = try Self.runAll([
            (["--width", "400"], [:], "\(payload.name) link [plain]"),
            (["--output", "ansi", "--width", "60", "--height", "12", "--pace", "off"],
             Self.colourTerminal.merging(["FORCE_HYPERLINK": "1"]) { $1 }, "\(payload.name) link [ansi]"),
        ], stdin: Data(Self.messages(text: [answer]).utf8))
        for r in runs {
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr)")
            if r.label.hasSuffix("[ansi]") {
                let foreign = Self.foreignSequences(r.stdout)
                #expect(foreign.isEmpty, "\(r.label): \(foreign)")
                let targets = Self.hyperlinkTargets(r.stdout).filter { !$0.isEmpty }
                #expect(targets.contains("https://example.com/clean"), "\(r.label): \(targets)")
                #expect(targets.allSatisfy { $0.hasPrefix("https://example.com/") }, "\(r.label): \(targets)")
            } else {
                #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
                #expect(r.text.contains("clean (https://example.com/clean)"), "\(r.label): \(r.text.debugDescription)")
                Self.expectLetters(of: "See link " + p + " text", in: r.text, r.label)
            }
        }
    }

    /// The thinking part of an answer that shows it (between its marks; all of it when
    /// the marks were not written whole).
    static func thinkingPart(of output: String) -> String {
        guard let open = output.range(of: "[thinking]"), let close = output.range(of: "[/thinking]") else { return output }
        return String(output[open.upperBound..<close.lowerBound])
    }

    /// Runs several argument sets on one input at once (each is mostly waiting for a
    /// process to start and drain).
    static func runAll(_ runs: [(arguments: [String], environment: [String: String?], label: String)], stdin: Data) throws -> [Ran] {
        let file = temporaryURL("input")
        try stdin.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let results = Results(count: runs.count)
        DispatchQueue.concurrentPerform(iterations: runs.count) { k in
            results.set(k, Result { try run(runs[k].arguments, input: file, environment: runs[k].environment, label: runs[k].label) })
        }
        return try results.values.map { try $0!.get() }
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Result<Ran, Error>?]
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ k: Int, _ value: Result<Ran, Error>) { lock.lock(); storage[k] = value; lock.unlock() }
        var values: [Result<Ran, Error>?] { lock.lock(); defer { lock.unlock() }; return storage }
    }

    /// Metadata of the stream shown outside the answer (`--stats`: the model and the stop
    /// reason; an API error; a diagnostic naming an unknown first event's type) is
    /// sanitised like the answer. (They were written raw: `--stats` set the title and
    /// wrote the clipboard.)
    @Test func streamMetadataIsShownNeverObeyed() throws {
        let hostile = "\u{1B}]0;pwned\u{07}\u{1B}]52;c;aGk=\u{07}\u{9B}2J\r\nX"
        var stream = Self.messageStart.replacingOccurrences(of: #""model":"claude-test""#, with: #""model":\#(Self.jsonString("model" + hostile))"#)
        stream += Self.blockStart(0, #"{"type":"text","text":""}"#) + Self.textDelta(0, "hello") + Self.blockStop(0)
        stream += Self.event("message_delta", #"{"type":"message_delta","delta":{"stop_reason":\#(Self.jsonString("stop" + hostile))},"usage":{"output_tokens":3}}"#)
        stream += Self.event("error", #"{"type":"error","error":{"type":\#(Self.jsonString("type" + hostile)),"message":\#(Self.jsonString("message" + hostile))}}"#)
        stream += Self.event("message_stop", #"{"type":"message_stop"}"#)
        let r = try Self.run(["--stats"], stdin: stream, label: "metadata")
        Self.expectSurvived(r)
        #expect(r.status == 1)
        #expect(Self.rawControls(Data(r.stderr.utf8)).isEmpty, "\(r.stderr.debugDescription)")
        #expect(r.stderr.contains("model: model␛]0;pwned␇␛]52;c;aGk=␇\u{FFFD}2J  X"), "\(r.stderr.debugDescription)")
        #expect(r.stderr.contains("stop reason: stop␛]0;pwned␇"), "\(r.stderr.debugDescription)")
        #expect(r.stderr.contains("the stream reported type␛]0;pwned␇"), "\(r.stderr.debugDescription)")
        #expect(r.text == "hello\n")

        // An unknown first event after more than the event limit of held bytes is
        // decoded as Anthropic with a diagnostic that names its type.
        var bytes = Data("data: ".utf8)
        bytes.append(Data(repeating: UInt8(ascii: "x"), count: 1 << 20))
        bytes.append(Data("\n\nevent: \u{1B}]0;pwned\u{07}\u{1B}]52;c;aGk=\u{07}\ndata: {\"type\":\"zzz\"}\n\n".utf8))
        bytes.append(Data((Self.textDelta(0, "hello") + Self.event("message_stop", #"{"type":"message_stop"}"#)).utf8))
        let unknown = try Self.run(["--max-event-bytes", "1000"], stdin: bytes, label: "event type")
        Self.expectSurvived(unknown)
        #expect(unknown.status == 1)
        #expect(Self.rawControls(Data(unknown.stderr.utf8)).isEmpty, "\(unknown.stderr.debugDescription)")
        #expect(unknown.stderr.contains("the first event (␛]0;pwned␇␛]52;c;aGk=␇)"), "\(unknown.stderr.debugDescription)")
        #expect(unknown.text == "hello\n")
    }

    // MARK: - 2. Bidi overrides and isolates

    /// ControlSanitizer keeps bidi controls (format characters, not C0/C1): the text
    /// reaches the terminal as it came, and the layout measures them as zero columns.
    @Test func bidiControlsAreKeptAndMeasuredAsZeroWidth() throws {
        let controls = ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
                        "\u{200E}", "\u{200F}", "\u{061C}"]
        var words: [String] = []
        for k in 0..<120 {
            let c = controls[k % controls.count]
            words.append("w\(k)\(c)evil\(controls[(k + 4) % controls.count])")
        }
        let text = "Trojan \u{202E}source\u{202C} " + words.joined(separator: " ") + " \u{2067}isolate\u{2069} end"
        let stream = Self.messages(text: [text], thinking: ["think \u{202E}backwards\u{202C} done"],
                                   toolCalls: [["{\"cmd\": ", Self.jsonString("rm \u{202E}fdp.exe"), "}"]])
        let runs = try Self.runAll([
            (["--width", "40"], [:], "bidi plain"),
            (["--width", "40", "--markdown", "off"], [:], "bidi plain markdown off"),
            (["--output", "ansi", "--width", "40", "--height", "10"], Self.colourTerminal, "bidi ansi"),
        ], stdin: Data(stream.utf8))
        for r in runs {
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr)")
            #expect(r.label.hasSuffix("ansi") ? Self.foreignSequences(r.stdout).isEmpty : Self.rawControls(r.stdout).isEmpty, "\(r.label)")
            #expect(r.stderr.contains("think \u{202E}backwards\u{202C} done"), "\(r.label): \(r.stderr.debugDescription)")
            guard !r.label.hasSuffix("ansi") else { continue }
            // Kept: every bidi control that was sent is in the output.
            for c in controls {
                let scalar = c.unicodeScalars.first!
                let sent = text.unicodeScalars.filter { $0 == scalar }.count
                #expect(r.text.unicodeScalars.filter { $0 == scalar }.count == sent, "\(r.label): \(scalar.debugDescription)")
            }
            Self.expectLetters(of: text, in: r.text, r.label)
            // Widths sane: no row wider than 40 columns, and rows are filled (wrapping
            // did not count the controls as wide).
            let rows = r.text.split(separator: "\n").map(String.init)
            let widths = rows.map { DisplayWidth.of($0, policy: .wcwidth) }
            #expect(widths.allSatisfy { $0 <= 40 }, "\(r.label): \(zip(widths, rows).filter { $0.0 > 40 }.prefix(3))")
            #expect(widths.dropLast().allSatisfy { $0 >= 25 }, "\(r.label): \(widths)")
        }
    }

    // MARK: - 3. Sizes and malformed bytes

    /// One base with 1,000 combining marks, in SSE and in text: every mark arrives.
    @Test(arguments: ["sse", "text"])
    func aThousandCombiningMarksOnOneBase(_ format: String) throws {
        let marks = String(repeating: "\u{0301}", count: 1000)
        let text = "before a\(marks) after and x\(String(repeating: "\u{0308}\u{0323}", count: 500))y end\n"
        let input = format == "sse" ? Self.messages(text: [text]) : text
        let runs = try Self.runAll([
            ([], [:], "marks \(format) plain"),
            (["--markdown", "off", "--width", "0"], [:], "marks \(format) raw"),
            (["--output", "ansi", "--width", "50", "--height", "8"], Self.colourTerminal, "marks \(format) ansi"),
        ], stdin: Data(input.utf8))
        for r in runs {
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr)")
            if r.label.hasSuffix("ansi") {
                #expect(Self.foreignSequences(r.stdout).isEmpty, "\(r.label)")
                continue
            }
            #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
            Self.expectLetters(of: text, in: r.text, r.label)
            let count = { (s: String, m: UInt32) in s.unicodeScalars.filter { $0.value == m }.count }
            #expect(count(r.text, 0x301) == 1000 && count(r.text, 0x308) == 500 && count(r.text, 0x323) == 500,
                    "\(r.label): \(count(r.text, 0x301)) acute, \(count(r.text, 0x308)) diaeresis, \(count(r.text, 0x323)) dot below")
            if r.label.hasSuffix("raw") { #expect(r.text == text) }
        }
    }

    /// Words and spaces, `count` bytes, no line break.
    static func words(_ count: Int) -> Data {
        let unit = Array("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor ".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + unit.count)
        while bytes.count < count { bytes += unit }
        return Data(bytes[..<count])
    }

    /// The ASCII letters of `data` (the long inputs are ASCII).
    static func asciiLetters(_ data: Data) -> [UInt8] {
        data.withUnsafeBytes { raw in
            var out = [UInt8]()
            out.reserveCapacity(raw.count)
            for b in raw.bindMemory(to: UInt8.self) where (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A { out.append(b) }
            return out
        }
    }

    /// A line with no line break: words (10 MB in full size), or one word with no
    /// break opportunity at all (256 KB in full size). Known to be slow, not tested
    /// here: a word without a break opportunity is wrapped at about 100 KB/s in a
    /// release build (10 KB/s in a debug one), since every 8 clusters the wrapper
    /// rescans from its restart point, up to 256 bytes back; and with markdown on, an
    /// unfinished line is held whole (about 8 bytes a byte of the line: 10 MB peaks at
    /// 117 MB, 40 MB at 300 MB) and a pipe sees none of it until it ends.
    @Test(arguments: ["sse words", "text words", "sse word", "text word"])
    func aLongLineWithoutABreak(_ kind: String) throws {
        let oneWord = kind.hasSuffix(" word")
        let size = oneWord ? (Self.full ? 256 << 10 : 48 << 10) : (Self.full ? 10 * Self.megabyte : 3 * Self.megabyte / 2)
        let body = oneWord ? Data(repeating: UInt8(ascii: "w"), count: size) : Self.words(size)
        var text = Data("start ".utf8)
        text.append(body)
        text.append(Data(" finish".utf8))
        var input = Data()
        if kind.hasPrefix("sse") {
            // Deltas of about 1 KB, as a model sends them (each a JSON string).
            input.append(Data((Self.messageStart + Self.blockStart(0, #"{"type":"text","text":""}"#)).utf8))
            var offset = 0
            while offset < text.count {
                let piece = String(decoding: text[offset..<min(text.count, offset + 1024)], as: UTF8.self)
                input.append(Data(Self.textDelta(0, piece).utf8))
                offset += 1024
            }
            input.append(Data((Self.blockStop(0) + Self.messageStop).utf8))
        } else {
            input = text
        }
        let r = try Self.run(kind.hasPrefix("text") ? ["--format", "text"] : [], stdin: input, label: "long line \(kind) \(size) bytes")
        Self.expectSurvived(r)
        #expect(r.status == 0, "\(r.label): \(r.stderr)")
        #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
        let lettersKept = Self.asciiLetters(r.stdout) == Self.asciiLetters(text)
        #expect(lettersKept, "\(r.label): \(r.stdout.count) bytes out for \(text.count) in")
        let rows = r.text.split(separator: "\n")
        #expect(rows.allSatisfy { $0.utf8.count <= 80 }, "\(r.label): a row wider than 80 columns")
        print("\(r.label): \(String(format: "%.1f", r.seconds)) s, peak \(r.peakMB) MB")
    }

    /// One SSE event whose text delta is about `size` bytes of paragraphs (about 1 KB
    /// each, blank lines between): the text shown is `before the big one `, `count`
    /// copies of `chunk`, ` after the big one`.
    static func hugeEvent(_ size: Int) throws -> (file: URL, chunk: [UInt8], count: Int) {
        var chunk = [UInt8]()
        let paragraph = Array(String(repeating: "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod ", count: 14).utf8)
        while chunk.count < 1 << 16 { chunk += paragraph + [0x0A, 0x0A] }
        // In the event, each line break is the JSON escape `\n`.
        let escaped = Data(String(decoding: chunk, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n").utf8)
        let count = max(1, size / chunk.count)
        let file = temporaryURL("huge.sse")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data((Self.messageStart + Self.blockStart(0, #"{"type":"text","text":""}"#)
            + Self.textDelta(0, "before the big one ")).utf8))
        try handle.write(contentsOf: Data(#"event: content_block_delta\#ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""#.utf8))
        for _ in 0..<count { try handle.write(contentsOf: escaped) }
        try handle.write(contentsOf: Data("\"}}\n\n".utf8))
        try handle.write(contentsOf: Data((Self.textDelta(0, " after the big one") + Self.blockStop(0) + Self.messageStop).utf8))
        return (file, chunk, count)
    }

    /// A 100 MB event with the default limit (16 MiB): dropped with an error naming
    /// `--max-event-bytes`, the text around it kept, memory bounded.
    @Test func aHundredMegabyteEventIsDroppedAtTheDefaultLimit() throws {
        let (file, _, _) = try Self.hugeEvent(100_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try Self.run([], input: file, label: "100 MB event, default limit")
        Self.expectSurvived(r, memoryMB: 512)
        #expect(r.status == 1)
        Self.expectErrorLines(r, naming: "--max-event-bytes")
        #expect(r.text == "before the big one  after the big one\n", "\(r.text.prefix(300).debugDescription)")
        print("\(r.label): \(String(format: "%.1f", r.seconds)) s, peak \(r.peakMB) MB")
    }

    /// The same event accepted with `--max-event-bytes 200000000`: all of its text,
    /// exactly (unwrapped: what is measured is the event, not the wrapping of 100 MB,
    /// which takes minutes in a debug build), under 512 MB. 24 MB (over the 16 MiB
    /// default) unless full size.
    @Test func aHugeEventIsAcceptedWithARaisedLimit() throws {
        let (file, chunk, count) = try Self.hugeEvent(Self.full ? 100_000_000 : 24_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let size = chunk.count * count
        let r = try Self.run(["--max-event-bytes", "200000000", "--width", "0"], input: file, label: "\(size >> 20) MiB event accepted")
        Self.expectSurvived(r, memoryMB: 512)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let head = Array("before the big one ".utf8), tail = Array(" after the big one".utf8)
        #expect(r.stdout.count == head.count + size + tail.count, "\(r.stdout.count) bytes")
        if r.stdout.count == head.count + size + tail.count {
            let same = r.stdout.withUnsafeBytes { raw -> Bool in
                let out = raw.bindMemory(to: UInt8.self).baseAddress!
                guard memcmp(out, head, head.count) == 0, memcmp(out + head.count + size, tail, tail.count) == 0 else { return false }
                for k in 0..<count where memcmp(out + head.count + k * chunk.count, chunk, chunk.count) != 0 { return false }
                return true
            }
            #expect(same, "the event's text is not what was sent")
        }
        print("\(r.label): \(String(format: "%.1f", r.seconds)) s, peak \(r.peakMB) MB")
    }

    /// Full size only: the accepted 100 MB event with the default flags (wrapped at 80
    /// columns, markdown). In a debug build wrapping runs at about 0.3 MB/s, so this
    /// passes its time limit only in a release build (see the report in the commit).
    @Test(.enabled(if: full)) func aHundredMegabyteEventAcceptedWithTheDefaultFlags() throws {
        let (file, _, _) = try Self.hugeEvent(100_000_000)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try Self.run(["--max-event-bytes", "200000000"], input: file, label: "100 MB event accepted, defaults")
        withKnownIssue("wrapping 100 MB takes minutes in a debug build", isIntermittent: true) {
            Self.expectSurvived(r, memoryMB: 512)
        }
        #expect(r.timedOut || r.peakKB < (512 * CommandLineTests.memoryFactor) << 10, "peak RSS \(r.peakMB) MB")
        print("\(r.label): \(String(format: "%.1f", r.seconds)) s, peak \(r.peakMB) MB")
    }

    /// JSON nested 100,000 deep inside data lines (closed, and cut short): each is an
    /// error (the reader stops at depth 512), not a stack overflow; the text around kept.
    /// A whole input that is such a JSON document is shown as text.
    @Test func deeplyNestedJSON() throws {
        let depth = 100_000
        var stream = Self.messageStart + Self.blockStart(0, #"{"type":"text","text":""}"#) + Self.textDelta(0, "before deep ")
        stream += "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"lost\"},\"deep\":"
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}\n\n"
        stream += Self.textDelta(0, "between deep ")
        stream += "event: content_block_delta\ndata: " + String(repeating: "{\"a\":", count: depth) + "\n\n"
        stream += Self.textDelta(0, "after deep") + Self.blockStop(0) + Self.messageStop
        let r = try Self.run([], stdin: stream, label: "deep JSON in events")
        Self.expectSurvived(r)
        #expect(r.status == 1)
        Self.expectErrorLines(r, count: 2, naming: "nesting deeper than 512")
        #expect(r.text == "before deep between deep after deep\n", "\(r.text.debugDescription)")

        // As a whole input (detected as a JSON document, then text). Unwrapped: `[ [ [`
        // has no line-break opportunity (UAX #14 keeps an opening bracket with what
        // follows), and wrapping 200 KB without one takes minutes in a debug build.
        let document = "{\"a\": " + String(repeating: "[ ", count: depth) + String(repeating: "] ", count: depth) + "}"
        let whole = try Self.run(["--width", "0"], stdin: document, label: "deep JSON document")
        Self.expectSurvived(whole)
        #expect(Self.asciiLetters(whole.stdout) == [UInt8(ascii: "a")], "\(whole.label): \(whole.text.prefix(200).debugDescription) \(whole.stderr)")
        let open = try Self.run(["--width", "0"], stdin: String(repeating: "[ ", count: depth), label: "deep JSON document, never closed")
        Self.expectSurvived(open)
    }

    /// Invalid UTF-8 in the SSE framing (event names, comments, unknown fields, after a
    /// BOM), inside JSON strings, and in raw text: U+FFFD per maximal subpart, the text
    /// around kept. Invalid bytes outside a JSON string make that event malformed: its
    /// text is lost, with one error line.
    @Test func invalidUTF8Everywhere() throws {
        let bad: [[UInt8]] = [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE2, 0x82],
                              [0x80], [0xFE, 0xFE]]
        func mixed(_ word: String) -> [UInt8] {
            var out = [UInt8]()
            for (k, b) in bad.enumerated() { out += Array("\(word)\(k)".utf8) + b }
            return out + Array(" \(word)end".utf8)
        }
        // Expected: the library's repair of the same bytes.
        func repaired(_ bytes: [UInt8]) -> String {
            var r = UTF8Repair(), out = [UInt8]()
            r.repair(bytes, into: &out)
            r.finish(into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        var input = [0xEF, 0xBB, 0xBF] + Array(Self.messageStart.utf8)
        input += Array(": a comment ".utf8) + mixed("c") + [0x0A]
        input += Array("ev".utf8) + [0xFF] + Array("ent: x\n".utf8)  // an unknown field (its name is not UTF-8 either)
        input += Array(Self.blockStart(0, #"{"type":"text","text":""}"#).utf8)
        input += Array("event: content_".utf8) + [0xFF, 0xC3] + Array("block_delta\n".utf8)
        input += Array(#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"#.utf8)
        input += [0x22] + mixed("s") + Array("\"}}\n\n".utf8)
        // Outside a string: the event is malformed.
        input += Array(#"data: {"type":"content_block_delta","index":0,"#.utf8) + [0xFF]
        input += Array(#""delta":{"type":"text_delta","text":"lost"}}"#.utf8) + [0x0A, 0x0A]
        input += Array(Self.textDelta(0, " after").utf8) + Array(Self.blockStop(0).utf8) + Array(Self.messageStop.utf8)
        let sse = try Self.run(["--width", "0"], stdin: Data(input), label: "invalid UTF-8 in SSE")
        Self.expectSurvived(sse)
        #expect(sse.status == 1)
        Self.expectErrorLines(sse, naming: "malformed")
        #expect(sse.text == repaired(mixed("s")) + " after", "\(sse.text.debugDescription)")
        let defaults = try Self.run([], stdin: Data(input), label: "invalid UTF-8 in SSE, defaults")
        Self.expectSurvived(defaults)
        Self.expectLetters(of: repaired(mixed("s")) + " after", in: defaults.text, defaults.label)
        Self.expectReplacements(of: repaired(mixed("s")), in: defaults.text, defaults.label)

        // Raw text: sparse enough not to look binary (under 10% of the first 512 bytes).
        var text = Array(String(repeating: "plain words here ", count: 40).utf8) + mixed("t") + Array(" more\n".utf8)
        text += mixed("u") + Array("\nlast line".utf8) + [0xE2, 0x82]  // cut inside a scalar at the very end
        for args in [["--width", "0", "--markdown", "off"], []] {
            let r = try Self.run(args, stdin: Data(text), label: "invalid UTF-8 in text \(args)")
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr)")
            #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
            if args.isEmpty {
                Self.expectLetters(of: repaired(text), in: r.text, r.label)
                Self.expectReplacements(of: repaired(text), in: r.text, r.label)
            } else {
                #expect(r.text == repaired(text), "\(r.label): \(r.text.suffix(200).debugDescription)")
            }
        }
    }

    /// NUL bytes: escaped in JSON (shown), raw inside a JSON string (the event is
    /// malformed), in SSE comments, event names and ids (ignored), and in text after
    /// the first 512 bytes (shown). A NUL in the first 512 bytes of text makes the input
    /// binary (documented: reported in one line; the text before the NUL is shown).
    @Test func nulBytes() throws {
        var input = Array(Self.messageStart.utf8) + Array(Self.blockStart(0, #"{"type":"text","text":""}"#).utf8)
        input += Array(String(repeating: ": padding past the binary check\n", count: 20).utf8)
        input += Array(Self.textDelta(0, "escaped\u{0}nul ").utf8)
        input += Array(": comment ".utf8) + [0] + Array(" nul\n".utf8)
        input += Array("id: 1".utf8) + [0] + Array("2\n".utf8)
        input += Array("event: content_block".utf8) + [0] + Array("_delta\n".utf8)
        input += Array(#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"kept "}}"#.utf8) + [0x0A, 0x0A]
        input += Array(#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw"#.utf8) + [0]
        input += Array(#"lost"}}"#.utf8) + [0x0A, 0x0A]
        input += Array(Self.textDelta(0, "after").utf8) + Array(Self.blockStop(0).utf8) + Array(Self.messageStop.utf8)
        for args in [["--width", "0", "--markdown", "off"], []] {
            let r = try Self.run(args, stdin: Data(input), label: "NUL in SSE \(args)")
            Self.expectSurvived(r)
            #expect(r.status == 1)
            Self.expectErrorLines(r, naming: "control character in string")
            #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
            let want = args.isEmpty ? "escaped\u{FFFD}nul kept after\n" : "escaped␀nul kept after"
            #expect(r.text == want, "\(r.label): \(r.text.debugDescription)")
        }

        let text = Array(String(repeating: "text before the nul ", count: 30).utf8) + Array("mid".utf8) + [0, 0] + Array("dle end\n".utf8)
        for args in [["--width", "0", "--markdown", "off"], []] {
            let r = try Self.run(args, stdin: Data(text), label: "NUL in text \(args)")
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr)")
            #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
            Self.expectLetters(of: String(decoding: text, as: UTF8.self), in: r.text, r.label)
            #expect(r.text.contains(args.isEmpty ? "mid\u{FFFD}\u{FFFD}dle" : "mid␀␀dle"), "\(r.label): \(r.text.suffix(80).debugDescription)")
        }

        let early = try Self.run([], stdin: Data([UInt8]("hi".utf8) + [0] + Array(String(repeating: "there ", count: 100).utf8)), label: "NUL early")
        Self.expectSurvived(early)
        #expect(early.status == 1)
        Self.expectErrorLines(early, naming: "looks binary")
        #expect(early.text.trimmingCharacters(in: .whitespacesAndNewlines) == "hi", "\(early.text.debugDescription)")
    }

    // MARK: - 4. Markdown bombs

    static let bombs: [Payload] = [
        Payload(name: "10,000 nested quotes", text: String(repeating: "> ", count: 10_000) + "deep quote text\nlazy continuation\n"),
        Payload(name: "10,000 nested quotes, 3 lines", text: String(repeating: String(repeating: ">", count: 10_000) + " line\n", count: 3)),
        Payload(name: "10,000 nested bullet lists", text: String(repeating: "- ", count: 10_000) + "deep item\n"),
        Payload(name: "10,000 nested ordered lists", text: String(repeating: "1. ", count: 10_000) + "deep item\n",
                shown: "deep item"),
        Payload(name: "5,000 quotes and lists alternating", text: String(repeating: "> - ", count: 5_000) + "deep mixed\n"),
        // Text only: a run of backticks has no line-break opportunity, which the layout
        // wraps slowly (see aLongLineWithoutABreak); the markdown is the same from SSE.
        Payload(name: "100,000 backticks in a run", text: "before " + String(repeating: "`", count: 100_000) + " after\n",
                textOnly: true),
        Payload(name: "100,000 backticks alternating", text: "before " + String(repeating: "`a ", count: 100_000) + " after\n",
                textOnly: true),
        Payload(name: "table of 10,000 columns", text: "|" + (0..<10_000).map { "c\($0)" }.joined(separator: "|") + "|\n|"
            + String(repeating: "-|", count: 10_000) + "\n|" + (0..<10_000).map { "v\($0)" }.joined(separator: "|") + "|\n"),
        Payload(name: "10,000 [", text: String(repeating: "[", count: 10_000) + "bracketed\n"),
        Payload(name: "10,000 *", text: String(repeating: "*", count: 10_000) + "starred\n"),
        Payload(name: "10,000 [a](", text: String(repeating: "[a](", count: 10_000) + "linked\n"),
        Payload(name: "10,000 *a and _a", text: String(repeating: "*a _a ", count: 10_000) + "emphasis\n"),
    ]

    /// Default markdown on: within the time and memory bounds, every letter shown.
    /// (10,000 nested quotes or lists overflowed the renderer's stack: quotes and
    /// lists deeper than `MarkdownRenderer.maximumNesting` are now not opened.)
    @Test(arguments: bombs)
    func markdownBombs(_ bomb: Payload) throws {
        let text = "Intro paragraph.\n\n" + bomb.text + "\nOutro paragraph.\n"
        let shown = bomb.shown.map { "Intro paragraph. " + $0 + " Outro paragraph." } ?? text
        let bytes = Array(text.utf8)
        let sse = Data(Self.messages(text: stride(from: 0, to: bytes.count, by: 4096).map {
            String(decoding: bytes[$0..<min(bytes.count, $0 + 4096)], as: UTF8.self)
        }).utf8)
        var runs = [try Self.run(["--format", "text"], stdin: text, label: "\(bomb.name) text")]
        if !bomb.textOnly {
            runs += try Self.runAll([
                ([], [:], "\(bomb.name) sse"),
                (["--output", "ansi", "--width", "80", "--height", "20"], Self.colourTerminal, "\(bomb.name) sse ansi"),
            ], stdin: sse)
        }
        for r in runs {
            Self.expectSurvived(r)
            #expect(r.status == 0, "\(r.label): \(r.stderr.prefix(500))")
            if r.label.hasSuffix("ansi") {
                #expect(Self.foreignSequences(r.stdout).isEmpty, "\(r.label)")
            } else {
                #expect(Self.rawControls(r.stdout).isEmpty, "\(r.label)")
                Self.expectLetters(of: shown, in: r.text, r.label)
            }
            print("\(r.label): \(String(format: "%.1f", r.seconds)) s, peak \(r.peakMB) MB")
        }
    }

    // MARK: - 5. Terminal state in a real terminal

    /// The pane's state after a command: title, alternate screen, cursor, mouse modes,
    /// scroll region, autowrap, insert, keypad and origin modes.
    static let paneStateFormat = "title=#{pane_title}|alternate=#{alternate_on}|cursor=#{cursor_flag}|mouse=#{mouse_any_flag}"
        + "#{mouse_standard_flag}#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag}|region=#{scroll_region_upper}-#{scroll_region_lower}"
        + "|wrap=#{wrap_flag}|insert=#{insert_flag}|keypad=#{keypad_flag}|origin=#{origin_flag}"

    struct PaneState: Equatable {
        var state: String
        /// Paste buffers in tmux: with `set-clipboard on`, an OSC 52 that reaches tmux makes one.
        var buffers: Int
        var rows: [String]
        static func == (a: PaneState, b: PaneState) -> Bool { a.state == b.state && a.buffers == b.buffers }
    }

    /// Runs `command` in a 60 x 15 tmux pane that accepts clipboard writes, then reads
    /// the pane's state and buffers.
    static func paneState(_ command: String) throws -> PaneState {
        let rows = try TmuxTests.captureBlocking("tmux set-option -s set-clipboard on; \(command)", width: 60, height: 15, after: {
            "\($0) display-message -p -t t '\(paneStateFormat)'; \($0) list-buffers | wc -l"
        })
        guard rows.count >= 2 else { return PaneState(state: "no state: \(rows)", buffers: -1, rows: rows) }
        return PaneState(state: rows[0], buffers: Int(rows[1].trimmingCharacters(in: .whitespaces)) ?? -1,
                         rows: Array(rows.dropFirst(2)))
    }

    /// The state a clean stream leaves (the same flags, no escapes), found once.
    static let cleanPaneState: PaneState = (try? findCleanPaneState()) ?? PaneState(state: "no clean state", buffers: -1, rows: [])

    static func findCleanPaneState() throws -> PaneState {
        let file = temporaryURL("clean.sse")
        try Data(messages(text: ["A clean answer, ", "nothing else."], thinking: ["Clean thinking."],
                          toolCalls: [["{\"cmd\": \"ls\"}"]]).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try paneState("'\(CommandLineTests.binary.path)' '\(file.path)'")
    }

    static let terminalPayloads: [Payload] = [
        Payload(name: "OSC 0 and 2 title", text: "\u{1B}]0;pwned zero\u{07}\u{1B}]2;pwned two\u{1B}\\\u{9D}2;pwned c1\u{9C}"),
        Payload(name: "OSC 52 clipboard", text: "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]52;;cHduZWQ=\u{1B}\\"),
        Payload(name: "CSI clear", text: "\u{1B}[2J\u{1B}[3J\u{1B}[H\u{9B}2J"),
        Payload(name: "alternate screen", text: "\u{1B}[?1049h\u{1B}[?47h\u{9B}?1049h"),
        Payload(name: "cursor hidden", text: "\u{1B}[?25l\u{9B}?25l"),
        Payload(name: "mouse modes", text: "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1003h\u{1B}[?1006h"),
        Payload(name: "DECSTBM", text: "\u{1B}[3;5r\u{1B}[?6h"),
        Payload(name: "other modes", text: "\u{1B}[?7l\u{1B}[4h\u{1B}=\u{1B}(0"),
    ]

    /// A check of the check: the same sequences written raw do change the pane's state
    /// (title, alternate screen, cursor, mouse, scroll region, clipboard buffer).
    @Test(.enabled(if: tmuxIsAvailable)) func rawSequencesChangeThePaneState() throws {
        let clean = Self.cleanPaneState
        let raw = try Self.paneState("printf '\\033]2;pwned\\033\\\\\\033[?1049h\\033[?25l\\033[?1000h\\033[3;5r\\033]52;c;cHduZWQ=\\007'")
        #expect(clean.buffers == 0, "\(clean)")
        for part in ["title=pwned", "alternate=1", "cursor=0", "mouse=1", "region=2-4"] {
            #expect(raw.state.contains(part), "raw sequences did not set \(part): \(raw.state) (clean: \(clean.state))")
        }
        #expect(raw.buffers == 1, "an OSC 52 that reaches tmux makes a buffer: \(raw.buffers)")
    }

    /// The live view (default flags) in tmux with the payload in the answer, thinking
    /// and a tool call: the pane ends in the state a clean run leaves it in, with no
    /// clipboard write, and the escapes are on the screen as pictures.
    @Test(.enabled(if: tmuxIsAvailable), arguments: terminalPayloads)
    func theTerminalStateIsUntouched(_ payload: Payload) throws {
        let clean = Self.cleanPaneState
        let content = "shown " + payload.text + " done"
        let file = Self.temporaryURL("state.sse")
        try Data(Self.messages(text: ["Answer: ", content, " end."], thinking: ["Thinking: ", content],
                               toolCalls: [[content]]).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let after = try Self.paneState("'\(CommandLineTests.binary.path)' '\(file.path)'")
        #expect(after == clean, "\(payload.name): \(after.state), \(after.buffers) buffers; clean: \(clean.state), \(clean.buffers) buffers")
        let screen = after.rows.joined(separator: "\n")
        #expect(screen.contains("␛") || screen.contains("\u{FFFD}"), "\(payload.name): \(after.rows)")
        #expect(screen.contains("Answer: shown") && screen.contains("end."), "\(payload.name): \(after.rows)")
        #expect(screen.contains("Thinking: shown"), "\(payload.name): \(after.rows)")
    }
}
