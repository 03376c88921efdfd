import Foundation
import StreamRender
import Testing

/// `stream-render tokens` and highlighted fences, run as a user would.
@Suite struct HighlightCommandLineTests: EndToEnd {
    typealias CLI = CommandLineTests

    @Test func tokensPrintsStartEndKindForAFileAndForStandardInput() throws {
        let path = CLI.fixture("highlight/json.corpus")
        let text = String(decoding: CLI.data("highlight/json.corpus"), as: UTF8.self)
        let want = Highlighter.tokens(in: text, language: HighlightLanguage.named("json")!).map(\.description)
        let fromFile = try CLI.run(["tokens", "--language", "json", path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        let lines = String(decoding: fromFile.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == want && lines.count > 100)
        #expect(lines.allSatisfy { $0.range(of: #"^[0-9]+ [0-9]+ [a-z-]+$"#, options: .regularExpression) != nil })
        let fromStdin = try CLI.run(["tokens", "--language", "JSONC"], stdin: Data(text.utf8))
        #expect(fromStdin.status == 0 && fromStdin.stdout == fromFile.stdout)
    }

    @Test func tokensRejectsAnUnknownLanguageAndAMissingFile() throws {
        let unknown = try CLI.run(["tokens", "--language", "cobol-9000"], stdin: Data("x".utf8))
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown language") && unknown.stderr.contains("swift"), "\(unknown.stderr)")
        let missing = try CLI.run(["tokens", "--language", "swift", "/nonexistent/file.swift"])
        #expect(missing.status == 3 && missing.stderr.contains("cannot open"), "\(missing.stderr)")
        let help = try CLI.run(["tokens", "--help"])
        #expect(help.status == 0 && String(decoding: help.stdout, as: UTF8.self).contains("start end kind"))
        let rootHelp = try CLI.run(["--help"])
        #expect(String(decoding: rootHelp.stdout, as: UTF8.self).contains("tokens"))
    }

    /// A fence in the live view is coloured by token; with NO_COLOR (the defaults
    /// otherwise) only attributes: the keyword bold, no colour at all.
    @Test func fencesAreHighlightedAndNoColorKeepsOnlyAttributes() throws {
        let input = Data("Code:\n\n```python\ndef f(x):\n    return \"s\" # c\n```\n".utf8)
        // Unpaced: the bytes are searched for whole words, which the pacer would split
        // across frames (PacingCommandLineTests and the tmux tests run the defaults).
        let base = ["--format", "text", "--output", "ansi", "--width", "40", "--height", "10", "--pace", "off"]
        let coloured = try CLI.run(base + ["--color", "always"], stdin: input, environment: ["NO_COLOR": "", "COLORTERM": "truecolor"])
        let out = String(decoding: coloured.stdout, as: UTF8.self)
        let keyword = CodeTheme.dark[.keyword].foreground
        guard case .rgb(let r, let g, let b) = keyword else { Issue.record("not rgb"); return }
        #expect(out.contains("38;2;\(r);\(g);\(b)"), "\(out.debugDescription)")
        let plain = try CLI.run(base, stdin: input, environment: ["NO_COLOR": "1"])
        let mono = String(decoding: plain.stdout, as: UTF8.self)
        #expect(mono.range(of: #"\u001B\[[0-9;]*(3[0-7]|38;|9[0-7])[;m]"#, options: .regularExpression) == nil, "\(mono.debugDescription)")
        #expect(mono.contains("def") && mono.contains("return"))
        #expect(mono.range(of: #"\u001B\[[0-9;]*1m(def|return)"#, options: .regularExpression) != nil, "keywords bold: \(mono.debugDescription)")
        // Styled lines into a pipe are coloured too (plain text, which shows no style,
        // skips the lexing).
        let piped = try CLI.run(["--format", "text", "--width", "40", "--color", "always"], stdin: input,
                                environment: ["NO_COLOR": "", "COLORTERM": "truecolor"])
        #expect(String(decoding: piped.stdout, as: UTF8.self).contains("38;2;\(r);\(g);\(b)"))
    }
}
