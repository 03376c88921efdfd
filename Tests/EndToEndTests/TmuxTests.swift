import Foundation
import StreamRender
import Testing

/// The live view in a real terminal: `stream-render` runs in a tmux pane of a given
/// size, then `tmux capture-pane -p -S -` (scrollback included) must equal the
/// wrapped text. tmux measures like a legacy terminal, so the wcwidth policy is used.
/// Whether tmux can be run here; in CI (.ci/run installs it) the tests always run.
let tmuxIsAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/tmux")
    || ProcessInfo.processInfo.environment["CI"] != nil

@Suite(.serialized, .enabled(if: tmuxIsAvailable))
struct TmuxTests {
    /// Runs `command` in a detached tmux pane of `width` x `height`; returns the pane's
    /// scrollback and screen once the command is done, trailing blank rows removed.
    /// One shell script drives tmux from start to capture.
    static func capture(_ command: String, width: Int, height: Int) throws -> [String] {
        let socket = "streamrender-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let pane = "\(command); tmux -L \(socket) wait-for -S done; sleep 60"
        let driver = """
            tmux -L \(socket) -f /dev/null new-session -d -x \(width) -y \(height) -s t sh -c \(quote(pane)) </dev/null >/dev/null 2>&1
            timeout 120 tmux -L \(socket) wait-for done
            tmux -L \(socket) capture-pane -p -S - -t t
            tmux -L \(socket) kill-server >/dev/null 2>&1
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", driver]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var rows = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows
    }

    /// tmux 3.3 keeps only part of a long ZWJ emoji sequence in its cell (it drops
    /// joiners and later members), so rows are compared with each ZWJ sequence cut
    /// to its first emoji.
    static func normalized(_ row: String) -> String {
        var out = String.UnicodeScalarView()
        var skipping = false
        for scalar in row.unicodeScalars {
            let emojiPart = scalar.value >= 0x1F000 || (0x2600...0x27BF).contains(scalar.value)
                || scalar.value == 0x200D || scalar.value == 0xFE0F
            if scalar.value == 0x200D { skipping = true; continue }
            if skipping && emojiPart { continue }
            skipping = false
            out.append(scalar)
        }
        return String(out)
    }

    static func expected(_ answer: String, width: Int) -> [String] {
        var printer = PlainTextPrinter(settings: LayoutSettings(width: width, policy: .wcwidth))
        var text = printer.append(answer) + printer.finish()
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var s = String(line)
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
    }

    /// The fixture streamed slowly through a pipe (a pause every 25 lines), so the
    /// live view draws many frames.
    static func slowly(_ fixture: String) -> String {
        "n=0; while IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); [ $((n % 25)) -eq 0 ] && sleep 0.01; done < '\(fixture)'"
    }

    @Test(arguments: ["", "--fullscreen"])
    func theLiveViewLeavesExactlyTheWrappedAnswer(_ mode: String) throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let rows = try Self.capture("\(Self.slowly(fixture)) | '\(binary)' --width-policy wcwidth \(mode)", width: 40, height: 12)
        let want = Self.expected(answer, width: 40)
        #expect(rows.count == want.count, "\(mode): \(rows.count) rows captured, \(want.count) expected")
        for (k, pair) in zip(rows, want).enumerated() where Self.normalized(pair.0) != Self.normalized(pair.1) {
            Issue.record("\(mode) row \(k): \(pair.0.debugDescription) vs \(pair.1.debugDescription)")
            break
        }
    }

    @Test func aNarrowPaneWithWideTextAndEscapes() throws {
        let binary = CommandLineTests.binary.path
        let fixture = CommandLineTests.fixture("sse/multilingual.scalar.sse")
        let answer = String(decoding: CommandLineTests.data("answers/multilingual.md"), as: UTF8.self)
        let rows = try Self.capture("\(Self.slowly(fixture)) | '\(binary)' --width-policy wcwidth", width: 23, height: 7)
        let want = Self.expected(answer, width: 23)
        #expect(rows.count == want.count, "\(rows.count) rows captured, \(want.count) expected")
        for (k, pair) in zip(rows, want).enumerated() where Self.normalized(pair.0) != Self.normalized(pair.1) {
            Issue.record("row \(k): \(pair.0.debugDescription) vs \(pair.1.debugDescription)")
        }
    }
}
