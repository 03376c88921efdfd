import Foundation
import Testing

/// The command-line conventions users expect: COLUMNS, short flags, --no-color,
/// STREAM_RENDER_OPTS, completions, --idle-timeout, --stats, --save-code, grouped help.
@Suite struct ConventionCommandLineTests: EndToEnd {
    static let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")

    static func text(_ r: Run) -> String { String(decoding: r.stdout, as: UTF8.self) }

    static func widest(_ text: String) -> Int {
        text.components(separatedBy: "\n").map { (line: String) -> Int in line.count }.max() ?? 0
    }

    @Test func columnsSetsThePipeWidthAndWidthWins() throws {
        let byColumns = try CommandLineTests.run([Self.fixture], environment: ["COLUMNS": "40"])
        #expect(byColumns.status == 0)
        #expect(Self.widest(Self.text(byColumns)) <= 40 && Self.widest(Self.text(byColumns)) >= 35)
        let byFlag = try CommandLineTests.run(["-w", "30", Self.fixture], environment: ["COLUMNS": "40"])
        #expect(Self.widest(Self.text(byFlag)) <= 30 && Self.widest(Self.text(byFlag)) >= 25)
        let bad = try CommandLineTests.run([Self.fixture], environment: ["COLUMNS": "abc"])
        #expect(Self.widest(Self.text(bad)) <= 80 && Self.widest(Self.text(bad)) > 60, "an unusable COLUMNS is ignored")
        let long = try CommandLineTests.run(["--width", "30", Self.fixture])
        #expect(long.stdout == byFlag.stdout, "-w is --width")
    }

    /// `--color always` into a pipe (ls, grep, bat): styled lines for `less -R`, the
    /// plain output's text with SGR around it and no other escape sequence; `auto`
    /// and `never` into a pipe write none. Default environment, as a user's.
    @Test func colorAlwaysIntoAPipeWritesStyledLines() throws {
        let plain = try CommandLineTests.run([Self.fixture])
        let auto = try CommandLineTests.run(["--color", "auto", Self.fixture])
        let styled = try CommandLineTests.run(["--color", "always", Self.fixture], environment: ["TERM": "xterm-256color"])
        #expect(styled.status == 0, "\(styled.stderr)")
        #expect(!plain.stdout.contains(0x1B) && auto.stdout == plain.stdout)
        let text = Self.text(styled)
        #expect(text.contains("\u{1B}["), "no SGR in \(text.prefix(200).debugDescription)")
        // Without its SGR, the styled output is the plain output (links stay `text (url)`:
        // a pager shows no OSC 8).
        let stripped = text.replacing(try Regex("\u{1B}\\[[0-9;]*m"), with: "")
        #expect(!stripped.contains("\u{1B}"), "an escape other than SGR: \(stripped.debugDescription.prefix(300))")
        #expect(stripped == Self.text(plain))
        let never = try CommandLineTests.run(["--color", "always", "--no-color", Self.fixture])
        #expect(!Self.text(never).contains("\u{1B}[3") && !Self.text(never).contains("38;"), "--no-color: no colour, only attributes")
    }

    @Test func shortFormatFlag() throws {
        let r = try CommandLineTests.run(["-f", "text", "--width", "0"], stdin: Data("event: not sse\n".utf8))
        #expect(Self.text(r) == "event: not sse\n")
    }

    @Test func noColorFlagIsLikeNoColor() throws {
        let colour = #"\u001B\[[0-9;]*(3[0-7]|38;|9[0-7])[;m]"#
        // (At most a frame a second: a slow run, a sanitised binary say, draws no
        // frame but the first and the last, so both runs draw the same frames.)
        let base = ["--output", "ansi", "--pace", "off", "--fps", "1", "--width", "60", Self.fixture]
        let coloured = try CommandLineTests.run(base + ["--color", "always"], environment: ["NO_COLOR": ""])
        #expect(Self.text(coloured).range(of: colour, options: .regularExpression) != nil)
        let flag = try CommandLineTests.run(base + ["--color", "always", "--no-color"], environment: ["NO_COLOR": ""])
        #expect(flag.status == 0)
        #expect(Self.text(flag).range(of: colour, options: .regularExpression) == nil)
        let variable = try CommandLineTests.run(base, environment: ["NO_COLOR": "1"])
        #expect(flag.stdout == variable.stdout, "--no-color draws what NO_COLOR=1 draws")
    }

    @Test func defaultsComeFromStreamRenderOptsAndTheCommandLineWins() throws {
        let fromVariable = try CommandLineTests.run([Self.fixture], environment: ["STREAM_RENDER_OPTS": "--width 30 --markdown 'off'"])
        #expect(fromVariable.status == 0, "\(fromVariable.stderr)")
        #expect(Self.widest(Self.text(fromVariable)) <= 30)
        #expect(Self.text(fromVariable).contains("```"), "markdown off from the variable")
        let overridden = try CommandLineTests.run(["--width", "50", Self.fixture], environment: ["STREAM_RENDER_OPTS": "--width 30"])
        #expect(Self.widest(Self.text(overridden)) > 30 && Self.widest(Self.text(overridden)) <= 50)
        let bad = try CommandLineTests.run([Self.fixture], environment: ["STREAM_RENDER_OPTS": "--width '30"])
        #expect(bad.status == 2 && bad.stderr.contains("STREAM_RENDER_OPTS"), "\(bad.stderr)")
        let unknown = try CommandLineTests.run([Self.fixture], environment: ["STREAM_RENDER_OPTS": "--colour never"])
        #expect(unknown.status == 2, "\(unknown.stderr)")
    }

