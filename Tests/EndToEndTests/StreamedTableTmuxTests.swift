import Foundation
import Testing

/// A table taller than the screen streams row by row with the default flags
/// (issue 26): its rows reach the scrollback before the table ends, each row is
/// drawn once, and what is left equals the plain output.
@Suite(.enabled(if: tmuxIsAvailable)) struct StreamedTableTmuxTests: EndToEnd {
    static let answer: String = {
        var text = "Benchmarks by model:\n\n| # | Model | Latency | Notes |\n|--:|:------|--------:|-------|\n"
        for k in 1...60 {
            text += "| \(k) | model-\(k) | \(k * 13) ms | \(k % 5 == 0 ? "**fast** path, `cached`" : "ok") |\n"
        }
        return text + "\nThat is all.\n"
    }()

    @Test func aSixtyRowTableStreamsIntoATwentyRowPaneRowByRow() async throws {
        let file = CodeBlockCommandLineTests.temporaryPath("table") + ".md"
        let middle = file + ".middle"
        try Self.answer.write(toFile: file, atomically: true, encoding: .utf8)
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: middle)
        }
        let binary = CommandLineTests.binary.path
        // A line every 60 ms (the table takes about 4 s); the scrollback is read at 2.5 s.
        let command = "while IFS= read -r l; do printf '%s\\n' \"$l\"; sleep 0.06; done < '\(file)' | '\(binary)'"
        let rows = try await Self.capture(command, width: 60, height: 20, during: { tmux in
            "sleep 2.5; \(tmux) capture-pane -p -S - -E -1 -t t > '\(middle)'"
        })
        func trimmed(_ rows: [String]) -> [String] { rows.map { String($0.reversed().drop { $0 == " " }.reversed()) } }
        // The row of model k (the number right-aligned in its column).
        func isRow(_ k: Int) -> (String) -> Bool { { $0.hasPrefix("│") && $0.contains(" \(k) │ model-\(k) ") } }
        // Mid-stream: the scrollback holds the table's top and its first rows, not its end.
        let history = trimmed(String(decoding: FileManager.default.contents(atPath: middle) ?? Data(), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        #expect(history.contains { $0.hasPrefix("┌") } && history.contains(where: isRow(5)),
                "no table rows in the scrollback mid-stream:\n\(history.joined(separator: "\n"))")
        #expect(!history.contains { $0.hasPrefix("└") } && !history.contains(where: isRow(60)), "the table had ended")
        // At the end: each row once, and the plain output exactly.
        let final = trimmed(rows)
        for k in 1...60 { #expect(final.filter(isRow(k)).count == 1, "row \(k)") }
        let plain = try Self.run([file, "--width", "60"])
        var expected = trimmed(String(decoding: plain.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        while expected.last == "" { expected.removeLast() }
        #expect(final == expected, "\(final.joined(separator: "\n"))")
    }
}
