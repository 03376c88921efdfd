import Foundation
import Testing

/// Faults around the process: a blocked reader, a resize storm, Ctrl-C mid-frame, a
/// reader that goes away, an input closed early. Nothing that arrived is lost, the
/// terminal is restored, memory stays bounded.
@Suite(.serialized) struct FaultTests: EndToEnd {
    static let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")

    /// Letters of a text without escape sequences, white space or drawing characters.
    static func letters(_ text: String) -> [Character] {
        LiveViewFlagTests.strippingEscapes(text).filter { c in
            !c.isWhitespace && c != "↪" && !c.unicodeScalars.contains { (0x2500...0x257F).contains($0.value) }
        }
    }

    /// The live view writing into a pipe nobody reads for 3 s while the stream goes on:
    /// writing blocks (so reading the input waits: backpressure, no buffering of
    /// frames), memory stays bounded, and once the reader resumes everything arrives.
    @Test func aBlockedReaderHoldsTheViewWithoutGrowingMemory() async throws {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["--output", "ansi", "--markdown", "off", "--pace", "off", "--width", "60", "--height", "20", "--format", "text"]
        var environment = ProcessInfo.processInfo.environment
        environment["STREAM_RENDER_OPTS"] = nil
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        let child = try Child(process)
        let pid = process.processIdentifier
        func rssKB() -> Int {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        // Write 1 MB of text on a thread (it blocks once both pipes are full).
        let line = "the reader went away for a while, and the renderer waited for it 0123456789\n"
        let total = (1 << 20) / line.utf8.count
        let writer = Thread {
            let handle = input.fileHandleForWriting
            var batch = ""
            for k in 0..<total {
                batch += line
                if k % 1000 == 999 { handle.write(Data(batch.utf8)); batch = "" }
            }
            handle.write(Data(batch.utf8))
            try? handle.close()
        }
        writer.start()
        await pause(3)  // nobody reads the output
        let blockedPeak = rssKB()
        #expect(process.isRunning, "the writer is blocked, not failed")
        let data = await PipeReader(output).data()
        #expect(await child.exit() == 0)
        #expect(blockedPeak > 0 && blockedPeak < 64 * 1024 * CommandLineTests.memoryFactor, "peak RSS while blocked \(blockedPeak) KB")
        // Every line arrived (letters counted: the live view's bytes are frames).
        let got = Self.letters(String(decoding: data, as: UTF8.self)).count
        let want = Self.letters(line).count * total
        #expect(got >= want, "\(got) letters written, \(want) sent")
    }

    /// A resize storm while the answer streams (40 resizes between 30 and 90 columns):
    /// nothing is lost or written twice in the scrollback, and the terminal is left
    /// with the cursor shown.
    @Test(.enabled(if: tmuxIsAvailable)) func aResizeStormLosesAndDuplicatesNothing() async throws {
        let binary = CommandLineTests.binary.path
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let slow = "n=0; while IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); [ $((n % 10)) -eq 0 ] && sleep 0.01; done < '\(Self.fixture)'"
        let rows = try await TmuxTests.capture("\(slow) | '\(binary)' --markdown off", width: 60, height: 14,
                                         during: { t in
                                             "sleep 0.3; " + (0..<40).map { k in "\(t) resize-window -t t -x \(30 + (k * 37) % 61); sleep 0.03" }
                                                 .joined(separator: "; ") + "; \(t) resize-window -t t -x 60"
                                         },
                                         after: { "\($0) display-message -p -t t 'cursor=#{cursor_flag}'" })
        #expect(rows.first == "cursor=1", "\(rows.prefix(1))")
        let got = TmuxTests.normalized(rows.dropFirst().joined()).filter { !$0.isWhitespace && $0 != "↪" }.sorted()
        let want = TmuxTests.normalized(answer).filter { !$0.isWhitespace }.sorted()
        #expect(got == want, "the letters read back differ from the answer's: \(got.count) vs \(want.count)")
    }

    /// Ctrl-C in the middle of a frame of the inline view: the terminal is restored
    /// (cursor shown, echo on, the normal screen) and exit 130.
    @Test(.enabled(if: tmuxIsAvailable)) func ctrlCMidStreamRestoresTheTerminal() async throws {
        let binary = CommandLineTests.binary.path
        let slow = "n=0; while IFS= read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); sleep 0.005; done < '\(Self.fixture)'"
        let rows = try await TmuxTests.capture("trap '' INT; \(slow) | '\(binary)'; echo exit=$?; stty -a | grep -o -- '-*echo ' | head -1",
                                         width: 60, height: 14,
                                         during: { "sleep 0.8; \($0) send-keys -t t C-c" },
                                         after: { "\($0) display-message -p -t t 'alternate=#{alternate_on} cursor=#{cursor_flag}'" })
        #expect(rows.first == "alternate=0 cursor=1", "\(rows.prefix(1))")
        #expect(rows.contains("exit=130"), "\(rows.suffix(3))")
        #expect(rows.contains("echo"), "echo is back on: \(rows.suffix(2))")
    }

    /// The reader goes away (`| head -3`): stream-render ends quietly with status 0.
    @Test func aReaderThatGoesAwayEndsQuietly() async throws {
        let binary = CommandLineTests.binary.path
        let script = "'\(binary)' '\(Self.fixture)' 2>/tmp/sr-epipe-\(getpid()).err | head -3; echo \"status=${PIPESTATUS[0]}\"; cat /tmp/sr-epipe-\(getpid()).err; rm -f /tmp/sr-epipe-\(getpid()).err"
        let text = String(decoding: try await Child.script(script, shell: "/bin/bash"), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 4 && lines[3] == "status=0", "\(text)")
        #expect(!text.contains("error"), "\(text)")
    }

    /// The input closed early (the writer died mid-event): what arrived is shown, the
    /// error says so, exit 1.
    @Test func anInputClosedEarlyKeepsWhatArrived() throws {
        let whole = CommandLineTests.data("sse/coding-answer.anthropic.sse")
        let cut = whole.prefix(whole.count / 2)
        let r = try CommandLineTests.run(["--markdown", "off"], stdin: Data(cut))
        #expect(r.status == 1)
        #expect(r.stderr.contains("stream ended without message_stop"), "\(r.stderr)")
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        let shown = String(decoding: r.stdout, as: UTF8.self).filter { !$0.isWhitespace }
        #expect(shown.count > 1000 && answer.filter { !$0.isWhitespace }.hasPrefix(shown.prefix(1000)))
    }
}