    @Test func completionScripts() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try CommandLineTests.run(["--generate-completion-script", shell])
            #expect(r.status == 0, "\(shell): \(r.stderr)")
            #expect(Self.text(r).contains("pace-words") && Self.text(r).contains("stream-render"), "\(shell)")
        }
    }

    @Test func idleTimeoutEndsAStalledStreamWithWhatArrived() async throws {
        let binary = CommandLineTests.binary.path
        // The input says something, then stalls for 5 s; the timeout is 0.5 s. The time
        // to exit is taken by the script (the test may be woken late on a loaded machine).
        let script = "start=$(date +%s%N); (printf 'said before the stall\\n'; sleep 5) | { '\(binary)' --format text --idle-timeout 0.5; echo \"exit=$? ms=$(( ($(date +%s%N) - start) / 1000000 ))\"; }"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let child = try Child(process)
        let outReader = PipeReader(out), errReader = PipeReader(err)
        // The output ends with the script, once the 5 s sleep is over.
        let text = await outReader.text()
        let stderr = await errReader.text()
        await child.exit()
        #expect(text.hasPrefix("said before the stall\n"), "\(text.debugDescription)")
        #expect(text.contains("exit=1"), "\(text.debugDescription)")
        #expect(stderr.contains("no input for 500 ms"), "\(stderr)")
        let ms = text.split(separator: "=").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(ms.map { $0 >= 500 && $0 < 4000 } == true, "exited after \(ms.map(String.init) ?? "?") ms: \(text.debugDescription)")
        let bad = try CommandLineTests.run(["--idle-timeout", "0"], stdin: Data("x".utf8))
        #expect(bad.status == 2)
    }

    @Test func statsSayModelFirstTokenRateAndStopReasonAndVerboseAddsCounters() throws {
        let plain = try CommandLineTests.run(["--stats", Self.fixture])
        for key in ["model: ", "time to first token: ", "tokens/s: ", "stop reason: end_turn", "usage: ", "events: ", "deltas: "] {
            #expect(plain.stderr.contains(key), "missing \(key) in \(plain.stderr)")
        }
        let ansi = try CommandLineTests.run(["--stats", "--output", "ansi", Self.fixture])
        #expect(!ansi.stderr.contains("live view:"), "internal counters only with --verbose: \(ansi.stderr)")
        let verbose = try CommandLineTests.run(["--stats", "--verbose", "--output", "ansi", Self.fixture])
        #expect(verbose.stderr.contains("live view: inline"), "\(verbose.stderr)")
        #if os(Linux)
        let peak = verbose.stderr.split(separator: "\n").first { $0.contains("peak memory: ") }
            .flatMap { Int($0.split(separator: " ").dropLast().last ?? "") }
        #expect(peak.map { $0 > 1024 && $0 < 1 << 20 } == true, "peak memory in KB: \(verbose.stderr)")
        #endif
    }

    @Test func saveCodeWritesEachFinishedBlockNamedByItsLanguage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sr-code-\(getpid())-\(UInt32.random(in: 0...UInt32.max))/nested")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let r = try CommandLineTests.run(["--save-code", directory.path, Self.fixture])
        #expect(r.status == 0, "\(r.stderr)")
        // The answer's fences, in order, with their code (read apart from the renderer).
        let expected = CodeBlockCommandLineTests.expected
        let extensions = ["swift": "swift", "python": "py", "bash": "sh", "json": "json", "rust": "rs", "typescript": "ts"]
        #expect(!expected.isEmpty)
        for (k, (language, code)) in expected.enumerated() {
            let name = "\(k + 1).\(extensions[language] ?? "txt")"
            let saved = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            #expect(saved == code, "\(name) (\(language))")
            #expect(r.stderr.contains("saved \(directory.path)/\(name)"), "\(r.stderr)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == expected.count, "\(files)")
        let notADirectory = try CommandLineTests.run(["--save-code", "/dev/null", Self.fixture])
        #expect(notADirectory.status == 2, "\(notADirectory.stderr)")
    }

    @Test func emptyStandardInputSaysHowToUseIt() throws {
        let r = try CommandLineTests.run([])
        #expect(r.status == 1)
        #expect(r.stderr.contains("empty input") && r.stderr.contains("usage: pipe a streaming answer in"), "\(r.stderr)")
        let file = try CommandLineTests.run(["/dev/null"])
        #expect(file.status == 1 && !file.stderr.contains("usage:"), "an empty file is only reported: \(file.stderr)")
    }

    @Test func helpIsGroupedByPurpose() throws {
        let help = Self.text(try CommandLineTests.run(["--help"]))
        for heading in ["INPUT:", "VIEW:", "MARKDOWN AND COLOUR:", "PACING:", "REPORTS AND EXTRAS:", "Examples:",
                        "anthropic-version: 2023-06-01", "\"stream\": true"] {
            #expect(help.contains(heading), "--help lacks \(heading)")
        }
        for flag in ["-w, --width", "-f, --format", "--no-color", "--idle-timeout", "--verbose", "--save-code", "STREAM_RENDER_OPTS",
                     "--generate-completion-script"] {
            #expect(help.contains(flag), "--help lacks \(flag)")
        }
    }
}
