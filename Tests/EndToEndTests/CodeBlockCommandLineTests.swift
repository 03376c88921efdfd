import Foundation
import Testing

/// Addressable code blocks from the command line: labels `N · language`, `--copy N|last`
/// through OSC 52 (checked in tmux with `set-clipboard on`), `--save-code` by the
/// same numbers, in lists and quotes too.
@Suite struct CodeBlockCommandLineTests: EndToEnd {
    static let fixture = CommandLineTests.fixture("sse/coding-answer.anthropic.sse")

    /// The fixture's fenced blocks (all top level, backtick fences), read apart from
    /// the renderer: language and code of each.
    static let expected: [(language: String, code: String)] = {
        let answer = String(decoding: CommandLineTests.data("answers/coding-answer.md"), as: UTF8.self)
        var blocks: [(String, String)] = []
        var open: String?
        var code = ""
        for line in answer.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let language = open {
                    blocks.append((language, code))
                    open = nil
                } else {
                    open = String(line.dropFirst(3))
                    code = ""
                }
            } else if open != nil {
                code += line + "\n"
            }
        }
        return blocks
    }()

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sr-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
    }

    /// Default flags in a tmux pane with `set-clipboard on`: the live view labels
    /// each block with its number, and `--copy` sets tmux's buffer to the block's
    /// exact source (byte for byte, through base64).
    @Test(.enabled(if: tmuxIsAvailable), arguments: ["last", "2"])
    func copyPutsTheBlocksExactSourceInTmuxsBuffer(_ choice: String) async throws {
        #expect(Self.expected.count == 6)
        let saved = Self.temporaryPath("buffer")
        defer { try? FileManager.default.removeItem(atPath: saved) }
        let binary = CommandLineTests.binary.path
        let rows = try await Self.capture("tmux set -g set-clipboard on; '\(binary)' --copy \(choice) '\(Self.fixture)'",
                                          width: 100, height: 30, after: { "\($0) save-buffer '\(saved)'" })
        let number = choice == "last" ? 6 : Int(choice)!
        let block = Self.expected[number - 1]
        let buffer = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(buffer == block.code)
        let lines = block.code.filter { $0 == "\n" }.count
        #expect(rows.contains { $0.contains("copied code block \(number) (\(block.language), \(lines) lines) to the clipboard") }, "\(rows)")
        for (k, (language, _)) in Self.expected.enumerated() {
            #expect(rows.contains("\(k + 1) · \(language)"), "label of block \(k + 1)")
        }
    }

    @Test func copyNeverWritesIntoAPipeAndSaysWhatItCouldNotCopy() throws {
        let piped = try CommandLineTests.run(["--copy", "last", Self.fixture])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(!String(decoding: piped.stdout, as: UTF8.self).contains("\u{1B}]52"))
        let missing = try CommandLineTests.run(["--copy", "9", Self.fixture])
        #expect(missing.status == 0)
        #expect(missing.stderr.contains("--copy 9: the answer has 6 code blocks; nothing copied"), "\(missing.stderr)")
        let none = try CommandLineTests.run(["--copy", "last"], stdin: Data("no code here\n".utf8))
        #expect(none.stderr.contains("--copy last: the answer has no code blocks; nothing copied"), "\(none.stderr)")
        for bad in ["0", "first", "-1", ""] {
            let r = try CommandLineTests.run(["--copy", bad, Self.fixture])
            #expect(r.status == 2, "--copy \(bad)")
        }
        let help = try CommandLineTests.run(["--help"])
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("--copy <n|last>"))
    }

    /// Blocks in list items and quotes count: files are named by the numbers shown.
    @Test func saveCodeNamesFilesByTheNumbersTheLabelsShow() throws {
        let directory = Self.temporaryPath("code")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let answer = "Steps:\n\n1. Install:\n\n   ```bash\n   pip install x\n   ```\n2. Quoted:\n\n> ```python\n> print(1)\n> ```\n\n```\nplain\n```\n"
        let r = try CommandLineTests.run(["--save-code", directory, "--width", "60"], stdin: Data(answer.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        let shown = String(decoding: r.stdout, as: UTF8.self).components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(shown.contains("1 · bash") && shown.contains("│ 2 · python") && shown.contains("3"), "\(shown)")
        func file(_ name: String) -> String? { try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8) }
        #expect(file("1.sh") == "pip install x\n")
        #expect(file("2.py") == "print(1)\n")
        #expect(file("3.txt") == "plain\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 3)
    }
}

/// Code lines copy exactly from the live view: a line of printable ASCII wider than
/// the pane is written whole and wrapped by the terminal, so `tmux capture-pane -J` (or
/// a selection) gives the source line byte for byte, through resizes while it is
/// revealed. A line with wide or ambiguous characters keeps the `↪` wrap (a terminal
/// measuring them otherwise would move every row after it).
@Suite(.enabled(if: tmuxIsAvailable)) struct CodeLineCopyTests: EndToEnd {
    /// A 200-column shell line, and one with CJK and an emoji, in a fenced block
    /// inside a list item.
    static let lines = [
        "curl -sS -X POST \"$API_URL/v1/messages\" -H \"content-type: application/json\" -H \"x-api-key: $KEY\" "
            + "--data '{\"model\": \"m\", \"max_tokens\": 1024, \"stream\": true}' --max-time 30 | jq -r '.content[0].text' > out.md",
        "printf '%s\\n' \"日本語のテキスト、中文字符和한국어 👩‍👩‍👧 mixed with ASCII to cross the edge at odd columns\" | tee out.txt",
    ]
    static var answer: String {
        "Steps:\n\n1. Run it:\n\n   ```bash\n" + lines.map { "   " + $0 + "\n" }.joined() + "   ```\n\nDone.\n"
    }

    @Test(arguments: ["", "resize"])
    func aLongCodeLineCopiesAsTheSourceLine(_ mode: String) async throws {
        #expect(Self.lines[0].count >= 200)
        let file = CodeBlockCommandLineTests.temporaryPath("answer") + ".md"
        try Self.answer.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let binary = CommandLineTests.binary.path
        // Streamed slowly, default flags (the pacer reveals it over a few seconds).
        let command = "while IFS= read -r l; do printf '%s\\n' \"$l\"; sleep 0.2; done < '\(file)' | '\(binary)'"
        let joined = try await Self.capture(command, width: 70, height: 12, during: { tmux in
            mode == "resize" ? "sleep 1.3; \(tmux) resize-window -t t -x 50; sleep 0.6; \(tmux) resize-window -t t -x 90; sleep 0.5; \(tmux) resize-window -t t -x 61" : ""
        }, joinWrapped: true)
        // tmux's -J keeps the cleared cells at the end of a row that held longer text
        // before as spaces: the line's own bytes are compared, trailing blanks aside.
        let rows = joined.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(rows.contains("   " + Self.lines[0]), "\(mode): the shell line not in\n\(joined.joined(separator: "\n"))")
        // The other line: word-wrapped rows, `↪` before each continuation.
        let start = joined.firstIndex { $0.hasPrefix("   printf") }
        #expect(start.map { joined[$0 + 1].hasPrefix("   ↪ ") } == true, "\(joined)")
        let trimmed = joined.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(trimmed.contains("Done.") && trimmed.contains("1 · bash"))
    }
}
