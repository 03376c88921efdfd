import Foundation
import StreamRender

extension Corpus {
    /// The highlighter's test corpus of `language` (Tests/StreamRenderTests/Resources/highlight).
    public static func highlightCorpus(_ language: String) -> String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // BenchmarkSupport
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // the repo
        let url = root.appendingPathComponent("Tests/StreamRenderTests/Resources/highlight/\(language).corpus")
        return (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// One pass of the highlighter over `text`: tokens (a checksum).
    @inline(never)
    public static func highlight(_ text: String, _ language: HighlightLanguage) -> Int {
        Highlighter.tokens(in: text, language: language).count
    }

    /// A fence of `lines` lines in `language`: the corpus's first 100 lines, repeated
    /// (so lines 701-800 are lines 1-100 again, and their costs compare).
    public static func codeFence(_ language: String, corpus: String, lines: Int) -> String {
        var source = corpus.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if source.last == "" { source.removeLast() }
        // A corpus line that would close the fence would end it early.
        source = Array(source.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("```") }.prefix(100))
        return "```\(language)\n" + (0..<lines).map { source[$0 % source.count] + "\n" }.joined() + "```\n"
    }
}
