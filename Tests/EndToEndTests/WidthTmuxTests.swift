import Foundation
import Testing

/// Widths as the terminal draws them (issue 26): with the default flags, a table of
/// emoji ZWJ sequences, flags, VS16 and VS15 forms, Indic clusters and ambiguous
/// characters is aligned in tmux. The oracle is tmux itself: each drawn row is written
/// again in a wide pane and tmux's cursor position report says how wide it is.
@Suite(.enabled(if: tmuxIsAvailable)) struct WidthTmuxTests: EndToEnd {
    /// (No four-person family: tmux 3.3 keeps at most about 20 bytes a cell, so its
    /// capture of 👨‍👩‍👧‍👦 loses the last scalars and could not be measured again.)
    static let clusters = ["👩‍💻", "👨‍👩‍👧", "❤️‍🔥", "🏳️‍🌈", "🇫🇷", "🇯🇵", "❤️", "✔️", "1️⃣", "⌚︎", "क्षि", "கொ", "±", "…", "中文", "😀"]

    @Test func anEmojiTableIsAlignedInTmuxWithTheDefaultFlags() async throws {
        let answer = "| Glyph | Name | Note |\n|---|---|---|\n" + Self.clusters.enumerated().map { "| \($1) | item \($0) | ok |\n" }.joined()
            + "\nEnd.\n"
        let file = CodeBlockCommandLineTests.temporaryPath("emoji") + ".md"
        let rowsFile = file + ".rows", widthsFile = file + ".widths"
        try answer.write(toFile: file, atomically: true, encoding: .utf8)
        defer { for path in [file, rowsFile, widthsFile] { try? FileManager.default.removeItem(atPath: path) } }
        let binary = CommandLineTests.binary.path
        let rows = try await Self.capture("cat '\(file)' | '\(binary)'", width: 60, height: 30)
        let table = rows.filter { ["│", "┌", "├", "└"].contains(String($0.prefix(1))) }
        #expect(table.count == Self.clusters.count + 4, "\(rows.joined(separator: "\n"))")
        #expect(table.contains { $0.contains("👩") } && table.contains { $0.contains("क्षि") })
        // Each row's width as tmux measures it: written alone in a 200-column pane, then
        // a cursor position report (the column after it).
        try table.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
            .appending("\n").write(toFile: rowsFile, atomically: true, encoding: .utf8)
        let measure = "bash -c 'while IFS= read -r l; do printf \"\\r\\033[K%s\\033[6n\" \"$l\"; "
            + "IFS=\"[;\" read -rs -d R _ _ c < /dev/tty; echo \"$c\" >> \(widthsFile); done < \(rowsFile)'"
        _ = try await Self.capture(measure, width: 200, height: 10)
        let widths = (try? String(contentsOfFile: widthsFile, encoding: .utf8))?.split(separator: "\n").compactMap { Int($0) } ?? []
        #expect(widths.count == table.count && Set(widths).count == 1, "tmux's widths of the rows: \(widths)\n\(table.joined(separator: "\n"))")
    }
}
